// `arena run CONFIG`: play (or resume) a tournament and write its reports.
#include <fmt/core.h>

#include "arena/app/commands.h"
#include "arena/app/interrupts.h"
#include "arena/app/progress.h"
#include "arena/app/tournament_meta.h"
#include "arena/app/sprt.h"
#include "arena/config/config.h"
#include "arena/journal/journal.h"
#include "arena/report/reporters.h"
#include "arena/report/reports.h"
#include "arena/report/standings.h"
#include "arena/runner/runner.h"
#include "arena/schedule/schedule.h"
#include "referee/game/game.h"
#include "referee/process/engine_process.h"

namespace kalah::arena_app {

namespace {

struct RunOptions {
  std::string config;
  int concurrency = 0;
  std::string out;
  bool fresh = false;
};

void run(const RunOptions& o) {
  Expected<arena::Config> loaded = arena::load_config(o.config);
  if (!loaded) throw UsageError(loaded.error());
  arena::Config config = std::move(loaded).value();
  if (o.concurrency > 0) config.tournament.concurrency = o.concurrency;
  if (!o.out.empty()) config.tournament.output = o.out;
  if (config.sprt) {  // an [sprt] table makes it a match until the test decides
    run_sprt(config, o.fresh);
    return;
  }

  const std::filesystem::path dir = config.results_dir();
  Expected<journal::Journal> opened = journal::Journal::open(dir, tournament_meta(config), o.fresh);
  if (!opened) throw UsageError(opened.error());
  journal::Journal journal = std::move(opened).value();
  for (const std::string& w : journal.warnings()) fmt::print(stderr, "arena: warning: {}\n", w);

  const std::vector<arena::GameSpec> schedule = arena::make_schedule(config);
  std::vector<arena::GameSpec> pending;
  for (const arena::GameSpec& g : schedule)
    if (!journal.is_completed(g.id)) pending.push_back(g);
  std::vector<GameRecord> all = journal.games();
  std::vector<std::string> names;
  for (const arena::EngineConfig& e : config.engines) names.push_back(e.name);

  fmt::print("{}: {} {} engines, {} games ({} done), {}, {}, concurrency {}\n", config.tournament.name,
             to_string(config.tournament.type), names.size(), schedule.size(), schedule.size() - pending.size(),
             to_string(config.variant), describe_time(config), config.tournament.concurrency);
  std::fflush(stdout);

  process::become_subreaper();
  Progress progress(static_cast<int>(schedule.size()), names, all, config.tournament.progress_interval,
                    config.tournament.rating_interval, stdout);
  arena::ScheduleSource source(std::move(pending));
  arena::Runner runner(config, journal, source, [&](const arena::GameSpec&, const GameRecord& r) {
    all.push_back(r);
    progress.game_done(r, all);
  });
  arena::RunResult result;
  {
    InterruptWatcher watcher([&] { runner.interrupt(); });
    result = runner.run(config.tournament.concurrency);
  }
  progress.finish();

  try {
    report::write_all_reports(dir, all, names, config.tournament.name);
  } catch (const report::ReportError& e) {
    throw UsageError(e.what());
  }
  if (!result.error.empty()) throw UsageError("journal: " + result.error);
  if (result.interrupted) {
    fmt::print("interrupted: {} games are in {}; run the same command again to resume\n", all.size(),
               journal.games_path().string());
    exit_code() = 130;
    return;
  }
  fmt::print("{}\n", report::format_standings_table(report::compute_standings(all, names)));
  fmt::print("results: {}/ (standings.md, standings.json, standings.csv, games.pgn, report.html)\n", dir.string());
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand("run", "Play a tournament from a TOML config (resumes an unfinished one)");
  cmd->add_option("config", o->config, "The tournament's TOML file")->required();
  cmd->add_option("--concurrency", o->concurrency, "Games at once (overrides the config)")->check(CLI::Range(1, 256));
  cmd->add_option("--out", o->out, "Output folder (overrides [tournament] output)");
  cmd->add_flag("--fresh", o->fresh, "Start over: move the existing results aside instead of resuming");
  cmd->callback([o] { run(*o); });
}

}  // namespace kalah::arena_app
