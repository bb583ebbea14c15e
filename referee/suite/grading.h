// How an engine's answers to the suite's positions are graded against the solver's labels: the loss of
// each move, the tallies per phase, and how well the engine's own scores follow the exact values. Pure.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "referee/game/player.h"
#include "referee/suite/labels.h"

namespace kalah::suite {

// A move that gives away at least this much (store difference: a seed that changes hands counts 2) is a
// blunder; the output says so wherever it counts them. The same threshold as `arena analyse`'s.
inline constexpr int kBlunderLoss = 4;

// What the engine did with one position.
struct Answer {
  std::optional<Move> move;    // its legal move; none when it failed
  std::optional<Fault> fault;  // why it failed: a forfeit reason (illegal, time, crash, protocol, ...) and detail
  double elapsed_ms = 0;
  // Its score from the mover's view: a KEP engine's last `info ... score`, a KGP agent's `eval` (kgp_run.h).
  std::optional<double> score;
};

// One position graded.
struct Grade {
  std::optional<int> margin;  // of the move played (nullopt: failed)
  std::optional<int> loss;    // best margin minus the move's: 0 is perfect
  // Whether the move keeps the position's proven result: a won position stays won, a drawn one drawn (any
  // move keeps a lost one). An engine that plays for the result, not the margin, is judged by this.
  std::optional<bool> kept;
};
Grade grade(const LabelledPosition& p, const Answer& a);

struct Tally {
  int positions = 0;
  int answered = 0;  // a legal move in time
  int perfect = 0;   // loss 0
  int kept = 0;      // the proven result kept (Grade::kept)
  int blunders = 0;  // loss >= kBlunderLoss
  int failed = 0;    // no legal move in time
  long long total_loss = 0;

  void add(const Grade& g);
  // Perfect moves among all positions (a failed position is not perfect).
  double perfect_share() const { return positions ? static_cast<double>(perfect) / positions : 0.0; }
  // Moves that keep the proven result among all positions.
  double kept_share() const { return positions ? static_cast<double>(kept) / positions : 0.0; }
  // Over the answered positions.
  double mean_loss() const { return answered ? static_cast<double>(total_loss) / answered : 0.0; }
};

struct Report {
  std::array<Tally, kPhases> phases;
  Tally all;
  // The engine's reported score against the exact value of the position (LabelledPosition::best()), over
  // the answered positions that had a score.
  int scored = 0;
  std::optional<double> spearman;  // none with fewer than 3 scored positions or no spread in either
};
Report make_report(const std::vector<LabelledPosition>& positions, const std::vector<Answer>& answers);

// Spearman's rank correlation of the pairs: Pearson's over their ranks, ties given their mean rank.
// None with fewer than 3 pairs or when either side has no spread.
std::optional<double> spearman(const std::vector<std::pair<double, double>>& pairs);

}  // namespace kalah::suite
