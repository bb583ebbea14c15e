#pragma once
// Match statistics for one engine against another: Elo difference, its 95% error, likelihood of
// superiority (LOS) and normalized Elo, from game counts (trinomial W/D/L) or from game-pair counts
// (pentanomial). Everything is from the first engine's point of view. Pure maths: no I/O, no
// exceptions, no allocation. Formulas and the reasons behind them: docs/STATISTICS.md.
//
// Small and degenerate samples never produce nan or inf:
//  - Every zero count is replaced by 1e-3 before computing (fishtest does the same). The variance
//    is then always positive, so 0 games, 1 game, all wins, all draws and all losses give finite
//    numbers. With real data the effect is below the printed precision.
//  - A score is clamped to [1e-3, 1 - 1e-3] before it becomes Elo, so |Elo| <= kMaxElo (~1199.8);
//    all wins give +kMaxElo, all losses -kMaxElo, and interval ends are clamped the same way.
//  - 0 games give score 0.5, Elo 0, LOS 0.5, nElo 0 and very wide (but finite) error bars.
//  - LOS of a tiny one-sided sample is close to 0 or 1 (one win already gives ~1): read it together
//    with the sample size.
// Counts must be finite and >= 0 (asserted); release builds count an invalid value as 0.

#include <array>
#include <cstddef>

namespace kalah::stats {

// Largest |Elo| reported: 400 log10(999), the Elo of a score of 1 - 1e-3. A literal so that it is
// usable in constant expressions; elo_from_score clamps to exactly +-kMaxElo.
inline constexpr double kMaxElo = 1199.8261952903777;

// Game counts. Scores per game are 1 (win), 1/2 (draw), 0 (loss). Doubles so that weighted or
// merged samples work too.
struct Trinomial {
  double wins = 0, draws = 0, losses = 0;

  void add(double score);  // score in {0, 0.5, 1}
  double games() const { return wins + draws + losses; }
};

// Game-pair counts: each opening is played twice with colours swapped, and the pair's total score
// (0 .. 2 in steps of 1/2) selects the bin. Order: [LL, LD, WL+DD, WD, WW].
struct Pentanomial {
  std::array<double, 5> counts{};

  void add(double first, double second);  // the two game scores, each in {0, 0.5, 1}
  double pairs() const;
};

// Bin of a game pair in Pentanomial::counts: 2 * (first + second), i.e. 0 = LL ... 4 = WW.
std::size_t pentanomial_bin(double first, double second);

// Elo difference that corresponds to an expected score (clamped as described above) and back.
double elo_from_score(double score);
double score_from_elo(double elo);

// Standard normal cumulative distribution function.
double normal_cdf(double x);

struct Summary {
  double samples = 0;  // games (trinomial) or pairs (pentanomial), as counted (before the 1e-3 rule)
  double score = 0.5;  // mean score per game
  double elo = 0;
  double elo95 = 0;   // half-width: (Elo(score + z se) - Elo(score - z se)) / 2, z = 1.96
  double los = 0.5;   // probability that the first engine is the stronger one
  double nelo = 0;    // (score - 1/2) / per-game sd, scaled by 800 / ln 10
  double nelo95 = 0;  // half-width of the nElo 95% interval
};

Summary summarize(const Trinomial& games);
Summary summarize(const Pentanomial& pairs);

}  // namespace kalah::stats
