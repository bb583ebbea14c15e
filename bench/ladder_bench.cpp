// After how many of its own games a new revision's rank on a season's ladder is stable (the model and the three
// definitions: bench/ladder_stability.h; figures in docs/PERFORMANCE.md). For each field size, a few seeded
// ladders warmed up by the real pair choice, and into each, one at a time, new revisions of strengths drawn
// uniformly over the entrants' range. Counters: the median, 95th percentile and maximum of the games needed by
// each definition (a season not stable by the horizon counts as horizon + step, and `unstable` says how many),
// the games at which the new revision had caught up with the others, and the seasons. One run; no timing asserted.
//
// KALAH_LADDER_SEASONS=N plays N seasons per field size instead of 200.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <vector>

#include "bench/ladder_stability.h"

namespace {

using namespace kalah::ladder_sim;

constexpr int kWarmups = 5;  // ladders per field size; the seasons are shared out among them

struct Figures {
  std::vector<int> settled, true_rank, sure, caught_up;
  int unstable_true = 0, unstable_sure = 0;
};

double percentile(std::vector<int> v, double q) {
  std::sort(v.begin(), v.end());
  const auto at = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())) - 1);
  return v[std::min(at, v.size() - 1)];
}

void BM_NewRevisionRankStable(benchmark::State& state) {
  SeasonShape s;
  s.entrants = static_cast<int>(state.range(0));
  const char* asked = std::getenv("KALAH_LADDER_SEASONS");
  const int seasons = asked ? std::max(1, std::atoi(asked)) : 200;
  const int censored = s.horizon + s.step;
  Figures f;
  for (auto _ : state) {
    f = {};
    for (int w = 0; w < kWarmups; ++w) {
      const std::uint64_t ladder_seed = 7000 + static_cast<std::uint64_t>(w);
      const Ladder warm = warmed_up(s, ladder_seed);
      for (int k = w; k < seasons; k += kWarmups) {
        const std::uint64_t seed = 100000 + static_cast<std::uint64_t>(k);
        std::mt19937_64 draw(seed);
        const double elo = std::uniform_real_distribution<double>(-s.spread / 2, s.spread / 2)(draw);
        const Stability st = new_revision(s, warm, elo, seed);
        f.settled.push_back(st.settled.value_or(censored));
        f.true_rank.push_back(st.true_rank.value_or(censored));
        f.sure.push_back(st.sure.value_or(censored));
        f.unstable_true += !st.true_rank;
        f.unstable_sure += !st.sure;
        f.caught_up.push_back(st.caught_up ? st.caught_up : censored);
      }
    }
  }
  state.counters["seasons"] = static_cast<double>(f.true_rank.size());
  state.counters["settled_p50"] = percentile(f.settled, 0.5);
  state.counters["settled_p95"] = percentile(f.settled, 0.95);
  state.counters["settled_max"] = percentile(f.settled, 1.0);
  state.counters["true_p50"] = percentile(f.true_rank, 0.5);
  state.counters["true_p95"] = percentile(f.true_rank, 0.95);
  state.counters["true_max"] = percentile(f.true_rank, 1.0);
  state.counters["true_unstable"] = f.unstable_true;
  state.counters["sure_p50"] = percentile(f.sure, 0.5);
  state.counters["sure_p95"] = percentile(f.sure, 0.95);
  state.counters["sure_max"] = percentile(f.sure, 1.0);
  state.counters["sure_unstable"] = f.unstable_sure;
  state.counters["caught_up_p50"] = percentile(f.caught_up, 0.5);
}
BENCHMARK(BM_NewRevisionRankStable)->Arg(20)->Arg(40)->Iterations(1)->Unit(benchmark::kSecond)->ArgName("entrants");

}  // namespace

BENCHMARK_MAIN();
