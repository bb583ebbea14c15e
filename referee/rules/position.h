// Kalah positions and moves: pure, value types, copy-make.
//
// Board layout (used in every text and JSON output), for m = variant.pits:
//   cells[0 .. m-1]     South's pits, left to right from South's view
//   cells[m]            South's store
//   cells[m+1 .. 2m]    North's pits, left to right from North's view
//   cells[2m+1]         North's store
// so sowing (counter-clockwise) simply walks the indices upwards and wraps.
// Pit i of South (index i) faces index 2m - i.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "referee/rules/expected.h"
#include "referee/rules/variant.h"

namespace kalah {

enum class Side : std::uint8_t { South = 0, North = 1 };

constexpr Side opponent(Side s) { return s == Side::South ? Side::North : Side::South; }
const char* to_string(Side s);  // "south" / "north"

// The pie rule's state. With pie=off it is always None.
enum class Pie : std::uint8_t {
  None,       // no pie decision pending
  FirstMove,  // South's first move: it never earns an extra turn
  Offer,      // North may answer `swap`
};

// A move: a pit number 1..m from the mover's own left, or the pie swap.
struct Move {
  std::uint8_t pit = 0;  // 0 encodes swap

  static constexpr Move swap() { return Move{0}; }
  static constexpr Move at(int pit) { return Move{static_cast<std::uint8_t>(pit)}; }
  constexpr bool is_swap() const { return pit == 0; }
  friend constexpr bool operator==(Move, Move) = default;
};

std::string to_string(Move m);                     // "3" or "swap"
Expected<Move> parse_move(std::string_view text);  // syntax only; legality is legal()

// At most 16 pits plus the swap.
struct MoveList {
  std::array<Move, Variant::kMaxPits + 1> moves;
  int size = 0;

  const Move* begin() const { return moves.data(); }
  const Move* end() const { return moves.data() + size; }
  bool contains(Move m) const;
};

enum class Outcome : std::uint8_t {
  Ongoing,
  FirstWins,   // "1-0": the player who started as South won
  SecondWins,  // "0-1"
  Draw,        // "1/2-1/2"
};
const char* to_string(Outcome o);  // "1-0", "0-1", "1/2-1/2", "*"

struct Position {
  using Cell = std::uint16_t;  // up to 2*16*16 = 512 seeds
  std::array<Cell, 2 * Variant::kMaxPits + 2> cells{};
  Side to_move = Side::South;
  Pie pie = Pie::None;
  bool swapped = false;  // the pie swap happened: the first player now plays North
  bool over = false;

  friend bool operator==(const Position&, const Position&) = default;
};

// The players by seat rather than by side: the one who started as South (and moves first) and
// the other. After a pie swap the first player sits North.
enum class Seat : std::uint8_t { First = 0, Second = 1 };

// Whose move it is: the player, not the side (so an extra turn keeps the mover, and after a swap
// Side::North is the first player's move).
constexpr Seat player_to_move(const Position& p) {
  return (p.to_move == Side::North) != p.swapped ? Seat::Second : Seat::First;
}

// The side a seat plays on.
constexpr Side side_of(Seat s, const Position& p) {
  return (s == Seat::First) != p.swapped ? Side::South : Side::North;
}

Position start_position(const Variant& v);

// The legal moves in order: pits 1..m, then swap when offered. Empty iff over.
MoveList legal_moves(const Variant& v, const Position& p);
int legal_move_count(const Variant& v, const Position& p);
bool is_legal(const Variant& v, const Position& p, Move m);

// Plays a legal move in place (precondition, asserted in debug builds).
void apply(const Variant& v, Position& p, Move m);

inline Position after(const Variant& v, Position p, Move m) {
  apply(v, p, m);
  return p;
}

int store(const Variant& v, const Position& p, Side s);
int seeds_on_side(const Variant& v, const Position& p, Side s);
Outcome outcome(const Variant& v, const Position& p);

// Compact notation that round-trips exactly:
//   "<south pits>/<south store>/<north pits>/<north store> <s|n>[ pie=first|pie=offer][ swapped]"
//   e.g. the start of Kalah(6,4): "4,4,4,4,4,4/0/4,4,4,4,4,4/0 s"
std::string to_notation(const Variant& v, const Position& p);
Expected<Position> parse_notation(const Variant& v, std::string_view text);

// A drawing of the board for tests and logs, North's row on top (read from
// South's side, so North's pit 1 is on the right):
//        6  5  4  3  2  1
//      [ 4  4  4  4  4  4 ]
//   0                        0
//      [ 4  4  4  4  4  4 ]
//        1  2  3  4  5  6
std::string render(const Variant& v, const Position& p);

// ---- Start positions (docs/RULES.md, "Start positions") ---------------------------------------
// The notation users write in configs, `referee --start`, KEP `position` and the PGN KalahStart tag:
//   "<South's pits>/<North's pits> <South store>-<North store> <S|N>"
// each row from its owner's left (pit 1 first), e.g. the standard Kalah(6,4) start
//   "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S".
// The seed total may differ from 2 * pits * seeds: uneven boards are the point.

// The most seeds a start may hold: what a standard board of that size holds at most.
constexpr int max_start_seeds(const Variant& v) { return 2 * v.pits * Variant::kMaxSeeds; }

std::string to_start_notation(const Variant& v, const Position& p);
// Parses and validates: one row of v.pits pits per side, counts >= 0, 1..max_start_seeds(v) seeds in
// all, a game not over by the rules of `v`. The pie rule only applies from the standard start, so a
// variant with pie=on takes no other start (an error says so).
Expected<Position> parse_start(const Variant& v, std::string_view text);
// Seeds in pits and stores: the same all game long.
int seed_total(const Variant& v, const Position& p);
// The smallest `seeds` whose standard board holds as many seeds as `p` (at least v.seeds): engines
// size their tables from the variant, and a start may hold more seeds than the standard board.
int seeds_to_hold(const Variant& v, const Position& p);

}  // namespace kalah
