// The one way a tournament is played, whatever chose its games: lock and open (or resume) the
// journal, play what a GameSource hands out on the configured number of workers, stop cleanly on
// Ctrl-C or SIGTERM, then write every report from the journal. `arena run` and `arena sprt` are
// thin commands over it; each brings a RunListener that makes the source and shows the progress.
// Memory does not grow with the games played: finished games are summed (StandingsBuilder) and
// written to the journal, never kept. A shard (Config::shard) writes its journal only; its
// reports come from the merge (`arena report`).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "arena/config/description.h"
#include "arena/journal/journal.h"
#include "arena/rating/standings.h"
#include "arena/runner/game_source.h"
#include "arena/runner/runner.h"
#include "referee/record/record.h"
#include "referee/rules/expected.h"

namespace kalah::arena {

// A command's part in the flow. Every call comes from the thread that runs the flow, except
// game_done (from a worker, under the runner's lock: one at a time, in journal order).
class RunListener {
 public:
  virtual ~RunListener() = default;
  // Each game already in the journal, in file order, while the journal is opened.
  virtual void resumed(const GameRecord& /*record*/) {}
  // The journal is open; `done` sums the games it holds; `description` is the tournament's as the folder now
  // holds it (this run's settings included). Returns where the games to play come from; the source stays the
  // listener's and must live until the flow returns.
  virtual GameSource& start(const journal::Journal& journal, const TournamentDescription& description,
                            const rating::StandingsBuilder& done) = 0;
  // How many games the run will have in all, for the live report's "k of n" (0: open-ended). Asked
  // after start().
  virtual int planned_games() const { return 0; }
  // A game is safely in the journal; `all` sums every game so far, this one included.
  virtual void game_done(const GameRecord& record, const rating::StandingsBuilder& all) = 0;
  // No game is being played any more (the source ran dry, an interrupt, or a journal failure);
  // called before the reports are written.
  virtual void stopped(const RunResult& /*result*/) {}
};

struct FlowOptions {
  bool fresh = false;                         // move old results aside instead of resuming
  PlayerFactory players = process_players();  // tests play with in-process players
  bool watch_signals = true;                  // SIGINT/SIGTERM interrupt the run
  bool check_engines = true;                  // start engines before the run to check what it needs of them
  int max_games = 0;                          // stop after this many games (arena run --max-games); 0: all
  // Called once the results folder is locked and holds this run's journal, before the listener starts: the
  // layers above put their files about the run there (a git SPRT's build logs, arena/git's copy_build_logs).
  std::function<void(const Config&)> results_opened;
  // Called with the run's runner once it exists and with nullptr once it has stopped: an owner that stops the run
  // from another thread (a season's ladder, when its server stops) calls Runner::interrupt on it meanwhile.
  std::function<void(Runner*)> runner_attached;
};

struct FlowResult {
  std::filesystem::path dir;         // the results directory (a shard's own folder for a shard)
  std::filesystem::path journal;     // its games.jsonl
  std::vector<std::string> engines;  // names, in config order
  std::size_t games = 0;             // games in the journal at the end
  rating::Standings standings;       // of those games
  RunResult run;                     // games played now; interrupted or not
  int interrupt_signal = 0;          // SIGINT or SIGTERM when a signal interrupted the run
  std::vector<std::string> reports;  // the report files written, by name (none for a shard)
};

// Plays (or resumes) `config`'s tournament with the games `listener` hands out and writes the
// reports into config.results_dir(). Journal warnings (a repaired torn line, files moved aside)
// go to stderr. Errors, all operator-facing: the directory is locked by another run; the journal
// cannot be opened, belongs to another tournament or cannot be written; a report cannot be
// written. A journal failure still writes the reports of what is safe first.
Expected<FlowResult> run_tournament(const Config& config, RunListener& listener, const FlowOptions& options = {});

}  // namespace kalah::arena
