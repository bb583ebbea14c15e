#include "arena/rating/tally.h"

#include <cassert>
#include <cstddef>

namespace kalah::rating {

Tally::Tally(int players)
    : players_(players), cells_(static_cast<std::size_t>(players) * static_cast<std::size_t>(players)) {
  assert(players >= 0);
}

void Tally::add(int first, int second, double points_first) {
  assert(first >= 0 && first < players_ && second >= 0 && second < players_ && first != second);
  assert(points_first >= 0.0 && points_first <= 1.0);
  Cell& cell = cells_[static_cast<std::size_t>(first) * players_ + second];
  cell.games += 1.0;
  cell.points_first += points_first;
}

void Tally::add_games(int first, int second, double games, double points_first) {
  assert(first >= 0 && first < players_ && second >= 0 && second < players_ && first != second);
  assert(points_first >= 0.0 && points_first <= games);
  Cell& cell = cells_[static_cast<std::size_t>(first) * players_ + second];
  cell.games += games;
  cell.points_first += points_first;
}

std::vector<PairResult> Tally::results() const {
  std::vector<PairResult> out;
  for (int a = 0; a < players_; ++a)
    for (int b = 0; b < players_; ++b) {
      const Cell& cell = cells_[static_cast<std::size_t>(a) * players_ + b];
      if (cell.games > 0.0) out.push_back({a, b, cell.games, cell.points_first});
    }
  return out;
}

}  // namespace kalah::rating
