#include "arena/git/git_build.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include <fmt/core.h>

#include "arena/contest/build.h"
#include "referee/process/tool_run.h"
#include "referee/system/clean_text.h"
#include "referee/system/directory_lock.h"
#include "referee/system/executable.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::arena::git {
namespace fs = std::filesystem;

namespace {

constexpr const char* kMarker = "built";
constexpr auto kToolTimeout = std::chrono::minutes(10);  // a git archive of a large repository, its tar

// Runs `program args...` in `dir` (through referee/process, never a shell) and returns its stdout. An
// error when it cannot start, fails or takes too long, with the last of what it wrote to stderr.
Expected<std::string> run_tool(const std::string& program, const std::vector<std::string>& args, const fs::path& dir) {
  Expected<fs::path> found = system::find_executable(program, system::path_variable(), fs::current_path());
  if (!found) return Error{program + ": " + found.error()};
  process::SpawnSpec spec;
  spec.command = found->string();
  spec.args = args;
  spec.working_dir = dir.string();
  spec.relay_stderr = true;
  spec.stderr_tail_bytes = std::size_t{4} << 10;
  process::ToolRun run = process::run_tool(spec, process::Clock::now() + kToolTimeout);
  const std::string said = system::clean_text(run.err_tail, /*keep_newlines=*/false);
  switch (run.outcome) {
    case process::ToolRun::Outcome::CouldNotStart: return Error{program + ": cannot start: " + run.detail};
    case process::ToolRun::Outcome::Timeout: return Error{fmt::format("{} {} did not finish", program, args.front())};
    case process::ToolRun::Outcome::Unreadable:
      return Error{fmt::format("{} {}: {}", program, args.front(), run.detail)};
    case process::ToolRun::Outcome::Exited: break;
  }
  if (!run.succeeded())
    return Error{fmt::format("{} {} failed ({}){}{}", program, args.front(), run.exit->describe(),
                             said.empty() ? "" : ": ", said)};
  return std::move(run.out);
}

// The marker's text: what the tree was built with, and how long it took (the last line).
std::string marker_key(const GitSprtConfig& git, const std::string& commit) {
  return fmt::format("commit {}\nbuild {}\nsandbox {}\n", commit, system::clean_text(git.build, false),
                     to_string(git.build_limits.build_sandbox));
}

bool is_commit_hash(const std::string& s) {
  return s.size() == 40 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// The commit's files into `dir`/src (replaced): git archive to a tar file, unpacked by tar.
std::optional<std::string> check_out(const GitSprtConfig& git, const std::string& commit, const fs::path& dir) {
  const fs::path src = dir / "src", tar = dir / "src.tar";
  if (auto error = system::remove_tree(src)) return error;
  std::error_code ec;
  fs::create_directories(src, ec);
  if (ec) return "cannot create " + src.string() + ": " + ec.message();
  // The commit is a full hash (checked), so it cannot be read as an option.
  Expected<std::string> archived =
      run_tool("git", {"-C", git.repo.string(), "archive", "--format=tar", "--output=" + tar.string(), commit}, dir);
  if (!archived) return archived.error();
  Expected<std::string> unpacked =
      run_tool("tar", {"-x", "--no-same-owner", "-f", tar.string(), "-C", src.string()}, dir);
  fs::remove(tar, ec);
  if (!unpacked) return unpacked.error();
  return std::nullopt;
}

}  // namespace

std::string tail_lines(const std::string& text, int lines) {
  std::size_t at = text.size();
  if (at > 0 && text.back() == '\n') --at;
  for (int n = 0; n < lines && at != std::string::npos && at > 0; ++n) at = text.rfind('\n', at - 1);
  return at == std::string::npos || at == 0 ? text : text.substr(at + 1);
}

Expected<std::string> resolve_commit(const fs::path& repo, const std::string& ref) {
  std::string object = ref;
  object.append("^{commit}");
  Expected<std::string> out =
      run_tool("git", {"-C", repo.string(), "rev-parse", "--verify", "--quiet", "--end-of-options", object}, repo);
  if (!out) return Error{fmt::format("'{}' does not name a commit of {} ({})", ref, repo.string(), out.error())};
  std::string hash = *out;
  while (!hash.empty() && (hash.back() == '\n' || hash.back() == ' ')) hash.pop_back();
  if (!is_commit_hash(hash))
    return Error{fmt::format("git rev-parse '{}' answered '{}', not a commit hash", ref, hash)};
  return hash;
}

Expected<BuiltCommit> build_commit(const GitSprtConfig& git, const std::string& commit, const Say& say) {
  assert(is_commit_hash(commit));
  const fs::path dir = git.worktrees / commit;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{"cannot create the build cache folder " + dir.string() + ": " + ec.message()};
  BuiltCommit out;
  out.tree = dir / "tree";
  out.log = dir / "build.log";
  // One process builds a commit; another that wants it waits here, then finds the marker.
  Expected<system::DirectoryLock> lock = system::DirectoryLock::acquire_waiting(dir);
  if (!lock) return Error{lock.error()};
  const std::string key = marker_key(git, commit);
  std::string marker;
  if (!system::read_file(dir / kMarker, marker) && marker.starts_with(key) && fs::is_directory(out.tree, ec)) {
    std::sscanf(marker.c_str() + key.size(), "seconds %lf", &out.seconds);
    return out;
  }
  fs::remove(dir / kMarker, ec);
  if (auto error = system::remove_tree(out.tree)) return Error{*error};
  if (auto error = system::write_own_file(out.log, "")) return Error{*error};
  say(fmt::format("checking out {} into {}", commit.substr(0, 12), dir.string()));
  if (auto error = check_out(git, commit, dir)) return Error{"cannot check out " + commit + ": " + *error};
  say(git.build.empty() ? std::string("nothing to build (no build command)")
                        : fmt::format("building {}: {}", commit.substr(0, 12), git.build));
  const contest::BuildResult built =
      contest::run_build(git.build_limits, dir / "src", out.tree, git.build.empty() ? ":" : git.build, out.log);
  if (!built.ok) {
    const Expected<std::string> log = system::read_regular_file(out.log, kMaxBuildLogBytes);
    return Error{fmt::format("the build of {} failed: {}\nthe last lines of {}:\n{}", commit.substr(0, 12),
                             built.reason, out.log.string(), log ? tail_lines(*log, 20) : "(" + log.error() + ")")};
  }
  system::remove_tree(dir / "src");
  out.seconds = built.seconds;
  out.built_now = true;
  if (auto error = system::write_file_atomically(dir / kMarker, key + fmt::format("seconds {}\n", built.seconds)))
    return Error{*error};
  return out;
}

}  // namespace kalah::arena::git
