// A season's ladder (docs/SEASON.md, "The ladder"): games played all term among the entered revisions and the
// season's sparring partners, while `arena serve --season` runs. The ladder is a tournament like any other, played by
// the one flow (arena/flow/flow.h) into DIR/results/ladder: its journal, its live files and its reports, which
// `arena serve` lists. It is played as a run of the season's contest with the entrants as they are at its start
// (ladder_config); when a revision enters (and its author's earlier one is superseded) the run is closed, ends once
// its game in flight has finished, and the next run starts with the new entrants from the same journal. Its games
// are chosen by arena/runner/ladder_source.h, `ladder_concurrency` at a time (1 by default: the builds and gates of
// the pipeline keep the other core), and played here or, with `ladder_runner = "slurm"`, each by a Slurm job
// (ladder_slurm.h).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "arena/config/config.h"
#include "arena/season/season_config.h"
#include "referee/rules/expected.h"

namespace kalah::arena {
class LadderSource;
class Runner;
}  // namespace kalah::arena

namespace kalah::season {

// The ladder's folder under the season's results folder.
inline constexpr const char* kLadderName = "ladder";
// On Slurm, a run stopped by a game that came back without a record starts again after this (or at the next entry).
inline constexpr std::chrono::seconds kSlurmRetry{60};

// What the ladder plays now: the season's contest with its entrants (the contest's entries.json), renamed
// kLadderName, paired by the ladder (an open-ended tournament of the adaptive kind, ranked by Elo) and played
// `ladder_concurrency` games at a time, with the contest's sandbox, limits, variant, clock and openings.
Expected<arena::Config> ladder_config(const SeasonConfig& season);

class Ladder {
 public:
  // `season` must outlive the ladder; `game_recorded` (if given) is called on the ladder's thread after each game
  // it recorded in its journal.
  explicit Ladder(const SeasonConfig& season, std::function<void()> game_recorded = {});
  ~Ladder();  // stops: a game in flight is cut short (played again at the next start, never half recorded)
  Ladder(const Ladder&) = delete;
  Ladder& operator=(const Ladder&) = delete;

  // Starts playing (once an entrant is there) on a thread of its own.
  void start();
  // A revision entered (and its author's earlier ones left): the run in play ends after its game in flight and the
  // next one starts with the entrants as they are now. Safe from any thread.
  void entrants_changed();

 private:
  void loop();
  // One run of the flow over `config`; returns when it was closed (the entrants changed, the ladder stops): true, or
  // failed: false.
  bool play(const arena::Config& config, std::uint64_t generation);
  void log(const std::string& line) const;

  const SeasonConfig& season_;
  std::function<void()> game_recorded_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::uint64_t generation_ = 1;           // counts the changes of entrants; the loop plays the last one
  arena::LadderSource* source_ = nullptr;  // of the run in play
  arena::Runner* runner_ = nullptr;        // of the run in play, while its games are played
  std::thread thread_;
};

}  // namespace kalah::season
