// Each engine's rating over the run, for report.html's Elo-over-games chart: the standings are refitted
// at checkpoints while the journal is read (streamed), at most kMaxPoints of them however long the run.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "arena/rating/standings.h"

namespace kalah::report {

struct EloPoint {
  double elo = 0;
  double ci95 = 0;
  bool rated = false;  // the engine had played by then
};

struct EloHistory {
  std::vector<int> games;                     // games counted at each checkpoint, increasing
  std::vector<std::string> names;             // the engines, in the final ranking's order
  std::vector<std::vector<EloPoint>> series;  // [engine][checkpoint]
};

class EloHistoryRecorder {
 public:
  // At most this many checkpoints are kept: when there would be more, every other one is dropped and the
  // spacing doubles, so a run costs kMaxPoints fits plus kMaxPoints / 2 per doubling of its length.
  static constexpr std::size_t kMaxPoints = 100;

  // Call after each game is added to `builder`.
  void game_added(const rating::StandingsBuilder& builder);
  // The history, with a last checkpoint at the final count (`final` are the final standings).
  EloHistory finish(const rating::StandingsBuilder& builder, const rating::Standings& final);

 private:
  void record(const rating::StandingsBuilder& builder);

  int step_ = 1;
  int next_ = 1;
  std::vector<int> games_;
  std::vector<rating::Standings> fits_;  // only what the chart needs is read from them
};

}  // namespace kalah::report
