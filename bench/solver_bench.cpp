// kalah-solver: time to solve a variant from the start, with the endgame
// database build (or cache load) timed apart from the search.
//
//   ./build/bench/solver_bench                      small variants and Kalah(6,4) empty capture
//   KALAH_SOLVER_BENCH_LONG=1 ./build/bench/solver_bench   also Kalah(6,5) empty and Kalah(6,4) standard
//
// Environment: KALAH_SOLVER_CACHE (default: the solver's default cache dir; "" for none),
// KALAH_SOLVER_DB_MB (default 512), KALAH_SOLVER_HASH_MB (default 1024), KALAH_SOLVER_THREADS (default 2).
// Each figure is one solve (a solve of a fresh table is not repeatable in a loop without
// clearing it, which is part of what is measured); the counters give the search time, the
// database time and whether it came from the cache.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "referee/endgame/database.h"
#include "referee/solver/solver.h"

namespace {

using namespace kalah;
using namespace kalah::solver;
using Clock = std::chrono::steady_clock;

long env_number(const char* name, long fallback) {
  const char* s = std::getenv(name);
  return s && *s ? std::strtol(s, nullptr, 10) : fallback;
}

std::filesystem::path cache_dir() {
  const char* s = std::getenv("KALAH_SOLVER_CACHE");
  return s ? std::filesystem::path(s) : default_cache_dir();
}

// One database per key for the whole run: the first benchmark that needs it
// pays (and reports) its build or load.
std::shared_ptr<Database> database_for(const Variant& v, double& seconds, bool& from_cache) {
  static std::map<std::string, std::shared_ptr<Database>> databases;
  const DbKey key = DbKey::of(v);
  auto& db = databases[key.name()];
  seconds = 0;
  from_cache = true;
  const int levels = std::min(
      levels_for_memory(v.pits, std::uint64_t(env_number("KALAH_SOLVER_DB_MB", 512)) << 20, Database::kMaxLevels),
      v.total_seeds() - 1);
  if (levels < 0) return nullptr;
  if (!db || db->target() < levels) {
    const auto t0 = Clock::now();
    db = std::make_shared<Database>(key, levels);
    db->load_or_build(cache_dir(), static_cast<int>(env_number("KALAH_SOLVER_THREADS", 2)));
    seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    from_cache = db->stats().loaded_levels == db->ready();
  }
  return db;
}

void BM_Solve(benchmark::State& state, const char* text, int expected) {
  const Variant v = *parse_variant(text);
  double db_seconds = 0;
  bool cached = true;
  const auto db = database_for(v, db_seconds, cached);
  SolveStats stats;
  int value = 0;
  for (auto _ : state) {
    ExactSolver solver(v, static_cast<std::size_t>(env_number("KALAH_SOLVER_HASH_MB", 1024)),
                       static_cast<int>(env_number("KALAH_SOLVER_THREADS", 2)));
    solver.set_database(db);
    const auto t0 = Clock::now();
    const auto best = solver.best_move(start_position(v));
    state.SetIterationTime(std::chrono::duration<double>(Clock::now() - t0).count());
    value = best ? best->margin : -999;
    stats = solver.stats();
  }
  if (value != expected) state.SkipWithError(("wrong value " + std::to_string(value)).c_str());
  state.counters["margin"] = value;
  state.counters["nodes"] = static_cast<double>(stats.nodes);
  state.counters["db_levels"] = db ? db->ready() : -1;
  state.counters["db_seconds"] = db_seconds;  // build or load, 0 if an earlier benchmark paid it
  state.counters["db_cached"] = cached ? 1 : 0;
}

// Published: Irving, Donkers, Uiterwijk (2000) and, for Kalah(6,5), Rawlings (2015).
BENCHMARK_CAPTURE(BM_Solve, kalah4_5_empty, "pits=4 seeds=5 capture=empty", 2)
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Solve, kalah4_6_empty, "pits=4 seeds=6 capture=empty", 0)
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Solve, kalah6_4_empty, "pits=6 seeds=4 capture=empty", 10)
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

void register_long() {
  if (env_number("KALAH_SOLVER_BENCH_LONG", 0) == 0) return;
  benchmark::RegisterBenchmark("BM_Solve/kalah6_4_standard", BM_Solve, "pits=6 seeds=4", 8)
      ->UseManualTime()
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_Solve/kalah6_5_empty", BM_Solve, "pits=6 seeds=5 capture=empty", 12)
      ->UseManualTime()
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
}

// The database build alone, without a cache: positions per second.
void BM_DatabaseBuild(benchmark::State& state) {
  const int pits = static_cast<int>(state.range(0));
  const int levels = static_cast<int>(state.range(1));
  const int threads = static_cast<int>(state.range(2));
  std::uint64_t entries = 0;
  for (auto _ : state) {
    Database db(DbKey{pits, Capture::Empty, Ending::SideEmpty, Remainder::Owner}, levels);
    db.build(threads);
    entries = db.index().size();
  }
  state.counters["positions"] = static_cast<double>(entries);
  state.counters["positions_per_s"] =
      benchmark::Counter(static_cast<double>(entries), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_DatabaseBuild)
    ->Args({6, 11, 1})
    ->Args({6, 16, 1})
    ->Args({6, 16, 2})
    ->Args({6, 18, 1})
    ->Args({6, 18, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  register_long();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
