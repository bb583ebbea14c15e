// Adaptive pairing (docs/SCHEDULE.md, "Adaptive"): a tournament that spends a budget of games where the
// order is still open. Each round is paired from the results of the rounds before it: the engines are
// ordered by a Bradley–Terry fit, and colour-swapped pairs go to engines that are adjacent in that order and
// not yet told apart (the chance that the two are the other way round is above 2.5%); the most uncertain
// first, the pairs with the fewest games between them first among equals, each engine at most once a round.
// Pure and deterministic: the same results and seed give the same rounds, so a resumed run replays its
// journal into the same pairings and game ids. With `boundaries` it is a final that stops itself
// (arena/schedule/final_cut.h): only the engines whose rank interval straddles a boundary play on.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "arena/schedule/schedule.h"
#include "arena/schedule/swiss.h"

namespace kalah::arena {

// Above this chance that two adjacent engines are in the wrong order, their order is open: they are
// paired again. At or below it, the fit's one-sided 97.5% bound separates them.
inline constexpr double kAdaptiveOpen = 0.025;

struct AdaptivePlan {
  int engines = 0;
  int budget_games = 0;  // the most games, even (whole pairs), >= 2
  int target_width = 0;  // 0: none; else stop once every 95% rank interval spans at most this many places more
  std::uint64_t seed = 1;
  // A final's places, ascending, each from 1 to engines - 1 (k: between the k-th and the k+1-th); empty: the
  // plain adaptive kind. With them, every later round pairs only the engines whose 95% rank interval (the
  // reports' bootstrap) straddles one of them, and the run ends once none does.
  std::vector<int> boundaries;
};

struct AdaptiveRound {
  int round = 0;                // 1-based
  std::vector<Pairing> boards;  // `first` is South in game 0; in the order they were chosen
};

// Why an adaptive tournament ended.
enum class AdaptiveEnd {
  Running,
  Budget,   // every game of the budget is played
  Settled,  // no two adjacent engines are still open
  Target,   // every rank interval is at most target_width wide
  Decided,  // a final: no rank interval straddles a boundary
};
const char* to_string(AdaptiveEnd end);  // "running", "budget", "settled", "target", "decided"

// An engine of a final, as of the last check of the intervals (before each later round, and once more when the
// budget is spent).
struct FinalEntrant {
  int low = 0, high = 0;  // its 95% rank interval at that check; 0 0 before the first
  int clear_after = 0;    // its interval has been clear of every boundary since the check after this round; 0: it
                          // still straddles one (or there was no check yet)
  int games = 0;          // the games it had played at that round's end
};

struct AdaptiveProgress {
  std::vector<AdaptiveRound> rounds;  // paired so far; all but the last are complete
  int games_paired = 0;               // the games of every round paired so far
  bool complete = false;              // the last round is played and nothing more is due
  AdaptiveEnd end = AdaptiveEnd::Running;
  std::vector<FinalEntrant> entrants;  // a final's, by engine index; empty without boundaries
};

// The tournament as far as `results` go: round 1 pairs the engines in an order shuffled by the seed
// (consecutive engines meet), every later round is paired as described above once the round before it is
// complete. The last round is cut to the pairs the budget has left.
AdaptiveProgress replay_adaptive(const AdaptivePlan& plan, const GameResults& results);

// replay_adaptive, kept between calls: each update() pairs on from where the last one stopped, so a run that
// asks after every round refits and bootstraps each round once. `results` may only grow between calls (a
// result, once given, stays as it was); the answer is then replay_adaptive's.
class AdaptiveReplay {
 public:
  explicit AdaptiveReplay(AdaptivePlan plan);
  ~AdaptiveReplay();
  AdaptiveReplay(AdaptiveReplay&&) noexcept;
  AdaptiveReplay& operator=(AdaptiveReplay&&) noexcept;
  const AdaptiveProgress& update(const GameResults& results);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// An open pair of adjacent engines, as a later round weighs it.
struct AdaptiveCandidate {
  double wrong = 0;        // the fit's chance that `pair.second` is in fact the stronger (above kAdaptiveOpen)
  int games = 0;           // games played between the two so far
  std::uint64_t draw = 0;  // drawn from the seed, the round and the pair: the last tie-break
  Pairing pair;            // the better-rated engine first
};

// How a round weighs its candidates: the adaptive kind's most uncertain first, or a final's fewest games first
// (every pair across an open boundary has its turn, so that no pair that never settles, two equal engines,
// takes every round from the others).
enum class Weigh { Uncertainty, Games };

// The boards of a later round from its candidates: the most uncertain first (`wrong` in steps of 5%), then the
// fewest games between the two (Weigh::Games: the fewest games first, then the most uncertain), then `draw`; a
// candidate is skipped when one of its engines is on a board already. `engines`: the number of engines.
std::vector<Pairing> choose_boards(std::vector<AdaptiveCandidate> open, int engines, Weigh weigh = Weigh::Uncertainty);

// The ids of the two games of `board` in `round`, as a Swiss round names them (swiss_game_ids).
inline std::array<std::string, 2> adaptive_game_ids(int round, const Pairing& board) {
  return swiss_game_ids(round, board);
}

}  // namespace kalah::arena
