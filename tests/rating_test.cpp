// The Bradley-Terry fit (arena/rating): the two-player closed form, anchoring, the likelihood
// equations with and without the first-mover term, simulated pools and interval coverage, finite
// ratings without a finite MLE (the prior), LOS, the tally. Past 400 lines: the properties share the
// simulation helpers at the top.
#include "arena/rating/rating.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <vector>

#include "arena/rating/lu.h"
#include "arena/rating/tally.h"

namespace kalah::rating {
namespace {

constexpr double kScale = std::numbers::ln10 / 400.0;

double expected_score(double diff) { return 1.0 / (1.0 + std::pow(10.0, -diff / 400.0)); }

// Games from the model itself: a draw rate of a third of the smaller side's
// chance keeps the expected score exactly E while making half points common.
double play(std::mt19937_64& rng, double diff) {
  const double e = expected_score(diff);
  const double draw = std::min(e, 1.0 - e) * 2.0 / 3.0;
  const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  if (u < e - draw / 2.0) return 1.0;
  if (u < e + draw / 2.0) return 0.5;
  return 0.0;
}

// Residual of the optimality conditions: for every player, expected points minus
// actual points over all their games (first_mover_elo applied to the first mover).
std::vector<double> score_residuals(int players, const std::vector<PairResult>& results, const Rating& r) {
  std::vector<double> residual(players, 0.0);
  for (const PairResult& p : results) {
    const double e = expected_score(r.elo[p.first] - r.elo[p.second] + r.first_mover_elo);
    residual[p.first] += p.games * e - p.points_first;
    residual[p.second] -= p.games * e - p.points_first;
  }
  return residual;
}

double sum(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x;
  return s;
}

// An independent solver for the no-h case: Zermelo's fixed point (Hunter's MM
// algorithm) for gamma_i = 10^(r_i/400), normalised so that sum r = 0.
std::vector<double> zermelo(int players, const std::vector<PairResult>& results) {
  std::vector<std::vector<double>> games(players, std::vector<double>(players, 0.0));
  std::vector<double> points(players, 0.0), gamma(players, 1.0);
  for (const PairResult& p : results) {
    games[p.first][p.second] += p.games;
    games[p.second][p.first] += p.games;
    points[p.first] += p.points_first;
    points[p.second] += p.games - p.points_first;
  }
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::vector<double> next(players);
    double log_sum = 0.0;
    for (int i = 0; i < players; ++i) {
      double denominator = 0.0;
      for (int j = 0; j < players; ++j)
        if (j != i) denominator += games[i][j] / (gamma[i] + gamma[j]);
      next[i] = points[i] / denominator;
      log_sum += std::log10(next[i]);
    }
    for (int i = 0; i < players; ++i) gamma[i] = next[i] / std::pow(10.0, log_sum / players);
  }
  std::vector<double> elo(players);
  for (int i = 0; i < players; ++i) elo[i] = 400.0 * std::log10(gamma[i]);
  return elo;
}

// wins/draws/losses of `first` against `second` with `first` moving first.
PairResult wdl(int first, int second, int wins, int draws, int losses) {
  return {first, second, double(wins + draws + losses), wins + 0.5 * draws};
}

// A 4-player double round robin, 20 games per ordered pair, with fixed counts.
std::vector<PairResult> four_player_round_robin() {
  return {
      wdl(0, 1, 9, 6, 5),  wdl(1, 0, 6, 5, 9),   // A-B
      wdl(0, 2, 11, 5, 4), wdl(2, 0, 5, 4, 11),  // A-C
      wdl(0, 3, 14, 4, 2), wdl(3, 0, 3, 3, 14),  // A-D
      wdl(1, 2, 8, 7, 5),  wdl(2, 1, 7, 6, 7),   // B-C
      wdl(1, 3, 12, 5, 3), wdl(3, 1, 4, 6, 10),  // B-D
      wdl(2, 3, 10, 6, 4), wdl(3, 2, 6, 7, 7),   // C-D
  };
}

TEST(Rating, TwoPlayersMatchTheClosedForm) {
  // 30 games, the first player scores 21 (p = 0.7): r1 - r2 = -400 log10(1/p - 1).
  const std::vector<PairResult> results{{0, 1, 15, 11}, {1, 0, 15, 5}};
  const Rating r = fit(2, results);
  ASSERT_TRUE(r.converged);
  EXPECT_FALSE(r.prior_used);
  const double p = 0.7;
  const double diff = -400.0 * std::log10(1.0 / p - 1.0);
  EXPECT_NEAR(r.elo[0] - r.elo[1], diff, 1e-6);
  EXPECT_NEAR(r.elo[0], diff / 2, 1e-6);
  EXPECT_NEAR(r.elo[0] - r.elo[1], 147.1907, 1e-4);  // 400 log10(7/3)

  // Var(r1 - r2) = 1 / (k^2 n p (1 - p)); with sum r = 0 each rating carries a quarter.
  const double var_diff = 1.0 / (kScale * kScale * 30 * p * (1 - p));
  EXPECT_NEAR(r.covariance[0][0], var_diff / 4, 1e-6);
  EXPECT_NEAR(r.covariance[0][1], -var_diff / 4, 1e-6);
  EXPECT_NEAR(r.ci95[0], 1.96 * std::sqrt(var_diff) / 2, 1e-6);
  EXPECT_NEAR(los(r, 0, 1), 0.5 * std::erfc(-diff / std::sqrt(2 * var_diff)), 1e-9);
  // The interval of the difference: 1.96 sqrt(Var(r1 - r2)), twice each rating's here.
  EXPECT_NEAR(difference_ci95(r, 0, 1), 1.96 * std::sqrt(var_diff), 1e-4);
  EXPECT_NEAR(difference_ci95(r, 1, 0), 2 * r.ci95[0], 1e-4);
  EXPECT_NEAR(difference_ci95(r, 0, 1), 135.653, 0.001);  // 1.96 * 400 / ln 10 / sqrt(30 * 0.21)
}

TEST(Rating, AnchoredPlayerKeepsItsRatingAndDifferencesAreUnchanged) {
  const auto results = four_player_round_robin();
  const Rating centred = fit(4, results);
  FitOptions options;
  options.anchor = 2;
  options.anchor_elo = 1500.0;
  const Rating anchored = fit(4, results, options);
  ASSERT_TRUE(anchored.converged);
  EXPECT_NEAR(anchored.elo[2], 1500.0, 1e-9);
  EXPECT_NEAR(anchored.ci95[2], 0.0, 1e-6);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      EXPECT_NEAR(anchored.elo[i] - anchored.elo[j], centred.elo[i] - centred.elo[j], 1e-6);
      // The variance of a difference does not depend on the normalisation.
      const auto var = [&](const Rating& r) {
        return r.covariance[i][i] + r.covariance[j][j] - 2 * r.covariance[i][j];
      };
      EXPECT_NEAR(var(anchored), var(centred), 1e-6) << i << " " << j;
      EXPECT_NEAR(los(anchored, i, j), los(centred, i, j), 1e-9);
    }
}

TEST(Rating, RoundRobinSatisfiesTheLikelihoodEquations) {
  const auto results = four_player_round_robin();
  const Rating r = fit(4, results);
  ASSERT_TRUE(r.converged);
  EXPECT_FALSE(r.prior_used);
  EXPECT_LT(r.iterations, 10);
  EXPECT_NEAR(sum(r.elo), 0.0, 1e-9);
  for (double residual : score_residuals(4, results, r)) EXPECT_NEAR(residual, 0.0, 1e-9);

  const std::vector<double> independent = zermelo(4, results);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(r.elo[i], independent[i], 1e-6) << i;

  // Regression guard, 0.01 Elo. Cross-checked by the Zermelo iteration above and,
  // for the intervals, by a separate script inverting I + u u^T (u = 1/sqrt(n)),
  // which equals the bordered inverse's block under sum r = 0.
  const std::array<double, 4> elo{100.0124, 25.0973, -20.3507, -104.7591};
  const std::array<double, 4> ci95{50.5186, 48.1868, 48.1389, 50.7903};
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(r.elo[i], elo[i], 0.005) << i;
    EXPECT_NEAR(r.ci95[i], ci95[i], 0.005) << i;
  }
}

TEST(Rating, RoundRobinWithFirstMoverSatisfiesTheLikelihoodEquations) {
  const auto results = four_player_round_robin();
  FitOptions options;
  options.first_mover = true;
  const Rating r = fit(4, results, options);
  ASSERT_TRUE(r.converged);
  EXPECT_FALSE(r.prior_used);
  EXPECT_NEAR(sum(r.elo), 0.0, 1e-9);
  for (double residual : score_residuals(4, results, r)) EXPECT_NEAR(residual, 0.0, 1e-9);
  // The h equation: first movers' expected points equal their actual points.
  double h_residual = 0.0;
  for (const PairResult& p : results)
    h_residual += p.games * expected_score(r.elo[p.first] - r.elo[p.second] + r.first_mover_elo) - p.points_first;
  EXPECT_NEAR(h_residual, 0.0, 1e-9);

  // Regression guard, 0.01 Elo (cross-checked by cyclic coordinate Newton in a
  // separate script).
  const std::array<double, 4> elo{100.4139, 25.1994, -20.4343, -105.1791};
  const std::array<double, 4> ci95{50.6388, 48.2849, 48.2364, 50.9122};
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(r.elo[i], elo[i], 0.005) << i;
    EXPECT_NEAR(r.ci95[i], ci95[i], 0.005) << i;
  }
  EXPECT_NEAR(r.first_mover_elo, 22.7194, 0.005);
  EXPECT_NEAR(r.first_mover_ci95, 46.6260, 0.005);
}

// Six players whose ratings sum to 0, as the fit normalises them.
const std::vector<double> kTruth{-250, -120, -30, 40, 130, 230};

// `games` games between uniformly drawn ordered pairs, outcomes from the model.
std::vector<PairResult> simulate(std::mt19937_64& rng, const std::vector<double>& truth, double h, int games,
                                 bool draws = true) {
  const int players = static_cast<int>(truth.size());
  Tally tally(players);
  std::uniform_int_distribution<int> pick(0, players - 1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int game = 0; game < games; ++game) {
    const int a = pick(rng);
    int b = pick(rng);
    while (b == a) b = pick(rng);
    const double diff = truth[a] - truth[b] + h;
    tally.add(a, b, draws ? play(rng, diff) : unit(rng) < expected_score(diff) ? 1.0 : 0.0);
  }
  return tally.results();
}

// One player inside its own 95% interval is a 95% event; six at once only about
// 74%, so demanding that from one seed would be luck (the first seed tried had
// one player at 1.2 times its interval). A single run is checked against the
// 99.9% interval (3.29 standard errors, about 97% for all six); the coverage of
// the 95% interval itself is checked over many runs in the next test.
constexpr double kWide = 3.29 / 1.96;

TEST(Rating, SimulatedPoolIsRecoveredWithinTheConfidenceInterval) {
  const std::uint64_t seed = 20240601;
  std::mt19937_64 rng(seed);
  const int players = static_cast<int>(kTruth.size());
  const Rating r = fit(players, simulate(rng, kTruth, 0.0, 200000));
  ASSERT_TRUE(r.converged) << "seed " << seed;
  EXPECT_FALSE(r.prior_used);
  for (int i = 0; i < players; ++i) {
    EXPECT_LT(std::abs(r.elo[i] - kTruth[i]), kWide * r.ci95[i]) << "player " << i << " seed " << seed;
    EXPECT_GT(r.ci95[i], 1.0);
    EXPECT_LT(r.ci95[i], 4.0);
  }
  EXPECT_GT(los(r, 3, 2), 0.999999);  // 70 Elo apart
}

TEST(Rating, ConfidenceIntervalsHaveTheirNominalCoverage) {
  // Win/loss only, so the binomial variance the intervals assume is exact
  // (draws would make them conservative).
  const std::uint64_t seed = 12345;
  std::mt19937_64 rng(seed);
  const int players = static_cast<int>(kTruth.size());
  const int runs = 40;
  int covered = 0;
  for (int run = 0; run < runs; ++run) {
    const Rating r = fit(players, simulate(rng, kTruth, 0.0, 20000, false));
    ASSERT_TRUE(r.converged) << "seed " << seed << " run " << run;
    for (int i = 0; i < players; ++i) covered += std::abs(r.elo[i] - kTruth[i]) < r.ci95[i];
  }
  const double coverage = double(covered) / (runs * players);
  EXPECT_GT(coverage, 0.90) << "seed " << seed;
  EXPECT_LT(coverage, 0.99) << "seed " << seed;
}

TEST(Rating, FirstMoverAdvantageIsRecoveredInASimulation) {
  const std::uint64_t seed = 77;
  std::mt19937_64 rng(seed);
  const double h = 35.0;
  const int players = static_cast<int>(kTruth.size());
  const auto results = simulate(rng, kTruth, h, 200000);
  FitOptions options;
  options.first_mover = true;
  const Rating r = fit(players, results, options);
  ASSERT_TRUE(r.converged) << "seed " << seed;
  EXPECT_LT(std::abs(r.first_mover_elo - h), kWide * r.first_mover_ci95) << "seed " << seed;
  EXPECT_LT(r.first_mover_ci95, 3.0);
  for (int i = 0; i < players; ++i)
    EXPECT_LT(std::abs(r.elo[i] - kTruth[i]), kWide * r.ci95[i]) << "player " << i << " seed " << seed;

  // Without h the first movers' surplus is unexplained; on a (roughly) colour-
  // balanced schedule it nearly cancels, except that the bend of the logistic
  // curve shrinks the spread by about 1%.
  const Rating plain = fit(players, results);
  for (int i = 0; i < players; ++i) EXPECT_NEAR(plain.elo[i], r.elo[i], 5.0);
  for (int i = 0; i + 1 < players; ++i) EXPECT_LT(plain.elo[i], plain.elo[i + 1]);
}

bool all_finite(const Rating& r) {
  for (std::size_t i = 0; i < r.elo.size(); ++i) {
    if (!std::isfinite(r.elo[i]) || !std::isfinite(r.ci95[i])) return false;
    for (double c : r.covariance[i])
      if (!std::isfinite(c)) return false;
  }
  return std::isfinite(r.first_mover_elo) && std::isfinite(r.first_mover_ci95);
}

TEST(Rating, PerfectScoresGetFiniteCorrectlyOrderedRatings) {
  // Player 0 wins every game, player 3 loses every game, 1 and 2 trade results.
  const std::vector<PairResult> results{
      wdl(0, 1, 10, 0, 0), wdl(1, 0, 0, 0, 10), wdl(0, 2, 10, 0, 0), wdl(2, 0, 0, 0, 10),
      wdl(0, 3, 10, 0, 0), wdl(3, 0, 0, 0, 10), wdl(1, 2, 5, 2, 3),  wdl(2, 1, 4, 3, 3),
      wdl(1, 3, 10, 0, 0), wdl(3, 1, 0, 0, 10), wdl(2, 3, 10, 0, 0), wdl(3, 2, 0, 0, 10),
  };
  EXPECT_FALSE(mle_exists(4, results, false));
  const Rating r = fit(4, results);
  EXPECT_TRUE(r.prior_used);
  EXPECT_TRUE(r.converged);
  ASSERT_TRUE(all_finite(r));
  EXPECT_NEAR(sum(r.elo), 0.0, 1e-9);
  EXPECT_GT(r.elo[0], r.elo[1] + 200);
  EXPECT_GT(r.elo[0], r.elo[2] + 200);
  EXPECT_GT(r.elo[1], r.elo[2]);  // 14.5 of 25 against each other
  EXPECT_GT(r.elo[2], r.elo[3] + 200);
  EXPECT_LT(r.elo[0], 1000.0);  // a weak prior, not a runaway
  EXPECT_GT(los(r, 0, 1), 0.99);
}

TEST(Rating, TwoPlayerWhitewashMatchesTheVirtualDrawFormula) {
  // 10-0 plus the prior's 2 virtual draws: a score of 11/12.
  const std::vector<PairResult> results{{0, 1, 5, 5}, {1, 0, 5, 0}};
  const Rating r = fit(2, results);
  EXPECT_TRUE(r.prior_used);
  EXPECT_NEAR(r.elo[0] - r.elo[1], -400 * std::log10(12.0 / 11.0 - 1.0), 1e-6);
}

TEST(Rating, DisconnectedPoolsAndIdlePlayersStayFinite) {
  // {0,1} and {2,3} never meet; player 4 never plays.
  const std::vector<PairResult> results{wdl(0, 1, 6, 2, 2), wdl(1, 0, 3, 3, 4), wdl(2, 3, 1, 1, 8), wdl(3, 2, 5, 5, 0)};
  EXPECT_FALSE(mle_exists(5, results, false));
  const Rating r = fit(5, results);
  EXPECT_TRUE(r.prior_used);
  EXPECT_TRUE(r.converged);
  ASSERT_TRUE(all_finite(r));
  EXPECT_GT(r.elo[0], r.elo[1]);
  EXPECT_GT(r.elo[3], r.elo[2]);
  EXPECT_GT(r.ci95[4], r.ci95[0]);  // knowing nothing about player 4 shows as a wide interval
}

TEST(Rating, FirstMoverWinningEveryGameGivesAFiniteAdvantage) {
  // Each player wins every game it starts: the ratings exist, h does not.
  const std::vector<PairResult> results{wdl(0, 1, 10, 0, 0), wdl(1, 0, 10, 0, 0), wdl(1, 2, 10, 0, 0),
                                        wdl(2, 1, 10, 0, 0), wdl(0, 2, 10, 0, 0), wdl(2, 0, 10, 0, 0)};
  EXPECT_TRUE(mle_exists(3, results, false));
  EXPECT_FALSE(mle_exists(3, results, true));
  FitOptions options;
  options.first_mover = true;
  const Rating r = fit(3, results, options);
  EXPECT_TRUE(r.prior_used);
  EXPECT_TRUE(r.converged);
  ASSERT_TRUE(all_finite(r));
  EXPECT_GT(r.first_mover_elo, 300.0);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r.elo[i], 0.0, 1e-6);
}

TEST(Rating, ExistenceNeedsPointsAcrossEverySplitInBothDirections) {
  // A cycle 0 > 1 > 2 > 0 of whitewashes is strongly connected: the MLE exists.
  const std::vector<PairResult> cycle{wdl(0, 1, 3, 0, 0), wdl(1, 2, 3, 0, 0), wdl(2, 0, 3, 0, 0)};
  EXPECT_TRUE(mle_exists(3, cycle, false));
  const Rating r = fit(3, cycle);
  EXPECT_FALSE(r.prior_used);
  EXPECT_NEAR(r.elo[0], 0.0, 1e-9);  // symmetric
  // ...but with h free, "the first mover always wins" explains everything.
  EXPECT_FALSE(mle_exists(3, cycle, true));
  // A single draw connects two players both ways.
  EXPECT_TRUE(mle_exists(2, std::vector<PairResult>{wdl(0, 1, 0, 1, 0)}, false));
  EXPECT_FALSE(mle_exists(2, std::vector<PairResult>{wdl(0, 1, 0, 1, 0)}, true));
  EXPECT_TRUE(mle_exists(2, std::vector<PairResult>{wdl(0, 1, 0, 1, 0), wdl(1, 0, 1, 0, 1)}, true));
  EXPECT_FALSE(mle_exists(2, {}, false));
}

TEST(Rating, AlwaysOnPriorShrinksTowardsTheMean) {
  const auto results = four_player_round_robin();
  const Rating plain = fit(4, results);
  FitOptions options;
  options.prior = Prior::always;
  const Rating shrunk = fit(4, results, options);
  EXPECT_TRUE(shrunk.prior_used);
  for (int i = 0; i < 4; ++i) {
    EXPECT_LT(std::abs(shrunk.elo[i]), std::abs(plain.elo[i]));
    EXPECT_GT(std::abs(shrunk.elo[i]), 0.9 * std::abs(plain.elo[i]));
  }
}

TEST(Rating, LosIsComplementary) {
  const Rating r = fit(4, four_player_round_robin());
  for (int i = 0; i < 4; ++i) {
    EXPECT_DOUBLE_EQ(los(r, i, i), 0.5);
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(los(r, i, j) + los(r, j, i), 1.0, 1e-12);
  }
}

TEST(Rating, TrivialPools) {
  const Rating none = fit(0, {});
  EXPECT_TRUE(none.elo.empty());
  EXPECT_TRUE(none.converged);
  const Rating one = fit(1, {});
  ASSERT_EQ(one.elo.size(), 1u);
  EXPECT_EQ(one.elo[0], 0.0);
  EXPECT_EQ(one.ci95[0], 0.0);
  EXPECT_TRUE(one.converged);
}

TEST(Tally, AggregatesGamesPerOrderedPair) {
  Tally tally(3);
  tally.add(0, 1, 1.0);
  tally.add(0, 1, 0.5);
  tally.add(1, 0, 0.0);
  tally.add(2, 1, 0.5);
  const auto results = tally.results();
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].first, 0);
  EXPECT_EQ(results[0].second, 1);
  EXPECT_EQ(results[0].games, 2.0);
  EXPECT_EQ(results[0].points_first, 1.5);
  EXPECT_EQ(results[1].first, 1);
  EXPECT_EQ(results[1].points_first, 0.0);
  EXPECT_EQ(results[2].first, 2);
  EXPECT_EQ(results[2].points_first, 0.5);
}

// The inverse solves every column of the identity at once; each column must be what solve() gives for it,
// bit for bit (the fit's covariance, and so every report's numbers, were computed column by column before).
TEST(Lu, TheInverseIsEachColumnsSolveBitForBit) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> value(-3.0, 3.0);
  for (std::size_t n : {1u, 2u, 7u, 40u}) {
    Matrix a(n);
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t c = 0; c < n; ++c) a(r, c) = value(rng) + (r == c ? 0.5 : 0.0);
    Lu lu;
    ASSERT_TRUE(lu.factor(a)) << n;
    const Matrix inverse = lu.inverse();
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<double> column(n, 0.0);
      column[j] = 1.0;
      lu.solve(column);
      for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(inverse(i, j), column[i]) << n << ": " << i << "," << j;
    }
    double worst = 0;  // and it is the inverse: A A^-1 = I
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t c = 0; c < n; ++c) {
        double sum = 0;
        for (std::size_t k = 0; k < n; ++k) sum += a(r, k) * inverse(k, c);
        worst = std::max(worst, std::abs(sum - (r == c ? 1.0 : 0.0)));
      }
    EXPECT_LT(worst, 1e-9) << n;
  }
}

}  // namespace
}  // namespace kalah::rating
