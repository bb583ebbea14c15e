// The lead of an SPRT run's reports (standings.md, standings.json, report.html): the decision in the
// terminal's words, the LLR with its bounds and its course over the pairs, the pentanomial counts and
// the Elo with its interval — the figures `arena sprt` printed, so that no page says something else.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "referee/stats/sprt.h"
#include "referee/stats/stats.h"

namespace kalah::report {

// One engine of an SPRT between two commits of a repository (docs/SPRT.md, "From git").
struct SprtCommit {
  std::string role;    // "base" or "test"
  std::string ref;     // as given
  std::string commit;  // the full hash
  double build_seconds = 0;
};

struct SprtReport {
  std::string outcome;  // the terminal's sentence: "H1 accepted (elo0=0 against elo1=5 normalized Elo): ..."
  std::string test, base;
  stats::SprtParams params;
  stats::SprtState state;
  stats::Summary summary;  // of the pairs
  stats::Pentanomial pentanomial;
  int pairs = 0;
  int games = 0;
  std::vector<double> llr;          // after each finished pair, in the order the pairs finished
  std::vector<SprtCommit> commits;  // a git SPRT's base and test; empty for other engines
  // The engines' bench node counts, when the run checked them ([sprt] bench, docs/SPRT.md).
  std::optional<long long> base_bench, test_bench;
};

// The decision in the terminal's words: "H1 accepted", "H0 accepted" or "undecided".
std::string decision_words(const SprtReport& r);
// "base 1a2b3c4d5e6f (main), built in 1.2 s".
std::string commit_text(const SprtCommit& c);
// What a pull request's summary says beside the test itself.
struct SummaryContext {
  std::string time;      // the time control (TimeControl::describe(): "10+0.1", "depth 3")
  std::string repeated;  // rating::repeated_note of its games; empty when no game repeats another
  std::string report;    // report.html as a reader of the pull request finds it: never a local absolute path
};
// A short Markdown summary to post as a pull request's comment (docs/SPRT.md, "A summary for a pull
// request"): the decision on the first line, naming the two sides by their refs for a git SPRT (by their
// names otherwise), then the LLR and bounds, the hypotheses, Elo, pentanomial counts, games, the time
// control, the commits and their build times, the repeated-games note, and the report on the last line.
std::string sprt_summary_markdown(const SprtReport& r, const SummaryContext& context);
// "'greedy' (test) 511 nodes, 'random' (base) 797 nodes": the benches of the run; empty without.
std::string bench_text(const SprtReport& r);

// "## SPRT" for standings.md.
std::string sprt_markdown(const SprtReport& r);
// {"sprt": {...}} for standings.json's top level (docs/FORMATS.md).
std::string sprt_json(const SprtReport& r);
// The section of report.html, with the LLR over the pairs as an inline SVG chart.
std::string sprt_html(const SprtReport& r);

}  // namespace kalah::report
