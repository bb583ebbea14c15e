// One build in the build sandbox: what `arena contest build` does for each submission, and what a git
// SPRT (arena/git) does for each commit, so both builds run under the same jail and limits.
#pragma once

#include <filesystem>
#include <string>

#include "arena/config/config.h"

namespace kalah::arena::contest {

struct BuildResult {
  bool ok = false;
  std::string reason;  // why not
  double seconds = 0;
};

// Runs `command` with /bin/sh in a copy of `source` inside the build sandbox (`limits.build_sandbox`,
// or a private temporary folder with "none"), with the limits `build_timeout_s`, `build_memory_mb` and
// `build_disk_mb` of `limits`, then copies the folder to `target` (replaced), read-only. The output is
// appended to `log`. Only the build keys of `limits` are read.
BuildResult run_build(const SubmissionsConfig& limits, const std::filesystem::path& source,
                      const std::filesystem::path& target, const std::string& command,
                      const std::filesystem::path& log);

}  // namespace kalah::arena::contest
