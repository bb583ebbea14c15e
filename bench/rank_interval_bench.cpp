// The cost of rank intervals and fragility (docs/RANKING.md, docs/PERFORMANCE.md): 200 entrants in a double
// round robin (39,800 games, one colour-swapped pair per pairing), standings with and without them, by Elo and
// by points with cuts 1, 3, 10; and the coverage of the intervals in seeded contests of known strength.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "arena/rating/rank_interval.h"
#include "arena/rating/standings.h"

namespace {

using namespace kalah;
using namespace kalah::rating;

constexpr std::uint64_t kSeed = 39;

// Strengths spread evenly over `spread` Elo (engine 0 the strongest), 30 Elo for the first move, draws a
// quarter of the games where the sides are level.
double strength(int i, int n, double spread) { return spread / 2 - spread * i / (n - 1); }

Outcome play(std::mt19937_64& rng, double diff) {
  const double e = 1.0 / (1.0 + std::pow(10.0, -diff / 400.0));
  const double d = 0.25 * 2 * std::min(e, 1 - e);
  const double u = std::uniform_real_distribution<double>(0, 1)(rng);
  return u < e - d / 2 ? Outcome::FirstWins : u < e + d / 2 ? Outcome::Draw : Outcome::SecondWins;
}

// A double round robin as the schedule names its games: pair p0 of each pairing, both colours.
std::vector<GameRecord> double_round_robin(int n, double spread, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<GameRecord> games;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b)
      for (int g = 0; g < 2; ++g) {
        GameRecord r;
        const int south = g == 0 ? a : b, north = g == 0 ? b : a;
        r.id = "r1-" + std::to_string(south) + "v" + std::to_string(north) + "-p0-g" + std::to_string(g);
        r.south = "e" + std::to_string(south);
        r.north = "e" + std::to_string(north);
        r.result = play(rng, strength(south, n, spread) - strength(north, n, spread) + 30);
        r.termination = Termination::Normal;
        games.push_back(std::move(r));
      }
  return games;
}

StandingsBuilder builder_of(const std::vector<GameRecord>& games, bool by_points) {
  StandingsBuilder b({});
  RankingSetup setup;
  setup.rules.cuts = {1, 3, 10};
  if (by_points) setup.rules.by = RankBy::Points;
  b.set_ranking(setup);
  for (const GameRecord& g : games) b.add(g);
  return b;
}

const std::vector<GameRecord>& field() {
  static const std::vector<GameRecord> games = double_round_robin(200, 1200, kSeed);
  return games;
}

void BM_StandingsWithoutIntervals(benchmark::State& state) {
  const StandingsBuilder b = builder_of(field(), state.range(0) == 1);
  for (auto _ : state) benchmark::DoNotOptimize(b.standings(Intervals::Without));
}
BENCHMARK(BM_StandingsWithoutIntervals)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->ArgName("by_points");

void BM_StandingsWithIntervals(benchmark::State& state) {
  const StandingsBuilder b = builder_of(field(), state.range(0) == 1);
  for (auto _ : state) benchmark::DoNotOptimize(b.standings(Intervals::With));
}
BENCHMARK(BM_StandingsWithIntervals)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->ArgName("by_points");

// The same problem the standings pose, for the parts alone.
RankProblem problem_of(const Standings& s, bool by_points, const std::vector<GameRecord>& games) {
  RankProblem p;
  const int n = static_cast<int>(s.engines.size());
  p.engines = n;
  p.by = by_points ? OrderBy::Points : OrderBy::Elo;
  p.cuts = {1, 3, 10};
  std::vector<std::array<int, 9>> kinds(static_cast<std::size_t>(n * n));
  auto index = [](const std::string& name) { return std::stoi(name.substr(1)); };
  for (std::size_t k = 0; k + 1 < games.size(); k += 2) {
    const int a = index(games[k].south), b = index(games[k].north);
    auto r = [](Outcome o, bool south) {
      return o == Outcome::Draw ? kDraw : (o == Outcome::FirstWins) == south ? kWin : kLoss;
    };
    ++kinds[static_cast<std::size_t>(a * n + b)]
           [static_cast<std::size_t>(r(games[k].result, true) * 3 + r(games[k + 1].result, false))];
  }
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      PairingGames g;
      g.a = a;
      g.b = b;
      g.pairs = kinds[static_cast<std::size_t>(a * n + b)];
      p.pairings.push_back(g);
    }
  FitOptions options;
  options.first_mover = true;
  set_model(p, fit(n, fit_results(p.pairings), options));
  p.rank.assign(static_cast<std::size_t>(n), 0);
  for (const EngineStanding& e : s.engines) p.rank[static_cast<std::size_t>(index(e.name))] = e.rank;
  if (by_points) {
    for (const RankingRow& row : s.ranking->rows) p.rank[static_cast<std::size_t>(index(row.name))] = row.rank;
  }
  return p;
}

void BM_IntervalsAlone(benchmark::State& state) {
  const bool by_points = state.range(0) == 1;
  const RankProblem p = problem_of(builder_of(field(), by_points).standings(), by_points, field());
  for (auto _ : state) benchmark::DoNotOptimize(rank_intervals(p));
}
BENCHMARK(BM_IntervalsAlone)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->ArgName("by_points");

void BM_FragilityAlone(benchmark::State& state) {
  const bool by_points = state.range(0) == 1;
  const RankProblem p = problem_of(builder_of(field(), by_points).standings(), by_points, field());
  for (auto _ : state) {
    Fragility f = fragility(p, 1);
    for (int k : p.cuts) f = fragility(p, k);
    benchmark::DoNotOptimize(f);
  }
  state.counters["first"] = fragility(p, 1).count.value_or(-1);
  state.counters["top3"] = fragility(p, 3).count.value_or(-1);
  state.counters["top10"] = fragility(p, 10).count.value_or(-1);
}
BENCHMARK(BM_FragilityAlone)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->ArgName("by_points");

// One fit of the field as the standings make it (with the covariance), and one as fragility refits it
// (warm-started from the fit, without the covariance).
void BM_Fit(benchmark::State& state) {
  const RankProblem p = problem_of(builder_of(field(), false).standings(), false, field());
  const std::vector<PairResult> results = fit_results(p.pairings);
  FitOptions options;
  options.first_mover = true;
  if (state.range(0) == 1) {
    options.covariance = false;
    double mean = 0;
    for (double e : p.elo) mean += e / p.engines;
    for (double e : p.elo) options.start.push_back(e - mean);
    options.start.push_back(p.first_mover);
  }
  for (auto _ : state) benchmark::DoNotOptimize(fit(p.engines, results, options));
}
BENCHMARK(BM_Fit)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->ArgName("refit");

// Coverage: in seeded double round robins of 40 engines of known strength (spread 800 Elo), how often the
// 95% interval holds the engine's true rank (its rank by strength), and how often the published rank alone is
// the true one (what resampling each pairing's single pair would give). Reported as counters, one run.
void BM_Coverage(benchmark::State& state) {
  const bool by_points = state.range(0) == 1;
  const int n = 40, contests = 25;
  long long covered = 0, total = 0, width = 0, exact = 0;
  for (auto _ : state) {
    covered = total = width = exact = 0;
    for (int c = 0; c < contests; ++c) {
      const std::vector<GameRecord> games = double_round_robin(n, 800, 1000 + static_cast<std::uint64_t>(c));
      const Standings s = builder_of(games, by_points).standings(Intervals::With);
      for (const EngineStanding& e : s.engines) {
        const int truth = std::stoi(e.name.substr(1)) + 1;
        covered += e.rank_low <= truth && truth <= e.rank_high;
        width += e.rank_high - e.rank_low;
        // What an interval collapsed to the rank (resampling the one pair of each pairing) would cover.
        exact += e.rank == truth;
        ++total;
      }
    }
  }
  state.counters["coverage_pct"] = 100.0 * static_cast<double>(covered) / static_cast<double>(total);
  state.counters["mean_width"] = static_cast<double>(width) / static_cast<double>(total);
  state.counters["rank_only_pct"] = 100.0 * static_cast<double>(exact) / static_cast<double>(total);
}
BENCHMARK(BM_Coverage)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kSecond)->ArgName("by_points");

}  // namespace

BENCHMARK_MAIN();
