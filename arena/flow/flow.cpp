#include "arena/flow/flow.h"

#include <cstdio>
#include <optional>

#include <fmt/core.h>

#include "arena/flow/interrupts.h"
#include "arena/flow/tournament_meta.h"
#include "arena/journal/journal.h"
#include "arena/report/reports.h"
#include "referee/process/engine_process.h"

namespace kalah::arena {

Expected<FlowResult> run_tournament(const Config& config, RunListener& listener, const FlowOptions& options) {
  FlowResult out;
  out.dir = config.results_dir();
  for (const EngineSpec& e : config.engines) out.engines.push_back(e.name);

  Expected<journal::Journal> opened = journal::Journal::open(out.dir, tournament_meta(config), options.fresh);
  if (!opened) return Error{opened.error()};
  journal::Journal journal = std::move(opened).value();
  for (const std::string& w : journal.warnings()) fmt::print(stderr, "arena: warning: {}\n", w);
  out.journal = journal.games_path();
  out.games = journal.games();

  GameSource& source = listener.start(out.games);
  std::fflush(stdout);
  // Engines' own children are re-parented to us when an engine dies, so that they can be reaped.
  process::become_subreaper();
  Runner runner(
      config, journal, source,
      [&](const GameSpec&, const GameRecord& record) {
        out.games.push_back(record);
        listener.game_done(record, out.games);
      },
      options.players);
  {
    std::optional<InterruptWatcher> watcher;
    if (options.watch_signals) watcher.emplace([&] { runner.interrupt(); });
    out.run = runner.run(config.tournament.concurrency);
  }
  listener.stopped(out.run);

  Expected<std::vector<std::string>> written =
      report::write_all_reports(out.dir, out.games, out.engines, config.tournament.name);
  if (!out.run.error.empty()) return Error{"journal: " + out.run.error};
  if (!written) return Error{written.error()};
  out.reports = std::move(written).value();
  return out;
}

}  // namespace kalah::arena
