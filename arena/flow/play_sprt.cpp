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
#include "arena/report/report_service.h"
#include "arena/report/reporters.h"
#include "arena/report/stats_text.h"
#include "arena/runner/sprt_source.h"
#include "referee/record/json_text.h"
#include "referee/system/files.h"

namespace kalah::arena {
namespace {

namespace fs = std::filesystem;

using report::kSprtFile;

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

// The SPRT's record as this run sees it: sprt.json's (without the LLR course) or, with it, what a pull
// request's summary and the reports say.
report::SprtRecord record_of(const Config& config, const rating::SprtTally& tally, const Benches& benches,
                             bool with_llr_by_pair) {
  report::SprtRecord r = report::sprt_record(config.tournament.name, tally, config.sprt->max_pairs, with_llr_by_pair);
  if (const auto& git = config.sprt->git)
    for (const auto& [side, role] : {std::pair{&git->base, "base"}, std::pair{&git->test, "test"}})
      r.commits.push_back({role, side->ref, side->commit, side->build_seconds});
  r.base_bench = benches.base;
  r.test_bench = benches.test;
  return r;
}

// sprt.json of `tally` as it stands; `finished`: the match is over (decided or max_pairs), not running or
// interrupted.
std::string sprt_json(const Config& config, const rating::SprtTally& tally, bool finished, const Benches& benches) {
  report::SprtRecord r = record_of(config, tally, benches, false);
  r.finished = finished;
  return report::sprt_file_text(r);
}

// Replaces `dir`/sprt.json atomically: readers see the old file or the new one, never half of one.
// No fsync: like the reports it is computed from the journal again when the match resumes, and it is
// written after every pair, under the runner's lock.
std::string write_sprt_json(const fs::path& dir, const std::string& text) {
  return system::write_file_atomically(dir / kSprtFile, text, system::Durability::Rebuildable).value_or("");
}

// The Markdown summary for a pull request ([sprt] summary, --summary), written at the end of a match. It is
// read on the pull request, not on this machine: the report is named relative to the working folder (where a
// workflow uploads the results from), or else as "<results folder's name>/report.html", never by an absolute path.
std::string write_summary(const Config& config, const report::SprtRecord& lead, const FlowResult& r) {
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

  void resumed(const GameRecord& record) override { source_.add_journaled(record); }

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
      fmt::print(out_, "bench: {}{}\n", report::bench_text(record_of(config_, source_.tally(), benches_, false)),
                 declared ? " (as declared)" : "");
    }
    if (journal.size() > 0)
      fmt::print(out_, "resuming: {} games ({} pairs) already played\n", journal.size(), source_.status().pairs);
    pairs_shown_ = source_.status().pairs;
    write_json(false);
    return source_;
  }

  void game_done(const GameRecord&, const rating::StandingsBuilder&) override {
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
        sprt_json(config_, source_.tally(),
                  !result.interrupted && result.error.empty() && result.engine_failure.empty(), benches_));
  }

  // What a pull request's summary says of the test.
  report::SprtRecord record() const { return record_of(config_, source_.tally(), benches_, true); }

  const SprtStatus& status() const { return source_.status(); }
  SprtSource& source() { return source_; }
  // Why the last sprt.json could not be written, or empty.
  const std::string& final_error() const { return final_error_; }

 private:
  // While playing, a failure is warned about once and the match goes on; the last write decides.
  void write_json(bool finished) {
    std::string error = write_sprt_json(config_.journal_dir(), sprt_json(config_, source_.tally(), finished, benches_));
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
  Benches benches_;  // measured before the first game, with [sprt] bench
};

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
      const report::SprtRecord record = listener.record();
      fmt::print(out, "{}", report::sprt_result_text(record));
      fmt::print(out, "results: {}/ ({}, {})\n", r.dir.string(), kSprtFile, fmt::join(r.reports, ", "));
      if (!config.sprt->summary.empty()) {
        if (std::string error = write_summary(config, record, r); !error.empty()) return Error{error};
        fmt::print(out, "summary: {}\n", config.sprt->summary.string());
      }
      return sprt_exit_code(s.sprt.decision);
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
               config.shard->count, listener.status().pairs, listener.record().outcome);
    fmt::print(out, "this shard played {} games ({}); merge every shard with: arena report {}\n", r.games,
               r.journal.string(), config.results_dir().string());
    return 0;
  }
}

}  // namespace kalah::arena
