#pragma once

// Maximum-likelihood Bradley–Terry (logistic, 400-point scale) Elo for a whole
// pool of players at once, the model Ordo fits with `ordo -z 200.24094`.
// Pure maths: no I/O. See docs/RATING.md for the model and the algorithm.

#include <optional>
#include <span>
#include <vector>

namespace kalah::rating {

// All games between one ordered pair: `first` moved first, `second` moved second.
// Draws count half a point, so 0 <= points_first <= games. Aggregating games this
// way makes the fit cost O(pairs) per iteration, however many games were played.
struct PairResult {
  int first = 0;
  int second = 0;
  double games = 0.0;
  double points_first = 0.0;
};

// When to add the weak prior (virtual draws) that keeps ratings finite.
enum class Prior {
  when_needed,  // only if the plain maximum-likelihood estimate does not exist
  always,
};

struct FitOptions {
  bool first_mover = false;   // also fit a first-mover advantage h (Elo)
  std::optional<int> anchor;  // hold this player at anchor_elo; otherwise sum of ratings = 0
  double anchor_elo = 0.0;
  Prior prior = Prior::when_needed;
  double prior_draws = 2.0;  // virtual draws per player (and for h) when the prior applies
  int max_iterations = 100;
  double tolerance = 1e-7;  // Elo: stop once the largest Newton step is below this
  // Where Newton starts: players' ratings, then h with first_mover; it must satisfy the normalisation (sum 0,
  // or the anchor at anchor_elo). Empty: everyone at 0 (the anchor's Elo). A nearby start saves iterations.
  std::vector<double> start;
  bool covariance = true;  // false: leave ci95 and covariance at 0 (a refit that needs the ratings only)
};

struct Rating {
  std::vector<double> elo;       // per player
  std::vector<double> ci95;      // +- half-width, 1.96 standard errors
  double first_mover_elo = 0.0;  // 0 unless FitOptions::first_mover
  double first_mover_ci95 = 0.0;
  std::vector<std::vector<double>> covariance;  // of elo, players x players (Elo^2)
  std::vector<double> first_mover_covariance;   // of elo[i] and h, per player (Elo^2); empty without h
  double first_mover_variance = 0.0;            // of h (Elo^2)
  int iterations = 0;                           // Newton steps taken
  bool converged = false;
  bool prior_used = false;  // virtual draws were added (see docs/RATING.md)
};

// Fits all ratings. Preconditions (asserted): players >= 0; every result has
// distinct indices in [0, players), finite games >= 0 and 0 <= points_first <= games;
// a given anchor is in range. Never returns inf or nan.
Rating fit(int players, std::span<const PairResult> results, const FitOptions& options = {});

// Likelihood of superiority: probability that player i is stronger than player j,
// Phi((r_i - r_j) / sqrt(C_ii + C_jj - 2 C_ij)).
double los(const Rating& rating, int i, int j);

// Half-width of the 95% interval of the difference r_i - r_j:
// 1.96 sqrt(C_ii + C_jj - 2 C_ij). Narrower than ci95[i] + ci95[j] when the two
// ratings are estimated from shared games (positively correlated).
double difference_ci95(const Rating& rating, int i, int j);

// True if the plain maximum-likelihood estimate exists and is unique (no prior
// needed): every split of the players into two groups has points scored across it
// in both directions, and, with a first-mover parameter, the results do not let h
// grow without bound either.
bool mle_exists(int players, std::span<const PairResult> results, bool first_mover);

}  // namespace kalah::rating
