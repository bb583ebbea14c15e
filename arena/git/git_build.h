// One commit of a repository as an engine's folder: the ref resolved by git, the commit's files
// checked out into a build cache keyed by commit, and built there once.
//
// The checkout is `git archive` of the commit, unpacked by tar, rather than `git worktree add`: it
// writes nothing into the repository (no .git/worktrees entry to go stale when the cache is cleaned,
// and the repository may be read-only or a shallow CI clone), the cache folder holds only the commit's
// files (no .git, so the build cannot reach the repository), and a cache entry never changes once
// built. The build runs through arena/contest's run_build, with or without its sandbox.
#pragma once

#include <cstdint>

#include <filesystem>
#include <functional>
#include <string>

#include "arena/config/config.h"
#include "referee/rules/expected.h"

namespace kalah::arena::git {

// A build log is read back (its tail on a failure, the copy into the results) as an untrusted file: a regular
// file of at most this size, never through a link (the build may have written beside it).
inline constexpr std::uintmax_t kMaxBuildLogBytes = std::uintmax_t{16} << 20;

using Say = std::function<void(const std::string&)>;

// The full commit hash `ref` names in `repo`: `git rev-parse --verify REF^{commit}`, with the ref after
// --end-of-options so that it is never read as an option. Errors name the ref and quote git.
Expected<std::string> resolve_commit(const std::filesystem::path& repo, const std::string& ref);

// A commit's folder in the cache.
struct BuiltCommit {
  std::filesystem::path tree;  // the built files: the engine's working folder (read-only)
  std::filesystem::path log;   // the build's output
  double seconds = 0;          // how long the build that made `tree` took
  bool built_now = false;      // false: found built in the cache
};

// The files under `worktrees`/<commit>/ (docs/SPRT.md, "The build cache"): tree/ the built files,
// build.log, and `built`, the marker written only once a build succeeded, which names the build
// command and sandbox. A folder with a marker for the same command and sandbox is used as it is;
// anything else is checked out and built again. Another process preparing the same commit is waited for
// (a lock file in the folder). A failed build is an error holding the last lines of its log.
Expected<BuiltCommit> build_commit(const GitSprtConfig& git, const std::string& commit, const Say& say);

// The last `lines` lines of `text`.
std::string tail_lines(const std::string& text, int lines);

}  // namespace kalah::arena::git
