// The exact search: fail-soft null-window alpha-beta over the future change of
// the store difference (MTD(f) drives it from solver.cpp). Compiled per board
// size M.
//
// At a node with k seeds in the pits the value lies in [-k, k]; with the
// remainder to its owner it also has the parity of k. A node answers "is the
// value >= gamma?" and returns a bound: >= gamma means a lower bound, < gamma
// an upper bound.
//   1. k <= K: the endgame database has the exact value.
//   2. Futility: gamma > k or gamma <= -k is decided by the range alone.
//   3. Transposition table bounds.
//   4. Children that end the game or fall into the database are exact at once;
//      a cut from them costs no search.
//   5. Enhanced transposition cutoffs: the table's bounds of the remaining
//      children, and their own ranges, may cut the node or rule a child out
//      before any child is searched.
//   6. The rest in order: the table's best move, moves that earn another turn
//      (the one nearest the store first), then by immediate gain.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>

#include "referee/endgame/board.h"
#include "referee/endgame/database.h"
#include "referee/endgame/index.h"
#include "referee/solver/transposition.h"

namespace kalah::solver {

// The endgame database, its board and its index live in referee/endgame (the arena uses them too).
using namespace kalah::endgame;

// Positions being searched by some thread right now (a small lossy set).
class BusySet {
 public:
  bool taken(std::uint64_t key) const { return slot(key).load(std::memory_order_relaxed) == key + 1; }
  void mark(std::uint64_t key) { slot(key).store(key + 1, std::memory_order_relaxed); }
  void clear(std::uint64_t key) {
    std::uint64_t expected = key + 1;
    slot(key).compare_exchange_strong(expected, 0, std::memory_order_relaxed);
  }

 private:
  std::atomic<std::uint64_t>& slot(std::uint64_t key) const { return slots_[(key * 0x9e3779b97f4a7c15ULL) >> 52]; }
  mutable std::atomic<std::uint64_t> slots_[4096] = {};
};

class BusyMark {
 public:
  BusyMark() = default;
  BusyMark(BusySet* set, std::uint64_t key) : set_(set), key_(key) { set_->mark(key); }
  BusyMark& operator=(BusyMark&& o) noexcept {
    release();
    set_ = o.set_;
    key_ = o.key_;
    o.set_ = nullptr;
    return *this;
  }
  ~BusyMark() { release(); }

 private:
  void release() {
    if (set_) set_->clear(key_);
    set_ = nullptr;
  }
  BusySet* set_ = nullptr;
  std::uint64_t key_ = 0;
};

// What a search may use, shared by all its threads.
struct SearchShared {
  Rules rules;
  const CompositionIndex* index = nullptr;  // over all seeds of the variant
  bool exact_keys = true;                   // keys are ranks (no collisions possible)
  TranspositionTable* tt = nullptr;
  // A small table, meant to stay in the processor's caches, for the many
  // nodes a few seeds above the database (k <= db_levels + near_margin):
  // their subtrees are small, so losing an entry costs little, while a
  // look-up in the big table costs a trip to memory.
  TranspositionTable* near_tt = nullptr;
  int near_margin = 0;
  const Database* db = nullptr;
  int db_levels = -1;                       // positions with up to this many seeds are looked up
  const std::atomic<bool>* stop = nullptr;  // set by the caller: give up
  std::atomic<bool>* pass_done = nullptr;   // set when another thread finished this pass
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  BusySet* busy = nullptr;  // with helper threads
  int share_margin = 10;    // ... at nodes with k > db_levels + margin
  int etc_margin = 2;       // enhanced transposition cutoffs at nodes with k > db_levels + margin
  int store_margin = 1;     // no table entries for nodes with k <= db_levels + margin
  // Told about every finished MTD(f) pass: gamma, result, nodes, seconds.
  const std::function<void(int, int, std::uint64_t, double)>* on_pass = nullptr;
};

template <int M>
class Search {
 public:
  Search(const SearchShared& shared, int helper) : s_(shared), helper_(helper) {}

  std::uint64_t nodes() const { return nodes_; }
  bool aborted() const { return aborted_; }
  void reset_abort() { aborted_ = false; }

  std::uint64_t key(const Board<M>& b) const {
    if (s_.exact_keys) {
      std::uint64_t r = rank_of(*s_.index, b);
      if (s_.rules.majority) r = r * (s_.rules.total + 1) + b.own_store;
      return r;
    }
    // Too many positions for a 64-bit rank: a hash of the pits (and stores).
    std::uint64_t h = 0x243f6a8885a308d3ULL;
    for (int i = 0; i < 2 * M; ++i) h = (h ^ b.pits[i]) * 0x100000001b3ULL + (h >> 29);
    if (s_.rules.majority) h = (h ^ b.own_store) * 0xff51afd7ed558ccdULL;
    h ^= h >> 31;
    return h * 0x94d049bb133111ebULL;
  }

  // Exact value when k <= db_levels (a rank is an index in the database).
  int db_value(const Board<M>& b) const { return s_.db->value(rank_of(*s_.index, b)); }

  // Fail-soft: is value(b) >= gamma? See the file comment.
  int test(const Board<M>& b, int gamma, int ply) { return test(b, gamma, ply, key(b)); }

  // The same with the position's key already known (the parent computes the
  // keys of all children at once and prefetches their table entries).
  int test(const Board<M>& b, int gamma, int ply, std::uint64_t key) {
    ++nodes_;
    if ((nodes_ & 1023) == 0 && should_stop()) aborted_ = true;
    if (aborted_) return 0;
    const int k = b.seeds;
    if (k <= s_.db_levels) return db_value(b);
    if (gamma > k) return k;
    if (gamma <= -k) return -k;

    const bool use_tt = k > s_.db_levels + s_.store_margin;
    TranspositionTable* const table = table_for(k);
    TTData tt;
    int tt_move = -1;
    if (use_tt && table->probe(key, tt)) {
      if (tt.lower >= gamma) return tt.lower;
      if (tt.upper < gamma) return tt.upper;
      if (tt.move != 0xff) tt_move = tt.move;
    }
    const std::uint64_t nodes_before = nodes_;

    Child children[M];
    int n = expand(b, children);
    int best = -1000, best_move = -1;
    if (take_exact_children(children, n, gamma, best, best_move) ||
        bound_children(children, n, k, gamma, tt_move, best, best_move))
      return finish(table, key, use_tt, gamma, best, best_move, nodes_before);

    // Insertion sort: at most M children.
    if constexpr (M > 1)
      for (int j = 1; j < n; ++j)
        for (int i = j; i > 0 && children[i].order > children[i - 1].order; --i)
          std::swap(children[i], children[i - 1]);
    // Helpers take the replies to the first move in another order. Not the first moves themselves: the
    // first is the one most likely to prove the bound (in a pass that succeeds it usually does alone),
    // and the others wait for their turn below when another thread is on them.
    if (M > 1 && helper_ && ply == 1 && n > 1) std::rotate(children, children + (helper_ + 1) % n, children + n);

    // With helper threads, big subtrees that another thread is searching
    // right now wait until the others are done (their results may be in the
    // table by then), except the first child ("young brothers wait").
    const bool share = s_.busy && k > s_.db_levels + s_.share_margin;
    int deferred[M];
    int n_deferred = 0;
    for (int t = 0; t < n + n_deferred; ++t) {
      const int j = t < n ? t : deferred[t - n];
      const Child& c = children[j];
      BusyMark mark;
      if (share) {
        if (t > 0 && t < n && s_.busy->taken(c.key)) {
          deferred[n_deferred++] = j;
          continue;
        }
        mark = BusyMark(s_.busy, c.key);
      }
      int v;
      if (c.again) {
        v = c.gain + test(c.board, gamma - c.gain, ply + 1, c.key);
      } else {
        v = c.gain - test(c.board, c.gain - gamma + 1, ply + 1, c.key);
      }
      if (aborted_) return 0;
      if (v > best) {
        best = v;
        best_move = c.pit;
        if (best >= gamma) break;
      }
    }
    return finish(table, key, use_tt, gamma, best, best_move, nodes_before);
  }

  // A quick depth-limited alpha-beta estimate (leaves count the seeds already
  // stored, and the database where it reaches): the first guess of MTD(f).
  // Gives up (aborted()) after `max_nodes` or when the search must stop.
  int estimate(const Board<M>& b, int depth, int alpha, int beta, std::uint64_t max_nodes) {
    ++nodes_;
    if ((nodes_ & 1023) == 0 && (nodes_ >= max_nodes || should_stop())) aborted_ = true;
    if (aborted_) return 0;
    if (b.seeds <= s_.db_levels) return db_value(b);
    if (depth == 0) return 0;
    int best = -1000;
    Board<M> child;
    for (int i = M - 1; i >= 0; --i) {
      if (b.pits[i] == 0) continue;
      const MoveResult r = play(s_.rules, b, i, child);
      int v = r.gain;
      if (!r.over)
        v = r.again ? r.gain + estimate(child, depth - 1, alpha - r.gain, beta - r.gain, max_nodes)
                    : r.gain - estimate(child, depth - 1, r.gain - beta, r.gain - alpha, max_nodes);
      if (aborted_) return 0;
      if (v > best) {
        best = v;
        if (v > alpha) alpha = v;
        if (alpha >= beta) break;
      }
    }
    return best;
  }

 private:
  // A child of the node being searched.
  struct Child {
    Board<M> board;
    std::uint64_t key;  // or the database index
    int gain;
    bool again;
    bool over;
    int order;
    int pit;
  };

  // The children of every legal move of `b`, with the memory each child will need fetched at once: its
  // database entry, or its table bucket. Returns how many. (Inlined, as the stages of test() below: they are
  // the node's work, split for reading only.)
  [[gnu::always_inline]] int expand(const Board<M>& b, Child (&children)[M]) {
    int n = 0;
    for (int i = 0; i < M; ++i) {
      if (b.pits[i] == 0) continue;
      Child& c = children[n++];
      const MoveResult r = play(s_.rules, b, i, c.board);
      c.gain = r.gain;
      c.again = r.again;
      c.over = r.over;
      c.pit = i;
      if (r.over) continue;
      if (c.board.seeds <= s_.db_levels) {
        c.key = rank_of(*s_.index, c.board);
        __builtin_prefetch(s_.db->data() + c.key);
      } else {
        c.key = this->key(c.board);
        if (c.board.seeds > s_.db_levels + s_.store_margin) table_for(c.board.seeds)->prefetch(c.key);
      }
    }
    return n;
  }

  // Children whose value is known at once (the end of the game, the database) are valued and dropped from the
  // first `n`; `best` and `best_move` take the best of them. True at a cut: one reaches gamma.
  [[gnu::always_inline]] bool take_exact_children(Child* children, int& n, int gamma, int& best, int& best_move) {
    int m = 0;
    for (int j = 0; j < n; ++j) {
      Child& c = children[j];
      int exact;
      if (c.over) {
        exact = c.gain;
      } else if (c.board.seeds <= s_.db_levels) {
        const int v = s_.db->value(c.key);
        exact = c.again ? c.gain + v : c.gain - v;
      } else {
        children[m++] = c;
        continue;
      }
      if (exact > best) {
        best = exact;
        best_move = c.pit;
        if (best >= gamma) return true;
      }
    }
    n = m;
    return false;
  }

  // Ranges and table bounds of the other children (of a node with `k` seeds): a cut without search (true, the
  // cut's value and move in best and best_move), or a child that cannot reach gamma, dropped (its bound still
  // counts for fail-soft). The children left to search get their order.
  [[gnu::always_inline]] bool bound_children(Child* children, int& n, int k, int gamma, int tt_move, int& best,
                                             int& best_move) {
    const bool etc = k > s_.db_levels + s_.etc_margin;
    int m = 0;
    for (int j = 0; j < n; ++j) {
      Child& c = children[j];
      const int ck = c.board.seeds;
      int lo = -ck, hi = ck;  // the child's value range, from its side
      if (etc && ck > s_.db_levels + s_.store_margin) {
        TTData d;
        if (table_for(ck)->probe(c.key, d)) lo = std::max<int>(lo, d.lower), hi = std::min<int>(hi, d.upper);
      }
      // My value through this child lies in [mine_lo, mine_hi].
      const int mine_lo = c.again ? c.gain + lo : c.gain - hi;
      const int mine_hi = c.again ? c.gain + hi : c.gain - lo;
      if (mine_lo >= gamma) {
        best = mine_lo;
        best_move = c.pit;
        return true;
      }
      if (mine_hi < gamma) {
        if (mine_hi > best) best = mine_hi, best_move = c.pit;
        continue;
      }
      c.order = c.pit == tt_move ? 1 << 20 : c.again ? (1 << 16) + c.pit : c.gain * 64 + c.pit;
      children[m++] = c;
    }
    n = m;
    return false;
  }

  TranspositionTable* table_for(int k) const {
    return s_.near_tt && k <= s_.db_levels + s_.near_margin ? s_.near_tt : s_.tt;
  }

  int finish(TranspositionTable* table, std::uint64_t key, bool use_tt, int gamma, int best, int move,
             std::uint64_t nodes_before) {
    if (use_tt) {
      const std::uint64_t spent = nodes_ - nodes_before + 1;
      const int work = 1 + std::min(62, 63 - __builtin_clzll(spent));
      if (best >= gamma)
        table->store(key, best, 32767, move, work);
      else
        table->store(key, -32768, best, move, work);
    }
    return best;
  }

  bool should_stop() const {
    if (s_.stop && s_.stop->load(std::memory_order_relaxed)) return true;
    if (s_.pass_done && s_.pass_done->load(std::memory_order_relaxed)) return true;
    return std::chrono::steady_clock::now() >= s_.deadline;
  }

  const SearchShared& s_;
  int helper_;
  std::uint64_t nodes_ = 0;
  bool aborted_ = false;
};

}  // namespace kalah::solver
