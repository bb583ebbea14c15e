#include "arena/report/reports.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <type_traits>

#include "arena/report/reporters.h"
#include "arena/rating/standings.h"

namespace kalah::report {
namespace {

namespace fs = std::filesystem;

// Reports can always be rebuilt from the journal, so a temporary file and a
// rename (no fsync) are enough to never leave a half-written one behind.
std::optional<std::string> write_file(const fs::path& path, const std::string& content) {
  fs::path temporary = path;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return temporary.string() + ": cannot create: " + std::strerror(errno);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) return temporary.string() + ": cannot write: " + std::strerror(errno);
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) return path.string() + ": cannot replace: " + ec.message();
  return std::nullopt;
}

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
    if (std::optional<std::string> error = write_file(dir / kReportFiles[i], reporters[i]())) return Error{*error};
    written.push_back(kReportFiles[i]);
  }
  return written;
}

}  // namespace kalah::report
