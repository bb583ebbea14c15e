#include "referee/stats/sprt.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <span>

#include "referee/stats/mle.h"

namespace kalah::stats {
namespace {

// A hypothesis score of exactly 0 or 1 cannot be matched by any distribution with all bins
// positive; keeping it this far inside (|Elo| <= ~2400) keeps the estimates finite.
constexpr double kHypothesisScoreClamp = 1e-6;

// Far beyond any meaningful hypothesis, but small enough that the arithmetic stays finite.
constexpr double kEloLimit = 1e4;

// The sprt() entry points assert valid parameters; direct llr() callers get this as a safety net.
double sane_elo(double elo) { return std::isnan(elo) ? 0.0 : std::clamp(elo, -kEloLimit, kEloLimit); }

double sane_probability(double p) {
  constexpr double kMin = 1e-12;
  if (!(p > kMin)) return kMin;  // also catches nan
  return std::min(p, 1 - kMin);
}

// t_per_nt: how a per-game normalized t-value translates to the sample's t-value; a pair mean has
// half the variance of a game, so the same nElo is sqrt(2) times larger measured per pair.
double llr_counts(std::span<const double> counts, double elo0, double elo1, Model model, double t_per_nt) {
  const detail::Sample sample = detail::empirical(counts);
  elo0 = sane_elo(elo0);
  elo1 = sane_elo(elo1);
  detail::Pdf h0, h1;
  if (model == Model::Logistic) {
    const auto score = [](double elo) {
      return std::clamp(score_from_elo(elo), kHypothesisScoreClamp, 1 - kHypothesisScoreClamp);
    };
    h0 = detail::mle_mean(sample.pdf, score(elo0));
    h1 = detail::mle_mean(sample.pdf, score(elo1));
  } else {
    h0 = detail::mle_t_value(sample.pdf, 0.5, elo0 / detail::kNeloPerT * t_per_nt);
    h1 = detail::mle_t_value(sample.pdf, 0.5, elo1 / detail::kNeloPerT * t_per_nt);
  }
  return sample.total * detail::llr_per_sample(sample.pdf, h0, h1);
}

SprtState make_state(double llr, const SprtParams& params) {
  assert(!sprt_params_error(params));
  const SprtBounds bounds = sprt_bounds(params.alpha, params.beta);
  return SprtState{llr, bounds.lower, bounds.upper, decide(llr, bounds)};
}

}  // namespace

std::optional<std::string_view> sprt_params_error(const SprtParams& p) {
  if (!std::isfinite(p.elo0) || !std::isfinite(p.elo1)) return "elo0 and elo1 must be finite numbers";
  if (!(p.elo0 < p.elo1)) return "elo0 must be smaller than elo1";
  if (!(p.alpha > 0 && p.alpha < 1)) return "alpha must lie strictly between 0 and 1";
  if (!(p.beta > 0 && p.beta < 1)) return "beta must lie strictly between 0 and 1";
  if (!(p.alpha + p.beta < 1)) return "alpha + beta must be smaller than 1";
  return std::nullopt;
}

SprtBounds sprt_bounds(double alpha, double beta) {
  alpha = sane_probability(alpha);
  beta = sane_probability(beta);
  return SprtBounds{std::log(beta / (1 - alpha)), std::log((1 - beta) / alpha)};
}

double llr(const Trinomial& games, double elo0, double elo1, Model model) {
  // Index order is the score order: losses (0), draws (1/2), wins (1).
  const std::array<double, 3> counts{games.losses, games.draws, games.wins};
  return llr_counts(counts, elo0, elo1, model, 1.0);
}

double llr(const Pentanomial& pairs, double elo0, double elo1, Model model) {
  return llr_counts(pairs.counts, elo0, elo1, model, std::numbers::sqrt2);
}

Decision decide(double llr, const SprtBounds& bounds) {
  if (llr <= bounds.lower) return Decision::H0;
  if (llr >= bounds.upper) return Decision::H1;
  return Decision::Continue;
}

SprtState sprt(const Trinomial& games, const SprtParams& params) {
  return make_state(llr(games, params.elo0, params.elo1, params.model), params);
}

SprtState sprt(const Pentanomial& pairs, const SprtParams& params) {
  return make_state(llr(pairs, params.elo0, params.elo1, params.model), params);
}

const char* to_string(Model m) { return m == Model::Logistic ? "logistic" : "normalized"; }

const char* to_string(Decision d) {
  switch (d) {
    case Decision::H0: return "H0";
    case Decision::H1: return "H1";
    case Decision::Continue: break;
  }
  return "continue";
}

std::string describe(const SprtParams& p) {
  char text[160];
  std::snprintf(text, sizeof text, "elo0=%g elo1=%g alpha=%g beta=%g model=%s", p.elo0, p.elo1, p.alpha, p.beta,
                to_string(p.model));
  return text;
}

}  // namespace kalah::stats
