// SPRT matches (`arena sprt`, and `arena run` with an [sprt] table) and the words and numbers that
// `arena sprt` and `arena stats` share.
#pragma once

#include <string>

#include <boost/json/object.hpp>

#include "arena/config/config.h"
#include "arena/stats/sprt.h"
#include "arena/stats/stats.h"

namespace kalah::arena_app {

// Plays (or resumes) the SPRT match of `config`, which has an [sprt] table and two engines: pairs
// until a bound is crossed or max_pairs, a live line per finished pair, <results>/sprt.json after
// every pair and at the end, then every report. `fresh` as for `arena run`. Throws UsageError.
void run_sprt(const arena::Config& config, bool fresh);

const char* decision_name(stats::Decision d);  // "H0", "H1", "continue"
const char* model_name(stats::Model m);        // "logistic", "normalized"

// "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized"
std::string describe(const stats::SprtParams& p);

// The summary as lines for people ("Elo  11.72 +- 13.67 (95%)", ...), each ending in '\n'.
std::string summary_text(const stats::Summary& s);
// "LLR  0.95 (-2.94, 2.94), elo0=0 elo1=5 ..., decision: continue\n"
std::string sprt_text(const stats::SprtState& s, const stats::SprtParams& p);

// Adds elo, elo95, los, nelo, nelo95 (and with `sprt`: llr, lower, upper, decision) to `out`.
void add_summary_json(boost::json::object& out, const stats::Summary& s);
void add_sprt_json(boost::json::object& out, const stats::SprtState& s);

}  // namespace kalah::arena_app
