// The one way a tournament is played, whatever chose its games: open (or resume) the journal,
// play what a GameSource hands out on the configured number of workers, stop cleanly on Ctrl-C or
// SIGTERM, then write every report from the journal. `arena run` and `arena sprt` are thin
// commands over it; each brings a RunListener that makes the source and shows the progress.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "arena/config/config.h"
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
  // The journal is open and holds `done`. Returns where the games to play come from; the source
  // stays the listener's and must live until the flow returns.
  virtual GameSource& start(const std::vector<GameRecord>& done) = 0;
  // A game is safely in the journal; `all` holds every game so far, this one last.
  virtual void game_done(const GameRecord& record, const std::vector<GameRecord>& all) = 0;
  // No game is being played any more (the source ran dry, an interrupt, or a journal failure);
  // called before the reports are written.
  virtual void stopped(const RunResult& /*result*/) {}
};

struct FlowOptions {
  bool fresh = false;                         // move old results aside instead of resuming
  PlayerFactory players = process_players();  // tests play with in-process players
  bool watch_signals = true;                  // SIGINT/SIGTERM interrupt the run
};

struct FlowResult {
  std::filesystem::path dir;         // the results directory
  std::filesystem::path journal;     // its games.jsonl
  std::vector<std::string> engines;  // names, in config order
  std::vector<GameRecord> games;     // every game in the journal at the end
  RunResult run;                     // games played now; interrupted or not
  std::vector<std::string> reports;  // the report files written, by name
};

// Plays (or resumes) `config`'s tournament with the games `listener` hands out and writes the
// reports into config.results_dir(). Journal warnings (a repaired torn line, files moved aside)
// go to stderr. Errors, all operator-facing: the journal cannot be opened, belongs to another
// tournament or cannot be written; a report cannot be written. A journal failure still writes
// the reports of what is safe first.
Expected<FlowResult> run_tournament(const Config& config, RunListener& listener, const FlowOptions& options = {});

}  // namespace kalah::arena
