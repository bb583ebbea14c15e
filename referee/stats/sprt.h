#pragma once
// Sequential probability ratio test between two engines, in the generalized form (GSPRT) used by
// fishtest and fastchess: H0 "the Elo difference is elo0" against H1 "it is elo1". The
// log-likelihood ratio compares the most likely outcome distributions under each hypothesis
// (constrained MLEs), so no draw model is assumed. Call sprt() after every game (trinomial) or game
// pair (pentanomial) with the totals so far; it is cheap and stateless.
//
// Zero counts are replaced by 1e-3 before computing, exactly as fishtest does, so its published
// LLRs are reproduced and empty bins (including 0 games: LLR ~ 0) never produce nan or inf.
// Hypotheses that no outcome distribution can reach (|Elo| beyond ~2400, or nElo in the hundreds)
// are evaluated at the boundary of the model: the LLR stays finite and strongly favours the
// reachable hypothesis.

#include <optional>
#include <string>
#include <string_view>

#include "referee/stats/stats.h"

namespace kalah::stats {

// Logistic: elo0/elo1 are ordinary Elo; the hypotheses fix the expected score.
// Normalized: elo0/elo1 are normalized Elo; the hypotheses fix (score - 1/2) / per-game sd, which
// keeps the test's cost in games roughly independent of the draw rate.
enum class Model { Logistic, Normalized };

enum class Decision { H0, H1, Continue };

struct SprtParams {
  double elo0 = 0;
  double elo1 = 5;
  double alpha = 0.05;  // probability of accepting H1 when H0 holds
  double beta = 0.05;   // probability of accepting H0 when H1 holds
  Model model = Model::Logistic;
};

struct SprtBounds {
  double lower = 0;  // A = ln(beta / (1 - alpha)): accept H0 when llr <= lower
  double upper = 0;  // B = ln((1 - beta) / alpha): accept H1 when llr >= upper
};

struct SprtState {
  double llr = 0;
  double lower = 0;
  double upper = 0;
  Decision decision = Decision::Continue;
};

// Why the parameters are unusable (for an operator-facing message), or nothing when they are fine:
// all finite, 0 < alpha, 0 < beta, alpha + beta < 1 and elo0 < elo1.
std::optional<std::string_view> sprt_params_error(const SprtParams& params);

SprtBounds sprt_bounds(double alpha, double beta);

// The GSPRT log-likelihood ratio of H1 against H0, summed over all samples (games or pairs).
double llr(const Trinomial& games, double elo0, double elo1, Model model);
double llr(const Pentanomial& pairs, double elo0, double elo1, Model model);

// H0 at or below the lower bound, H1 at or above the upper bound, Continue strictly between.
Decision decide(double llr, const SprtBounds& bounds);

// Parameters must pass sprt_params_error (asserted).
SprtState sprt(const Trinomial& games, const SprtParams& params);
SprtState sprt(const Pentanomial& pairs, const SprtParams& params);

const char* to_string(Model m);     // "logistic", "normalized"
const char* to_string(Decision d);  // "H0", "H1", "continue"
// "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized" (numbers as printf's %g writes them)
std::string describe(const SprtParams& p);

}  // namespace kalah::stats
