#include "arena/report/reports.h"

#include <functional>
#include <optional>
#include <type_traits>

#include "arena/rating/standings.h"
#include "arena/report/reporters.h"
#include "referee/system/files.h"

namespace kalah::report {
namespace {

namespace fs = std::filesystem;

}  // namespace

Expected<std::vector<std::string>> write_all_reports(const fs::path& dir, const std::vector<GameRecord>& games,
                                                     const std::vector<std::string>& engine_names,
                                                     const std::string& event_name) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{dir.string() + ": cannot create the directory: " + ec.message()};
  const Standings standings = rating::compute_standings(games, engine_names);
  const std::function<std::string()> reporters[] = {
      [&] { return standings_markdown(standings, event_name); },
      [&] { return standings_json(standings, event_name); },
      [&] { return standings_csv(standings); },
      [&] { return games_pgn(games, event_name); },
      [&] { return report_html(standings, games, event_name); },
  };
  static_assert(std::extent_v<decltype(kReportFiles)> == std::extent_v<decltype(reporters)>);
  std::vector<std::string> written;
  for (std::size_t i = 0; i < std::size(kReportFiles); ++i) {
    // Reports can always be rebuilt from the journal: no fsync.
    if (std::optional<std::string> error =
            system::write_file_atomically(dir / kReportFiles[i], reporters[i](), system::Durability::Rebuildable))
      return Error{*error};
    written.push_back(kReportFiles[i]);
  }
  return written;
}

}  // namespace kalah::report
