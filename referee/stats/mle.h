#pragma once
// Internal building blocks of the statistics module: small discrete distributions on the score
// points of a match, and the constrained maximum-likelihood estimates that the GSPRT needs.
// Not part of the public API (use stats.h and sprt.h); exposed only so that tests can check the
// estimates directly.

#include <array>
#include <cstddef>
#include <numbers>
#include <span>

namespace kalah::stats::detail {

// A trinomial has 3 score points, a pentanomial 5.
inline constexpr std::size_t kMaxPoints = 5;

// Normalized Elo per unit of t-value (the score's mean excess over its standard deviation): 800 / ln 10.
inline constexpr double kNeloPerT = 800 / std::numbers::ln10;

// Replacement for an empty bin. fishtest uses the same value; it keeps every probability positive
// so logarithms, variances and the secular equation below are always well defined.
inline constexpr double kZeroCount = 1e-3;

// A distribution on `size` score points value[i] with probabilities prob[i] (summing to 1).
struct Pdf {
  std::size_t size = 0;
  std::array<double, kMaxPoints> value{};
  std::array<double, kMaxPoints> prob{};
};

// A count as used by every computation: zero, and in release builds anything invalid (negative,
// nan, inf), becomes kZeroCount. Debug builds assert that counts are finite and non-negative.
double regularized(double count);

// Counts -> (regularized total, empirical Pdf on the points i / (counts.size() - 1)).
struct Sample {
  double total = 0;
  Pdf pdf;
};
Sample empirical(std::span<const double> counts);

double mean(const Pdf& pdf);
double variance(const Pdf& pdf);

// Root x of the secular equation  sum_i p_i a_i / (1 + x a_i) = 0  with every 1 + x a_i > 0, where
// a_i = shifted.value[i]. The left side is strictly decreasing in x, so the root is unique when the
// a_i take both signs. When they do not (a hypothesis the data cannot reach) the best point lies
// at the edge of the domain and that edge is returned, so callers always get a finite answer.
double solve_secular(const Pdf& shifted);

// The distribution on the same points that maximizes the likelihood of `observed` subject to
// mean == s. Requires 0 < s < 1 to be reachable; otherwise the nearest edge estimate is returned.
Pdf mle_mean(const Pdf& observed, double s);

// The same subject to (mean - ref) / sd == t. There is no closed form: the constraint is
// linearized around the current estimate and the resulting mean-type problem solved, repeated
// until the estimate stops moving (fishtest's LLR_normalized scheme).
Pdf mle_t_value(const Pdf& observed, double ref, double t);

// Log-likelihood ratio per sample of h1 against h0 for data distributed as `observed`:
// sum_i observed_i ln(h1_i / h0_i). Multiply by the sample count for the GSPRT statistic.
double llr_per_sample(const Pdf& observed, const Pdf& h0, const Pdf& h1);

}  // namespace kalah::stats::detail
