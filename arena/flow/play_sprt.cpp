// play_sprt: a regression match between a base and a test engine, pair by pair until the
// pentanomial SPRT decides (arena/runner/sprt_source.h), with sprt.json kept current.
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <optional>

#include <fmt/core.h>
#include <fmt/format.h>

#include "arena/flow/bench_check.h"
#include "arena/flow/tournaments.h"
#include "arena/journal/journal.h"
#include "arena/rating/standings.h"
#include "arena/report/reporters.h"
#include "arena/report/stats_text.h"
#include "arena/runner/sprt_source.h"
#include "referee/record/json_text.h"
#include "referee/system/files.h"

namespace kalah::arena {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSprtFile = "sprt.json";

// The engines' bench counts a run recorded ([sprt] bench), if it did.
struct Benches {
  std::optional<long long> base, test;
};

Benches benches_of(const TournamentDescription& d, const Config& config) {
  return {d.engine(config.engines[0].name).bench, d.engine(config.engines[1].name).bench};
}

// The live line after each finished pair.
std::string status_line(const SprtStatus& s) {
  return fmt::format("pairs {}  LL-LD-D-WD-WW {}  Elo {}  LLR {:.2f} ({:.2f}, {:.2f})", s.pairs,
                     report::penta_text(s.pentanomial), report::sprt_elo_text(s.summary), s.sprt.llr, s.sprt.lower,
                     s.sprt.upper);
}

// `finished`: the match is over (decided or max_pairs), not running or interrupted.
std::string sprt_json(const Config& config, const SprtStatus& s, bool finished, const Benches& benches) {
  const stats::SprtParams& p = config.sprt->params;
  boost::json::object o;
  o["name"] = config.tournament.name;
  o["base"] = config.engines[0].name;
  o["test"] = config.engines[1].name;
  o["params"] = boost::json::object{{"elo0", p.elo0},
                                    {"elo1", p.elo1},
                                    {"alpha", p.alpha},
                                    {"beta", p.beta},
                                    {"model", stats::to_string(p.model)},
                                    {"max_pairs", config.sprt->max_pairs}};
  boost::json::array penta;
  for (double n : s.pentanomial.counts) penta.push_back(n);
  o["pentanomial"] = std::move(penta);
  o["trinomial"] =
      boost::json::object{{"wins", s.trinomial.wins}, {"draws", s.trinomial.draws}, {"losses", s.trinomial.losses}};
  o["score"] = s.summary.score;
  report::add_summary_json(o, s.summary);
  o["elo_estimator"] = report::kSprtEloEstimator;
  report::add_sprt_json(o, s.sprt);
  o["pairs"] = s.pairs;
  o["games"] = s.games;
  o["finished"] = finished;
  if (const auto& git = config.sprt->git) {
    boost::json::object commits;
    for (const auto& [side, role] : {std::pair{&git->base, "base"}, std::pair{&git->test, "test"}})
      commits[role] =
          boost::json::object{{"ref", side->ref}, {"commit", side->commit}, {"build_seconds", side->build_seconds}};
    o["commits"] = std::move(commits);
  }
  if (benches.base || benches.test) {
    boost::json::object bench;
    if (benches.base) bench["base"] = *benches.base;
    if (benches.test) bench["test"] = *benches.test;
    o["bench"] = std::move(bench);
  }
  return json_text(o, {.indent = 2}) + "\n";
}

// Replaces `dir`/sprt.json atomically: readers see the old file or the new one, never half of one.
// No fsync: like the reports it is computed from the journal again when the match resumes, and it is
// written after every pair, under the runner's lock.
std::string write_sprt_json(const fs::path& dir, const std::string& text) {
  return system::write_file_atomically(dir / kSprtFile, text, system::Durability::Rebuildable).value_or("");
}

std::string outcome_sentence(const Config& config, const SprtStatus& s) {
  const std::string& base = config.engines[0].name;
  const std::string& test = config.engines[1].name;
  const stats::SprtParams& p = config.sprt->params;
  const std::string hypotheses =
      fmt::format("elo0={:g} against elo1={:g} {} Elo", p.elo0, p.elo1, stats::to_string(p.model));
  switch (s.sprt.decision) {
    case stats::Decision::H1:
      return fmt::format("H1 accepted ({}): '{}' is stronger than '{}'", hypotheses, test, base);
    case stats::Decision::H0:
      return fmt::format("H0 accepted ({}): '{}' is not shown to be stronger than '{}'", hypotheses, test, base);
    case stats::Decision::Continue: break;
  }
  return fmt::format("no decision after {} pairs (max_pairs)", s.pairs);
}

// What the reports lead with: the test as the terminal states it, and the LLR after each pair.
report::SprtReport lead_of(const Config& config, const SprtStatus& s, std::vector<double> llr, const Benches& benches) {
  report::SprtReport r;
  r.outcome = outcome_sentence(config, s);
  r.base = config.engines[0].name;
  r.test = config.engines[1].name;
  r.params = config.sprt->params;
  r.state = s.sprt;
  r.summary = s.summary;
  r.pentanomial = s.pentanomial;
  r.pairs = s.pairs;
  r.games = s.games;
  r.llr = std::move(llr);
  if (const auto& git = config.sprt->git)
    for (const auto& [side, role] : {std::pair{&git->base, "base"}, std::pair{&git->test, "test"}})
      r.commits.push_back({role, side->ref, side->commit, side->build_seconds});
  r.base_bench = benches.base;
  r.test_bench = benches.test;
  return r;
}

// The Markdown summary for a pull request ([sprt] summary, --summary), written at the end of a match. It is
// read on the pull request, not on this machine: the report is named relative to the working folder (where a
// workflow uploads the results from), or else as "<results folder's name>/report.html", never by an absolute path.
std::string write_summary(const Config& config, const report::SprtReport& lead, const FlowResult& r) {
  std::error_code ec;
  const fs::path report = fs::absolute(r.dir / "report.html", ec).lexically_normal();
  const fs::path relative = report.lexically_relative(fs::current_path(ec));
  report::SummaryContext context;
  context.time = config.time.describe();
  context.repeated = rating::repeated_note(r.standings);
  context.report = !relative.empty() && *relative.begin() != ".." ? relative.generic_string()
                                                                  : (r.dir.filename() / "report.html").generic_string();
  return system::write_file_atomically(config.sprt->summary, report::sprt_summary_markdown(lead, context),
                                       system::Durability::Rebuildable)
      .value_or("");
}

class SprtListener : public RunListener {
 public:
  SprtListener(const Config& config, std::FILE* out, std::vector<fs::path> peers)
      : config_(config), out_(out), tty_(::isatty(::fileno(out)) != 0), source_(config, std::move(peers)) {}

  void resumed(const GameRecord& record) override {
    source_.add_journaled(record);
    note_llr();
  }

  GameSource& start(const journal::Journal& journal, const TournamentDescription& description,
                    const rating::StandingsBuilder&) override {
    fmt::print(out_, "{}: SPRT '{}' (test) vs '{}' (base), {}{}, {}, {}, concurrency {}\n", config_.tournament.name,
               config_.engines[1].name, config_.engines[0].name, stats::describe(config_.sprt->params),
               config_.sprt->max_pairs > 0 ? fmt::format(" max_pairs={}", config_.sprt->max_pairs) : "",
               to_string(config_.variant), config_.time.describe(), config_.tournament.concurrency);
    if (const auto& git = config_.sprt->git)
      for (const GitSide* side : {&git->base, &git->test})
        fmt::print(out_, "  {}: {} = {} ({})\n", side->engine.name, side->ref, side->commit.substr(0, 12),
                   side->built_now ? fmt::format("built in {:.1f} s", side->build_seconds)
                                   : fmt::format("built in {:.1f} s, from the build cache", side->build_seconds));
    if (config_.sprt->bench) {
      benches_ = benches_of(description, config_);
      const bool declared = config_.sprt->base_bench || config_.sprt->test_bench;
      fmt::print(out_, "bench: {}{}\n", report::bench_text(lead_of(config_, source_.status(), {}, benches_)),
                 declared ? " (as declared)" : "");
    }
    if (journal.size() > 0)
      fmt::print(out_, "resuming: {} games ({} pairs) already played\n", journal.size(), source_.status().pairs);
    pairs_shown_ = source_.status().pairs;
    write_json(false);
    return source_;
  }

  void game_done(const GameRecord&, const rating::StandingsBuilder&) override {
    note_llr();
    const SprtStatus& s = source_.status();
    if (s.pairs == pairs_shown_) return;
    pairs_shown_ = s.pairs;
    fmt::print(out_, "{}{}{}", tty_ ? "\r\033[K" : "", status_line(s), tty_ ? "" : "\n");
    std::fflush(out_);
    write_json(false);
  }

  void stopped(const RunResult& result) override {
    if (tty_ && pairs_shown_ > 0) fmt::print(out_, "\n");
    final_error_ = write_sprt_json(
        config_.journal_dir(),
        sprt_json(config_, source_.status(),
                  !result.interrupted && result.error.empty() && result.engine_failure.empty(), benches_));
  }

  std::optional<report::SprtReport> sprt_report() const override {
    return lead_of(config_, source_.status(), llr_, benches_);
  }
  const Benches& benches() const { return benches_; }

  const SprtStatus& status() const { return source_.status(); }
  SprtSource& source() { return source_; }
  // Why the last sprt.json could not be written, or empty.
  const std::string& final_error() const { return final_error_; }

 private:
  // The LLR after each pair that finished since the last call (one entry per pair).
  void note_llr() {
    while (static_cast<int>(llr_.size()) < source_.status().pairs) llr_.push_back(source_.status().sprt.llr);
  }

  // While playing, a failure is warned about once and the match goes on; the last write decides.
  void write_json(bool finished) {
    std::string error =
        write_sprt_json(config_.journal_dir(), sprt_json(config_, source_.status(), finished, benches_));
    if (error.empty() || warned_) return;
    warned_ = true;
    fmt::print(stderr, "\narena: warning: {}\n", error);
  }

  const Config& config_;
  std::FILE* out_;
  bool tty_;
  SprtSource source_;
  int pairs_shown_ = 0;
  bool warned_ = false;
  std::string final_error_;
  std::vector<double> llr_;  // after each finished pair, in the order they finished
  Benches benches_;          // measured before the first game, with [sprt] bench
};

// The closing lines of an SPRT, the same for a match and a merge. No standings table: its Bradley-Terry
// ratings over single games are a second Elo figure, which would disagree with the test's own estimate.
void print_result(const Config& config, const SprtStatus& s, const Benches& benches, std::FILE* out) {
  const std::string& base = config.engines[0].name;
  const std::string& test = config.engines[1].name;
  fmt::print(out, "\nSPRT result for '{}' (test) against '{}' (base), from the test engine's view:\n", test, base);
  fmt::print(out, "Pairs   {} (LL-LD-D-WD-WW {}), games {} (W {:g}, D {:g}, L {:g})\n", s.pairs,
             report::penta_text(s.pentanomial), s.games, s.trinomial.wins, s.trinomial.draws, s.trinomial.losses);
  fmt::print(out, "Score   {:.2f}%\nElo     {}\nLOS     {:.2f}%\n", 100 * s.summary.score,
             report::sprt_elo_text(s.summary), 100 * s.summary.los);
  fmt::print(out, "nElo    {:+.1f} +- {:.1f} (95%, normalized Elo: the unit of elo0/elo1 with model=normalized)\n",
             s.summary.nelo, s.summary.nelo95);
  if (const std::string bench = report::bench_text(lead_of(config, s, {}, benches)); !bench.empty())
    fmt::print(out, "Bench   {}\n", bench);
  fmt::print(out, "{}{}\n", report::sprt_text(s.sprt, config.sprt->params), outcome_sentence(config, s));
}

// An SPRT's decision as a gate: kSprtH1, kSprtH0 or kSprtUndecided.
int gate_exit_code(stats::Decision decision) {
  switch (decision) {
    case stats::Decision::H1: return kSprtH1;
    case stats::Decision::H0: return kSprtH0;
    case stats::Decision::Continue: break;
  }
  return kSprtUndecided;
}

}  // namespace

Expected<int> play_sprt(const Config& config, const FlowOptions& options, std::FILE* out) {
  if (!config.sprt || config.engines.size() != 2)
    return Error{config.source + ": an SPRT needs an [sprt] table and exactly two engines (base, then test)"};
  for (const EngineSpec& e : config.engines)
    if (e.protocol != Protocol::Kep)
      return Error{fmt::format("{}: engine '{}': protocol '{}' is not supported by this version (only kep)",
                               config.source, e.name, to_string(e.protocol))};
  // A shard reads the journals of the others.
  std::vector<fs::path> peers;
  if (config.shard)
    for (int j = 1; j <= config.shard->count; ++j)
      if (j != config.shard->index)
        peers.push_back(config.results_dir() / "shards" / Shard{j, config.shard->count}.text() / "games.jsonl");

  while (true) {
    SprtListener listener(config, out, peers);
    Expected<FlowResult> played = run_tournament(config, listener, options);
    if (!played) return Error{played.error()};
    if (!listener.final_error().empty()) return Error{listener.final_error()};
    const FlowResult& r = *played;
    const SprtStatus& s = listener.status();
    if (r.run.interrupted) {
      fmt::print(out, "interrupted after {} pairs (LLR {:.2f}); run the same command again to resume\n", s.pairs,
                 s.sprt.llr);
      return interrupted_exit_code(r.interrupt_signal);
    }
    if (!config.shard) {
      print_result(config, s, listener.benches(), out);
      fmt::print(out, "results: {}/ ({}, {})\n", r.dir.string(), kSprtFile, fmt::join(r.reports, ", "));
      if (!config.sprt->summary.empty()) {
        if (std::string error = write_summary(config, *listener.sprt_report(), r); !error.empty()) return Error{error};
        fmt::print(out, "summary: {}\n", config.sprt->summary.string());
      }
      return gate_exit_code(s.sprt.decision);
    }
    // A shard ends on the test's state over every shard: after a last look at the others, the pairs
    // that were in flight when the bound was crossed may have undone the decision.
    listener.source().refresh();
    if (!listener.source().stopped()) {
      fmt::print(out, "the other shards' last pairs undid the decision (LLR {:.2f}); playing on\n",
                 listener.status().sprt.llr);
      continue;
    }
    if (!listener.source().peer_error().empty())
      fmt::print(stderr, "arena: warning: {}\n", listener.source().peer_error());
    fmt::print(out, "shard {}/{} stops: the test over all shards so far ({} pairs) says: {}\n", config.shard->index,
               config.shard->count, listener.status().pairs, outcome_sentence(config, listener.status()));
    fmt::print(out, "this shard played {} games ({}); merge every shard with: arena report {}\n", r.games,
               r.journal.string(), config.results_dir().string());
    return 0;
  }
}

namespace {

// The test over every finished pair of every journal of a folder, as its tournament.json describes it.
struct MergedSprt {
  Config config;
  SprtStatus status;
  std::vector<double> llr;
  Benches benches;
};

Expected<MergedSprt> merge_sprt(const fs::path& dir, const journal::StoredResults& stored,
                                const TournamentDescription& description) {
  Config config;
  config.source = (dir / journal::kMetaFile).string();
  config.tournament.name = dir.filename().string();
  if (!description.sprt || stored.meta.engines.size() != 2)
    return Error{config.source +
                 " does not hold the SPRT's parameters (written by an older arena?): "
                 "the standings were merged, but the test cannot be recomputed"};
  SprtConfig sprt;
  sprt.params = description.sprt->params;
  sprt.max_pairs = description.sprt->max_pairs;
  // A git SPRT's commits, as its shards recorded them.
  if (const std::optional<GitDescription>& recorded = description.git) {
    GitSprtConfig git;
    for (const auto& [side, from] : {std::pair{&git.base, &recorded->base}, std::pair{&git.test, &recorded->test}}) {
      side->ref = from->ref;
      side->commit = from->commit;
      side->build_seconds = from->build_seconds;
    }
    sprt.git = std::move(git);
  }
  config.sprt = sprt;
  for (const std::string& name : stored.meta.engines) {
    EngineSpec e;
    e.name = name;
    config.engines.push_back(e);
  }

  // Every finished pair of every journal: the decision is the test on all of them (docs/SCALE.md).
  SprtSource source(config);
  std::vector<double> llr;
  journal::SeenIds seen;
  for (const journal::StoredJournal& j : stored.journals) {
    Expected<journal::ScanSummary> scanned = journal::scan_games(
        j.games,
        [&](GameRecord&& r) {
          source.add_journaled(r);
          while (static_cast<int>(llr.size()) < source.status().pairs) llr.push_back(source.status().sprt.llr);
        },
        seen);
    if (!scanned) return Error{scanned.error()};
  }
  const Benches benches = benches_of(description, config);
  return MergedSprt{config, source.status(), std::move(llr), benches};
}

}  // namespace

Expected<report::SprtReport> sprt_lead(const fs::path& dir, const journal::StoredResults& stored,
                                       const TournamentDescription& description) {
  Expected<MergedSprt> merged = merge_sprt(dir, stored, description);
  if (!merged) return Error{merged.error()};
  return lead_of(merged->config, merged->status, std::move(merged->llr), merged->benches);
}

Expected<int> report_sprt(const fs::path& dir, const journal::StoredResults& stored,
                          const TournamentDescription& description, std::FILE* out, report::SprtReport* lead) {
  Expected<MergedSprt> merged = merge_sprt(dir, stored, description);
  if (!merged) return Error{merged.error()};
  const Config& config = merged->config;
  const SprtStatus& s = merged->status;
  const Benches& benches = merged->benches;
  if (lead) *lead = lead_of(config, s, std::move(merged->llr), benches);
  print_result(config, s, benches, out);
  const bool finished =
      s.sprt.decision != stats::Decision::Continue || (config.sprt->max_pairs > 0 && s.pairs >= config.sprt->max_pairs);
  if (std::string error = write_sprt_json(dir, sprt_json(config, s, finished, benches)); !error.empty())
    return Error{error};
  return gate_exit_code(s.sprt.decision);
}

}  // namespace kalah::arena
