// `arena report DIR` (alias `arena merge DIR`): every report again from a results folder's
// journals, merging the shards of a sharded run (docs/SCALE.md). Reads complete lines only, so
// it may run while the tournament is still being played; it takes no lock.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <fmt/format.h>

#include "arena/app/commands.h"
#include "arena/flow/matches.h"
#include "arena/journal/journal.h"
#include "arena/report/reporters.h"
#include "arena/report/reports.h"

namespace kalah::arena_app {
namespace {

// "--anchor NAME=ELO": the engine must be one of the tournament's, the Elo a finite number.
rating::Anchor parse_anchor(const std::string& text, const std::vector<std::string>& engines, const std::string& dir) {
  const std::size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw UsageError("--anchor '" + text.substr(0, 80) + "': expected NAME=ELO, e.g. --anchor alphabeta=1500");
  const std::string name = text.substr(0, eq);
  const std::string number = text.substr(eq + 1);
  char* end = nullptr;
  const double elo = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size() || !std::isfinite(elo) || std::abs(elo) > 100'000)
    throw UsageError("--anchor '" + text.substr(0, 80) + "': '" + number.substr(0, 40) +
                     "' is not an Elo (a finite number within ±100000)");
  if (std::find(engines.begin(), engines.end(), name) == engines.end())
    throw UsageError(fmt::format("--anchor: no engine named '{}' in {}; the engines are: {}", name.substr(0, 80), dir,
                                 fmt::join(engines, ", ")));
  return rating::Anchor{name, elo};
}

int report(const std::string& dir, bool publish, const std::string& anchor) {
  Expected<journal::StoredResults> stored = journal::read_results(dir);
  if (!stored) throw UsageError(stored.error());
  for (const std::string& w : stored->warnings) fmt::print(stderr, "arena: warning: {}\n", w);

  // Reports of nothing would be empty tables that look like a result: say so instead.
  std::uintmax_t bytes = 0;
  for (const journal::StoredJournal& j : stored->journals) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(j.games, ec);
    if (!ec) bytes += size;
  }
  if (bytes == 0)
    throw UsageError(fmt::format("{}: no games to report yet (its journal{} empty); run the tournament first", dir,
                                 stored->journals.size() == 1 ? " is" : "s are"));

  report::ReportInput input;
  input.engine_names = stored->meta.engines;
  input.event = std::filesystem::path(dir).filename().string();
  input.settings = stored->meta.settings;
  input.publish = publish;
  if (!anchor.empty()) input.anchor = parse_anchor(anchor, stored->meta.engines, dir);
  for (const journal::StoredJournal& j : stored->journals)
    input.journals.push_back({j.games, j.label, j.shard ? static_cast<std::size_t>(j.shard->games) : 0});
  for (int missing : stored->missing_shards)
    input.notes.push_back(
        fmt::format("shard {}/{} has no journal: none of its games were played (or its task "
                    "failed before the first game)",
                    missing, stored->shard_count));

  Expected<report::ReportSummary> written = report::write_reports(dir, input);
  if (!written) throw UsageError(written.error());
  for (const std::string& w : written->warnings) fmt::print(stderr, "arena: warning: {}\n", w);
  fmt::print("{}\n", report::format_standings_table(written->standings));
  if (stored->shard_count > 0)
    fmt::print("merged {} games from {} of {} shards\n", written->games,
               stored->shard_count - static_cast<int>(stored->missing_shards.size()), stored->shard_count);
  for (const std::string& note : written->notes) fmt::print("note: {}\n", note);
  fmt::print("wrote {} in {}\n", fmt::join(written->written, ", "), dir);
  // An SPRT's merge ends with its decision, as an exit code a CI job can gate on.
  const auto type = stored->meta.settings.find("type");
  if (type == stored->meta.settings.end() || type->second != "sprt") return 0;
  std::fflush(stdout);
  Expected<int> decision = arena::report_sprt(dir, *stored, written->standings);
  if (!decision) throw UsageError(decision.error());
  fmt::print("wrote sprt.json in {}\n", dir);
  return *decision;
}

}  // namespace

void add_report_command(cli::Commands& commands) {
  for (const char* name : {"report", "merge"}) {
    auto dir = std::make_shared<std::string>();
    auto publish = std::make_shared<bool>(false);
    auto anchor = std::make_shared<std::string>();
    CLI::App* cmd = commands.add(name,
                                 std::string(name) == "report"
                                     ? "Rewrite standings, crosstable, PGN and HTML from a results folder, merging "
                                       "its shards"
                                     : "The same as `arena report`: merge the shards of a results folder",
                                 [dir, publish, anchor] { return report(*dir, *publish, *anchor); });
    cmd->add_option("dir", *dir, "A tournament's results folder, e.g. results/quick")->required();
    cmd->add_option("--anchor", *anchor,
                    "Hold this engine at this Elo in the rating list, e.g. alphabeta=1500 (default: mean 0)");
    cmd->add_flag("--publish", *publish,
                  "Leave local paths and your user name out of the engine commands shown in the reports");
  }
}

}  // namespace kalah::arena_app
