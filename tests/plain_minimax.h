// The reference for every exact value in the tests (the solver, the suite's labels, the analysis): the
// margin (final store difference) of the player to move under perfect play, by exhaustive negamax over the
// rules library, memoised on the notation (exact: it names the whole position). Extra turns keep the
// player; after a swap the same seat moves but the other player sits there. Tiny boards only.
#pragma once

#include <algorithm>
#include <map>
#include <string>

#include "referee/rules/position.h"

namespace kalah::test {

class PlainMinimax {
 public:
  explicit PlainMinimax(const Variant& v) : v_(v) {}

  int margin(const Position& p) {
    if (p.over) return store(v_, p, p.to_move) - store(v_, p, opponent(p.to_move));
    const std::string key = to_notation(v_, p);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    int best = -100000;
    for (Move m : legal_moves(v_, p)) best = std::max(best, move_margin(p, m));
    memo_.emplace(key, best);
    return best;
  }

  // What the player making `m` in `p` ends with, by perfect play after it.
  int move_margin(const Position& p, Move m) {
    const Position child = after(v_, p, m);
    const bool same_player = (child.to_move == p.to_move) != m.is_swap();
    return same_player ? margin(child) : -margin(child);
  }

 private:
  Variant v_;
  std::map<std::string, int> memo_;
};

}  // namespace kalah::test
