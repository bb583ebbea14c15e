// `arena report DIR`: rewrite every report from the journal alone.
#include <algorithm>
#include <memory>
#include <string>

#include <fmt/core.h>
#include <fmt/format.h>

#include "arena/app/commands.h"
#include "arena/journal/journal.h"
#include "arena/rating/standings.h"
#include "arena/report/reporters.h"
#include "arena/report/reports.h"

namespace kalah::arena_app {
namespace {

int report(const std::string& dir) {
  Expected<journal::StoredResults> stored = journal::read_results(dir);
  if (!stored) throw UsageError(stored.error());
  for (const std::string& w : stored->warnings) fmt::print(stderr, "arena: warning: {}\n", w);
  std::vector<std::string> names = stored->meta.engines;
  // Without the meta file, the engines are the names that appear in the games.
  for (const GameRecord& r : stored->games)
    for (const std::string& n : {r.south, r.north})
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  const std::string event = std::filesystem::path(dir).filename().string();
  Expected<std::vector<std::string>> written = report::write_all_reports(dir, stored->games, names, event);
  if (!written) throw UsageError(written.error());
  fmt::print("{}\n", report::format_standings_table(rating::compute_standings(stored->games, names)));
  fmt::print("wrote {} in {}\n", fmt::join(*written, ", "), dir);
  return 0;
}

}  // namespace

void add_report_command(cli::Commands& commands) {
  auto dir = std::make_shared<std::string>();
  CLI::App* cmd = commands.add("report", "Rewrite standings, crosstable, PGN and HTML from a results folder",
                               [dir] { return report(*dir); });
  cmd->add_option("dir", *dir, "A tournament's results folder, e.g. results/quick")->required();
}

}  // namespace kalah::arena_app
