// Number and text formatting shared by the reporters. Numbers never come out
// as nan or inf: a non-finite value is printed as 0.
#pragma once

#include <string>
#include <string_view>

#include "arena/rating/standings.h"

namespace kalah::report {

std::string fixed(double x, int decimals);           // "12.5"
std::string signed_fixed(double x, int decimals);    // "+12.5", "-3.0", "0.0"
std::string percent(double fraction, int decimals);  // 0.953 -> "95.3%"
double rounded(double x, int decimals);              // for JSON: 95.42 instead of 95.41667...

std::string html_escape(std::string_view text);
// Markdown's special characters escaped (| \\ * _ ` [ ] # ~), < > & as HTML entities; newlines become spaces.
std::string markdown_escape(std::string_view text);
// A Markdown code span of `text` (a path, a command), shown as written: fenced by one backtick more than the
// longest run inside it, padded with a space where it starts or ends with one; control characters (a newline
// would end the span) become spaces.
std::string markdown_code(std::string_view text);
// Quoted when it holds , " or a newline; a ' before a leading = + - @ (no spreadsheet formula).
std::string csv_field(std::string_view text);

// How the ratings are placed: "mean 0", or "alpha held at 1500 (± relative to it)" with an anchor.
std::string normalisation_text(const rating::Standings& s);

// An engine's place in the rating list: "3", "3=" when shared (engines out in one knockout round).
std::string rank_text(const rating::EngineStanding& e);

// The order of the rating list in words when a Swiss or knockout tournament decides it (Standings::form),
// "" otherwise: "Listed in the order of the Swiss standings: ... Elo is information."
std::string form_order_text(const rating::Standings& s);

// What "Time use" shows on the CPU clock (rating::charged_cpu_time), one paragraph for standings.md and report.html.
std::string cpu_time_use_text();

// An engine's Elo and its ± as the tables show them ("+95.4", "30.2"): `none` for an engine without a counted game,
// which has no rating (the fit's value for it would be its prior alone: "0.0 ± 436.8").
std::string elo_text(const rating::EngineStanding& e, std::string_view none = "–");
std::string ci95_text(const rating::EngineStanding& e, std::string_view none = "–");

// "+95.4 ± 30.2"
std::string elo_with_ci(double elo, double ci95);

// A crosstable cell: "3.5/6" (points of the row engine / games), "" when they did not meet.
std::string cross_points(const rating::CrossCell& cell);

}  // namespace kalah::report
