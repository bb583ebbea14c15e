// One commit of a repository as an engine's folder: the ref resolved by git, the commit's files
// checked out into a build cache keyed by commit, and built there once.
//
// The checkout is `git archive` of the commit, unpacked by tar, rather than `git worktree add`: it
// writes nothing into the repository (no .git/worktrees entry to go stale when the cache is cleaned,
// and the repository may be read-only or a shallow CI clone), and the cache folder holds only the
// commit's files (no .git, so the build cannot reach the repository). The repository is hostile input: git
// reads its objects through a clean git folder of the arena's, so nothing its config or attributes name
// (filter drivers, fsmonitor, hooks, export-subst) runs or changes a file, and the commit's size is checked
// against build_disk_mb before any file is written. The build runs through arena/sandbox_build's run_build, with
// or without its sandbox; each built tree is sealed with a digest, checked before every use.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "arena/config/config.h"
#include "referee/rules/expected.h"

namespace kalah::arena::git {

using Say = std::function<void(const std::string&)>;

// The full commit hash `ref` names in `repo`: `git rev-parse --verify REF^{commit}`, with the ref after
// --end-of-options so that it is never read as an option. Errors name the ref and quote git.
Expected<std::string> resolve_commit(const std::filesystem::path& repo, const std::string& ref);

// A commit's folder in the cache.
struct BuiltCommit {
  std::filesystem::path tree;  // the built files: the engine's working folder (read-only)
  std::filesystem::path log;   // the build's output
  std::string seal;            // tree_seal() of `tree` when it was built or last checked
  double seconds = 0;          // how long the build that made `tree` took
  bool built_now = false;      // false: found built in the cache
};

// The seal of a built tree: the SHA-256 of every entry's path, kind, permission bits and content (a link's
// target, never followed), in path order, read as untrusted files within build_disk_mb. Errors: a tree that
// cannot be read or is larger.
Expected<std::string> tree_seal(const std::filesystem::path& tree, const GitSprtConfig& git);

enum class CacheUse {
  Take,     // a cache entry whose marker and seal match is used as it is
  Rebuild,  // built again whatever the cache holds (its tree changed under us)
};

// The files under `worktrees`/<commit>/ (docs/SPRT.md, "From git"): tree/ the built files, build.log, and
// `built`, the marker written only once a build succeeded, which names the build command and sandbox and
// holds the tree's seal. A folder whose marker names the same command and sandbox and whose tree still has
// its seal is used as it is; anything else is checked out and built again. Another process preparing the
// same commit is waited for (a lock file in the folder). A failed build is an error holding the last lines
// of its log; a refused or failed checkout leaves none of the commit's files.
Expected<BuiltCommit> build_commit(const GitSprtConfig& git, const std::string& commit, const Say& say,
                                   CacheUse use = CacheUse::Take);

// The last `lines` lines of `text`.
std::string tail_lines(const std::string& text, int lines);

}  // namespace kalah::arena::git
