// A season's ladder (docs/SEASON.md, "The ladder"): which two engines play the next colour-swapped pair, given who
// is in the ladder now and every game so far. Engines join (a revision enters) and leave (it is superseded) at any
// time, so there are no rounds: each pair is chosen when a worker is free, by the adaptive kind's weighing
// (choose_boards, adaptive.h) after one rule of its own:
//   1. fewest games first: the pairs of the engine with the fewest games (a new entrant has none);
//   2. then close ranks: the fit's chance that the two are the other way round, in steps of 5%, highest first;
//   3. then pairs not yet met: the fewest games between the two;
//   4. then a draw from the seed and the pair's number.
// Every pair holds an entrant: the season's sparring partners never meet each other. Pure and deterministic.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "arena/schedule/schedule.h"

namespace kalah::arena {

// One engine of the ladder as the choice sees it, by its index in the tournament's engines.
struct LadderEngine {
  bool plays = false;    // in the ladder now: an entered revision or a sparring partner
  bool entrant = false;  // an author's revision (not a sparring partner)
  bool busy = false;     // in a pair that has not finished yet
};

// The games so far, by engine index: what the choice counts and fits.
class LadderTally {
 public:
  explicit LadderTally(int engines);
  // A finished game: `south_points` is 1, 1/2 or 0.
  void add(int south, int north, double south_points);

  int engines() const { return static_cast<int>(games_.size()); }
  int games(int engine) const { return games_[static_cast<std::size_t>(engine)]; }
  int games_between(int a, int b) const;

  // The games of each (south, north), and South's points in them.
  struct Ordered {
    double games = 0;
    double south_points = 0;
  };
  const std::map<std::pair<int, int>, Ordered>& ordered() const { return results_; }

 private:
  std::vector<int> games_;
  std::map<std::pair<int, int>, Ordered> results_;
};

// The next pair: `first` is South in its first game (the better-rated of the two). None when no two engines that
// play and are not busy make a pair with an entrant. `engines` and `tally` have the same size.
std::optional<Pairing> choose_ladder_pair(const std::vector<LadderEngine>& engines, const LadderTally& tally,
                                          std::uint64_t seed, int pair_number);

}  // namespace kalah::arena
