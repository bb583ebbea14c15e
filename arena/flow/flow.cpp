#include "arena/flow/flow.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>

#include <fmt/core.h>
#include <fmt/format.h>

#include "arena/analysis/analyse.h"
#include "arena/analysis/analysis_file.h"
#include "arena/flow/bench_check.h"
#include "arena/flow/interrupts.h"
#include "arena/flow/live_report.h"
#include "arena/flow/tournament_meta.h"
#include "arena/integrity/archive.h"
#include "arena/integrity/engine_checksums.h"
#include "arena/journal/seed_secret_file.h"
#include "arena/report/context.h"
#include "arena/report/form_report.h"
#include "arena/report/report_service.h"
#include "arena/runner/pinning.h"
#include "referee/engine/engine_player.h"
#include "referee/process/engine_process.h"
#include "referee/system/files.h"

namespace kalah::arena {

namespace {

namespace fs = std::filesystem;

std::optional<rating::Anchor> config_anchor(const Config& c) {
  if (c.rating.anchor.empty()) return std::nullopt;
  return rating::Anchor{c.rating.anchor, c.rating.anchor_elo};
}

// What a run needs of its engines that only they can say, asked before the journal is touched by
// starting each such engine once (docs/PROTOCOL.md):
// - every option the config sets is one the engine declares, of its type and inside its range ("Options"):
//   a misspelt option would otherwise be dropped and the games played with the default;
// - games that start from a position need engines that take `position <start>`, which a KEP engine says
//   with `feature positions` in its handshake ("Start positions"). ManKalah agents were refused at load.
// An engine that does not start is left to forfeit in its games, as it would without the check.
std::optional<std::string> engines_problem(const Config& config) {
  const std::string what = config.start ? "[variant] start" : "an openings book with positions";
  for (int i = 0; i < static_cast<int>(config.engines.size()); ++i) {
    const EngineSpec& engine = config.engines[i];
    if (engine.protocol != Protocol::Kep || !config.plays(i)) continue;
    if (!config.uses_positions() && engine.options.empty()) continue;
    EnginePlayer player(config.engine_for_game(i, "check"));
    const std::optional<Fault> fault = player.start(std::chrono::milliseconds(config.time.startup_ms));
    player.stop();
    if (fault) {
      fmt::print(stderr, "arena: warning: engine '{}' did not start to have its options and features checked: {}\n",
                 engine.name, fault->detail);
      continue;
    }
    if (const std::vector<std::string> problems = player.option_problems(); !problems.empty())
      return fmt::format("{}: engine '{}': {} (docs/PROTOCOL.md, \"Options\")", config.source, engine.name,
                         fmt::join(problems, "; "));
    if (config.uses_positions() && !player.has_feature("positions"))
      return fmt::format(
          "{}: engine '{}' cannot play from a start position: it did not announce 'feature positions' in its "
          "handshake, and this config gives {} (docs/PROTOCOL.md, \"Start positions\")",
          config.source, engine.name, what);
  }
  return std::nullopt;
}

// A results folder holds one tournament played one way: unsharded (its games.jsonl) or split into shards
// (shards/I-of-N/), never both, or the shards would replay the unsharded games and the merge would count
// what it finds twice (docs/SCALE.md, "Layout").
std::optional<std::string> layout_problem(const Config& config) {
  const fs::path results = config.results_dir();
  std::error_code ec;
  auto holds_games = [&](const fs::path& journal) {
    const auto size = fs::file_size(journal, ec);
    return !ec && size > 0;
  };
  if (config.shard) {
    if (holds_games(results / journal::kGamesFile))
      return fmt::format(
          "{}: this folder holds an unsharded run of the tournament ({}): shard {} would play its games again. Finish "
          "it without --shard, or play the shards into another folder (--out)",
          results.string(), journal::kGamesFile, config.shard->text());
    return std::nullopt;
  }
  for (fs::directory_iterator it(results / "shards", ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    if (holds_games(it->path() / journal::kGamesFile))
      return fmt::format(
          "{}: this folder holds shards of the tournament (shards/{}/): an unsharded run would play their games "
          "again. Go on with --shard, merge them with `arena report {}`, or run into another folder (--out)",
          results.string(), it->path().filename().string(), results.string());
  return std::nullopt;
}

// Without openings every game of a pairing starts from the same position: engines that play alike every
// time replay the same game, and each copy counts as new evidence (docs/FORMATS.md, repeated_games). Said
// before the run when a pairing plays more than one game per colour that way.
std::optional<std::string> repeat_warning(const Config& config) {
  if (config.openings.random_plies > 0 || !config.openings.book.empty()) return std::nullopt;
  const TournamentKind& kind = kind_of(config.tournament.type);
  std::string games;
  if (config.sprt)
    games = "an SPRT plays one pairing game after game";
  else if (!kind.repeats.empty())
    games = kind.repeats;
  else if (kind.rounds != RoundsCount::SwissRounds && config.tournament.rounds > 1)
    games = fmt::format("each pairing plays {} games per colour (pairs = {})", config.tournament.rounds,
                        config.tournament.rounds);
  else
    return std::nullopt;
  return fmt::format(
      "{}: {} from one start without openings: engines that play alike every time repeat their games move for move, "
      "which narrows the Elo intervals without adding evidence (the reports count such repeats: repeated_games); "
      "give the run openings ([openings] book or random_plies, docs/CONFIG.md)",
      config.source, games);
}

// [analysis]: every game valued with perfect play before the reports are written, as `arena analyse`
// does. Ctrl-C stops it with what is written kept; the next run (or `arena analyse DIR`) goes on.
void analyse_games(const Config& config, const FlowResult& out) {
  const AnalysisConfig& a = *config.analysis;
  analysis::AnalyseOptions options;
  options.threads = a.threads > 0 ? a.threads : std::max(1, config.tournament.concurrency);
  options.analyser.budget = std::chrono::milliseconds(a.budget_ms);
  options.analyser.database_only = a.db_only;
  options.analyser.database_mb = static_cast<std::uint64_t>(a.db_mb);
  options.analyser.hash_mb = static_cast<std::size_t>(a.hash_mb);
  options.analyser.cache_dir = endgame::default_cache_dir();
  options.analyser.database_threads = options.threads;
  std::atomic<bool> stop{false};
  options.stop = &stop;
  options.analyser.stop = &stop;
  InterruptWatcher watcher([&] { stop = true; });
  // A database not in the cache can take minutes to build: said as it starts and as it goes, as
  // `arena analyse` does.
  options.analyser.database_progress = [](const analysis::DatabaseProgress& p) {
    fmt::print("arena: {}\n", analysis::describe(p));
    std::fflush(stdout);
  };
  fmt::print("arena: analysing the games with perfect play ([analysis]: {}, {} thread{})\n",
             a.db_only ? "the endgame database only"
                       : fmt::format("at most {} ms per position, more for one that many games share", a.budget_ms),
             options.threads, options.threads == 1 ? "" : "s");
  std::fflush(stdout);
  Expected<analysis::AnalyseSummary> s = analysis::analyse_folder(out.dir, options);
  if (!s) {
    fmt::print(stderr, "arena: warning: the analysis stopped: {}\n", s.error());
    return;
  }
  for (const std::string& w : s->warnings) fmt::print(stderr, "arena: warning: {}\n", w);
  fmt::print("arena: analysis: {} games, {} now; {} of {} positions exact in {:.1f} s\n", s->games, s->analysed,
             s->proved, s->positions, s->seconds);
  if (s->stopped)
    fmt::print("arena: the analysis was interrupted; run again (or `arena analyse {}`) to finish it\n",
               out.dir.string());
  std::fflush(stdout);
}

// Ctrl-C and SIGTERM during a run (when watched): the watcher interrupts the runner that is playing, if any.
class RunInterrupts {
 public:
  explicit RunInterrupts(bool watch) {
    if (watch)
      watcher_.emplace([this] {
        std::lock_guard lock(mutex_);
        if (runner_) runner_->interrupt();
      });
  }
  RunInterrupts(const RunInterrupts&) = delete;
  RunInterrupts& operator=(const RunInterrupts&) = delete;

  // The runner a signal now interrupts (nullptr: none); a signal that came before it is passed on at once.
  void attach(Runner* runner) {
    std::lock_guard lock(mutex_);
    runner_ = runner;
    if (runner_ && watcher_ && watcher_->fired()) runner_->interrupt();
  }

  // Stops watching: the signal that came (0: none).
  int finish() {
    const int signal = watcher_ ? watcher_->signal() : 0;
    watcher_.reset();
    return signal;
  }

 private:
  std::mutex mutex_;
  Runner* runner_ = nullptr;
  std::optional<InterruptWatcher> watcher_;  // last: destroyed first, before what its thread uses
};

// What is checked before the journal is touched: the layout, the pinning, the engines (when asked) and each
// engine's bench count ([sprt] bench), which is returned; warnings about repeated games and an oversubscribed
// machine are printed.
Expected<BenchCounts> check_before_journal(const Config& config, const FlowOptions& options) {
  if (std::optional<std::string> problem = layout_problem(config)) return Error{*problem};
  // Pinning that cannot be done is refused before the journal is touched.
  if (Expected<std::vector<std::vector<int>>> slots = cpu_slots(config); !slots) return Error{slots.error()};
  if (options.check_engines)
    if (std::optional<std::string> problem = engines_problem(config)) return Error{*problem};
  // [sprt] bench: each engine's count, measured before the journal is touched (a declared count that does not
  // match refuses the run here), recorded below and compared with a resumed run's.
  Expected<BenchCounts> benches = measure_benches(config);
  if (!benches) return Error{benches.error()};
  if (std::optional<std::string> warning = repeat_warning(config)) fmt::print(stderr, "arena: warning: {}\n", *warning);
  if (std::optional<std::string> warning = oversubscription_warning(config))
    fmt::print(stderr, "arena: warning: {}{}\n", config.source.empty() ? "" : config.source + ": ", *warning);
  return benches;
}

// The tournament's description as the folder's tournament.json now holds it.
Expected<TournamentDescription> folder_description(const journal::Journal& journal, const std::filesystem::path& dir) {
  Expected<TournamentDescription> read = description_from_settings(journal.meta().settings);
  if (!read) return Error{(dir / journal::kMetaFile).string() + ": " + read.error()};
  return read;
}

// After the games: the engines' identities (their handshakes' id name) recorded in tournament.json, and what went
// wrong said: a transcript not written, engines that never started. An engine that failed at start-up is the run's
// error (no reports: standings of start-up forfeits are no result; the journal keeps the games, for a resume).
std::optional<std::string> record_identities_and_failures(journal::Journal& journal, TournamentDescription& stored,
                                                          FlowResult& out) {
  TournamentDescription identities;
  for (const auto& [name, id] : out.run.identities) identities.engines[name].id = stored.engines[name].id = id;
  if (std::optional<std::string> error = journal.update_settings(to_settings(identities)))
    fmt::print(stderr, "arena: warning: {}\n", *error);
  if (!out.run.transcript_error.empty())
    fmt::print(stderr, "arena: warning: a game's transcript was not written: {}\n", out.run.transcript_error);
  // No reports: standings of start-up forfeits are no result (the journal keeps the games, for a resume).
  if (!out.run.engine_failure.empty())
    return fmt::format("{}\n{} game{} in {}", out.run.engine_failure, out.games, out.games == 1 ? " is" : "s are",
                       out.journal.string());
  for (const StartWatch::NeverStarted& e : out.run.never_started)
    fmt::print(stderr, "arena: warning: engine '{}' did not start in this run ({} start-up forfeit{}): {}\n", e.engine,
               e.failures, e.failures == 1 ? "" : "s", e.reason);

  return std::nullopt;
}

// A resumed folder whose engines are not the builds that played its games: the problem, naming them (a bench
// count or a digest that changed); a folder an engine was moved from is only a warning.
std::optional<std::string> changed_build_problem(const std::filesystem::path& dir,
                                                 const std::vector<std::string>& engines,
                                                 const TournamentDescription& recorded, const BenchCounts& benches,
                                                 const std::map<std::string, EngineDigests>& checksums) {
  // Before the digests: for a rebuilt engine the bench says more than a changed checksum.
  if (const std::vector<std::string> changed = changed_benches(recorded, benches); !changed.empty())
    return fmt::format(
        "{}: {}: a changed binary.\nThe games in this folder were played by the recorded build; results must not mix "
        "two builds of one engine. Test the new build in a match of its own (another --name), or start over with "
        "--fresh",
        dir.string(), fmt::join(changed, "; "));
  const integrity::EngineChanges changed = integrity::changed_engines(engines, recorded, checksums);
  if (!changed.engines.empty())
    return fmt::format(
        "{}: {}.\nThe games in this folder were played by the recorded build; results must not mix two builds of "
        "one engine. Give the new build another name (in a tournament of its own), or start over with --fresh",
        dir.string(), fmt::join(changed.engines, "; "));
  for (const std::string& line : changed.folders)
    fmt::print(stderr, "arena: warning: {} (its games so far are kept)\n", line);
  return std::nullopt;
}

// The tournament's description with this run's engines (their digests and bench counts) and this arena.
TournamentDescription describe_this_run(const Config& config, const TournamentDescription& description,
                                        const std::map<std::string, EngineDigests>& checksums,
                                        const BenchCounts& benches) {
  TournamentDescription this_run = description;
  describe_run(config, this_run);
  for (const auto& [name, digests] : checksums) this_run.engines[name].digests = digests;
  for (const auto& [name, count] : benches) this_run.engines[name].bench = count;
  return this_run;
}

// tournament.json's settings as this arena writes them, with this run's engines, and the config the run was
// started from beside its results. A new journal was opened with them already: nothing to rewrite then (each
// rewrite of tournament.json costs two syncs before the first game).
std::optional<std::string> record_this_run(const Config& config, const TournamentDescription& this_run,
                                           journal::Journal& journal) {
  // The readable settings as this arena writes them (a journal started by an older one gains the new
  // keys; the fingerprint already matched, so they describe the same tournament) and this run's.
  if (std::optional<std::string> error = journal.update_settings(to_settings(this_run))) return error;
  // The config this run was started from, beside its results (`arena archive` packs it).
  if (!config.text.empty())
    if (std::optional<std::string> error = system::write_file_atomically(config.journal_dir() / integrity::kConfigCopy,
                                                                         config.text, system::Durability::Rebuildable))
      return error;
  return std::nullopt;
}

// The reports of a run that is no shard, from the folder (report::rewrite_reports), and the copy of
// games.pgn that pgnout asks for.
std::optional<std::string> write_final_reports(const Config& config, FlowResult& out) {
  // The reports read the folder again, streamed, rather than keep every game in memory: its journal, what
  // tournament.json now says (this run's engines' identities included), an analysis of the games (also of a
  // resumed run's earlier ones) and an SPRT's test. The SPRT's sprt.json is its listener's, written as it
  // stopped.
  Expected<report::RewrittenReports> written = report::rewrite_reports(out.dir, {.event = config.tournament.name,
                                                                                 .publish = config.tournament.publish,
                                                                                 .anchor = config_anchor(config),
                                                                                 .sprt_state = false});
  if (!out.run.error.empty()) return "journal: " + out.run.error;
  if (!written) return written.error();
  out.reports = std::move(written->summary.written);
  out.standings = std::move(written->summary.standings);
  if (!config.tournament.pgnout.empty()) {
    // A copy, not a link: the results folder may be moved aside by a later --fresh.
    const std::filesystem::path& to = config.tournament.pgnout;
    std::error_code ec;
    if (to.has_parent_path()) std::filesystem::create_directories(to.parent_path(), ec);
    std::filesystem::copy_file(out.dir / "games.pgn", to, std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) return "pgnout: cannot write " + to.string() + ": " + ec.message();
  }
  return std::nullopt;
}

}  // namespace

Expected<FlowResult> run_tournament(const Config& config, RunListener& listener, const FlowOptions& options) {
  FlowResult out;
  out.dir = config.journal_dir();
  for (const EngineSpec& e : config.engines) out.engines.push_back(e.name);
  // Ctrl-C is watched from the start, before the first line is printed and before any thread is born
  // (threads inherit the blocked mask): one that comes while the run is being set up stops it before its
  // first game, with the same exit code, instead of killing the arena outright.
  RunInterrupts interrupts(options.watch_signals);

  Expected<BenchCounts> benches = check_before_journal(config, options);
  if (!benches) return Error{benches.error()};
  // What the tournament says of itself, computed once: tournament.json's settings, the [ranking] rules and the
  // entrants' status (a contest's withdrawals and disqualifications, docs/RANKING.md), a Swiss or knockout form.
  const TournamentDescription description = describe_tournament(config);
  rating::StandingsBuilder all(out.engines);
  all.set_anchor(config_anchor(config));
  all.set_ranking(description.ranking_setup());
  all.set_form(report::form_ranker(description, out.engines));
  // `all` is read by the live report's thread; every change to it happens under this lock.
  std::mutex all_lock;
  std::optional<LiveReport> live;
  if (!config.shard && config.tournament.report_every > 0)
    live.emplace(out.dir, config.tournament.name, 0, std::chrono::seconds(config.tournament.report_every), all,
                 all_lock);
  if (live && description.plays_by_rounds()) live->set_form(description, out.engines);
  auto count = [&](const GameRecord& record) {
    std::lock_guard lock(all_lock);
    all.add(record);
    if (live) live->add(record);
  };
  // What each engine is now, on disk (docs/VERIFY.md): recorded below, and compared with a resumed
  // journal's record so that one results folder never mixes two builds of a bot.
  const std::map<std::string, EngineDigests> checksums =
      integrity::engine_checksums(config.engines, config.results_dir());
  const TournamentDescription this_run = describe_this_run(config, description, checksums, *benches);
  Expected<journal::Journal> opened =
      journal::Journal::open(out.dir, tournament_meta(config, this_run), options.fresh, [&](GameRecord&& record) {
        count(record);
        listener.resumed(record);
      });
  if (!opened) return Error{opened.error()};
  journal::Journal journal = std::move(opened).value();
  for (const std::string& w : journal.warnings()) fmt::print(stderr, "arena: warning: {}\n", w);
  out.journal = journal.games_path();
  // What the folder recorded before this run, to compare this run's engines with.
  Expected<TournamentDescription> read = folder_description(journal, out.dir);
  if (!read) return Error{read.error()};
  const TournamentDescription recorded = std::move(read).value();
  if (std::optional<std::string> problem = changed_build_problem(out.dir, out.engines, recorded, *benches, checksums))
    return Error{*problem};
  if (std::optional<std::string> error = record_this_run(config, this_run, journal)) return Error{*error};
  // The description as the folder now holds it: this run's, and what earlier runs and `arena contest` recorded.
  read = folder_description(journal, out.dir);
  if (!read) return Error{read.error()};
  TournamentDescription stored = std::move(read).value();
  if (live) live->set_context(report::make_context(stored, out.engines, "", "", config.tournament.publish));

  // The tournament's folder, not a shard's: every shard sends the games the seeds a single run would.
  Expected<SeedSecret> seed_secret = journal::load_or_make_seed_secret(config.results_dir());
  if (!seed_secret) return Error{seed_secret.error()};
  if (options.results_opened) options.results_opened(config);
  GameSource& source = listener.start(journal, stored, all);
  if (live) live->set_total_games(listener.planned_games());
  std::fflush(stdout);
  // Engines' own children are re-parented to us when an engine dies, so that they can be reaped.
  process::become_subreaper();
  std::string database_note;
  std::shared_ptr<const endgame::Database> database =
      adjudication_database(config, config.tournament.concurrency, &database_note);
  if (database) fmt::print("arena: {}\n", database_note);
  std::fflush(stdout);
  Runner runner(
      config, journal, source,
      [&](const GameSpec&, const GameRecord& record) {
        count(record);
        listener.game_done(record, all);
      },
      options.players);
  runner.set_database(database);
  runner.set_seed_secret(*seed_secret);
  runner.set_game_limit(options.max_games);
  interrupts.attach(&runner);
  if (options.runner_attached) options.runner_attached(&runner);
  out.run = runner.run(config.tournament.concurrency);
  if (options.runner_attached) options.runner_attached(nullptr);
  interrupts.attach(nullptr);
  out.interrupt_signal = interrupts.finish();  // from here on Ctrl-C has its default effect again
  if (live) live->stop();                      // the final reports below replace the live ones
  listener.stopped(out.run);
  out.games = journal.size();
  if (std::optional<std::string> error = record_identities_and_failures(journal, stored, out)) return Error{*error};
  if (config.analysis && !config.shard && !out.run.interrupted && out.run.error.empty()) analyse_games(config, out);
  if (config.shard) {
    out.standings = all.standings();
  } else if (std::optional<std::string> error = write_final_reports(config, out)) {
    return Error{*error};
  }
  if (!out.run.error.empty()) return Error{"journal: " + out.run.error};
  return out;
}

}  // namespace kalah::arena
