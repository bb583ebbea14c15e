#include "arena/git/git_engines.h"

#include <fmt/core.h>

#include "arena/config/paths.h"
#include "referee/engine/sandbox.h"
#include "referee/rules/words.h"
#include "referee/system/executable.h"

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
  for (auto [side, role] : {std::pair{&git.base, "base"}, std::pair{&git.test, "test"}}) {
    Expected<BuiltCommit> built = build_commit(git, side->commit, say);
    if (!built) return Error{fmt::format("{} {}: {}", role, side->ref, built.error())};
    side->build_seconds = built->seconds;
    side->built_now = built->built_now;
    side->build_log = built->log;
    say(fmt::format("{} {} = {}: {}", role, side->ref, side->commit.substr(0, 12),
                    built->built_now ? fmt::format("built in {:.1f} s", built->seconds)
                                     : fmt::format("built earlier (in {:.1f} s), from the cache", built->seconds)));
    Expected<EngineSpec> engine = engine_in(git, *side, *built);
    if (!engine) return Error{engine.error()};
    if (auto problem = sandbox_dir_problem(*engine, config.results_dir()))
      return Error{"engine '" + engine->name + "': " + *problem};
    config.engines.push_back(std::move(engine).value());
  }
  config.house_engines = 2;
  return true;
}

}  // namespace kalah::arena::git
