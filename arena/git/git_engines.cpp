#include "arena/git/git_engines.h"

#include <fmt/core.h>

#include "arena/config/paths.h"
#include "referee/engine/sandbox.h"
#include "referee/rules/words.h"
#include "referee/system/executable.h"

namespace kalah::arena::git {
namespace fs = std::filesystem;

namespace {

// The engine of one built commit: `run`'s program resolved in its tree (a relative path is a file of the
// tree; a bare name is looked up on PATH first, like an [[engine]] cmd) and the tree as its folder.
Expected<EngineSpec> engine_in(const GitSprtConfig& git, const GitSide& side, const BuiltCommit& built) {
  EngineSpec e = side.engine;
  const std::vector<std::string_view> words = split_words(git.run);
  const std::string program(words.front());
  Expected<fs::path> cmd = resolve_command(program, built.tree, built.tree, system::path_variable());
  if (!cmd)
    return Error{fmt::format("{} ({}): the run command's program {}; does the build make it?", side.ref,
                             side.commit.substr(0, 12), cmd.error())};
  e.cmd = *cmd;
  e.cmd_as_written = program;
  for (std::size_t i = 1; i < words.size(); ++i) e.args.emplace_back(words[i]);
  e.dir = built.tree;
  return e;
}

}  // namespace

Expected<bool> prepare_git_engines(Config& config, const Say& say) {
  if (!config.sprt || !config.sprt->git) return false;
  GitSprtConfig& git = *config.sprt->git;
  for (GitSide* side : {&git.base, &git.test}) {
    Expected<std::string> commit = resolve_commit(git.repo, side->ref);
    if (!commit) return Error{commit.error()};
    side->commit = *commit;
  }
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
