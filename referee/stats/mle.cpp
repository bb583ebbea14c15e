#include "referee/stats/mle.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace kalah::stats::detail {
namespace {

// The secular function f(x) = sum p_i a_i / (1 + x a_i) and its derivative (always negative).
double secular(const Pdf& d, double x) {
  double f = 0;
  for (std::size_t i = 0; i < d.size; ++i) f += d.prob[i] * d.value[i] / (1 + x * d.value[i]);
  return f;
}

double secular_slope(const Pdf& d, double x) {
  double g = 0;
  for (std::size_t i = 0; i < d.size; ++i) {
    const double q = 1 + x * d.value[i];
    g -= d.prob[i] * d.value[i] * d.value[i] / (q * q);
  }
  return g;
}

// Rescale so the probabilities sum to exactly 1; the estimates below sum to 1 only up to the
// solver's tolerance, and the LLR compares logarithms of probabilities bin by bin.
void normalize(Pdf& d) {
  double sum = 0;
  for (std::size_t i = 0; i < d.size; ++i) sum += d.prob[i];
  assert(sum > 0);
  for (std::size_t i = 0; i < d.size; ++i) d.prob[i] /= sum;
}

// observed reweighted by 1 / (1 + x a_i): the form every constrained MLE here takes.
Pdf reweight(const Pdf& observed, const Pdf& shifted, double x) {
  Pdf out = observed;
  for (std::size_t i = 0; i < out.size; ++i) out.prob[i] = observed.prob[i] / (1 + x * shifted.value[i]);
  normalize(out);
  return out;
}

}  // namespace

double regularized(double count) {
  assert(std::isfinite(count) && count >= 0 && "statistics need finite, non-negative counts");
  // Written so that nan fails the test too.
  return (count > 0 && std::isfinite(count)) ? count : kZeroCount;
}

Sample empirical(std::span<const double> counts) {
  assert(counts.size() >= 2 && counts.size() <= kMaxPoints);
  Sample s;
  s.pdf.size = counts.size();
  for (std::size_t i = 0; i < counts.size(); ++i) {
    s.pdf.prob[i] = regularized(counts[i]);
    s.pdf.value[i] = static_cast<double>(i) / static_cast<double>(counts.size() - 1);
    s.total += s.pdf.prob[i];
  }
  for (std::size_t i = 0; i < counts.size(); ++i) s.pdf.prob[i] /= s.total;
  return s;
}

double mean(const Pdf& pdf) {
  double m = 0;
  for (std::size_t i = 0; i < pdf.size; ++i) m += pdf.prob[i] * pdf.value[i];
  return m;
}

double variance(const Pdf& pdf) {
  const double m = mean(pdf);
  double v = 0;
  for (std::size_t i = 0; i < pdf.size; ++i) v += pdf.prob[i] * (pdf.value[i] - m) * (pdf.value[i] - m);
  return v;
}

double solve_secular(const Pdf& shifted) {
  // Keep this far from a pole of f, as fishtest's bracket does; kFar stands in for an infinite end
  // of the domain (then the limit distribution is reached to ~1e-9 relative).
  constexpr double kEdge = 1e-9;
  constexpr double kFar = 1e9;

  double lowest = 0, highest = 0;
  for (std::size_t i = 0; i < shifted.size; ++i) {
    lowest = std::min(lowest, shifted.value[i]);
    highest = std::max(highest, shifted.value[i]);
  }
  if (lowest == 0 && highest == 0) return 0;  // f is identically 0: keep the weights as they are

  // Domain where every 1 + x a_i > 0: (-1/highest, -1/lowest), open-ended on a side without poles.
  double lo = highest > 0 ? -1 / highest + kEdge : -kFar;
  double hi = lowest < 0 ? -1 / lowest - kEdge : kFar;
  if (!(lo < 0 && 0 < hi)) return 0;         // absurdly large shifts: x = 0 is the only safe point
  if (secular(shifted, lo) <= 0) return lo;  // no sign change: the optimum is at the edge
  if (secular(shifted, hi) >= 0) return hi;

  // Newton's method on a shrinking bracket; a step that leaves the bracket is replaced by
  // bisection, so convergence is guaranteed and quadratic once close.
  double x = 0;
  for (int iter = 0; iter < 200; ++iter) {
    const double f = secular(shifted, x);
    if (f == 0) return x;
    (f > 0 ? lo : hi) = x;
    double next = x - f / secular_slope(shifted, x);
    if (!(next > lo && next < hi)) next = lo + (hi - lo) / 2;
    if (std::abs(next - x) <= 1e-15 * std::max(1.0, std::abs(x))) return next;
    x = next;
  }
  return x;
}

Pdf mle_mean(const Pdf& observed, double s) {
  Pdf shifted = observed;
  for (std::size_t i = 0; i < shifted.size; ++i) shifted.value[i] = observed.value[i] - s;
  return reweight(observed, shifted, solve_secular(shifted));
}

Pdf mle_t_value(const Pdf& observed, double ref, double t) {
  // At the current estimate (mean m, sd sigma), (mean - ref) - t * sd is, to first order in the
  // probabilities, sum_i p_i [a_i - ref - t (sigma^2 + (a_i - m)^2) / (2 sigma)]. Setting that to 0
  // is a mean-type constraint on shifted points, which solve_secular handles exactly.
  constexpr int kMaxIterations = 100;
  constexpr double kTolerance = 1e-12;
  constexpr double kMinSd = 1e-12;  // the reweighted estimate always has spread; this is insurance

  Pdf estimate = observed;
  for (std::size_t i = 0; i < estimate.size; ++i) estimate.prob[i] = 1.0 / static_cast<double>(estimate.size);

  for (int iter = 0; iter < kMaxIterations; ++iter) {
    const double m = mean(estimate);
    const double sigma = std::max(std::sqrt(variance(estimate)), kMinSd);
    Pdf shifted = observed;
    for (std::size_t i = 0; i < shifted.size; ++i) {
      const double a = observed.value[i];
      shifted.value[i] = a - ref - t * (sigma * sigma + (a - m) * (a - m)) / (2 * sigma);
    }
    const Pdf next = reweight(observed, shifted, solve_secular(shifted));
    double change = 0;
    for (std::size_t i = 0; i < next.size; ++i) change = std::max(change, std::abs(next.prob[i] - estimate.prob[i]));
    estimate = next;
    if (change < kTolerance) break;
  }
  return estimate;
}

double llr_per_sample(const Pdf& observed, const Pdf& h0, const Pdf& h1) {
  assert(observed.size == h0.size && observed.size == h1.size);
  // The estimates are positive by construction; the floor only guards the log against underflow.
  constexpr double kTiny = std::numeric_limits<double>::min();
  double llr = 0;
  for (std::size_t i = 0; i < observed.size; ++i)
    llr += observed.prob[i] * std::log(std::max(h1.prob[i], kTiny) / std::max(h0.prob[i], kTiny));
  return llr;
}

}  // namespace kalah::stats::detail
