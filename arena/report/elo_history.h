// Each engine's rating over the run, for report.html's Elo-over-games chart: the standings are refitted
// at checkpoints while the journal is read (streamed), at most kMaxPoints of them however long the run,
// and never more fitting work in all than kFitBudget, however many engines.
#pragma once

#include <cstddef>
#include <cstdint>
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
  // A fit of n engines costs about n^3 (the dense Newton system and its inverse, arena/rating): 1e6 for
  // 100 engines, ~4 ms here. The checkpoints' fits together cost at most this (about 8 s): 100 engines
  // never reach it (2000 fits, a run of 2^38 games), 1000 engines (2.5 s a fit) get two. With more
  // engines fewer checkpoints are kept (fit_points), so the budget spreads over the run; once it is
  // spent no checkpoint is added, and the chart's last one is the final standings.
  static constexpr double kFitBudget = 2e9;
  // How many checkpoints are kept for a pool of `engines`: kMaxPoints up to 170 engines, fewer above,
  // at least 2.
  static std::size_t fit_points(std::size_t engines);

  // Call after each game is added to `builder`.
  void game_added(const rating::StandingsBuilder& builder);
  // The history, with a last checkpoint at the final count (`final` are the final standings).
  EloHistory finish(const rating::StandingsBuilder& builder, const rating::Standings& final);
  // The fits the checkpoints took (finish's last one, the final standings, is not one): the work done.
  std::size_t fits() const { return fits_done_; }

 private:
  void record(const rating::StandingsBuilder& builder);
  // Keeps every other checkpoint (the latest among them) and spaces the next ones twice as far apart.
  void thin();

  int step_ = 1;
  int next_ = 1;
  std::vector<int> games_;
  std::vector<rating::Standings> fits_;  // only what the chart needs is read from them
  double spent_ = 0;                     // fitting work so far, in kFitBudget's units
  std::size_t fits_done_ = 0;
};

}  // namespace kalah::report
