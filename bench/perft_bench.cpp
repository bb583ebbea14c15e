// perft(11) of Kalah(6,4) from the start, single thread: leaves per second with
// bulk counting at the last ply (the figure the issue asks for), and moves
// played per second when every leaf move is applied too (raw apply() speed).
#include <benchmark/benchmark.h>

#include "referee/rules/perft.h"

namespace {

// perft(11) of Kalah(6,4) from the start with `count`; `rate` names the per-second counter.
void perft11(benchmark::State& state, std::uint64_t (*count)(const kalah::Variant&, const kalah::Position&, int),
             const char* rate) {
  const kalah::Variant v;
  const kalah::Position start = kalah::start_position(v);
  std::uint64_t leaves = 0;
  for (auto _ : state) {
    leaves = count(v, start, 11);
    benchmark::DoNotOptimize(leaves);
  }
  state.counters["leaves"] = static_cast<double>(leaves);
  state.counters[rate] = benchmark::Counter(static_cast<double>(leaves), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Perft11BulkCounting(benchmark::State& state) { perft11(state, kalah::perft, "leaves_per_s"); }
BENCHMARK(BM_Perft11BulkCounting)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_Perft11EveryLeafPlayed(benchmark::State& state) { perft11(state, kalah::perft_full, "moves_per_s"); }
BENCHMARK(BM_Perft11EveryLeafPlayed)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
