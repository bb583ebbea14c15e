// `arena analyse DIR...`: every ply of every game valued with perfect play (docs/ANALYSIS.md), into
// DIR/analysis.jsonl; resumable, interruptible (Ctrl-C keeps what is written), the journals untouched.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include "arena/analysis/analyse.h"
#include "arena/app/commands.h"
#include "arena/flow/interrupts.h"
#include "arena/flow/tournaments.h"
#include "referee/endgame/database.h"

namespace kalah::arena_app {
namespace {

struct AnalyseCommandOptions {
  std::vector<std::string> dirs;
  long long budget_ms = arena::AnalysisConfig{}.budget_ms;
  int threads = 0;  // 0: one per CPU
  bool database_only = arena::AnalysisConfig{}.db_only;
  long long hash_mb = arena::AnalysisConfig{}.hash_mb;
  long long database_mb = arena::AnalysisConfig{}.db_mb;
  std::string cache_dir;
  bool no_cache = false;
  bool quiet = false;
};

std::string percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? "-" : fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

int analyse(const AnalyseCommandOptions& o) {
  std::atomic<bool> stop{false};
  arena::InterruptWatcher watcher([&] { stop = true; });
  analysis::AnalyseOptions options;
  options.threads = o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  options.stop = &stop;
  analysis::AnalyserOptions& a = options.analyser;
  a.budget = std::chrono::milliseconds(o.budget_ms);
  a.database_only = o.database_only;
  a.hash_mb = static_cast<std::size_t>(o.hash_mb);
  a.database_mb = static_cast<std::uint64_t>(o.database_mb);
  a.cache_dir = o.no_cache             ? std::filesystem::path()
                : !o.cache_dir.empty() ? std::filesystem::path(o.cache_dir)
                                       : endgame::default_cache_dir();
  a.database_threads = options.threads;
  a.stop = &stop;
  // A database not in the cache can take minutes to build: said at once, and how far it has come as it goes.
  a.database_progress = [&](const analysis::DatabaseProgress& p) {
    if (p.ready == p.loaded) {
      fmt::print("{}\n", analysis::describe(p));
      std::fflush(stdout);
    } else if (!o.quiet) {
      fmt::print(stderr, "{}\n", analysis::describe(p));
    }
  };
  for (const std::string& dir : o.dirs) {
    auto last = std::chrono::steady_clock::now();
    if (!o.quiet)
      options.progress = [&](const analysis::AnalyseProgress& p) {
        const auto now = std::chrono::steady_clock::now();
        if (now - last < std::chrono::seconds(2) && p.games_done < p.games_to_do) return;
        last = now;
        fmt::print(stderr, "{}: analysed {}/{} games, {} of positions exact, {:.0f} s\n", dir, p.games_done,
                   p.games_to_do, percent(p.proved, p.positions), p.seconds);
      };
    fmt::print("analysing {} with {} thread{}, {}\n", dir, options.threads, options.threads == 1 ? "" : "s",
               o.database_only ? "the endgame database only"
                               : fmt::format("at most {} ms per position (up to {}x for one that many games share)",
                                             o.budget_ms, analysis::AnalyserOptions{}.max_budget_factor));
    std::fflush(stdout);
    Expected<analysis::AnalyseSummary> s = analysis::analyse_folder(dir, options);
    if (!s) throw UsageError(s.error());
    for (const std::string& w : s->warnings) fmt::print(stderr, "arena: warning: {}\n", w);
    for (const std::string& n : s->notes) fmt::print("{}\n", n);
    fmt::print("{}: {} games; {} analysed before, {} now ({} positions, {} exact) in {:.1f} s\n", dir, s->games,
               s->already, s->analysed, s->positions, percent(s->proved, s->positions), s->seconds);
    if (s->stopped) {
      fmt::print("interrupted: what was analysed is in {}/{}; run the same command again to resume\n", dir,
                 analysis::kAnalysisFile);
      return arena::interrupted_exit_code(watcher.signal());
    }
    fmt::print("wrote {}/{}; the reports again, with each engine's move quality:\n", dir, analysis::kAnalysisFile);
    std::fflush(stdout);
    report_folder(dir);
  }
  return 0;
}

}  // namespace

void add_analyse_command(cli::Commands& commands) {
  auto [cmd, o] = commands.add<AnalyseCommandOptions>(
      "analyse",
      "Value every ply of every game with perfect play (endgame database, exact solver within a budget) into "
      "DIR/analysis.jsonl; resumes where it stopped",
      analyse);
  cmd->alias("analyze");
  cmd->add_option("dirs", o->dirs, "Results folders (a shard folder or each folder of a rating list)")->required();
  cmd->add_option("--budget-ms", o->budget_ms,
                  "The search time per position (n games through it: n/2 times as much, at most 100x); a position "
                  "not proved by then is null")
      ->default_val(arena::AnalysisConfig{}.budget_ms)
      ->check(CLI::Range(1LL, 3'600'000LL));
  cmd->add_option("--threads", o->threads, "Games analysed at once (default: one per CPU)")->check(CLI::Range(1, 1024));
  cmd->add_flag("--db-only", o->database_only, "No search: only positions the endgame database holds");
  cmd->add_option("--hash-mb", o->hash_mb, "Each thread's transposition table, MB")
      ->default_val(arena::AnalysisConfig{}.hash_mb)
      ->check(CLI::Range(1LL, 1LL << 20));
  cmd->add_option("--db-mb", o->database_mb, "The endgame database's memory, MB (its size in seeds follows)")
      ->default_val(arena::AnalysisConfig{}.db_mb)
      ->check(CLI::Range(0LL, 1LL << 20));
  cmd->add_option("--cache-dir", o->cache_dir, "Where endgame databases are cached (default: ~/.cache/kalah-arena)");
  cmd->add_flag("--no-cache", o->no_cache, "Build the endgame database in memory only");
  cmd->add_flag("--quiet", o->quiet, "No progress lines");
}

}  // namespace kalah::arena_app
