#include "referee/rules/perft.h"

namespace kalah {

std::uint64_t perft(const Variant& v, const Position& p, int depth) {
  if (p.over || depth == 0) return 1;
  if (depth == 1) return static_cast<std::uint64_t>(legal_move_count(v, p));
  std::uint64_t total = 0;
  for (Move m : legal_moves(v, p)) total += perft(v, after(v, p, m), depth - 1);
  return total;
}

std::uint64_t perft_full(const Variant& v, const Position& p, int depth) {
  if (p.over || depth == 0) return 1;
  std::uint64_t total = 0;
  for (Move m : legal_moves(v, p)) total += perft_full(v, after(v, p, m), depth - 1);
  return total;
}

}  // namespace kalah
