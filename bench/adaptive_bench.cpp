// Adaptive pairing against a round robin of as many games (docs/RANKING.md, "Adaptive pairing and the fit";
// figures in docs/PERFORMANCE.md): seeded contests of simulated engines of known strength (a logistic model
// with draws and a first-move edge) played through the adaptive scheduler (arena/schedule/adaptive.h) and the
// reports' own standings with rank intervals (arena/rating), and the same engines in double round robins.
// Counters: how often the 95% rank interval holds an engine's true rank (its rank by strength), the mean
// width of the intervals, how often the published rank is the true one, how often the top 3 is the true top
// 3 (as a set), and the games played. One run each; no timing is asserted.
//
// BM_FinalGames: finals that stop themselves (docs/RANKING.md, "Finals that stop themselves") against a full
// double round robin of the same engines, with the same boundary decisions asked of both: see final_contest().
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "arena/rating/rank_interval.h"
#include "arena/rating/rating.h"
#include "arena/rating/standings.h"
#include "arena/schedule/adaptive.h"

namespace {

using namespace kalah;
using namespace kalah::rating;

// Strengths spread evenly over `spread` Elo (engine 0 the strongest), 30 Elo for the first move, draws a
// quarter of the games where the sides are level: the model of bench/rank_interval_bench.cpp.
double strength(int i, int n, double spread) { return spread / 2 - spread * i / (n - 1); }

// South's expected score against North, for `diff` Elo in South's favour (the first move's included).
double expected(double diff) { return 1.0 / (1.0 + std::pow(10.0, -diff / 400.0)); }

Outcome play(std::mt19937_64& rng, double diff) {
  const double e = expected(diff);
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

// A field of engines of known strength. With `cycle` > 0 it is not transitive: each engine has a style, an angle
// drawn at random, and the engine whose style is ahead of the other's by a quarter turn gains `cycle` Elo against it
// (and loses as much the other way round), on top of the strengths: rock, paper and scissors among neighbours, so no
// order of the engines is right for every pair. An engine's true rank is then its rank by its expected score
// against the whole field (each opponent once with each colour), what a round robin of many cycles would find; in a
// transitive field it is its rank by strength.
struct Contest {
  int n = 16;
  double spread = 800;
  double cycle = 0;
  std::vector<double> style;   // per engine, radians
  std::vector<int> true_rank;  // per engine, 1 = first

  Contest(double cycle_elo, std::uint64_t seed) : cycle(cycle_elo) {
    std::mt19937_64 rng(seed ^ 0x5eedc7c1eULL);
    std::uniform_real_distribution<double> angle(0, 2 * std::acos(-1.0));
    for (int i = 0; i < n; ++i) style.push_back(cycle > 0 ? angle(rng) : 0);
    std::vector<double> score(static_cast<std::size_t>(n), 0);
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        if (a != b) score[static_cast<std::size_t>(a)] += expected(diff(a, b)) + 1 - expected(diff(b, a));
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return score[static_cast<std::size_t>(a)] > score[static_cast<std::size_t>(b)];
    });
    true_rank.assign(static_cast<std::size_t>(n), 0);
    for (int r = 0; r < n; ++r) true_rank[static_cast<std::size_t>(order[static_cast<std::size_t>(r)])] = r + 1;
  }
  // Of the pairs of engines, those where the one with the lower true rank is expected to score more than half
  // against the other (over both colours).
  int upsets() const {
    int count = 0;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        count += true_rank[static_cast<std::size_t>(a)] > true_rank[static_cast<std::size_t>(b)] &&
                 expected(diff(a, b)) + 1 - expected(diff(b, a)) > 1;
    return count;
  }
  // Elo in South's favour when `south` plays `north`, the first move's 30 included.
  double diff(int south, int north) const {
    return strength(south, n, spread) - strength(north, n, spread) + 30 +
           cycle * std::sin(style[static_cast<std::size_t>(south)] - style[static_cast<std::size_t>(north)]);
  }
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
          games.push_back(record(id, south, north, play(rng, c.diff(south, north))));
        }
  return games;
}

// The adaptive scheduler to its end, every due game played as it pairs them.
std::vector<GameRecord> adaptive(const Contest& c, int budget, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const arena::AdaptivePlan plan{c.n, budget, 0, seed, {}};
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
        const Outcome o = play(rng, c.diff(south, north));
        results.emplace(ids[static_cast<std::size_t>(g)], south_points(o));
        games.push_back(record(ids[static_cast<std::size_t>(g)], south, north, o));
      }
    }
  }
  return games;
}

struct Tally {
  long long covered = 0, engines = 0, width = 0, exact = 0, top3 = 0, contests = 0, games = 0, upsets = 0, pairs = 0;

  void add(const Contest& c, const std::vector<GameRecord>& played) {
    StandingsBuilder b({});
    for (const GameRecord& g : played) b.add(g);
    const Standings s = b.standings(Intervals::With);
    int top = 0;
    for (const EngineStanding& e : s.engines) {
      const int truth = c.true_rank[static_cast<std::size_t>(std::stoi(e.name.substr(1)))];
      covered += e.rank_low <= truth && truth <= e.rank_high;
      width += e.rank_high - e.rank_low;
      exact += e.rank == truth;
      top += e.rank <= 3 && truth <= 3;
      ++engines;
    }
    top3 += top == 3;
    upsets += c.upsets();
    pairs += c.n * (c.n - 1) / 2;
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
    state.counters["upsets_pct"] = share(upsets, pairs);
  }
};

constexpr int kContests = 200;
// The non-transitive field's cyclic part: 150 Elo, about three neighbours' difference in strength (800 Elo over 16
// engines). The counter upsets_pct says how often a pair's result goes against the true order (the engine ranked
// lower expected to score more than half against the one ranked higher).
constexpr int kCycleElo = 150;

// range(0): 0 the round robin, 1 adaptive with the round robin's games, 2 adaptive with half of them; range(1): the
// field's non-transitive part, `cycle` Elo (0: transitive).
void BM_AdaptiveCoverage(benchmark::State& state) {
  Tally t;
  for (auto _ : state) {
    t = {};
    for (int k = 0; k < kContests; ++k) {
      const std::uint64_t seed = 5000 + static_cast<std::uint64_t>(k);
      const Contest c(static_cast<double>(state.range(1)), seed);
      const int double_round_robin = c.n * (c.n - 1);
      switch (state.range(0)) {
        case 0: t.add(c, round_robin(c, 1, seed)); break;
        case 1: t.add(c, adaptive(c, double_round_robin, seed)); break;
        default: t.add(c, adaptive(c, double_round_robin / 2, seed)); break;
      }
    }
  }
  t.report(state);
}
BENCHMARK(BM_AdaptiveCoverage)
    ->ArgsProduct({{0, 1, 2}, {0, kCycleElo}})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->ArgNames({"design", "cycle"});

// --- Finals ---------------------------------------------------------------------------------------------------

// A final's field: `n` strengths drawn from a normal distribution (mean 0, `sd` Elo), engine 0 the strongest.
std::vector<double> field(int n, double sd, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> elo(0, sd);
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(elo(rng));
  std::sort(out.rbegin(), out.rend());
  return out;
}

// The result of the `meeting`-th game (0 first) with `south` South against `north` in contest `seed`: a pure
// function of those four numbers, so that a round robin and a final of one contest that play the same game get
// the same result (common random numbers), and differ only by the games one plays and the other does not.
Outcome game(const std::vector<double>& elo, std::uint64_t seed, int south, int north, int meeting) {
  std::uint64_t x = seed;
  for (std::uint64_t v :
       {static_cast<std::uint64_t>(south), static_cast<std::uint64_t>(north), static_cast<std::uint64_t>(meeting)}) {
    x = (x ^ v) + 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    x ^= x >> 31;
  }
  const double u = static_cast<double>(x >> 11) * 0x1.0p-53;
  const double e =
      1.0 / (1.0 + std::pow(10.0, -(elo[static_cast<std::size_t>(south)] - elo[static_cast<std::size_t>(north)] + 30) /
                                      400.0));
  const double d = 0.25 * 2 * std::min(e, 1 - e);
  return u < e - d / 2 ? Outcome::FirstWins : u < e + d / 2 ? Outcome::Draw : Outcome::SecondWins;
}

// Games as the fit takes them: per ordered pair of South and North, the games and South's points.
class Played {
 public:
  // Plays the next game of `south` against `north`; South's points.
  double play(const std::vector<double>& elo, std::uint64_t seed, int south, int north) {
    std::array<int, 3>& g = games_[{south, north}];  // South's losses, draws, wins
    const Outcome o = game(elo, seed, south, north, g[0] + g[1] + g[2]);
    ++g[o == Outcome::FirstWins ? 2 : o == Outcome::Draw ? 1 : 0];
    ++count_;
    return south_points(o);
  }
  int count() const { return count_; }

  // The reports' fit (Bradley–Terry with a first-mover term) and the engines best first by it.
  rating::Rating fit(int n) const {
    std::vector<rating::PairResult> results;
    for (const auto& [pair, g] : games_)
      results.push_back({pair.first, pair.second, static_cast<double>(g[0] + g[1] + g[2]), g[2] + 0.5 * g[1]});
    rating::FitOptions options;
    options.first_mover = true;
    return rating::fit(n, results, options);
  }
  static std::vector<int> order(const rating::Rating& fit) {
    std::vector<int> out(fit.elo.size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int>(i);
    std::stable_sort(out.begin(), out.end(), [&](int a, int b) {
      return fit.elo[static_cast<std::size_t>(a)] > fit.elo[static_cast<std::size_t>(b)];
    });
    return out;
  }

  // Which boundaries the reports' 95% rank intervals decide for these games: no interval straddles them.
  std::vector<char> decided(int n, const rating::Rating& fit, const std::vector<int>& boundaries) const {
    rating::RankProblem p;
    p.engines = n;
    for (const auto& [pair, g] : games_) {
      rating::PairingGames games;
      games.a = pair.first;
      games.b = pair.second;
      games.singles[0] = g;  // each game on its own (the intervals need no pairs), by South's result
      p.pairings.push_back(games);
    }
    p.by = rating::OrderBy::Elo;
    rating::set_model(p, fit);
    const std::vector<int> best_first = order(fit);
    p.rank.assign(static_cast<std::size_t>(n), 0);
    for (int r = 0; r < n; ++r) p.rank[static_cast<std::size_t>(best_first[static_cast<std::size_t>(r)])] = r + 1;
    const rating::RankUncertainty u = rating::rank_intervals(p);
    std::vector<char> out;
    for (int k : boundaries)
      out.push_back(std::none_of(u.engines.begin(), u.engines.end(),
                                 [k](const rating::EngineInterval& e) { return e.low <= k && k < e.high; }));
    return out;
  }

 private:
  std::map<std::pair<int, int>, std::array<int, 3>> games_;
  int count_ = 0;
};

// The boundary decisions of an order: for each boundary k, the set of its top k.
std::vector<std::vector<int>> decisions(std::vector<int> order, const std::vector<int>& boundaries) {
  std::vector<std::vector<int>> out;
  for (int k : boundaries) {
    std::vector<int> top(order.begin(), order.begin() + k);
    std::sort(top.begin(), top.end());
    out.push_back(std::move(top));
  }
  return out;
}

struct FinalTally {
  long long contests = 0, decided = 0, final_games = 0, round_robin_games = 0, max_final_games = 0;
  long long agree = 0, final_true = 0, round_robin_true = 0;
  long long rr_settled = 0, agree_settled = 0;  // boundaries the round robin's intervals decide; the final agrees
  std::vector<long long> agree_at;              // per boundary

  void report(benchmark::State& state) const {
    const auto pct = [](long long part, long long all) { return 100.0 * static_cast<double>(part) / all; };
    state.counters["contests"] = static_cast<double>(contests);
    state.counters["games_share_pct"] = pct(final_games, round_robin_games);
    state.counters["max_share_pct"] = pct(max_final_games * contests, round_robin_games);
    state.counters["decided_pct"] = pct(decided, contests);
    state.counters["agree_pct"] = pct(agree, contests);
    for (std::size_t b = 0; b < agree_at.size(); ++b)
      state.counters["agree_top" + std::to_string(kFinalBoundaries[b]) + "_pct"] = pct(agree_at[b], contests);
    state.counters["final_true_pct"] = pct(final_true, contests);
    state.counters["rr_true_pct"] = pct(round_robin_true, contests);
    state.counters["rr_settled"] = static_cast<double>(rr_settled);
    state.counters["agree_settled"] = static_cast<double>(agree_settled);
  }

  static constexpr int kFinalBoundaries[] = {1, 3, 10};
};

// One contest: the double round robin of `n` engines and the final with boundaries 1, 3 and 10 and a budget of
// 40% of the round robin's games, on the same games where both play them. Their decisions (the top 1, 3 and
// 10 by the fit of each one's games) are compared with each other and with the truth (the top k by strength).
void final_contest(int n, double sd, std::uint64_t seed, FinalTally& t) {
  const std::vector<double> elo = field(n, sd, seed);
  const std::vector<int> boundaries(std::begin(FinalTally::kFinalBoundaries), std::end(FinalTally::kFinalBoundaries));
  Played round_robin;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      round_robin.play(elo, seed, a, b);
      round_robin.play(elo, seed, b, a);
    }
  const int budget = 2 * (round_robin.count() * 2 / 10);  // 40%, in whole pairs
  arena::AdaptiveReplay replay({n, budget, 0, seed, boundaries});
  arena::GameResults results;
  Played in_final;
  for (int step = 0; step <= budget; ++step) {  // every round plays at least a pair of the budget
    const arena::AdaptiveProgress& p = replay.update(results);
    if (p.complete) {
      t.decided += p.end == arena::AdaptiveEnd::Decided;
      break;
    }
    const arena::AdaptiveRound& round = p.rounds.back();
    for (const arena::Pairing& b : round.boards) {
      const std::array<std::string, 2> ids = arena::adaptive_game_ids(round.round, b);
      results.emplace(ids[0], in_final.play(elo, seed, b.first, b.second));
      results.emplace(ids[1], in_final.play(elo, seed, b.second, b.first));
    }
  }
  std::vector<int> truth(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) truth[static_cast<std::size_t>(i)] = i;
  const rating::Rating final_fit = in_final.fit(n), round_robin_fit = round_robin.fit(n);
  const auto by_final = decisions(Played::order(final_fit), boundaries);
  const auto by_round_robin = decisions(Played::order(round_robin_fit), boundaries);
  // The boundaries the round robin's own intervals decide: there, does the final decide the same?
  const std::vector<char> settled = round_robin.decided(n, round_robin_fit, boundaries);
  const auto by_truth = decisions(truth, boundaries);
  t.agree_at.resize(boundaries.size());
  for (std::size_t b = 0; b < boundaries.size(); ++b) {
    t.agree_at[b] += by_final[b] == by_round_robin[b];
    t.rr_settled += settled[b];
    t.agree_settled += settled[b] && by_final[b] == by_round_robin[b];
  }
  t.agree += by_final == by_round_robin;
  t.final_true += by_final == by_truth;
  t.round_robin_true += by_round_robin == by_truth;
  ++t.contests;
  t.final_games += in_final.count();
  t.round_robin_games += round_robin.count();
  t.max_final_games = std::max(t.max_final_games, static_cast<long long>(in_final.count()));
}

// range(0): engines; range(1): contests (seeds 9000, 9001, ...), or the environment's KALAH_FINAL_CONTESTS;
// range(2): the spread of their strengths (the sd of the normal distribution they are drawn from, Elo).
void BM_FinalGames(benchmark::State& state) {
  const char* asked = std::getenv("KALAH_FINAL_CONTESTS");
  const long contests = asked ? std::max(1L, std::atol(asked)) : static_cast<long>(state.range(1));
  FinalTally t;
  for (auto _ : state) {
    t = {};
    for (long k = 0; k < contests; ++k)
      final_contest(static_cast<int>(state.range(0)), static_cast<double>(state.range(2)),
                    9000 + static_cast<std::uint64_t>(k), t);
  }
  t.report(state);
}
// The default run: 200 engines in one contest (about 3 CPU-minutes), and 50 engines in 20, at two spreads
// (KALAH_FINAL_CONTESTS=N for N contests of each).
BENCHMARK(BM_FinalGames)
    ->Args({200, 1, 400})
    ->Args({50, 20, 400})
    ->Args({50, 20, 1000})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->ArgNames({"engines", "contests", "sd"});

}  // namespace

BENCHMARK_MAIN();
