// `arena report DIR`: rewrite every report from the journal alone.
#include <fmt/core.h>

#include "arena/app/commands.h"
#include "arena/journal/journal.h"
#include "arena/report/reporters.h"
#include "arena/report/reports.h"
#include "arena/report/standings.h"

namespace kalah::arena_app {

void add_report_command(CLI::App& app) {
  auto dir = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("report", "Rewrite standings, crosstable, PGN and HTML from a results folder");
  cmd->add_option("dir", *dir, "A tournament's results folder, e.g. results/quick")->required();
  cmd->callback([dir] {
    Expected<journal::StoredResults> stored = journal::read_results(*dir);
    if (!stored) throw UsageError(stored.error());
    for (const std::string& w : stored->warnings) fmt::print(stderr, "arena: warning: {}\n", w);
    std::vector<std::string> names = stored->meta.engines;
    // Without the meta file, the engines are the names that appear in the games.
    for (const GameRecord& r : stored->games)
      for (const std::string& n : {r.south, r.north})
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    const std::string event = std::filesystem::path(*dir).filename().string();
    try {
      report::write_all_reports(*dir, stored->games, names, event);
    } catch (const report::ReportError& e) {
      throw UsageError(e.what());
    }
    fmt::print("{}\n", report::format_standings_table(report::compute_standings(stored->games, names)));
    fmt::print("wrote standings.md, standings.json, standings.csv, games.pgn, report.html in {}\n", *dir);
  });
}

}  // namespace kalah::arena_app
