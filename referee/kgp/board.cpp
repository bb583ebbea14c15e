#include "referee/kgp/board.h"

#include <algorithm>

namespace kalah::kgp {

Expected<BoardGame> game_of(const Board& board, Variant rules) {
  if (board.pits < 1 || board.pits > Variant::kMaxPits)
    return Error{"a board of " + std::to_string(board.pits) + " pits; our rules play 1 to " +
                 std::to_string(Variant::kMaxPits)};
  rules.pits = board.pits;
  rules.pie = false;
  long long total = board.south_store + board.north_store;
  for (int i = 0; i < board.pits; ++i) total += board.south[i] + board.north[i];
  if (total < 1 || total > max_start_seeds(rules))
    return Error{"a board of " + std::to_string(board.pits) + " pits holding " + std::to_string(total) +
                 " seeds (1 to " + std::to_string(max_start_seeds(rules)) + ")"};
  // The start notation of our rules checks the rest (the counts, a game not over).
  auto row = [](const std::vector<long long>& pits) {
    std::string s;
    for (std::size_t i = 0; i < pits.size(); ++i) s += (i ? "," : "") + std::to_string(pits[i]);
    return s;
  };
  const std::string start = row(board.south) + '/' + row(board.north) + ' ' + std::to_string(board.south_store) + '-' +
                            std::to_string(board.north_store) + " S";
  // Engines size their tables from the variant: the smallest standard board holding these seeds.
  const long long per_board = 2LL * board.pits;
  rules.seeds = static_cast<int>(std::clamp<long long>((total + per_board - 1) / per_board, 1, Variant::kMaxSeeds));
  Expected<Position> parsed = parse_start(rules, start);
  if (!parsed) return Error{parsed.error()};
  return BoardGame{rules, *parsed};
}

Board board_for(const Variant& v, const Position& p, Side mover) {
  const int m = v.pits;
  const int own = mover == Side::South ? 0 : m + 1;
  const int other = mover == Side::South ? m + 1 : 0;
  Board b;
  b.pits = m;
  b.south_store = p.cells[own + m];
  b.north_store = p.cells[other + m];
  for (int i = 0; i < m; ++i) {
    b.south.push_back(p.cells[own + i]);
    b.north.push_back(p.cells[other + i]);
  }
  return b;
}

}  // namespace kalah::kgp
