// Values every ply of a game with perfect play (`arena analyse`, docs/ANALYSIS.md): the endgame
// database where a position is in it, the exact solver otherwise, under a time budget per position.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "arena/analysis/analysis_file.h"
#include "arena/config/analysis_config.h"
#include "referee/endgame/database.h"
#include "referee/record/record.h"
#include "referee/solver/solver.h"

namespace kalah::analysis {

// How many games of the analysis pass through each of their early positions (a book's first plies are
// in many games): such a position gets a larger budget, since proving it proves a ply of each of them.
class SharedPositions {
 public:
  static constexpr int kPlies = 12;                      // the first plies of each game are counted
  static constexpr std::size_t kMaxPositions = 1 << 20;  // then no new ones (memory stays bounded)
  void add(const GameRecord& game);
  int games_through(const Variant& v, const Position& p) const;  // 0 when not counted

 private:
  std::unordered_map<std::string, int> games_;  // by the variant and the position's notation
};

// What every searched position gave, proved or not, shared by the analysers of one run: games on other
// threads meet the same positions (a book's first plies), and a position the budget did not prove once is
// not searched again. A position being searched by one thread is waited for by the others.
class SearchedPositions {
 public:
  static constexpr std::size_t kMaxPositions = 1 << 20;  // then forgotten all at once (memory stays bounded)
  // The result for `key` if known (after waiting for a search of it in progress); otherwise none, and
  // the caller is to search it and call finish().
  std::optional<std::optional<int>> claim(const std::string& key);
  // The caller's search of a claimed key: recorded (a null too) unless `record` is false (a search cut
  // short by a stop says nothing about the position).
  void finish(const std::string& key, std::optional<int> result, bool record);

 private:
  std::mutex mutex_;
  std::condition_variable done_;
  std::unordered_map<std::string, std::optional<int>> results_;
  std::unordered_set<std::string> in_progress_;
};

// How far the build of an endgame database has come (one not read whole from the cache), for a progress
// line: told once before the build starts (ready == loaded), then as levels are done, at most every
// 2 s, and after the last one.
struct DatabaseProgress {
  std::string name;  // "p6-standard-side-empty-owner"
  int target = 0;    // the database is to hold every position with up to `target` seeds in the pits
  int loaded = -1;   // levels 0..loaded were read from the cache (-1: none)
  int ready = -1;    // levels 0..ready are complete
  double share = 0;  // of the positions to build, the share built
  double seconds = 0;
};

// The line for it: "endgame database p6-standard-side-empty-owner: building positions with up to 25 seeds in
// the pits" as the build starts, then "endgame database p6-...: 21/25 seeds, 43.0% of its positions, 61 s".
std::string describe(const DatabaseProgress& p);

struct AnalyserOptions {
  // The defaults are [analysis]'s (arena::AnalysisConfig).
  std::chrono::milliseconds budget{arena::AnalysisConfig{}.budget_ms};  // per position; the search stops there
  // A position that n games pass through gets budget × min(n / 2, max_budget_factor): a colour-swapped
  // pair plays one opening twice, and the second game finds the first one's result remembered.
  const SharedPositions* shared = nullptr;
  SearchedPositions* searched = nullptr;  // none: each analyser remembers only its own searches
  int max_budget_factor = 100;
  bool database_only = arena::AnalysisConfig{}.db_only;       // no search: null wherever the database does not reach
  std::size_t hash_mb = arena::AnalysisConfig{}.hash_mb;      // each analyser's transposition table
  std::uint64_t database_mb = arena::AnalysisConfig{}.db_mb;  // the endgame database (one per rule set, shared)
  std::filesystem::path cache_dir;                            // where databases are cached; empty: none
  int database_threads = 1;                                   // threads that build a database not in the cache
  std::function<void(const DatabaseProgress&)> database_progress;  // set: told of a build as it goes
  const std::atomic<bool>* stop = nullptr;                         // set: every search gives up at once
};

// The endgame databases of one analysis, one per rule set (endgame::DbKey), loaded from the cache or
// built on first use and shared by every Analyser.
class Databases {
 public:
  explicit Databases(const AnalyserOptions& options) : options_(options) {}
  // The database for `v`, or null when none applies (the majority rule, more seeds than the solver
  // handles). Thread-safe; the first caller for a rule set loads or builds it.
  std::shared_ptr<const endgame::Database> for_variant(const Variant& v);
  // "p6-standard-side-empty-owner: 30 seeds (loaded from the cache in 0.4 s)", one per database used.
  std::vector<std::string> describe() const;

 private:
  AnalyserOptions options_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<endgame::Database>> by_key_;
};

// What the analysis of one game cost and found.
struct GameCost {
  int positions = 0;  // positions valued (the plies' and the one after the last)
  int proved = 0;     // of which exactly
  std::uint64_t nodes = 0;
};

// One analyser per thread: it keeps a solver per variant, whose table carries over from game to game.
class Analyser {
 public:
  Analyser(const AnalyserOptions& options, Databases& databases) : options_(options), databases_(databases) {}

  // One entry per ply of game.moves. A move the rules refuse ends the analysis there (the rest null):
  // the journal's own checks (arena verify) report such a game.
  GameAnalysis analyse(const GameRecord& game, GameCost* cost = nullptr);

  // The mover's final store difference with perfect play from p (stores so far included), or nullopt
  // when the budget ran out (or the variant is beyond the solver). `hint`: a guess the search starts
  // from (any value gives the same result, a good one sooner).
  std::optional<int> value(const Variant& v, const Position& p, GameCost* cost = nullptr,
                           std::optional<int> hint = std::nullopt);

 private:
  struct Solver {
    std::unique_ptr<solver::ExactSolver> exact;  // null when the variant is beyond the solver
    std::shared_ptr<const endgame::Database> database;
    // What each searched position gave, proved or not (by notation): games that share an opening meet
    // the same positions, and a position the budget did not prove once is not searched again.
    std::unordered_map<std::string, std::optional<int>> searched;
  };
  Solver& solver_for(const Variant& v);

  AnalyserOptions options_;
  Databases& databases_;
  std::map<std::string, Solver> solvers_;  // by the variant's text
};

}  // namespace kalah::analysis
