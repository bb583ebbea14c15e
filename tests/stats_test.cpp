// Tests for referee/stats: fishtest reference vectors (computed with fishtest's own code; the sources are
// listed in docs/STATISTICS.md), the degenerate-sample policy (nothing is ever nan or inf), and the SPRT
// decision rule.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "referee/stats/mle.h"
#include "referee/stats/sprt.h"
#include "referee/stats/stats.h"

namespace {

using namespace kalah::stats;

constexpr double kFishtestTolerance = 1e-6;

// Pentanomial helper in bin order: LL, LD, WL+DD, WD, WW.
Pentanomial penta(double ll, double ld, double d, double wd, double ww) { return Pentanomial{{ll, ld, d, wd, ww}}; }

void expect_all_finite(const Summary& s) {
  EXPECT_TRUE(std::isfinite(s.samples));
  EXPECT_TRUE(std::isfinite(s.score));
  EXPECT_TRUE(std::isfinite(s.elo));
  EXPECT_TRUE(std::isfinite(s.elo95));
  EXPECT_TRUE(std::isfinite(s.los));
  EXPECT_TRUE(std::isfinite(s.nelo));
  EXPECT_TRUE(std::isfinite(s.nelo95));
  EXPECT_GE(s.los, 0.0);
  EXPECT_LE(s.los, 1.0);
  EXPECT_GE(s.elo95, 0.0);
  EXPECT_GE(s.nelo95, 0.0);
}

// ---- fishtest reference vectors -------------------------------------------------------------

TEST(StatsFishtest, Trinomial60Wins20Draws20LossesMatchesEloErrorLos) {
  const Summary s = summarize(Trinomial{60, 20, 20});
  EXPECT_NEAR(s.elo, 147.1907141178, kFishtestTolerance);
  EXPECT_NEAR(s.elo95, 66.0133812204, kFishtestTolerance);
  EXPECT_NEAR(s.los, 0.9999997133, kFishtestTolerance);
  EXPECT_DOUBLE_EQ(s.samples, 100);
  EXPECT_DOUBLE_EQ(s.score, 0.7);
}

TEST(StatsFishtest, Trinomial60Wins20Draws20LossesMatchesLogisticLlr) {
  EXPECT_NEAR(llr(Trinomial{60, 20, 20}, 0, 5, Model::Logistic), 0.7072473476, kFishtestTolerance);
}

TEST(StatsFishtest, PentanomialVectorMatchesEloErrorLos) {
  const Summary s = summarize(penta(10, 100, 200, 120, 15));
  EXPECT_NEAR(s.elo, 11.7157504408, kFishtestTolerance);
  EXPECT_NEAR(s.elo95, 13.6662385267, kFishtestTolerance);
  EXPECT_NEAR(s.los, 0.9537520149, kFishtestTolerance);
  EXPECT_DOUBLE_EQ(s.samples, 445);
}

TEST(StatsFishtest, PentanomialVectorMatchesLogisticLlr) {
  EXPECT_NEAR(llr(penta(10, 100, 200, 120, 15), 0, 5, Model::Logistic), 0.9465862595, kFishtestTolerance);
}

TEST(StatsFishtest, PentanomialVectorMatchesNormalizedLlr) {
  EXPECT_NEAR(llr(penta(10, 100, 200, 120, 15), 0, 5, Model::Normalized), 0.6282899302, kFishtestTolerance);
}

// ---- formulas ---------------------------------------------------------------------------------

TEST(StatsFormula, NormalizedEloIsScoreExcessOverPerGameSd) {
  // 60/20/20: score 0.7, per-game variance 0.6*0.09 + 0.2*0.04 + 0.2*0.49 = 0.16, sd 0.4.
  const Summary s = summarize(Trinomial{60, 20, 20});
  const double per_t = 800 / std::log(10.0);
  EXPECT_NEAR(s.nelo, 0.2 / 0.4 * per_t, 1e-9);
  EXPECT_NEAR(s.nelo95, 1.959963984540054 * (0.4 / 10) / 0.4 * per_t, 1e-9);
}

TEST(StatsFormula, PentanomialNormalizedEloUsesSqrt2TimesPairSd) {
  // nElo per game from pair statistics: the pair mean's sd times sqrt(2) is the per-game sd.
  const Pentanomial p = penta(0, 40, 0, 60, 0);  // pair means 0.25 (40) and 0.75 (60)
  const double mu = (40 * 0.25 + 60 * 0.75) / 100;
  const double sd = std::sqrt((40 * (0.25 - mu) * (0.25 - mu) + 60 * (0.75 - mu) * (0.75 - mu)) / 100);
  const Summary s = summarize(p);
  // The three empty bins hold 1e-3 each, which moves the result by ~1e-4 relative.
  EXPECT_NEAR(s.nelo, (mu - 0.5) / (std::sqrt(2.0) * sd) * 800 / std::log(10.0), 0.05);
  EXPECT_NEAR(s.score, mu, 1e-5);
}

TEST(StatsFormula, EloAndScoreAreInverse) {
  for (double elo : {-800.0, -100.0, 0.0, 3.5, 400.0}) EXPECT_NEAR(elo_from_score(score_from_elo(elo)), elo, 1e-9);
  EXPECT_DOUBLE_EQ(score_from_elo(0), 0.5);
  EXPECT_NEAR(elo_from_score(10.0 / 11.0), 400, 1e-9);
}

TEST(StatsFormula, EloIsClampedAtScoreOneThousandthFromTheEnds) {
  EXPECT_NEAR(kMaxElo, 400 * std::log10(999.0), 1e-9);
  EXPECT_DOUBLE_EQ(elo_from_score(1.0), kMaxElo);
  EXPECT_DOUBLE_EQ(elo_from_score(0.0), -kMaxElo);
  EXPECT_DOUBLE_EQ(elo_from_score(2.0), kMaxElo);
}

TEST(StatsFormula, SwappingWinsAndLossesNegatesEloAndMirrorsLos) {
  const Summary a = summarize(Trinomial{37, 21, 12});
  const Summary b = summarize(Trinomial{12, 21, 37});
  EXPECT_NEAR(a.elo, -b.elo, 1e-9);
  EXPECT_NEAR(a.elo95, b.elo95, 1e-9);
  EXPECT_NEAR(a.los, 1 - b.los, 1e-12);
  EXPECT_NEAR(a.nelo, -b.nelo, 1e-9);
  EXPECT_NEAR(llr(Trinomial{37, 21, 12}, -5, 5, Model::Logistic), -llr(Trinomial{12, 21, 37}, -5, 5, Model::Logistic),
              1e-9);
}

TEST(StatsFormula, SymmetricCountsGiveEloZeroAndLosHalf) {
  for (const Summary& s :
       {summarize(Trinomial{30, 40, 30}), summarize(penta(5, 20, 50, 20, 5)), summarize(penta(0, 7, 0, 7, 0))}) {
    EXPECT_NEAR(s.elo, 0, 1e-9);
    EXPECT_NEAR(s.los, 0.5, 1e-12);
    EXPECT_NEAR(s.nelo, 0, 1e-9);
    expect_all_finite(s);
  }
}

TEST(StatsFormula, ZeroCountsAreTreatedAsOneThousandth) {
  const Summary zero = summarize(Trinomial{10, 0, 3});
  const Summary milli = summarize(Trinomial{10, 1e-3, 3});
  EXPECT_DOUBLE_EQ(zero.elo, milli.elo);
  EXPECT_DOUBLE_EQ(zero.elo95, milli.elo95);
  EXPECT_DOUBLE_EQ(zero.los, milli.los);
  EXPECT_DOUBLE_EQ(llr(penta(0, 4, 9, 0, 2), 0, 5, Model::Normalized),
                   llr(penta(1e-3, 4, 9, 1e-3, 2), 0, 5, Model::Normalized));
  EXPECT_DOUBLE_EQ(zero.samples, 13);  // the reported sample size is the real one
}

// ---- tiny and degenerate samples ----------------------------------------------------------------

TEST(StatsDegenerate, ZeroGamesGiveEloZeroLosHalfAndFiniteErrors) {
  for (const Summary& s : {summarize(Trinomial{}), summarize(Pentanomial{})}) {
    expect_all_finite(s);
    EXPECT_DOUBLE_EQ(s.samples, 0);
    EXPECT_NEAR(s.score, 0.5, 1e-12);
    EXPECT_NEAR(s.elo, 0, 1e-9);
    EXPECT_NEAR(s.los, 0.5, 1e-12);
    EXPECT_NEAR(s.nelo, 0, 1e-9);
    EXPECT_NEAR(s.elo95, kMaxElo, 1e-9);  // the interval spans everything
  }
}

TEST(StatsDegenerate, AllWinsClampEloToMaximumAndLosNearOne) {
  for (const Summary& s : {summarize(Trinomial{25, 0, 0}), summarize(penta(0, 0, 0, 0, 25))}) {
    expect_all_finite(s);
    EXPECT_DOUBLE_EQ(s.elo, kMaxElo);
    EXPECT_GT(s.los, 0.999);
    EXPECT_GT(s.nelo, 0);
  }
}

TEST(StatsDegenerate, AllLossesClampEloToMinimumAndLosNearZero) {
  for (const Summary& s : {summarize(Trinomial{0, 0, 25}), summarize(penta(25, 0, 0, 0, 0))}) {
    expect_all_finite(s);
    EXPECT_DOUBLE_EQ(s.elo, -kMaxElo);
    EXPECT_LT(s.los, 0.001);
    EXPECT_LT(s.nelo, 0);
  }
}

TEST(StatsDegenerate, AllDrawsGiveEloZeroLosHalfAndNarrowError) {
  for (const Summary& s : {summarize(Trinomial{0, 50, 0}), summarize(penta(0, 0, 50, 0, 0))}) {
    expect_all_finite(s);
    EXPECT_NEAR(s.elo, 0, 1e-9);
    EXPECT_NEAR(s.los, 0.5, 1e-12);
    EXPECT_LT(s.elo95, 5);
  }
}

TEST(StatsDegenerate, OneGameOrPairIsFiniteWithTheRightSign) {
  const Summary win = summarize(Trinomial{1, 0, 0});
  const Summary draw = summarize(Trinomial{0, 1, 0});
  const Summary loss = summarize(Trinomial{0, 0, 1});
  const Summary pair = summarize(penta(0, 0, 0, 1, 0));
  for (const Summary& s : {win, draw, loss, pair}) {
    expect_all_finite(s);
    EXPECT_DOUBLE_EQ(s.samples, 1);
  }
  EXPECT_GT(win.elo, 0);
  EXPECT_NEAR(draw.elo, 0, 1e-9);
  EXPECT_LT(loss.elo, 0);
  EXPECT_GT(pair.elo, 0);
}

TEST(StatsDegenerate, LlrOfEmptySampleIsNearZeroInBothModels) {
  for (Model m : {Model::Logistic, Model::Normalized}) {
    EXPECT_NEAR(llr(Trinomial{}, 0, 5, m), 0, 1e-3);
    EXPECT_NEAR(llr(Pentanomial{}, 0, 5, m), 0, 1e-3);
  }
}

TEST(StatsDegenerate, NoNanOrInfForAnyCombinationOfSmallAndEmptyBins) {
  const std::vector<double> values{0, 1, 7, 1000};
  const std::vector<std::pair<double, double>> hypotheses{{0, 5}, {-10, 10}, {-3, 1}, {0, 300}, {-2000, 3000}};
  auto check_llr = [&](const auto& counts) {
    for (auto [e0, e1] : hypotheses)
      for (Model m : {Model::Logistic, Model::Normalized}) {
        const double v = llr(counts, e0, e1, m);
        ASSERT_TRUE(std::isfinite(v)) << "elo0 " << e0 << " elo1 " << e1 << " normalized " << (m == Model::Normalized);
      }
  };
  for (double w : values)
    for (double d : values)
      for (double l : values) {
        SCOPED_TRACE(testing::Message() << "W/D/L " << w << "/" << d << "/" << l);
        expect_all_finite(summarize(Trinomial{w, d, l}));
        check_llr(Trinomial{w, d, l});
      }
  for (double a : values)
    for (double b : values)
      for (double c : values)
        for (double d : values)
          for (double e : values) {
            SCOPED_TRACE(testing::Message() << "penta " << a << "," << b << "," << c << "," << d << "," << e);
            expect_all_finite(summarize(penta(a, b, c, d, e)));
            check_llr(penta(a, b, c, d, e));
          }
}

// ---- constrained estimates ---------------------------------------------------------------------

TEST(StatsMle, MeanConstrainedEstimateHasTheRequestedMean) {
  const auto sample = detail::empirical(std::vector<double>{10, 100, 200, 120, 15});
  for (double s : {0.3, 0.5, 0.5071, 0.9}) {
    const detail::Pdf est = detail::mle_mean(sample.pdf, s);
    EXPECT_NEAR(detail::mean(est), s, 1e-12);
  }
}

TEST(StatsMle, TValueConstrainedEstimateHasTheRequestedTValue) {
  const auto sample = detail::empirical(std::vector<double>{10, 100, 200, 120, 15});
  for (double t : {-0.2, 0.0, 0.0204, 0.3}) {
    const detail::Pdf est = detail::mle_t_value(sample.pdf, 0.5, t);
    EXPECT_NEAR((detail::mean(est) - 0.5) / std::sqrt(detail::variance(est)), t, 1e-9);
  }
}

TEST(StatsMle, EqualHypothesesGiveZeroLlr) {
  EXPECT_DOUBLE_EQ(llr(Trinomial{60, 20, 20}, 3, 3, Model::Logistic), 0);
  EXPECT_DOUBLE_EQ(llr(penta(10, 100, 200, 120, 15), 3, 3, Model::Normalized), 0);
}

// ---- pentanomial bins --------------------------------------------------------------------------

TEST(StatsPentanomial, BinIsTwiceThePairScore) {
  EXPECT_EQ(pentanomial_bin(0, 0), 0u);      // LL
  EXPECT_EQ(pentanomial_bin(0, 0.5), 1u);    // LD
  EXPECT_EQ(pentanomial_bin(0.5, 0), 1u);    // DL
  EXPECT_EQ(pentanomial_bin(1, 0), 2u);      // WL
  EXPECT_EQ(pentanomial_bin(0, 1), 2u);      // LW
  EXPECT_EQ(pentanomial_bin(0.5, 0.5), 2u);  // DD
  EXPECT_EQ(pentanomial_bin(1, 0.5), 3u);    // WD
  EXPECT_EQ(pentanomial_bin(0.5, 1), 3u);    // DW
  EXPECT_EQ(pentanomial_bin(1, 1), 4u);      // WW
}

TEST(StatsPentanomial, AddCountsPairsAndTrinomialAddCountsGames) {
  Pentanomial p;
  p.add(1, 0.5);
  p.add(0.5, 1);
  p.add(0, 0);
  EXPECT_DOUBLE_EQ(p.counts[3], 2);
  EXPECT_DOUBLE_EQ(p.counts[0], 1);
  EXPECT_DOUBLE_EQ(p.pairs(), 3);

  Trinomial t;
  for (double s : {1.0, 1.0, 0.5, 0.0}) t.add(s);
  EXPECT_DOUBLE_EQ(t.wins, 2);
  EXPECT_DOUBLE_EQ(t.draws, 1);
  EXPECT_DOUBLE_EQ(t.losses, 1);
  EXPECT_DOUBLE_EQ(t.games(), 4);
}

// ---- SPRT ---------------------------------------------------------------------------------------

TEST(StatsSprt, BoundsAreLogOfErrorRatios) {
  const SprtBounds b = sprt_bounds(0.05, 0.05);
  EXPECT_NEAR(b.lower, std::log(0.05 / 0.95), 1e-15);
  EXPECT_NEAR(b.upper, std::log(0.95 / 0.05), 1e-15);
  EXPECT_NEAR(b.upper, 2.9444389791664403, 1e-12);
  const SprtBounds c = sprt_bounds(0.1, 0.02);
  EXPECT_NEAR(c.lower, std::log(0.02 / 0.9), 1e-15);
  EXPECT_NEAR(c.upper, std::log(0.98 / 0.1), 1e-15);
}

TEST(StatsSprt, DecisionIsInclusiveAtBothBounds) {
  const SprtBounds b = sprt_bounds(0.05, 0.05);
  EXPECT_EQ(decide(b.lower, b), Decision::H0);
  EXPECT_EQ(decide(std::nextafter(b.lower, 0.0), b), Decision::Continue);
  EXPECT_EQ(decide(0, b), Decision::Continue);
  EXPECT_EQ(decide(std::nextafter(b.upper, 0.0), b), Decision::Continue);
  EXPECT_EQ(decide(b.upper, b), Decision::H1);
  EXPECT_EQ(decide(-100, b), Decision::H0);
  EXPECT_EQ(decide(100, b), Decision::H1);
}

TEST(StatsSprt, FishtestPentanomialVectorContinues) {
  const SprtState s = sprt(penta(10, 100, 200, 120, 15), SprtParams{0, 5, 0.05, 0.05, Model::Logistic});
  EXPECT_NEAR(s.llr, 0.9465862595, kFishtestTolerance);
  EXPECT_NEAR(s.lower, -2.9444389791664403, 1e-12);
  EXPECT_NEAR(s.upper, 2.9444389791664403, 1e-12);
  EXPECT_EQ(s.decision, Decision::Continue);
}

TEST(StatsSprt, ClearlyStrongerEngineAcceptsH1AndWeakerAcceptsH0) {
  for (Model m : {Model::Logistic, Model::Normalized}) {
    const SprtParams params{0, 10, 0.05, 0.05, m};
    EXPECT_EQ(sprt(penta(10, 100, 400, 200, 40), params).decision, Decision::H1);
    EXPECT_EQ(sprt(penta(40, 200, 400, 100, 10), params).decision, Decision::H0);
    EXPECT_EQ(sprt(Trinomial{600, 300, 400}, params).decision, Decision::H1);
    EXPECT_EQ(sprt(Trinomial{400, 300, 600}, params).decision, Decision::H0);
  }
}

TEST(StatsSprt, EmptySampleContinues) {
  for (Model m : {Model::Logistic, Model::Normalized}) {
    const SprtState s = sprt(Pentanomial{}, SprtParams{0, 5, 0.05, 0.05, m});
    EXPECT_TRUE(std::isfinite(s.llr));
    EXPECT_EQ(s.decision, Decision::Continue);
  }
}

TEST(StatsSprt, ParamsErrorNamesTheProblem) {
  EXPECT_FALSE(sprt_params_error(SprtParams{}));
  EXPECT_TRUE(sprt_params_error(SprtParams{5, 0, 0.05, 0.05, Model::Logistic}));
  EXPECT_TRUE(sprt_params_error(SprtParams{0, 5, 0, 0.05, Model::Logistic}));
  EXPECT_TRUE(sprt_params_error(SprtParams{0, 5, 0.05, 1, Model::Logistic}));
  EXPECT_TRUE(sprt_params_error(SprtParams{0, 5, 0.6, 0.5, Model::Logistic}));
  EXPECT_TRUE(sprt_params_error(SprtParams{0, NAN, 0.05, 0.05, Model::Logistic}));
}

}  // namespace
