#include "referee/rules/opening.h"

namespace kalah {

namespace {

// Depth-first with random move order: the first path tried is a plain random walk; stepping back
// only happens where a move would end the game before `left` reaches zero.
bool walk(const Variant& v, const Position& p, int left, std::mt19937_64& rng, long& budget, Opening& out) {
  if (left == 0) return true;
  Move moves[Variant::kMaxPits];
  int count = 0;
  for (Move m : legal_moves(v, p))
    if (!m.is_swap()) moves[count++] = m;
  while (count > 0) {
    if (--budget < 0) return false;
    const int pick = static_cast<int>(rng() % static_cast<std::uint64_t>(count));
    const Move m = moves[pick];
    moves[pick] = moves[--count];
    const Position next = after(v, p, m);
    if (next.over) continue;
    out.push_back(m);
    if (walk(v, next, left - 1, rng, budget, out)) return true;
    out.pop_back();
    if (budget < 0) return false;
  }
  return false;
}

}  // namespace

std::optional<Opening> random_opening(const Variant& v, int plies, std::mt19937_64& rng, long max_nodes) {
  return random_opening(v, start_position(v), plies, rng, max_nodes);
}

std::optional<Opening> random_opening(const Variant& v, const Position& from, int plies, std::mt19937_64& rng,
                                      long max_nodes) {
  Opening out;
  out.reserve(static_cast<size_t>(plies > 0 ? plies : 0));
  long budget = max_nodes;
  if (!walk(v, from, plies, rng, budget, out)) return std::nullopt;
  return out;
}

}  // namespace kalah
