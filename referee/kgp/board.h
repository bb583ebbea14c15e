// KGP's board literals and our positions, both ways. A KGP board carries no side to move: in freeplay
// the client always moves as South, so the server mirrors the board for the player sitting North.
#pragma once

#include "referee/kgp/codec.h"
#include "referee/rules/position.h"

namespace kalah::kgp {

// The game a board describes with South to move: `rules` (its rule keys; pits and seeds are set from
// the board) and the position. An error when our rules cannot play it: more than Variant::kMaxPits pits,
// no seed or too many, a cell over 65535, or a game already over by the rules.
struct BoardGame {
  Variant variant;
  Position position;
};
Expected<BoardGame> game_of(const Board& board, Variant rules);

// The board `mover` is sent: its own row and store as South's, the other's as North's.
Board board_for(const Variant& v, const Position& p, Side mover);

}  // namespace kalah::kgp
