#pragma once

// Aggregates individual game results into per-ordered-pair counts for fit().

#include <vector>

#include "arena/rating/rating.h"

namespace kalah::rating {

class Tally {
 public:
  explicit Tally(int players);

  // One finished game; points_first is 1 (first mover won), 0.5 (draw) or 0.
  void add(int first, int second, double points_first);
  // `games` games at once, in which `first` scored `points_first` in all.
  void add_games(int first, int second, double games, double points_first);

  int players() const { return players_; }

  // One entry per ordered pair that has played, in (first, second) order.
  std::vector<PairResult> results() const;

 private:
  struct Cell {
    double games = 0.0;
    double points_first = 0.0;
  };
  int players_;
  std::vector<Cell> cells_;  // players x players, row = first mover
};

}  // namespace kalah::rating
