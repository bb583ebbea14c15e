// perft(11) of Kalah(6,4) from the start, single thread: leaves per second with
// bulk counting at the last ply (the figure the issue asks for), and moves
// played per second when every leaf move is applied too (raw apply() speed).
#include <benchmark/benchmark.h>

#include "referee/rules/perft.h"

namespace {

void BM_Perft11BulkCounting(benchmark::State& state) {
  const kalah::Variant v;
  const kalah::Position start = kalah::start_position(v);
  std::uint64_t leaves = 0;
  for (auto _ : state) {
    leaves = kalah::perft(v, start, 11);
    benchmark::DoNotOptimize(leaves);
  }
  state.counters["leaves"] = static_cast<double>(leaves);
  state.counters["leaves_per_s"] =
      benchmark::Counter(static_cast<double>(leaves), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Perft11BulkCounting)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_Perft11EveryLeafPlayed(benchmark::State& state) {
  const kalah::Variant v;
  const kalah::Position start = kalah::start_position(v);
  std::uint64_t leaves = 0;
  for (auto _ : state) {
    leaves = kalah::perft_full(v, start, 11);
    benchmark::DoNotOptimize(leaves);
  }
  state.counters["moves_per_s"] =
      benchmark::Counter(static_cast<double>(leaves), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Perft11EveryLeafPlayed)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
