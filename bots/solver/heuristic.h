// The engine's fall-back when the exact search cannot finish in time:
// iterative-deepening alpha-beta on the referee's Position (so every variant
// key, pie included, follows the rules library exactly), scored by the store
// difference plus, where the endgame database covers the position, its exact
// remaining value.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "bots/solver/database.h"
#include "bots/solver/memory.h"
#include "referee/rules/position.h"

namespace kalah::solver {

struct HeuristicLimits {
  const std::atomic<bool>* stop = nullptr;
  // No new iteration starts after `soft`; the search is abandoned at `hard`.
  std::chrono::steady_clock::time_point soft = std::chrono::steady_clock::time_point::max();
  std::chrono::steady_clock::time_point hard = std::chrono::steady_clock::time_point::max();
  int max_depth = 200;
  std::uint64_t max_nodes = ~std::uint64_t{0};
};

struct Iteration {
  int depth = 0;
  int score = 0;  // margin for the player to move
  Move best;
  std::vector<Move> pv;
  std::uint64_t nodes = 0;  // so far, all iterations
};

class HeuristicSearch {
 public:
  HeuristicSearch(const Variant& v, std::size_t hash_mb);
  ~HeuristicSearch();

  void set_database(std::shared_ptr<const Database> db);
  // Touches the table's memory (see memory.h); safe during a search.
  void prefault();

  // The deepest completed iteration (depth 1 always completes). `on_iteration`
  // sees each completed one.
  Iteration run(const Position& p, const HeuristicLimits& limits,
                const std::function<void(const Iteration&)>& on_iteration = {});

 private:
  struct Entry;
  int search(const Position& p, int depth, int alpha, int beta, int ply);
  int evaluate(const Position& p);
  std::uint64_t hash(const Position& p) const;
  bool out_of_time();
  std::vector<Move> principal_variation(Position p, int depth);

  Variant variant_;
  LargeArray<Entry> table_;
  std::size_t table_size_ = 0;  // a power of two
  std::shared_ptr<const Database> db_;
  int db_levels_ = -1;
  const HeuristicLimits* limits_ = nullptr;
  std::uint64_t nodes_ = 0;
  std::uint64_t next_check_ = 0;  // of the clock
  bool aborted_ = false;
};

}  // namespace kalah::solver
