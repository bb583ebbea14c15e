#include "referee/rules/opening.h"

#include <random>

namespace kalah {

std::vector<Move> random_opening(const Variant& v, int plies, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Move> best;
  // A random walk rarely runs into a finished game; retry a bounded number of
  // times and keep the longest walk found.
  for (int attempt = 0; attempt < 1000 && static_cast<int>(best.size()) < plies; ++attempt) {
    std::vector<Move> moves;
    Position p = start_position(v);
    while (static_cast<int>(moves.size()) < plies) {
      MoveList legal;
      for (Move m : legal_moves(v, p))
        if (!m.is_swap() && !after(v, p, m).over) legal.moves[legal.size++] = m;
      if (legal.size == 0) break;
      const Move m = legal.moves[std::uniform_int_distribution<int>(0, legal.size - 1)(rng)];
      apply(v, p, m);
      moves.push_back(m);
    }
    if (moves.size() > best.size()) best = std::move(moves);
  }
  return best;
}

}  // namespace kalah
