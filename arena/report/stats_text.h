// Match statistics in words and JSON fields: shared by `arena stats`, the SPRT match's live line,
// its final summary and sprt.json, so that one number is written the same way everywhere.
#pragma once

#include <string>

#include <boost/json/object.hpp>

#include "referee/stats/sprt.h"
#include "referee/stats/stats.h"

namespace kalah::report {

// The summary as lines for people ("Elo     11.72 +- 13.67 (95%, pentanomial)", ...), each ending in '\n';
// `estimator` names what the Elo was computed from: "trinomial" (games) or "pentanomial" (game pairs).
std::string summary_text(const stats::Summary& s, const char* estimator);
// The one Elo estimate of an SPRT, wherever it is printed (the live line, the closing lines, a merge):
// "+397.3 +- 211.5 (95%, pentanomial)" from a summary of game pairs: the logistic Elo of the mean score
// per game, with the half-width of its 95% interval computed from the pairs' variance.
std::string sprt_elo_text(const stats::Summary& pairs);
// The name of that estimator, as sprt.json gives it ("pentanomial").
inline constexpr const char* kSprtEloEstimator = "pentanomial";

// "SPRT    elo0=0 ...\nLLR     0.95 (bounds -2.94, 2.94): continue\n"
std::string sprt_text(const stats::SprtState& s, const stats::SprtParams& p);

// Adds elo, elo95, los, nelo, nelo95 to `out`.
void add_summary_json(boost::json::object& out, const stats::Summary& s);
// Adds llr, lower, upper, decision to `out`.
void add_sprt_json(boost::json::object& out, const stats::SprtState& s);

// "[10, 20, 30, 20, 10]": pentanomial counts LL, LD, D (WL+DD), WD, WW.
std::string penta_text(const stats::Pentanomial& p);

}  // namespace kalah::report
