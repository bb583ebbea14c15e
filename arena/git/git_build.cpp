#include "arena/git/git_build.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include <fmt/core.h>

#include "arena/integrity/sha256.h"
#include "arena/sandbox_build/sandbox_build.h"
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
constexpr std::uintmax_t kMaxMarkerBytes = 64 << 10;
using sandbox_build::kBytesPerEntry;

// Every git and tar the arena runs gets this environment and nothing of the organiser's: no system or
// global git config and attributes (a global git-lfs filter would otherwise run on a commit's files), no
// TAR_OPTIONS, no prompt. `home` is an empty folder of ours.
std::vector<std::string> tool_environment(const fs::path& home) {
  return {"PATH=/usr/local/bin:/usr/bin:/bin",
          "HOME=" + home.string(),
          "LANG=C",
          "LC_ALL=C",
          "GIT_CONFIG_NOSYSTEM=1",
          "GIT_CONFIG_GLOBAL=/dev/null",
          "GIT_ATTR_NOSYSTEM=1",
          "GIT_TERMINAL_PROMPT=0",
          "GIT_NO_REPLACE_OBJECTS=1",
          "GIT_OPTIONAL_LOCKS=0",
          "GIT_PAGER=cat"};
}

// What a repository's own config could make git run, switched off on git's command line (which wins over
// the repository's .git/config): hooks, the fsmonitor daemon, and every transport (a partial clone's lazy
// fetch would start `core.sshCommand` or `remote.*.uploadpack`).
std::vector<std::string> hardened_git(const fs::path& repo, std::vector<std::string> args) {
  std::vector<std::string> out = {
      "--no-pager",           "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false",           "-c",
      "protocol.allow=never", "-c", "core.sshCommand=false",    "-c", "safe.directory=" + repo.string()};
  out.insert(out.end(), std::make_move_iterator(args.begin()), std::make_move_iterator(args.end()));
  return out;
}

// Runs `program args...` in `dir` (through referee/process, never a shell) with `env` (none: the arena's)
// and returns its stdout. An error when it cannot start, fails or takes too long, with the last of what it
// wrote to stderr.
Expected<std::string> run_tool(const std::string& program, const std::vector<std::string>& args, const fs::path& dir,
                               std::optional<std::vector<std::string>> env) {
  Expected<fs::path> found = system::find_executable(program, system::path_variable(), fs::current_path());
  if (!found) return Error{program + ": " + found.error()};
  process::SpawnSpec spec;
  spec.command = found->string();
  spec.args = args;
  spec.working_dir = dir.string();
  spec.relay_stderr = true;
  spec.stderr_tail_bytes = std::size_t{4} << 10;
  spec.environment = std::move(env);
  process::ToolRun run = process::run_tool(spec, process::Clock::now() + kToolTimeout);
  const std::string said = system::clean_text(run.err_tail, /*keep_newlines=*/false);
  // The subcommand, for messages: the first word that is not one of hardened_git's options.
  std::string what = args.empty() ? std::string() : args.front();
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-c" || args[i] == "-C") {
      ++i;
    } else if (!args[i].starts_with("-")) {
      what = args[i];
      break;
    }
  }
  switch (run.outcome) {
    case process::ToolRun::Outcome::CouldNotStart: return Error{program + ": cannot start: " + run.detail};
    case process::ToolRun::Outcome::Timeout: return Error{fmt::format("{} {} did not finish", program, what)};
    case process::ToolRun::Outcome::Unreadable: return Error{fmt::format("{} {}: {}", program, what, run.detail)};
    case process::ToolRun::Outcome::Exited: break;
  }
  if (!run.succeeded())
    return Error{
        fmt::format("{} {} failed ({}){}{}", program, what, run.exit->describe(), said.empty() ? "" : ": ", said)};
  return std::move(run.out);
}

// git in the repository the operator named: to resolve a ref and find its objects, nothing else.
Expected<std::string> repo_git(const fs::path& repo, std::vector<std::string> args) {
  std::vector<std::string> all = {"-C", repo.string()};
  for (std::string& a : hardened_git(repo, std::move(args))) all.push_back(std::move(a));
  return run_tool("git", all, repo, tool_environment("/nonexistent"));
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// The marker's text: what the tree was built with (its first lines), then the seal and how long the build
// took.
std::string marker_key(const GitSprtConfig& git, const std::string& commit) {
  return fmt::format("commit {}\nbuild {}\nsandbox {}\n", commit, system::clean_text(git.build, false),
                     to_string(git.build_limits.sandbox));
}

bool is_commit_hash(const std::string& s) {
  return s.size() == 40 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A clean git folder of our own that reads the repository's objects (GIT_OBJECT_DIRECTORY) and nothing
// else of it: not its config (filter drivers, fsmonitor, hooks), not its info/attributes. Its own
// info/attributes, which take precedence over a commit's .gitattributes, unset every attribute that
// changes a file on its way out (filter, text and eol conversion, ident, export-subst, export-ignore).
std::optional<std::string> make_clean_git_dir(const fs::path& dir) {
  if (auto error = system::remove_tree(dir)) return error;
  std::error_code ec;
  fs::create_directories(dir / "refs", ec);
  if (!ec) fs::create_directories(dir / "info", ec);
  if (!ec) fs::create_directories(dir / "home", ec);
  if (ec) return "cannot create " + dir.string() + ": " + ec.message();
  if (auto error = system::write_own_file(dir / "HEAD", "ref: refs/heads/none\n")) return error;
  if (auto error = system::write_own_file(dir / "config", "[core]\n\trepositoryformatversion = 0\n\tbare = true\n"))
    return error;
  return system::write_own_file(dir / "info" / "attributes",
                                "* -text -eol -crlf -filter -ident -export-subst -export-ignore "
                                "-working-tree-encoding -delta\n");
}

// How many bytes the commit's files take as the build's disk limit counts them: each blob's size, and a
// block for each file, folder, link and submodule. Read from `git ls-tree -r -t -l`, which writes nothing.
Expected<std::uintmax_t> checkout_size(const std::string& ls_tree, const std::string& commit) {
  std::uintmax_t bytes = 0;
  std::size_t at = 0;
  while (at < ls_tree.size()) {
    std::size_t end = ls_tree.find('\n', at);
    if (end == std::string::npos) end = ls_tree.size();
    const std::string line = ls_tree.substr(at, end - at);
    at = end + 1;
    if (line.empty()) continue;
    // "<mode> SP <type> SP <object> SP+ <size or ->\t<path>"
    const std::size_t tab = line.find('\t');
    const std::size_t space = line.rfind(' ', tab);
    if (tab == std::string::npos || space == std::string::npos)
      return Error{fmt::format("git ls-tree {}: an unexpected line '{}'", commit.substr(0, 12),
                               system::clean_text(line.substr(0, 200), false))};
    const std::string size = line.substr(space + 1, tab - space - 1);
    bytes += kBytesPerEntry;
    if (size == "-") continue;
    std::uintmax_t n = 0;
    const auto parsed = std::from_chars(size.data(), size.data() + size.size(), n);
    if (parsed.ec != std::errc() || parsed.ptr != size.data() + size.size())
      return Error{
          fmt::format("git ls-tree {}: '{}' is not a size", commit.substr(0, 12), system::clean_text(size, false))};
    bytes += n;
  }
  return bytes;
}

// The commit's files into `dir`/src (replaced), never running anything the repository configures: its
// objects are read through a clean git folder (make_clean_git_dir), their sizes checked against
// build_disk_mb before anything is written, then `git archive` to a tar file unpacked by tar. On any error
// nothing of the commit is left in `dir`.
std::optional<std::string> check_out(const GitSprtConfig& git, const std::string& commit, const fs::path& dir) {
  const fs::path src = dir / "src", tar = dir / "src.tar", clean = dir / "git";
  auto clean_up = [&] {
    std::error_code ec;
    fs::remove(tar, ec);
    system::remove_tree(clean);
  };
  auto failed = [&](std::string error) -> std::optional<std::string> {
    clean_up();
    system::remove_tree(src);
    return error;
  };
  if (auto error = system::remove_tree(src)) return failed(*error);
  Expected<std::string> objects = repo_git(git.repo, {"rev-parse", "--path-format=absolute", "--git-path", "objects"});
  if (!objects) return failed(objects.error());
  if (auto error = make_clean_git_dir(clean)) return failed(*error);
  std::vector<std::string> env = tool_environment(clean / "home");
  env.push_back("GIT_DIR=" + clean.string());
  env.push_back("GIT_OBJECT_DIRECTORY=" + trimmed(*objects));
  // The commit is a full hash (checked), so it cannot be read as an option.
  Expected<std::string> listed =
      run_tool("git", hardened_git(clean, {"ls-tree", "-r", "-t", "-l", "--full-tree", commit}), dir, env);
  if (!listed) return failed(listed.error());
  Expected<std::uintmax_t> size = checkout_size(*listed, commit);
  if (!size) return failed(size.error());
  if (*size > sandbox_build::disk_limit_bytes(git.build_limits))
    return failed(fmt::format(
        "its files take {:.1f} MiB (with {} KiB for each file, folder or link), more than build_disk_mb = {} MiB; "
        "refused before writing any of them",
        static_cast<double>(*size) / (1 << 20), kBytesPerEntry >> 10, git.build_limits.disk_mb));
  Expected<std::string> archived =
      run_tool("git", hardened_git(clean, {"archive", "--format=tar", "--output=" + tar.string(), commit}), dir, env);
  if (!archived) return failed(archived.error());
  std::error_code ec;
  fs::create_directories(src, ec);
  if (ec) return failed("cannot create " + src.string() + ": " + ec.message());
  Expected<std::string> unpacked =
      run_tool("tar", {"-x", "--no-same-owner", "--no-same-permissions", "-f", tar.string(), "-C", src.string()}, dir,
               tool_environment(clean / "home"));
  if (!unpacked) return failed(unpacked.error());
  clean_up();
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
  Expected<std::string> out = repo_git(repo, {"rev-parse", "--verify", "--quiet", "--end-of-options", object});
  if (!out) return Error{fmt::format("'{}' does not name a commit of {} ({})", ref, repo.string(), out.error())};
  const std::string hash = trimmed(*out);
  if (!is_commit_hash(hash))
    return Error{fmt::format("git rev-parse '{}' answered '{}', not a commit hash", ref,
                             system::clean_text(hash.substr(0, 100), false))};
  return hash;
}

Expected<std::string> tree_seal(const fs::path& tree, const GitSprtConfig& git) {
  integrity::Sha256 digest;
  system::WalkOptions walk;
  walk.bounds = sandbox_build::tree_bounds(git.build_limits);
  walk.open_files = true;
  auto error = system::walk_untrusted_tree(tree, walk, [&](const system::TreeItem& item) -> std::optional<std::string> {
    // Each field with its length first, so that no two trees feed the digest the same bytes.
    digest.update(fmt::format("{} {:o} {}:", system::to_string(item.kind), item.mode, item.path.size()));
    digest.update(item.path);
    if (item.kind == system::TreeItem::Kind::Link) {
      digest.update(fmt::format(" {}:", item.link.size()));
      digest.update(item.link);
    }
    if (item.kind != system::TreeItem::Kind::File) return std::nullopt;
    digest.update(fmt::format(" {}:", item.size));
    return system::read_bounded(
        item.fd, item.size, [&](std::string_view piece) { digest.update(piece); }, item.path);
  });
  if (error) return Error{"cannot read " + tree.string() + ": " + *error};
  return digest.hex();
}

Expected<BuiltCommit> build_commit(const GitSprtConfig& git, const std::string& commit, const Say& say, CacheUse use) {
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
  const std::string short_hash = commit.substr(0, 12);
  if (use == CacheUse::Take) {
    // The marker, the tree and the log are files another build or an engine could have written (without a
    // sandbox): read as untrusted, and the tree taken only when it still matches the seal in the marker.
    Expected<std::string> marker = system::read_regular_file(dir / kMarker, kMaxMarkerBytes);
    if (marker && marker->starts_with(key)) {
      char sealed[65] = {};
      double seconds = 0;
      const bool complete =
          std::sscanf(marker->c_str() + key.size(), "seal sha256:%64[0-9a-f]\nseconds %lf", sealed, &seconds) == 2;
      Expected<std::string> seal = tree_seal(out.tree, git);
      if (complete && seal && *seal == sealed) {
        out.seal = *seal;
        out.seconds = seconds;
        return out;
      }
      say(fmt::format("the cached build of {} does not match its seal ({}): building it again", short_hash,
                      !complete ? "the marker holds none"
                      : !seal   ? seal.error()
                                : "its files changed after its build"));
    }
  }
  fs::remove(dir / kMarker, ec);
  if (auto error = system::remove_tree(out.tree)) return Error{*error};
  if (auto error = system::write_own_file(out.log, "")) return Error{*error};
  say(fmt::format("checking out {} into {}", short_hash, dir.string()));
  if (auto error = check_out(git, commit, dir)) {
    system::write_own_file(out.log, "the checkout failed: " + *error + "\n", /*append=*/true);
    return Error{"cannot check out " + commit + ": " + *error};
  }
  say(git.build.empty() ? std::string("nothing to build (no build command)")
                        : fmt::format("building {}: {}", short_hash, git.build));
  const sandbox_build::BuildResult built =
      sandbox_build::run_build(git.build_limits, dir / "src", out.tree, git.build.empty() ? ":" : git.build, out.log);
  system::remove_tree(dir / "src");
  if (!built.ok) {
    const Expected<std::string> log = system::read_regular_file(out.log, sandbox_build::kMaxBuildLogBytes);
    return Error{fmt::format("the build of {} failed: {}\nthe last lines of {}:\n{}", short_hash, built.reason,
                             out.log.string(), log ? tail_lines(*log, 20) : "(" + log.error() + ")")};
  }
  Expected<std::string> seal = tree_seal(out.tree, git);
  if (!seal) return Error{fmt::format("the build of {} cannot be sealed: {}", short_hash, seal.error())};
  out.seal = *seal;
  out.seconds = built.seconds;
  out.built_now = true;
  if (auto error = system::write_file_atomically(
          dir / kMarker, key + fmt::format("seal sha256:{}\nseconds {}\n", out.seal, built.seconds)))
    return Error{*error};
  return out;
}

}  // namespace kalah::arena::git
