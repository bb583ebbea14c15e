// The exact search: the value of a position under perfect play and a move
// that keeps it, for every variant key. kalah-solver plays with it and
// `arena analyse` judges games with it. See docs/SOLVER.md.
//
// Values are margins: the final store difference from the view of the player
// to move (the change still to come plus the difference now).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "referee/endgame/database.h"
#include "referee/rules/position.h"
#include "referee/solver/transposition.h"

namespace kalah::solver {

// The endgame database, its board and its index live in referee/endgame (the arena uses them too).
using namespace kalah::endgame;

struct SearchShared;

struct SolveLimits {
  const std::atomic<bool>* stop = nullptr;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  // A guess of the margin (e.g. from a heuristic search) for MTD(f) to start
  // from; without one a short search makes the guess. Used by best_move and
  // value, best_move and best_moves for positions without a pie decision.
  std::optional<int> hint;
};

struct SolveStats {
  std::uint64_t nodes = 0;  // all threads
  int passes = 0;           // null-window searches
  double seconds = 0;
  struct Pass {
    int gamma;   // the test: value >= gamma (as a future change of the difference)
    int result;  // the bound it returned
    std::uint64_t nodes;
    double seconds;
  };
  std::vector<Pass> log;  // the MTD(f) passes, in order
};

struct MoveValue {
  Move move;
  int margin;  // for the player who makes the move
};

class ExactSolver {
 public:
  // hash_mb: the transposition table; threads: 1 or more (lazy SMP: all
  // threads run the same null-window search and share the table).
  ExactSolver(const Variant& v, std::size_t hash_mb, int threads = 1);
  ~ExactSolver();

  const Variant& variant() const { return variant_; }
  // The exact search needs at most 255 seeds (one byte a pit).
  static bool supports(const Variant& v) { return v.total_seeds() <= 255; }
  // Whether table keys are exact ranks (false only for boards with so many
  // positions that a hash stands in: then a collision is possible in theory).
  bool exact_keys() const;

  // The database to use, or null; positions with up to min(db->ready(), ...)
  // seeds are looked up (read when each search starts, so a database that is
  // still being built is used as far as it goes). Ignored with majority=on.
  void set_database(std::shared_ptr<const Database> db);
  void set_threads(int threads) { threads_ = threads < 1 ? 1 : threads; }
  // Called after every MTD(f) pass (from the searching thread) with gamma,
  // the result, the nodes and the seconds of the pass.
  void on_pass(std::function<void(int, int, std::uint64_t, double)> f) { on_pass_ = std::move(f); }
  // Tuning knobs (see search.h), for experiments.
  void set_margins(int etc_margin, int store_margin);
  void set_near_table(int near_margin, std::size_t near_kb);

  // The margin of the player to move in p (any pie state), or nullopt if the
  // limits stopped the search first. Bounds proved before a stop are kept.
  std::optional<int> value(const Position& p, const SolveLimits& limits = {});
  // A best move and the margin; nullopt if stopped or the game is over.
  std::optional<MoveValue> best_move(const Position& p, const SolveLimits& limits = {});
  // Every best move (all with the same margin), in move order.
  std::optional<std::vector<MoveValue>> best_moves(const Position& p, const SolveLimits& limits = {});
  // The exact margin of every legal move, in move order.
  std::optional<std::vector<MoveValue>> move_values(const Position& p, const SolveLimits& limits = {});

  const SolveStats& stats() const { return stats_; }
  void reset_stats() { stats_ = {}; }
  const TranspositionTable& table() const { return *tt_; }
  // Touches the table's memory so that searches do not stop for page faults
  // (safe while a search runs).
  void prefault() {
    tt_->prefault();
    if (near_tt_) near_tt_->prefault();
  }
  int db_levels() const;

  class Impl;

 private:
  SearchShared shared_for(const SolveLimits& limits) const;

  Variant variant_;
  int threads_;
  int etc_margin_ = 2;
  int store_margin_ = 1;
  int near_margin_ = 0;
  std::unique_ptr<TranspositionTable> tt_;
  std::unique_ptr<TranspositionTable> near_tt_;
  std::shared_ptr<const Database> db_;
  std::unique_ptr<Impl> impl_;
  SolveStats stats_;
  std::function<void(int, int, std::uint64_t, double)> on_pass_;
};

}  // namespace kalah::solver
