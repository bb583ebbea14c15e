// Elo fit for 100 engines and 1M games (the target in docs/PERFORMANCE.md: well under a second).
// The games come from a seeded simulation of the model and are aggregated into
// per-ordered-pair counts once; the fit itself costs O(pairs) per iteration.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "arena/rating/rating.h"
#include "arena/rating/tally.h"

namespace {

using kalah::rating::FitOptions;
using kalah::rating::PairResult;
using kalah::rating::Tally;

constexpr int kPlayers = 100;
constexpr int kGames = 1'000'000;
constexpr std::uint64_t kSeed = 2024;

struct Game {
  int first, second;
  double points_first;
};

// Ratings spread evenly over 800 Elo, a 30 Elo first-mover edge and a draw rate
// of two thirds of the weaker side's chance.
std::vector<Game> simulate_games() {
  std::mt19937_64 rng(kSeed);
  std::vector<double> truth(kPlayers);
  for (int i = 0; i < kPlayers; ++i) truth[i] = -400.0 + 800.0 * i / (kPlayers - 1);
  std::uniform_int_distribution<int> pick(0, kPlayers - 1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<Game> games;
  games.reserve(kGames);
  for (int g = 0; g < kGames; ++g) {
    const int a = pick(rng);
    int b = pick(rng);
    while (b == a) b = pick(rng);
    const double e = 1.0 / (1.0 + std::pow(10.0, -(truth[a] - truth[b] + 30.0) / 400.0));
    const double draw = std::min(e, 1.0 - e) * 2.0 / 3.0;
    const double u = unit(rng);
    games.push_back({a, b, u < e - draw / 2 ? 1.0 : u < e + draw / 2 ? 0.5 : 0.0});
  }
  return games;
}

const std::vector<Game>& games() {
  static const std::vector<Game> all = simulate_games();
  return all;
}

std::vector<PairResult> aggregate(const std::vector<Game>& all) {
  Tally tally(kPlayers);
  for (const Game& g : all) tally.add(g.first, g.second, g.points_first);
  return tally.results();
}

void report(benchmark::State& state, const kalah::rating::Rating& r, std::size_t pairs) {
  state.counters["pairs"] = static_cast<double>(pairs);
  state.counters["iterations"] = r.iterations;
  state.counters["converged"] = r.converged;
}

// The fit alone, from counts already aggregated (the arena keeps them up to date).
void BM_Fit(benchmark::State& state) {
  const std::vector<PairResult> results = aggregate(games());
  FitOptions options;
  options.first_mover = state.range(0) != 0;
  kalah::rating::Rating r;
  for (auto _ : state) {
    r = kalah::rating::fit(kPlayers, results, options);
    benchmark::DoNotOptimize(r.elo.data());
  }
  report(state, r, results.size());
}
BENCHMARK(BM_Fit)->ArgName("first_mover")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Aggregating the 1M game records plus the fit: the cost from a cold start.
void BM_AggregateAndFit(benchmark::State& state) {
  const std::vector<Game>& all = games();
  FitOptions options;
  options.first_mover = true;
  kalah::rating::Rating r;
  std::size_t pairs = 0;
  for (auto _ : state) {
    const std::vector<PairResult> results = aggregate(all);
    r = kalah::rating::fit(kPlayers, results, options);
    pairs = results.size();
    benchmark::DoNotOptimize(r.elo.data());
  }
  report(state, r, pairs);
}
BENCHMARK(BM_AggregateAndFit)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
