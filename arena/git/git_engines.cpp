#include "arena/git/git_engines.h"

#include <array>
#include <utility>

#include <fmt/core.h>

#include "arena/config/paths.h"
#include "arena/sandbox_build/sandbox_build.h"
#include "referee/engine/sandbox.h"
#include "referee/rules/words.h"
#include "referee/system/executable.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::arena::git {
namespace fs = std::filesystem;

namespace {

// The engine of one commit as `run` names it: its program as written and its arguments.
EngineSpec planned_engine(const GitSprtConfig& git, const GitSide& side) {
  EngineSpec e = side.engine;
  const std::vector<std::string_view> words = split_words(git.run);
  e.cmd_as_written = std::string(words.front());
  for (std::size_t i = 1; i < words.size(); ++i) e.args.emplace_back(words[i]);
  return e;
}

// The engine of one built commit: `run`'s program resolved in its tree (a relative path is a file of the
// tree; a bare name is looked up on PATH first, like an [[engine]] cmd) and the tree as its folder.
Expected<EngineSpec> engine_in(const GitSprtConfig& git, const GitSide& side, const BuiltCommit& built) {
  EngineSpec e = planned_engine(git, side);
  Expected<fs::path> cmd = resolve_command(e.cmd_as_written, built.tree, built.tree, system::path_variable());
  if (!cmd)
    return Error{fmt::format("{} ({}): the run command's program {}; does the build make it?", side.ref,
                             side.commit.substr(0, 12), cmd.error())};
  e.cmd = *cmd;
  e.dir = built.tree;
  return e;
}

}  // namespace

Expected<bool> plan_git_engines(Config& config) {
  if (!config.sprt || !config.sprt->git) return false;
  GitSprtConfig& git = *config.sprt->git;
  for (GitSide* side : {&git.base, &git.test}) {
    Expected<std::string> commit = resolve_commit(git.repo, side->ref);
    if (!commit) return Error{commit.error()};
    side->commit = *commit;
  }
  config.engines = {planned_engine(git, git.base), planned_engine(git, git.test)};
  config.house_engines = 2;
  return true;
}

Expected<bool> prepare_git_engines(Config& config, const Say& say) {
  if (!config.sprt || !config.sprt->git) return false;
  GitSprtConfig& git = *config.sprt->git;
  if (config.engines.empty())
    if (Expected<bool> planned = plan_git_engines(config); !planned) return planned;
  config.engines.clear();
  const std::array<std::pair<GitSide*, const char*>, 2> sides = {std::pair{&git.base, "base"},
                                                                 std::pair{&git.test, "test"}};
  std::array<BuiltCommit, 2> built;
  auto say_built = [&](std::size_t i) {
    const GitSide& side = *sides[i].first;
    say(fmt::format("{} {} = {}: {}", sides[i].second, side.ref, side.commit.substr(0, 12),
                    built[i].built_now ? fmt::format("built in {:.1f} s", built[i].seconds)
                                       : fmt::format("built earlier (in {:.1f} s), from the cache", built[i].seconds)));
  };
  for (std::size_t i = 0; i < sides.size(); ++i) {
    auto [side, role] = sides[i];
    Expected<BuiltCommit> one = build_commit(git, side->commit, say);
    if (!one) return Error{fmt::format("{} {}: {}", role, side->ref, one.error())};
    built[i] = std::move(one).value();
    say_built(i);
  }
  // A build without a sandbox can write wherever its user can, the other commit's tree in the cache too (and
  // its marker): after both builds each tree is checked again against the seal it had when it was built or
  // taken, and one that changed is built again; the other is then checked again. A build that keeps changing
  // the other's tree stops the run.
  for (int round = 0;; ++round) {
    bool rebuilt = false;
    for (std::size_t i = 0; i < sides.size(); ++i) {
      auto [side, role] = sides[i];
      Expected<std::string> seal = tree_seal(built[i].tree, git);
      if (seal && *seal == built[i].seal) continue;
      const std::string other = sides[1 - i].second;
      if (round == 2)
        return Error{
            fmt::format("{} {}: its build in {} keeps changing after the {}'s build; a build writes outside "
                        "its folder (--build-sandbox bwrap keeps each build in its own)",
                        role, side->ref, built[i].tree.parent_path().string(), other)};
      say(fmt::format(
          "{} {} = {}: its built tree changed after it was {} ({}): a build wrote outside its folder "
          "(--build-sandbox bwrap keeps each build in its own); building it again",
          role, side->ref, side->commit.substr(0, 12), built[i].built_now ? "built" : "taken from the cache",
          seal ? "its files differ from its seal" : seal.error()));
      Expected<BuiltCommit> again = build_commit(git, side->commit, say, CacheUse::Rebuild);
      if (!again) return Error{fmt::format("{} {}: {}", role, side->ref, again.error())};
      built[i] = std::move(again).value();
      say_built(i);
      rebuilt = true;
    }
    if (!rebuilt) break;
  }
  for (std::size_t i = 0; i < sides.size(); ++i) {
    auto [side, role] = sides[i];
    side->build_seconds = built[i].seconds;
    side->built_now = built[i].built_now;
    side->build_log = built[i].log;
    Expected<EngineSpec> engine = engine_in(git, *side, built[i]);
    if (!engine) return Error{engine.error()};
    if (auto problem = sandbox_dir_problem(*engine, config.results_dir()))
      return Error{"engine '" + engine->name + "': " + *problem};
    // A sandboxed engine runs under a uid of its own: the cache must be reachable by it (not under /root).
    if (auto problem = sandbox_reach_problem(*engine))
      return Error{"engine '" + engine->name + "': " + *problem + " (--worktrees puts the build cache elsewhere)"};
    config.engines.push_back(std::move(engine).value());
  }
  config.house_engines = 2;
  return true;
}

void copy_build_logs(const Config& config) {
  if (!config.sprt || !config.sprt->git) return;
  for (const auto& [side, role] :
       {std::pair{&config.sprt->git->base, "base"}, std::pair{&config.sprt->git->test, "test"}}) {
    const fs::path dir = config.results_dir() / "logs" / role;
    std::error_code ec;
    fs::create_directories(dir, ec);
    // The cache's log, read as untrusted (no link, a regular file, bounded): what the build left beside it.
    const Expected<std::string> log = system::read_regular_file(side->build_log, sandbox_build::kMaxBuildLogBytes);
    std::optional<std::string> error = log ? std::nullopt : std::optional<std::string>(log.error());
    if (!error) error = system::write_file_atomically(dir / "build.log", *log, system::Durability::Rebuildable);
    if (error) fmt::print(stderr, "arena: warning: the build log of the {} was not copied: {}\n", role, *error);
  }
}

}  // namespace kalah::arena::git
