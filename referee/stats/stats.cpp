#include "referee/stats/stats.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>
#include <span>

#include "referee/stats/mle.h"

namespace kalah::stats {
namespace {

// Scores this close to 0 or 1 would give unbounded Elo; fishtest clamps at the same point.
constexpr double kScoreClamp = 1e-3;
constexpr double kZ95 = 1.959963984540054;  // Phi^-1(0.975)

[[maybe_unused]] bool is_game_score(double s) { return s == 0 || s == 0.5 || s == 1; }

// Shared by both sample kinds. `pdf` is over the per-game mean score of one sample (a game or a
// pair), `n` the regularized sample count, and `sd_to_game` converts the sample's sd into a per-game
// sd for nElo (1 for games; sqrt 2 for pairs, since a pair mean averages two games).
Summary summarize_sample(const detail::Pdf& pdf, double n, double raw_samples, double sd_to_game) {
  Summary s;
  s.samples = raw_samples;
  s.score = detail::mean(pdf);
  // The 1e-3 rule puts weight on at least two different scores, so sd > 0; the checks below keep
  // the no-nan promise even if that ever changed.
  const double sd = std::sqrt(detail::variance(pdf));
  const double se = sd / std::sqrt(n);
  const double excess = s.score - 0.5;

  s.elo = elo_from_score(s.score);
  s.elo95 = (elo_from_score(s.score + kZ95 * se) - elo_from_score(s.score - kZ95 * se)) / 2;
  s.los = se > 0 ? normal_cdf(excess / se) : (excess > 0 ? 1.0 : excess < 0 ? 0.0 : 0.5);

  // nElo treats the per-game sd as known, so its interval is the score interval divided by sd.
  const double game_sd = sd * sd_to_game;
  if (game_sd > 0) {
    s.nelo = excess / game_sd * detail::kNeloPerT;
    s.nelo95 = kZ95 * se / game_sd * detail::kNeloPerT;
  }
  return s;
}

}  // namespace

void Trinomial::add(double score) {
  assert(is_game_score(score));
  (score == 1 ? wins : score == 0 ? losses : draws) += 1;
}

void Pentanomial::add(double first, double second) { counts[pentanomial_bin(first, second)] += 1; }

double Pentanomial::pairs() const {
  double sum = 0;
  for (double c : counts) sum += c;
  return sum;
}

std::size_t pentanomial_bin(double first, double second) {
  assert(is_game_score(first) && is_game_score(second));
  // Each score is a multiple of 1/2, so 2 * (first + second) is an exact small integer.
  const double bin = std::clamp(std::round(2 * (first + second)), 0.0, 4.0);
  return static_cast<std::size_t>(bin);
}

double elo_from_score(double score) {
  assert(!std::isnan(score));
  if (std::isnan(score)) return 0;
  const double p = std::clamp(score, kScoreClamp, 1 - kScoreClamp);
  // The clamp only evens out rounding between the two ends (~1e-11 Elo); adding 0.0 turns the -0
  // of an even score into +0 so that reports never show "-0.0".
  return std::clamp(-400 * std::log10(1 / p - 1), -kMaxElo, kMaxElo) + 0.0;
}

double score_from_elo(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::numbers::sqrt2); }

Summary summarize(const Trinomial& games) {
  // Index order is the score order: losses (0), draws (1/2), wins (1).
  const std::array<double, 3> counts{games.losses, games.draws, games.wins};
  const detail::Sample sample = detail::empirical(counts);
  return summarize_sample(sample.pdf, sample.total, games.games(), 1.0);
}

Summary summarize(const Pentanomial& pairs) {
  const detail::Sample sample = detail::empirical(pairs.counts);
  return summarize_sample(sample.pdf, sample.total, pairs.pairs(), std::numbers::sqrt2);
}

}  // namespace kalah::stats
