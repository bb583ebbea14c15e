// `arena run CONFIG`: play (or resume) a tournament and write its reports.
#include <memory>
#include <string>

#include <fmt/core.h>

#include "arena/app/commands.h"
#include "arena/config/config.h"
#include "arena/contest/entries.h"
#include "arena/flow/tournaments.h"
#include "arena/formats/registry.h"
#include "arena/schedule/schedule.h"
#include "referee/engine/sandbox.h"

namespace kalah::arena_app {
namespace {

struct RunOptions {
  std::string config;
  int concurrency = 0;
  std::string out;
  bool fresh = false;
  int max_games = 0;
  std::string shard;
  std::string clock;
};

int run(const RunOptions& o) {
  Expected<arena::Config> loaded = arena::load_with_entrants(o.config);
  if (!loaded) throw UsageError(loaded.error());
  for (const std::string& warning : loaded->warnings) fmt::print(stderr, "arena: warning: {}\n", warning);
  arena::Config config = std::move(loaded).value();
  if (o.concurrency > 0) config.tournament.concurrency = o.concurrency;
  if (!o.out.empty()) config.tournament.output = o.out;
  if (!o.clock.empty()) arena::set_clock(config, *parse_clock_kind(o.clock));
  // A shard's folder is its own (shards/I-of-N): its journal checks it as it opens.
  const bool staged = config.tournament.staged();
  if (staged && !o.shard.empty())
    throw UsageError("--shard does not apply to a staged tournament: each stage needs the one before it");
  // A staged folder holds stage folders, not a journal: play_staged checks it against its staged.json.
  arena::FlowOptions flow =
      prepare_engines(config, !o.fresh && o.shard.empty() && !staged, "another [tournament] name (or --out)");
  for (const EngineSpec& e : config.engines)  // --out may put the results inside a sandboxed engine's dir
    if (auto problem = sandbox_dir_problem(e, config.results_dir()))
      throw UsageError("engine '" + e.name + "': " + *problem);
  if (!o.shard.empty()) {
    Expected<arena::Shard> shard = arena::parse_shard(o.shard);
    if (!shard) throw UsageError(shard.error());
    if (std::optional<std::string> problem = arena::shard_problem(config, shard->count)) throw UsageError(*problem);
    config.shard = *shard;
  }
  if (o.max_games > 0 && config.sprt)
    throw UsageError("--max-games does not apply to an [sprt] match, which stops by its test or sprt.max_pairs");
  flow.fresh = o.fresh;
  flow.max_games = o.max_games;
  // An [sprt] table makes it a match until the test decides; type = "staged" plays its stages in turn.
  Expected<int> played = formats::play(config, flow);
  if (!played) throw UsageError(played.error());
  return *played;
}

}  // namespace

void add_run_command(cli::Commands& commands) {
  auto [cmd, o] =
      commands.add<RunOptions>("run", "Play a tournament from a TOML config (resumes an unfinished one)", run);
  cmd->add_option("config", o->config, "The tournament's TOML file")->required();
  cmd->add_option("--concurrency", o->concurrency, "Games at once (overrides the config)")->check(CLI::Range(1, 256));
  cmd->add_option("--out", o->out, "Output folder (overrides [tournament] output)")->check(cli::non_empty());
  cmd->add_option("--clock", o->clock, "wall or cpu: what a move is charged (overrides [time] clock)")
      ->check(CLI::IsMember({"wall", "cpu"}));
  cmd->add_flag("--fresh", o->fresh, "Start over: move the existing results aside instead of resuming");
  cmd->add_option("--max-games", o->max_games, "Stop after this many games (resume later with the same command)")
      ->check(CLI::Range(1, 1'000'000'000));
  cmd->add_option("--shard", o->shard,
                  "Play only shard I of N (1-based, e.g. 2/4) into <output>/<name>/shards/I-of-N/; "
                  "merge with `arena report`");
}

}  // namespace kalah::arena_app
