// GameRecords for tests: a record from its players and moves, and a finished game of random legal moves.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "referee/record/record.h"
#include "referee/rules/position.h"

namespace kalah::test {

// A record of the standard variant with the given id, players and moves, each move with an empty MoveInfo;
// a test sets what else it needs.
inline GameRecord record_of(std::string id, std::string south, std::string north, std::vector<Move> moves) {
  GameRecord g;
  g.id = std::move(id);
  g.south = std::move(south);
  g.north = std::move(north);
  g.move_info.resize(moves.size());
  g.moves = std::move(moves);
  return g;
}

// A finished game of random legal moves from the variant's start, recorded as the game loop does: the moves
// (none of them an opening), a MoveInfo each, the result, the stores and the pie swap. `pick(n)` chooses one
// of the n legal moves, so that each test keeps its own seeded generator.
template <class Pick>
GameRecord random_game(const Variant& v, std::string id, std::string south, std::string north, Pick pick) {
  GameRecord g = record_of(std::move(id), std::move(south), std::move(north), {});
  g.variant = v;
  Position p = start_position(v);
  while (!p.over) {
    const MoveList moves = legal_moves(v, p);
    const Move m = moves.moves[static_cast<std::size_t>(pick(moves.size))];
    apply(v, p, m);
    g.moves.push_back(m);
    g.move_info.push_back({});
  }
  g.result = outcome(v, p);
  g.store_south = store(v, p, Side::South);
  g.store_north = store(v, p, Side::North);
  g.swapped = p.swapped;
  return g;
}

}  // namespace kalah::test
