// One build in the build sandbox: what `arena contest build` does for each submission (arena/contest), and
// what a git SPRT does for each commit (arena/git), so that both builds run under the same jail and limits.
// Everything a build touches is untrusted: its folder is walked and copied without following a link, opening
// a FIFO or device, or reading past the disk limit (referee/system/untrusted_files.h).
#pragma once

#include <cstdint>

#include <filesystem>
#include <optional>
#include <string>

#include "arena/sandbox_build/build_limits.h"
#include "referee/system/untrusted_files.h"

namespace kalah::sandbox_build {

// What the disk limit counts for each file, folder or link beside the files' bytes, so that a million empty
// files count too.
inline constexpr std::uintmax_t kBytesPerEntry = 4096;

// A build log is read back (its tail on a failure, a copy into the results) as an untrusted file: a regular
// file of at most this size, never through a link (the build may have written beside it).
inline constexpr std::uintmax_t kMaxBuildLogBytes = std::uintmax_t{16} << 20;

// `limits.disk_mb` in bytes.
std::uintmax_t disk_limit_bytes(const BuildLimits& limits);

// The bounds of a walk over a build's folder (its source, its work, its result): the disk limit's bytes, and
// as many entries as would fill it at kBytesPerEntry each.
system::TreeBounds tree_bounds(const BuildLimits& limits);

struct BuildResult {
  bool ok = false;
  std::string reason;  // why not
  double seconds = 0;
};

// Runs `command` with /bin/sh in a copy of `source` inside the build sandbox (`limits.sandbox`, or a private
// temporary folder with "none"), within `limits`' time, memory and disk, then puts the built folder at
// `target` (install_built_tree). The output is appended to `log`.
BuildResult run_build(const BuildLimits& limits, const std::filesystem::path& source,
                      const std::filesystem::path& target, const std::string& command,
                      const std::filesystem::path& log);

// Puts the folder `from` at `target` (replaced): read-only, owned by the entries' own unprivileged uid when
// the arena is root (kEntriesOwnerUid), without set-uid bits, special files or followed links, within
// tree_bounds(limits). What is left out is said in `log`. An error text when it cannot.
std::optional<std::string> install_built_tree(const std::filesystem::path& from, const std::filesystem::path& target,
                                              const BuildLimits& limits, const std::filesystem::path& log);

}  // namespace kalah::sandbox_build
