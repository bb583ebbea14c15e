#include "arena/rating/rating.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <numbers>

#include "arena/rating/lu.h"

namespace kalah::rating {
namespace {

// Logistic on the 400-point scale: E = 1/(1 + 10^(-x/400)) = sigmoid(kScale * x).
constexpr double kScale = std::numbers::ln10 / 400.0;
constexpr double kZ95 = 1.96;

double sigmoid(double x) {
  if (x >= 0.0) return 1.0 / (1.0 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1.0 + e);
}

// ln(sigmoid(x)) without overflow or cancellation for large |x|.
double log_sigmoid(double x) { return x >= 0.0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x)); }

// One block of games whose logit is eta = r_a - r_b + h; a or b is -1 when absent
// (the prior on h is a term with neither player).
struct Term {
  int a = -1;
  int b = -1;
  bool h = false;
  double games = 0.0;
  double points = 0.0;  // scored by the side whose expectation is sigmoid(k eta)
};

struct Problem {
  int players = 0;
  int dim = 0;  // players, plus one for h
  int h_index = -1;
  std::vector<Term> terms;
  std::vector<double> constraint;  // the row A of A theta = target
  double target = 0.0;
};

double eta(const Term& t, const std::vector<double>& theta, int h_index) {
  double x = 0.0;
  if (t.a >= 0) x += theta[t.a];
  if (t.b >= 0) x -= theta[t.b];
  if (t.h) x += theta[h_index];
  return x;
}

double log_likelihood(const Problem& p, const std::vector<double>& theta) {
  double sum = 0.0;
  for (const Term& t : p.terms) {
    const double x = kScale * eta(t, theta, p.h_index);
    // Skip empty sides so that 0 * ln(0) never turns into nan.
    if (t.points > 0.0) sum += t.points * log_sigmoid(x);
    if (t.games > t.points) sum += (t.games - t.points) * log_sigmoid(-x);
  }
  return sum;
}

// Gradient of the log-likelihood and the Fisher information (for the logistic
// link expected and observed information coincide): both in Elo units.
void derivatives(const Problem& p, const std::vector<double>& theta, std::vector<double>& gradient, Matrix& fisher) {
  std::fill(gradient.begin(), gradient.end(), 0.0);
  fisher.fill(0.0);
  int index[3];
  double sign[3];
  for (const Term& t : p.terms) {
    const double e = sigmoid(kScale * eta(t, theta, p.h_index));
    const double g = kScale * (t.points - t.games * e);
    const double w = kScale * kScale * t.games * e * (1.0 - e);
    int count = 0;
    if (t.a >= 0) index[count] = t.a, sign[count++] = 1.0;
    if (t.b >= 0) index[count] = t.b, sign[count++] = -1.0;
    if (t.h) index[count] = p.h_index, sign[count++] = 1.0;
    for (int i = 0; i < count; ++i) {
      gradient[index[i]] += sign[i] * g;
      for (int j = 0; j < count; ++j) fisher(index[i], index[j]) += sign[i] * sign[j] * w;
    }
  }
}

// The bordered (KKT) matrix [[I, A^T], [A, 0]]. A is scaled to the size of I so
// partial pivoting sees comparable entries; the solution and the top-left block
// of the inverse do not depend on that scale.
double border(const Problem& p, const Matrix& fisher, Matrix& bordered) {
  const std::size_t n = static_cast<std::size_t>(p.dim);
  double scale = 0.0;
  for (std::size_t i = 0; i < n; ++i) scale = std::max(scale, fisher(i, i));
  if (!(scale > 0.0)) scale = 1.0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) bordered(i, j) = fisher(i, j);
    bordered(i, n) = bordered(n, i) = scale * p.constraint[i];
  }
  bordered(n, n) = 0.0;
  return scale;
}

Problem make_problem(int players, std::span<const PairResult> results, const FitOptions& options, bool with_prior) {
  Problem p;
  p.players = players;
  p.dim = players + (options.first_mover ? 1 : 0);
  p.h_index = options.first_mover ? players : -1;
  p.terms.reserve(results.size());
  for (const PairResult& r : results) {
    assert(r.first >= 0 && r.first < players && r.second >= 0 && r.second < players);
    assert(r.first != r.second);
    assert(std::isfinite(r.games) && r.games >= 0.0);
    assert(r.points_first >= 0.0 && r.points_first <= r.games);
    if (r.games > 0.0) p.terms.push_back({r.first, r.second, options.first_mover, r.games, r.points_first});
  }
  if (with_prior) {
    // Each player gets prior_draws virtual draws spread evenly over every other
    // player, colour-neutral; h gets prior_draws virtual draws between equals.
    // Only rating differences enter, so the prior is the same under either
    // normalisation, and it links every player to every other one.
    assert(options.prior_draws > 0.0);
    if (players >= 2) {
      const double per_pair = options.prior_draws / (players - 1);
      for (int a = 0; a < players; ++a)
        for (int b = a + 1; b < players; ++b) p.terms.push_back({a, b, false, per_pair, per_pair / 2});
    }
    if (options.first_mover) p.terms.push_back({-1, -1, true, options.prior_draws, options.prior_draws / 2});
  }
  p.constraint.assign(p.dim, 0.0);
  if (options.anchor) {
    assert(*options.anchor >= 0 && *options.anchor < players);
    p.constraint[*options.anchor] = 1.0;
    p.target = options.anchor_elo;
  } else {
    std::fill(p.constraint.begin(), p.constraint.begin() + players, 1.0);
    p.target = 0.0;
  }
  return p;
}

struct Solution {
  std::vector<double> theta;
  Matrix covariance;  // dim x dim, top-left block of the bordered inverse
  int iterations = 0;
  bool converged = false;
};

// Newton's method on the bordered system with a backtracking (Armijo) line
// search. The start point satisfies the constraint and every step keeps it, so
// the Newton direction d is an ascent direction (gradient . d = d' I d >= 0) and
// backtracking always finds a step that raises the concave log-likelihood; the
// damped iteration cannot diverge, and near the optimum full steps are taken and
// convergence is quadratic.
Solution newton(const Problem& p, const FitOptions& options) {
  const std::size_t n = static_cast<std::size_t>(p.dim);
  Solution s;
  s.theta.assign(n, 0.0);
  for (int i = 0; i < p.players; ++i) s.theta[i] = options.anchor ? options.anchor_elo : 0.0;
  if (options.start.size() == n) s.theta = options.start;

  std::vector<double> gradient(n), rhs(n + 1), candidate(n);
  Matrix fisher(n), bordered(n + 1);
  Lu lu;
  double current = log_likelihood(p, s.theta);
  while (s.iterations < options.max_iterations) {
    derivatives(p, s.theta, gradient, fisher);
    const double scale = border(p, fisher, bordered);
    if (!lu.factor(bordered)) break;
    double violation = p.target;
    for (std::size_t i = 0; i < n; ++i) violation -= p.constraint[i] * s.theta[i];
    std::copy(gradient.begin(), gradient.end(), rhs.begin());
    rhs[n] = scale * violation;
    lu.solve(rhs);
    ++s.iterations;

    double largest = 0.0, slope = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      largest = std::max(largest, std::abs(rhs[i]));
      slope += gradient[i] * rhs[i];
    }
    if (!std::isfinite(largest)) break;

    // Far from the optimum the quadratic model can overshoot: halve the step
    // until the likelihood rises by a fair share of the predicted gain. Once
    // the predicted gain is at the level of rounding in the likelihood itself,
    // comparisons mean nothing and the full Newton step is taken.
    const bool negligible = slope <= 1e-10 * (1.0 + std::abs(current));
    double step = 1.0;
    double next = current;
    bool accepted = false;
    for (int halving = 0; halving < 60; ++halving, step *= 0.5) {
      for (std::size_t i = 0; i < n; ++i) candidate[i] = s.theta[i] + step * rhs[i];
      next = log_likelihood(p, candidate);
      if (std::isfinite(next) && (negligible || next >= current + 1e-4 * step * slope)) {
        accepted = true;
        break;
      }
    }
    if (!accepted) break;
    s.theta.swap(candidate);
    current = next;
    if (step == 1.0 && largest < options.tolerance) {
      s.converged = true;
      break;
    }
  }

  // Covariance at the final point: the top-left block of the bordered inverse.
  s.covariance = Matrix(n);
  if (!options.covariance) return s;
  derivatives(p, s.theta, gradient, fisher);
  border(p, fisher, bordered);
  if (!lu.factor(bordered)) {
    s.converged = false;
    return s;
  }
  const Matrix inverse = lu.inverse();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) s.covariance(i, j) = inverse(i, j);
  return s;
}

bool all_finite(const Solution& s) {
  const std::size_t n = s.theta.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(s.theta[i])) return false;
    for (std::size_t j = 0; j < n; ++j)
      if (!std::isfinite(s.covariance(i, j))) return false;
  }
  return true;
}

}  // namespace

Rating fit(int players, std::span<const PairResult> results, const FitOptions& options) {
  assert(players >= 0);
  if (players == 0) {
    Rating empty;
    empty.converged = true;
    return empty;
  }
  bool with_prior = options.prior == Prior::always || !mle_exists(players, results, options.first_mover);
  Solution s = newton(make_problem(players, results, options, with_prior), options);
  if (!with_prior && (!s.converged || !all_finite(s))) {
    // The estimate exists but is numerically out of reach (e.g. a near-perfect
    // score from a vanishing fraction of a point): fall back to the prior.
    with_prior = true;
    s = newton(make_problem(players, results, options, with_prior), options);
  }
  if (!all_finite(s)) {  // cannot happen with the prior; keep the no-inf/nan promise anyway
    s.theta.assign(s.theta.size(), 0.0);
    s.covariance = Matrix(s.theta.size());
    s.converged = false;
  }

  Rating out;
  out.elo.assign(s.theta.begin(), s.theta.begin() + players);
  out.ci95.resize(players);
  out.covariance.assign(players, std::vector<double>(players));
  for (int i = 0; i < players; ++i) {
    for (int j = 0; j < players; ++j) out.covariance[i][j] = s.covariance(i, j);
    out.ci95[i] = kZ95 * std::sqrt(std::max(0.0, s.covariance(i, i)));
  }
  if (options.first_mover) {
    out.first_mover_covariance.resize(players);
    for (int i = 0; i < players; ++i) out.first_mover_covariance[i] = s.covariance(i, players);
    out.first_mover_variance = s.covariance(players, players);
    out.first_mover_elo = s.theta[players];
    out.first_mover_ci95 = kZ95 * std::sqrt(std::max(0.0, s.covariance(players, players)));
  }
  out.iterations = s.iterations;
  out.converged = s.converged;
  out.prior_used = with_prior;
  return out;
}

double los(const Rating& rating, int i, int j) {
  assert(i >= 0 && i < static_cast<int>(rating.elo.size()));
  assert(j >= 0 && j < static_cast<int>(rating.elo.size()));
  if (i == j) return 0.5;
  const auto& c = rating.covariance;
  const double variance = c[i][i] + c[j][j] - 2.0 * c[i][j];
  const double diff = rating.elo[i] - rating.elo[j];
  if (!(variance > 0.0)) return diff > 0.0 ? 1.0 : diff < 0.0 ? 0.0 : 0.5;
  return 0.5 * std::erfc(-diff / std::sqrt(2.0 * variance));
}

double difference_ci95(const Rating& rating, int i, int j) {
  assert(i >= 0 && i < static_cast<int>(rating.elo.size()));
  assert(j >= 0 && j < static_cast<int>(rating.elo.size()));
  const auto& c = rating.covariance;
  const double variance = c[i][i] + c[j][j] - 2.0 * c[i][j];
  return variance > 0.0 ? kZ95 * std::sqrt(variance) : 0.0;
}

}  // namespace kalah::rating
