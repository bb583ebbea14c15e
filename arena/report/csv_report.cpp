#include <algorithm>

#include <fmt/format.h>

#include "arena/report/rank_interval_report.h"
#include "arena/report/ranking_report.h"
#include "arena/report/reporters.h"
#include "arena/report/text_util.h"

namespace kalah::report {

std::string standings_csv(const Standings& s, const MoveQuality* quality) {
  if (s.ranking) return ranking_csv(*s.ranking, quality, &s);
  std::string out = "rank,name,elo,ci95,games,points,score_pct,wins,draws,losses,forfeits";
  // forfeit_time, forfeit_crash, ..., forfeit_file_size: one column per reason, in kForfeitReasons order.
  for (Termination reason : kForfeitReasons) {
    std::string column = std::string(",forfeit_") + to_string(reason);
    std::replace(column.begin(), column.end(), '-', '_');
    out += column;
  }
  out += ",los_next,diff_next,diff_next_ci95" + rank_intervals_csv_header(s);
  out += (quality ? move_quality_csv_header() : "") + "\n";
  for (const EngineStanding& e : s.engines) {
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}", e.rank > 0 ? std::to_string(e.rank) : std::string(),
                       csv_field(e.name), e.games > 0 ? fixed(e.elo, 1) : "", ci95_text(e, ""), e.games,
                       fixed(e.points, 1), fixed(e.score_pct, 1), e.wins, e.draws, e.losses, e.forfeits);
    for (int count : e.forfeits_by_reason) out += "," + std::to_string(count);
    out += "," + (e.los_next ? fixed(*e.los_next, 4) : std::string());
    out += "," + (e.diff_next ? fixed(*e.diff_next, 1) : std::string());
    out += "," + (e.diff_next_ci95 ? fixed(*e.diff_next_ci95, 1) : std::string());
    out += rank_intervals_csv_cells(s, e.name);
    out += (quality ? move_quality_csv_cells(quality->find(e.name)) : "") + "\n";
  }
  return out;
}

}  // namespace kalah::report
