// An SPRT's record (`SprtRecord`): what sprt.json holds and what an SPRT run's reports (standings.md,
// standings.json, report.html) lead with — the decision in the terminal's words, the LLR with its bounds and
// its course over the pairs, the pentanomial counts and the Elo with its interval, the figures `arena sprt`
// printed, so that no page says something else. One JSON encoding for sprt.json and standings.json's `sprt`
// (docs/FORMATS.md), read back in that shape and in the older flat one of standings.json.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "arena/rating/sprt_tally.h"
#include "referee/rules/expected.h"
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

struct SprtRecord {
  std::string name;     // the match (the tournament's name, the reports' event)
  std::string outcome;  // the terminal's sentence: "H1 accepted (elo0=0 against elo1=5 normalized Elo): ..."
  std::string test, base;
  stats::SprtParams params;
  int max_pairs = 0;  // 0: none
  stats::SprtState state;
  stats::Summary summary;  // of the pairs
  stats::Pentanomial pentanomial;
  stats::Trinomial trinomial;  // every finished game, also of unfinished pairs
  int pairs = 0;
  int games = 0;
  // sprt.json only: whether the match has ended (decided or max_pairs), false while it runs or after an interrupt.
  std::optional<bool> finished;
  // The reports only (sprt.json, rewritten after every pair, leaves it out): the LLR after each finished pair, in
  // the order the pairs finished.
  std::optional<std::vector<double>> llr_by_pair;
  std::vector<SprtCommit> commits;  // a git SPRT's base and test; empty for other engines
  // The engines' bench node counts, when the run checked them ([sprt] bench, docs/SPRT.md).
  std::optional<long long> base_bench, test_bench;
};

// The record of `tally`'s test as it stands, named `name`, with the LLR course (for the reports) or not (for
// sprt.json). The outcome sentence is written here.
SprtRecord sprt_record(const std::string& name, const rating::SprtTally& tally, int max_pairs, bool with_llr_by_pair);
// The sentence of the outcome: "H1 accepted (elo0=0 against elo1=5 normalized Elo): 'test' is stronger than 'base'".
std::string outcome_sentence(const SprtRecord& r);
// The closing lines of an SPRT as the terminal prints them (`arena sprt`, the merge of its shards).
std::string sprt_result_text(const SprtRecord& r);

// The one JSON encoding of a record: sprt.json is this object, and standings.json's `sprt` member too.
boost::json::object sprt_record_json(const SprtRecord& r);
// sprt.json's text: the encoding, indented.
std::string sprt_file_text(const SprtRecord& r);
// Reads a record in that shape, or in the flat one standings.json's `sprt` had before (docs/FORMATS.md).
Expected<SprtRecord> sprt_record_from_json(const boost::json::object& o);
// A record's object in the flat shape of older standings.json files, turned into the one shape (the keys it has,
// none added); an object in the one shape is returned as it is.
boost::json::object sprt_json_in_current_shape(const boost::json::object& o);
// Whether a standings.json written before the one shape (`recorded`, its `sprt` member flat) says what one written
// now (`recomputed`) says: every other member equal (but the rank intervals' members when `recorded`, older than
// them, has none), and every member of its `sprt` equal to the current one's under its current name. False when
// `recorded` is not in the older shape (then the texts are compared as they are).
bool old_standings_agree(std::string_view recorded, std::string_view recomputed);
// Whether `o` is in that older flat shape (its hypotheses at the top, `elo0`, not in `params`).
bool is_old_sprt_shape(const boost::json::object& o);

// The decision in the terminal's words: "H1 accepted", "H0 accepted" or "undecided".
std::string decision_words(const SprtRecord& r);
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
std::string sprt_summary_markdown(const SprtRecord& r, const SummaryContext& context);
// "'greedy' (test) 511 nodes, 'random' (base) 797 nodes": the benches of the run; empty without.
std::string bench_text(const SprtRecord& r);

// "## SPRT" for standings.md.
std::string sprt_markdown(const SprtRecord& r);
// {"sprt": {...}} for standings.json's top level: sprt_record_json (docs/FORMATS.md).
std::string sprt_json(const SprtRecord& r);
// The section of report.html, with the LLR over the pairs as an inline SVG chart.
std::string sprt_html(const SprtRecord& r);

}  // namespace kalah::report
