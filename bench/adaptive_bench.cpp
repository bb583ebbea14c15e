// Adaptive pairing against a round robin of as many games (docs/RANKING.md, "Adaptive pairing and the fit";
// figures in docs/PERFORMANCE.md): seeded contests of simulated engines of known strength (a logistic model
// with draws and a first-move edge) played through the adaptive scheduler (arena/schedule/adaptive.h) and the
// reports' own standings with rank intervals (arena/rating), and the same engines in double round robins.
// Counters: how often the 95% rank interval holds an engine's true rank (its rank by strength), the mean
// width of the intervals, how often the published rank is the true one, how often the top 3 is the true top
// 3 (as a set), and the games played. One run each; no timing is asserted.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "arena/rating/standings.h"
#include "arena/schedule/adaptive.h"

namespace {

using namespace kalah;
using namespace kalah::rating;

// Strengths spread evenly over `spread` Elo (engine 0 the strongest), 30 Elo for the first move, draws a
// quarter of the games where the sides are level: the model of bench/rank_interval_bench.cpp.
double strength(int i, int n, double spread) { return spread / 2 - spread * i / (n - 1); }

Outcome play(std::mt19937_64& rng, double diff) {
  const double e = 1.0 / (1.0 + std::pow(10.0, -diff / 400.0));
  const double d = 0.25 * 2 * std::min(e, 1 - e);
  const double u = std::uniform_real_distribution<double>(0, 1)(rng);
  return u < e - d / 2 ? Outcome::FirstWins : u < e + d / 2 ? Outcome::Draw : Outcome::SecondWins;
}

double south_points(Outcome o) { return o == Outcome::FirstWins ? 1.0 : o == Outcome::Draw ? 0.5 : 0.0; }

GameRecord record(const std::string& id, int south, int north, Outcome result) {
  GameRecord r;
  r.id = id;
  r.south = "e" + std::to_string(south);
  r.north = "e" + std::to_string(north);
  r.result = result;
  r.termination = Termination::Normal;
  return r;
}

struct Contest {
  int n = 16;
  double spread = 800;
};

// `cycles` double round robins' worth of pairs: every pairing plays `cycles` colour-swapped pairs.
std::vector<GameRecord> round_robin(const Contest& c, int cycles, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<GameRecord> games;
  for (int k = 0; k < cycles; ++k)
    for (int a = 0; a < c.n; ++a)
      for (int b = a + 1; b < c.n; ++b)
        for (int g = 0; g < 2; ++g) {
          const int south = g == 0 ? a : b, north = g == 0 ? b : a;
          const std::string id = "r" + std::to_string(k + 1) + "-" + std::to_string(south) + "v" +
                                 std::to_string(north) + "-p" + std::to_string(k) + "-g" + std::to_string(g);
          games.push_back(record(id, south, north,
                                 play(rng, strength(south, c.n, c.spread) - strength(north, c.n, c.spread) + 30)));
        }
  return games;
}

// The adaptive scheduler to its end, every due game played as it pairs them.
std::vector<GameRecord> adaptive(const Contest& c, int budget, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const arena::AdaptivePlan plan{c.n, budget, 0, seed};
  arena::GameResults results;
  std::vector<GameRecord> games;
  for (;;) {
    const arena::AdaptiveProgress p = arena::replay_adaptive(plan, results);
    if (p.complete) break;
    const arena::AdaptiveRound& round = p.rounds.back();
    for (const arena::Pairing& b : round.boards) {
      const std::array<std::string, 2> ids = arena::adaptive_game_ids(round.round, b);
      for (int g = 0; g < 2; ++g) {
        const int south = g == 0 ? b.first : b.second, north = g == 0 ? b.second : b.first;
        const Outcome o = play(rng, strength(south, c.n, c.spread) - strength(north, c.n, c.spread) + 30);
        results.emplace(ids[static_cast<std::size_t>(g)], south_points(o));
        games.push_back(record(ids[static_cast<std::size_t>(g)], south, north, o));
      }
    }
  }
  return games;
}

struct Tally {
  long long covered = 0, engines = 0, width = 0, exact = 0, top3 = 0, contests = 0, games = 0;

  void add(const std::vector<GameRecord>& played) {
    StandingsBuilder b({});
    for (const GameRecord& g : played) b.add(g);
    const Standings s = b.standings(Intervals::With);
    int top = 0;
    for (const EngineStanding& e : s.engines) {
      const int truth = std::stoi(e.name.substr(1)) + 1;
      covered += e.rank_low <= truth && truth <= e.rank_high;
      width += e.rank_high - e.rank_low;
      exact += e.rank == truth;
      top += e.rank <= 3 && truth <= 3;
      ++engines;
    }
    top3 += top == 3;
    ++contests;
    games += static_cast<long long>(played.size());
  }

  void report(benchmark::State& state) const {
    const auto share = [](long long part, long long all) { return 100.0 * static_cast<double>(part) / all; };
    state.counters["coverage_pct"] = share(covered, engines);
    state.counters["mean_width"] = static_cast<double>(width) / static_cast<double>(engines);
    state.counters["rank_exact_pct"] = share(exact, engines);
    state.counters["top3_pct"] = share(top3, contests);
    state.counters["games"] = static_cast<double>(games) / static_cast<double>(contests);
  }
};

constexpr int kContests = 200;

// range(0): 0 the round robin, 1 adaptive with the round robin's games, 2 adaptive with half of them.
void BM_AdaptiveCoverage(benchmark::State& state) {
  const Contest c;
  const int double_round_robin = c.n * (c.n - 1);
  Tally t;
  for (auto _ : state) {
    t = {};
    for (int k = 0; k < kContests; ++k) {
      const std::uint64_t seed = 5000 + static_cast<std::uint64_t>(k);
      switch (state.range(0)) {
        case 0: t.add(round_robin(c, 1, seed)); break;
        case 1: t.add(adaptive(c, double_round_robin, seed)); break;
        default: t.add(adaptive(c, double_round_robin / 2, seed)); break;
      }
    }
  }
  t.report(state);
}
BENCHMARK(BM_AdaptiveCoverage)->Arg(0)->Arg(1)->Arg(2)->Iterations(1)->Unit(benchmark::kSecond)->ArgName("design");

}  // namespace

BENCHMARK_MAIN();
