// kalah-solver as a KEP engine: the exact move when the exact search proves
// it within the time for this move, otherwise the move of kalah-alphabeta's
// search with the endgame database as its oracle. The database is loaded or
// built in the background at the start of a game, and used as far as it is
// ready.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "bots/alphabeta/alphabeta.h"
#include "bots/common/bot.h"
#include "bots/solver/oracle.h"
#include "referee/endgame/database.h"
#include "referee/solver/solver.h"

namespace kalah::solver {

// The endgame database, its board and its index live in referee/endgame (the arena uses them too).
using namespace kalah::endgame;

struct EngineOptions {
  std::size_t hash_mb = 128;       // exact search table (the alpha-beta one gets a quarter, at least 1)
  std::size_t db_memory_mb = 512;  // 0: no database
  std::filesystem::path cache_dir = default_cache_dir();
  int threads = 1;
};

class SolverBot : public bot::Bot {
 public:
  explicit SolverBot(EngineOptions options = {});
  ~SolverBot() override;

  std::string name() const override { return "kalah-solver"; }
  std::vector<kep::OptionDecl> options() const override;
  bool set_option(const std::string& name, const std::string& value) override;
  void new_game(const Variant& v) override;
  Move choose(const bot::SearchContext& context) override;
  // The nodes of the exact search solving Kalah(4,3) from its start, one thread, no database, a 16 MB table.
  bool has_bench() const override { return true; }
  long long bench() override;

  // For tests: wait until the database of the current game is ready.
  void wait_for_database();

 private:
  void prepare(const Variant& v);
  void stop_database_build();

  EngineOptions options_;
  Variant variant_;
  bool prepared_ = false;
  std::unique_ptr<ExactSolver> exact_;
  std::shared_ptr<Database> db_;
  std::unique_ptr<DatabaseOracle> oracle_;
  std::unique_ptr<alphabeta::Search> heuristic_;
  std::thread db_thread_;
  std::atomic<bool> db_cancel_{false};
  int failed_at_seeds_ = -1;  // seeds in the pits when the exact search last ran out of time
};

}  // namespace kalah::solver
