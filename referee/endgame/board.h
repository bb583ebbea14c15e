// The solver's board: the pits seen from the side to move, and a move that
// returns what it gained. The referee's Position is the reference; this copy
// is smaller (one byte a pit), knows nothing of the pie rule, and reports the
// change of the store difference directly, which is what the search scores.
//
// Layout for M pits a side:
//   pits[0 .. M-1]    the mover's pits, from the mover's left (pit 1 is index 0)
//   pits[M .. 2M-1]   the opponent's pits, from the opponent's left
// Sowing walks 0 .. M-1, the mover's store, M .. 2M-1, and wraps round, so the
// mover's pit i faces the opponent's index 2M-1-i. After a move that passes
// the turn the two halves swap places.
#pragma once

#include <array>
#include <cstdint>

#include "referee/endgame/index.h"
#include "referee/rules/position.h"

namespace kalah::endgame {

// The rule keys the search needs, from a Variant (the pie rule is handled above
// the search, at the first two plies).
struct Rules {
  int pits = 6;
  int total = 48;  // seeds in play
  bool empty_capture = false;
  bool no_move_ending = false;
  bool remainder_none = false;
  bool majority = false;

  static Rules of(const Variant& v) {
    return Rules{v.pits,
                 v.total_seeds(),
                 v.capture == Capture::Empty,
                 v.ending == Ending::NoMove,
                 v.remainder == Remainder::None,
                 v.majority};
  }
  // With the remainder going to its owner every seed ends in a store, so a
  // value (a change of store difference) always has the parity of the seeds
  // still in the pits: MTD(f) can step by two.
  int step() const { return remainder_none ? 1 : 2; }
};

template <int M>
struct Board {
  // Boards up to 8 pits a side fill one 16-byte word (unused cells stay 0), so
  // that play() can sow with a few 128-bit additions.
  static constexpr int kCells = M <= 8 ? 16 : 2 * M;
  alignas(16) std::array<std::uint8_t, kCells> pits{};
  std::uint8_t seeds = 0;       // in all pits
  std::uint16_t own_store = 0;  // only read with the majority rule
  std::uint16_t other_store = 0;

  int own_seeds() const {
    int s = 0;
    for (int i = 0; i < M; ++i) s += pits[i];
    return s;
  }
};

// The result of one move.
struct MoveResult {
  int gain;    // change of (mover's store - opponent's store), end-of-game remainder included
  bool again;  // the mover moves again (child is seen from the same side)
  bool over;   // the game ended; child is meaningless
};

// Whether a move ends the game: `own`/`other` are the seeds left in the
// mover's and the opponent's pits, `again` whether the mover moves next, the
// stores as they are after the move (before any remainder is added).
inline bool ends_game(const Rules& r, bool again, int own, int other, int own_store, int other_store) {
  const bool empty = r.no_move_ending ? (again ? own : other) == 0 : own == 0 || other == 0;
  return empty || (r.majority && (2 * own_store > r.total || 2 * other_store > r.total));
}

// Plays pit i (0-based, non-empty) of the side to move into `child`: one seed
// at a time (any board size).
template <int M>
inline MoveResult play_by_seed(const Rules& r, const Board<M>& b, int i, Board<M>& child) {
  constexpr int kLap = 2 * M + 1;  // cycle positions: pits 0..M-1, store M, pits M+1..2M -> index-1
  std::array<std::uint8_t, Board<M>::kCells> p = b.pits;
  int seeds = p[i];
  p[i] = 0;
  int gain = 0;
  int last;
  if (seeds >= kLap) [[unlikely]] {
    const int laps = seeds / kLap;
    for (int j = 0; j < 2 * M; ++j) p[j] = static_cast<std::uint8_t>(p[j] + laps);
    gain += laps;
    seeds -= laps * kLap;
  }
  last = i + seeds;  // cycle position, maybe past one lap
  // Sow the rest: own pits after i, the store, the opponent's pits, own pits again.
  {
    int pos = i + 1;
    int left = seeds;
    const int own_end = pos + left < M ? pos + left : M;
    for (int j = pos; j < own_end; ++j) ++p[j];
    left -= own_end - pos;
    if (left > 0) {
      ++gain;  // the store
      --left;
      const int n = left < M ? left : M;
      for (int j = 0; j < n; ++j) ++p[M + j];
      left -= n;
      for (int j = 0; j < left; ++j) ++p[j];  // round the corner: at most i+1 pits
    }
  }
  if (last >= kLap) last -= kLap;
  const bool again = last == M;
  if (last < M && p[last] == 1) {
    const int facing = 2 * M - 1 - last;
    if (p[facing] != 0 || r.empty_capture) {
      gain += p[facing] + 1;
      p[facing] = 0;
      p[last] = 0;
    }
  }
  int own = 0, other = 0;
  for (int j = 0; j < M; ++j) own += p[j];
  for (int j = M; j < 2 * M; ++j) other += p[j];

  const int own_store = b.own_store + gain;
  if (ends_game(r, again, own, other, own_store, b.other_store)) {
    if (!r.remainder_none) gain += own - other;
    return {gain, again, true};
  }
  child.seeds = static_cast<std::uint8_t>(own + other);
  if (again) {
    child.pits = p;
    child.own_store = static_cast<std::uint16_t>(own_store);
    child.other_store = b.other_store;
  } else {
    for (int j = 0; j < M; ++j) {
      child.pits[j] = p[M + j];
      child.pits[M + j] = p[j];
    }
    child.own_store = b.other_store;
    child.other_store = static_cast<std::uint16_t>(own_store);
  }
  return {gain, again, false};
}

namespace detail {

using u128 = unsigned __int128;

inline u128 load(const std::uint8_t* p) {
  u128 x;
  __builtin_memcpy(&x, p, 16);
  return x;
}
inline void save(std::uint8_t* p, u128 x) { __builtin_memcpy(p, &x, 16); }
// The sum of the 16 bytes (at most 255 here).
inline int byte_sum(u128 x) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  const auto lo = static_cast<std::uint64_t>(x), hi = static_cast<std::uint64_t>(x >> 64);
  return static_cast<int>(((lo * kOnes) >> 56) + ((hi * kOnes) >> 56));
}
inline u128 byte_mask(int first, int count) {  // bytes [first, first+count) = 0xff
  u128 m = 0;
  for (int j = first; j < first + count; ++j) m |= u128(0xff) << (8 * j);
  return m;
}

// What sowing `rem` (< one lap) seeds from pit i adds: one per cell, the store
// aside; and where the last seed lands (cycle position, store = M).
template <int M>
struct SowTable {
  u128 add[M][2 * M + 1];
  std::uint8_t store[M][2 * M + 1];
  std::uint8_t last[M][2 * M + 1];

  SowTable() {
    constexpr int kLap = 2 * M + 1;
    for (int i = 0; i < M; ++i)
      for (int rem = 0; rem < kLap; ++rem) {
        u128 a = 0;
        int st = 0;
        for (int s = 1; s <= rem; ++s) {
          const int pos = (i + s) % kLap;
          if (pos == M)
            ++st;
          else
            a += u128(1) << (8 * (pos < M ? pos : pos - 1));
        }
        add[i][rem] = a;
        store[i][rem] = static_cast<std::uint8_t>(st);
        last[i][rem] = static_cast<std::uint8_t>((i + rem) % kLap);
      }
  }
  static const SowTable& get() {
    static const SowTable table;
    return table;
  }
};

}  // namespace detail

// The same as play_by_seed for boards up to 8 pits a side, on one 128-bit
// word: a sowing is one addition from a table.
template <int M>
inline MoveResult play_word(const Rules& r, const Board<M>& b, int i, Board<M>& child) {
  static_assert(M <= 8);
  using detail::u128;
  constexpr int kLap = 2 * M + 1;
  static const detail::SowTable<M>& table = detail::SowTable<M>::get();
  static const u128 kOwn = detail::byte_mask(0, M);
  static const u128 kPits = [] {
    u128 ones = 0;
    for (int j = 0; j < 2 * M; ++j) ones |= u128(1) << (8 * j);
    return ones;
  }();

  u128 x = detail::load(b.pits.data());
  int seeds = b.pits[i];
  x &= ~(u128(0xff) << (8 * i));
  int gain = 0;
  if (seeds >= kLap) [[unlikely]] {
    const int laps = seeds / kLap;
    x += kPits * static_cast<unsigned>(laps);
    gain += laps;
    seeds -= laps * kLap;
  }
  x += table.add[i][seeds];
  gain += table.store[i][seeds];
  const int last = table.last[i][seeds];
  const bool again = last == M;
  if (last < M && static_cast<std::uint8_t>(x >> (8 * last)) == 1) {
    const int facing = 2 * M - 1 - last;
    const int opposite = static_cast<std::uint8_t>(x >> (8 * facing));
    if (opposite != 0 || r.empty_capture) {
      gain += opposite + 1;
      x &= ~((u128(0xff) << (8 * last)) | (u128(0xff) << (8 * facing)));
    }
  }
  const int in_pits = b.seeds - gain;  // every seed that left the pits went to the mover's store
  const int own = detail::byte_sum(x & kOwn);
  const int other = in_pits - own;

  const int own_store = b.own_store + gain;
  if (ends_game(r, again, own, other, own_store, b.other_store)) {
    if (!r.remainder_none) gain += own - other;
    return {gain, again, true};
  }
  child.seeds = static_cast<std::uint8_t>(in_pits);
  if (again) {
    detail::save(child.pits.data(), x);
    child.own_store = static_cast<std::uint16_t>(own_store);
    child.other_store = b.other_store;
  } else {
    detail::save(child.pits.data(), (x >> (8 * M)) | ((x & kOwn) << (8 * M)));
    child.own_store = b.other_store;
    child.other_store = static_cast<std::uint16_t>(own_store);
  }
  return {gain, again, false};
}

template <int M>
inline MoveResult play(const Rules& r, const Board<M>& b, int i, Board<M>& child) {
  if constexpr (M <= 8)
    return play_word(r, b, i, child);
  else
    return play_by_seed(r, b, i, child);
}

// The position's rank in `index` (over 2M pits): an exact key, and the
// database index when few enough seeds are left.
template <int M>
inline std::uint64_t rank_of(const CompositionIndex& index, const Board<M>& b) {
  if constexpr (M <= 8)
    return index.rank16<2 * M>(b.pits.data());
  else
    return index.rank(b.pits.data());
}

// Whether the game is over in this position (only possible for boards built
// by hand: play() never returns a finished child), and its remaining value.
template <int M>
inline bool finished(const Rules& r, const Board<M>& b, int& value) {
  const int own = b.own_seeds();
  const int other = b.seeds - own;
  bool over = r.no_move_ending ? own == 0 : (own == 0 || other == 0);
  if (r.majority) over = over || 2 * b.own_store > r.total || 2 * b.other_store > r.total;
  value = over && !r.remainder_none ? own - other : 0;
  return over;
}

// Conversions from and to the referee's Position (whose pie state is ignored).
template <int M>
Board<M> from_position(const Variant& v, const Position& pos) {
  Board<M> b;
  const int south = 0, north = v.pits + 1;
  const int own = pos.to_move == Side::South ? south : north;
  const int other = pos.to_move == Side::South ? north : south;
  int seeds = 0;
  for (int i = 0; i < M; ++i) {
    b.pits[i] = static_cast<std::uint8_t>(pos.cells[own + i]);
    b.pits[M + i] = static_cast<std::uint8_t>(pos.cells[other + i]);
    seeds += b.pits[i] + b.pits[M + i];
  }
  b.seeds = static_cast<std::uint8_t>(seeds);
  b.own_store = static_cast<std::uint16_t>(store(v, pos, pos.to_move));
  b.other_store = static_cast<std::uint16_t>(store(v, pos, opponent(pos.to_move)));
  return b;
}

}  // namespace kalah::endgame
