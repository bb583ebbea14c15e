// `arena contest build|withdraw|disqualify CONFIG ...`: a class contest's entrants (docs/CONTEST.md).
#include <memory>
#include <string>

#include <fmt/core.h>

#include "arena/app/commands.h"
#include "arena/config/config.h"
#include "arena/contest/contest.h"
#include "arena/report/report_service.h"
#include "referee/system/clean_text.h"

namespace kalah::arena_app {
namespace {

struct ContestOptions {
  std::string config;
  std::string name;
  std::string reason;
  CLI::App* build = nullptr;
  CLI::App* withdraw = nullptr;
  CLI::App* disqualify = nullptr;
};

arena::Config load(const std::string& path) {
  Expected<arena::Config> loaded = arena::load_config(path);
  if (!loaded) throw UsageError(loaded.error());
  for (const std::string& warning : loaded->warnings) fmt::print(stderr, "arena: warning: {}\n", warning);
  if (!loaded->is_contest())
    throw UsageError(path + ": not a contest: it has no [submissions] table (docs/CONTEST.md)");
  return std::move(loaded).value();
}

int run_contest(const ContestOptions& o) {
  if (o.build->parsed()) {
    const arena::Config config = load(o.config);
    fmt::print("contest '{}': building the submissions in {}\n", config.tournament.name,
               config.submissions->dir.string());
    std::fflush(stdout);
    Expected<arena::contest::BuildSummary> built =
        arena::contest::build_submissions(config, [](const std::string& line) {
          fmt::print("{}\n", system::clean_text(line, false));  // it quotes what students wrote
          std::fflush(stdout);
        });
    if (!built) throw UsageError(built.error());
    fmt::print("{} submission{}: {} entered, {} not entered; entrants in {}\n", built->submissions,
               built->submissions == 1 ? "" : "s", built->entered, built->not_entered, config.entries_file().string());
    return 0;
  }
  const bool withdraw = o.withdraw->parsed();
  const arena::Config config = load(o.config);
  if (o.reason.empty()) throw UsageError("--reason must say why (it is shown in the standings)");
  // Everything the folder holds, as `arena report` writes it: an analysis's move quality too.
  const arena::contest::WriteReports write_reports = [&](const std::filesystem::path& results) {
    Expected<report::RewrittenReports> written =
        report::rewrite_reports(results, {.event = config.tournament.name, .publish = config.tournament.publish});
    return written ? std::nullopt : std::optional<std::string>(written.error());
  };
  Expected<std::string> done = arena::contest::change_status(
      config, o.name, withdraw ? arena::EntryStatus::Withdrawn : arena::EntryStatus::Disqualified, o.reason,
      write_reports);
  if (!done) throw UsageError(done.error());
  fmt::print("{}\n", *done);
  return 0;
}

}  // namespace

void add_contest_command(cli::Commands& commands) {
  auto [cmd, o] = commands.add<ContestOptions>(
      "contest", "A class contest from a folder of submissions: build them, withdraw or disqualify an entrant",
      run_contest);
  cmd->require_subcommand(1);
  o->build = cmd->add_subcommand("build", "Build every new submission in a sandbox, check it, record the entrants");
  o->build->add_option("config", o->config, "The contest's config file (with a [submissions] table)")->required();
  o->withdraw =
      cmd->add_subcommand("withdraw", "Take an entrant out; its finished games count by [submissions] withdrawn");
  o->disqualify = cmd->add_subcommand("disqualify",
                                      "Disqualify an entrant; its finished games count by [submissions] disqualified");
  for (CLI::App* sub : {o->withdraw, o->disqualify}) {
    sub->add_option("config", o->config, "The contest's config file")->required();
    sub->add_option("name", o->name, "The entrant's name")->required();
    sub->add_option("--reason", o->reason, "Why (shown in the standings)")->required()->check(cli::non_empty());
  }
  cmd->footer(
      "Examples:\n"
      "  arena contest build configs/contest/contest.toml\n"
      "  arena run configs/contest/contest.toml\n"
      "  arena contest withdraw configs/contest/contest.toml bob --reason \"left the course\"\n"
      "Exit code: 0 done, 2 a usage or config error.\n");
}

}  // namespace kalah::arena_app
