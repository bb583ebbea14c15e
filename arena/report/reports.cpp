#include "arena/report/reports.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <type_traits>

#include "arena/report/reporters.h"
#include "arena/report/standings.h"

namespace kalah::report {
namespace {

namespace fs = std::filesystem;

// Reports can always be rebuilt from the journal, so a temporary file and a
// rename (no fsync) are enough to never leave a half-written one behind.
void write_file(const fs::path& path, const std::string& content) {
  fs::path temporary = path;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw ReportError(temporary.string() + ": cannot create: " + std::strerror(errno));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) throw ReportError(temporary.string() + ": cannot write: " + std::strerror(errno));
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) throw ReportError(path.string() + ": cannot replace: " + ec.message());
}

}  // namespace

void write_all_reports(const fs::path& dir, const std::vector<GameRecord>& games,
                       const std::vector<std::string>& engine_names, const std::string& event_name) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw ReportError(dir.string() + ": cannot create the directory: " + ec.message());
  const Standings standings = compute_standings(games, engine_names);
  const std::function<std::string()> reporters[] = {
      [&] { return standings_json(standings, event_name); },
      [&] { return standings_markdown(standings, event_name); },
      [&] { return standings_csv(standings); },
      [&] { return games_pgn(games, event_name); },
      [&] { return report_html(standings, games, event_name); },
  };
  static_assert(std::extent_v<decltype(kReportFiles)> == std::extent_v<decltype(reporters)>);
  for (std::size_t i = 0; i < std::size(kReportFiles); ++i) write_file(dir / kReportFiles[i], reporters[i]());
}

}  // namespace kalah::report
