#include "arena/report/ranking_report.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include <boost/json/array.hpp>
#include <fmt/format.h>

#include "arena/report/rank_interval_report.h"
#include "arena/report/text_util.h"

namespace kalah::report {
namespace {

namespace json = boost::json;
using rating::EntryStatus;
using rating::Ranking;
using rating::RankingRow;
using rating::TieBreak;

// Tie-break values and points: the shortest text, to 4 decimals ("4.25", "3", "-12").
std::string value_text(double x) {
  const double r = std::round(x * 1e4) / 1e4;
  return fmt::format("{}", r == 0 ? 0.0 : r);
}

std::string tiebreak_text(const std::optional<double>& x) { return x ? value_text(*x) : "–"; }

// No rating for an entrant without a counted game (a disqualified one whose games are void): `none`.
std::string elo_of(const RankingRow& r, std::string_view none = "–") {
  return r.games > 0 ? signed_fixed(r.elo, 1) : std::string(none);
}
std::string ci95_of(const RankingRow& r, std::string_view none = "–") {
  return r.games > 0 ? fixed(r.ci95, 1) : std::string(none);
}

std::string wdl(const RankingRow& r) { return fmt::format("{}-{}-{}", r.wins, r.draws, r.losses); }

// "tiebreak_head_to_head": prefixed, so that the wins tie-break is not a second "wins" column.
std::string csv_column(TieBreak t) {
  std::string column = std::string("tiebreak_") + to_string(t);
  std::replace(column.begin(), column.end(), '-', '_');
  return column;
}

}  // namespace

std::string ranking_rule_text(const Ranking& r) {
  const rating::PointsRule& p = r.rules.points;
  std::string out = fmt::format("Ranked by points (a win {}, a draw {}, a loss {})", value_text(p.win),
                                value_text(p.draw), value_text(p.loss));
  for (TieBreak t : r.rules.tiebreaks) out += std::string(", then ") + to_string(t);
  return out +
         "; engines still tied share their rank (\"3=\"), and withdrawn or disqualified entrants are listed last, "
         "unranked. docs/RANKING.md defines each tie-break. Elo ± is the rating fit's, as information.";
}

std::vector<std::string> ranking_notes(const Ranking& r) {
  std::vector<std::string> out;
  for (const rating::TieStep& t : r.ties) out.push_back(t.describe());
  for (const RankingRow& row : r.rows) {
    if (row.status == EntryStatus::Active) continue;
    out.push_back(fmt::format("{} is {}{}: not ranked", row.name, to_string(row.status),
                              row.reason.empty() ? "" : " (" + row.reason + ")"));
  }
  if (r.voided > 0)
    out.push_back(fmt::format("{} game{} voided: {} count for nothing (an entrant's games are void)", r.voided,
                              r.voided == 1 ? "" : "s", r.voided == 1 ? "it" : "they"));
  return out;
}

std::string ranking_text_table(const Ranking& r) {
  std::size_t width = 6;
  for (const RankingRow& row : r.rows) width = std::max(width, row.name.size());
  std::string out = fmt::format("{:>4}  {:<{}}  {:>6}", "Rank", "Engine", width, "Points");
  for (TieBreak t : r.rules.tiebreaks) out += fmt::format("  {:>6}", to_string(t));
  out += fmt::format("  {:>8}  {:>5}  {:>7}  {:>6}\n", "W-D-L", "Games", "Elo", "+-");
  for (const RankingRow& row : r.rows) {
    out += fmt::format("{:>4}  {:<{}}  {:>6}", row.rank_text(), row.name, width, value_text(row.points));
    for (std::size_t k = 0; k < r.rules.tiebreaks.size(); ++k)
      out += fmt::format("  {:>{}}", tiebreak_text(row.tiebreaks[k]),
                         std::max<std::size_t>(6, std::string(to_string(r.rules.tiebreaks[k])).size()));
    out += fmt::format("  {:>8}  {:>5}  {:>7}  {:>6}\n", wdl(row), row.games, elo_of(row, "-"), ci95_of(row, "-"));
  }
  for (const std::string& note : ranking_notes(r)) out += note + "\n";
  return out;
}

std::string ranking_markdown(const Ranking& r) {
  std::string out = "## Ranking\n\n" + markdown_escape(ranking_rule_text(r)) + "\n\n| Rank | Engine | Points |";
  std::string align = "|---:|:---|---:|";
  for (TieBreak t : r.rules.tiebreaks) {
    out += std::string(" ") + to_string(t) + " |";
    align += "---:|";
  }
  out += " W-D-L | Games | Elo | ± |\n" + align + "---:|---:|---:|---:|\n";
  for (const RankingRow& row : r.rows) {
    out += fmt::format("| {} | {} | {} |", row.rank_text(), markdown_escape(row.name), value_text(row.points));
    for (const std::optional<double>& x : row.tiebreaks) out += " " + tiebreak_text(x) + " |";
    out += fmt::format(" {} | {} | {} | {} |\n", wdl(row), row.games, elo_of(row), ci95_of(row));
  }
  const std::vector<std::string> notes = ranking_notes(r);
  if (!notes.empty()) out += "\n";
  for (const std::string& note : notes) out += "- " + markdown_escape(note) + "\n";
  return out + "\n";
}

std::string ranking_csv(const Ranking& r, const MoveQuality* quality, const rating::Standings* intervals) {
  std::string out = "rank,shared,name,points";
  for (TieBreak t : r.rules.tiebreaks) out += "," + csv_column(t);
  out += ",wins,draws,losses,games,elo,ci95,status,reason";
  if (intervals) out += rank_intervals_csv_header(*intervals);
  out += (quality ? move_quality_csv_header() : "") + "\n";
  for (const RankingRow& row : r.rows) {
    out += fmt::format("{},{},{},{}", row.rank > 0 ? std::to_string(row.rank) : "", row.shared ? 1 : 0,
                       csv_field(row.name), value_text(row.points));
    for (const std::optional<double>& x : row.tiebreaks) out += "," + (x ? value_text(*x) : std::string());
    out += fmt::format(",{},{},{},{},{},{},{},{}", row.wins, row.draws, row.losses, row.games,
                       row.games > 0 ? fixed(row.elo, 1) : "", ci95_of(row, ""), to_string(row.status),
                       csv_field(row.reason));
    if (intervals) out += rank_intervals_csv_cells(*intervals, row.name);
    out += (quality ? move_quality_csv_cells(quality->find(row.name)) : "") + "\n";
  }
  return out;
}

std::string ranking_html(const Ranking& r) {
  std::string out = "<p class=\"note\">" + html_escape(ranking_rule_text(r)) +
                    "</p>\n<div class=\"scroll\"><table><thead><tr><th>Rank</th><th class=\"name\">Engine</th>"
                    "<th>Points</th>";
  for (TieBreak t : r.rules.tiebreaks) out += std::string("<th>") + to_string(t) + "</th>";
  out += "<th>W-D-L</th><th>Games</th><th>Elo</th><th>±</th></tr></thead><tbody>\n";
  for (const RankingRow& row : r.rows) {
    const std::string status =
        row.status == EntryStatus::Active ? "" : std::string(" <small>(") + to_string(row.status) + ")</small>";
    out += fmt::format("<tr><td>{}</td><td class=\"name\">{}{}</td><td>{}</td>", row.rank_text(), html_escape(row.name),
                       status, value_text(row.points));
    for (const std::optional<double>& x : row.tiebreaks) out += "<td>" + tiebreak_text(x) + "</td>";
    out += fmt::format("<td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", wdl(row), row.games, elo_of(row),
                       ci95_of(row));
  }
  out += "</tbody></table></div>\n";
  const std::vector<std::string> notes = ranking_notes(r);
  if (notes.empty()) return out;
  out += "<ul class=\"ties\">\n";
  for (const std::string& note : notes) out += "<li>" + html_escape(note) + "</li>\n";
  return out + "</ul>\n";
}

json::object ranking_json(const Ranking& r) {
  json::array tiebreaks;
  for (TieBreak t : r.rules.tiebreaks) tiebreaks.emplace_back(to_string(t));
  json::array rows;
  for (const RankingRow& row : r.rows) {
    json::object values;
    for (std::size_t k = 0; k < r.rules.tiebreaks.size(); ++k)
      values[to_string(r.rules.tiebreaks[k])] =
          row.tiebreaks[k] ? json::value(rounded(*row.tiebreaks[k], 4)) : json::value(nullptr);
    rows.emplace_back(json::object{
        {"rank", row.rank > 0 ? json::value(row.rank) : json::value(nullptr)},
        {"rank_text", row.rank_text()},
        {"shared", row.shared},
        {"name", row.name},
        {"status", to_string(row.status)},
        {"reason", row.reason},
        {"points", rounded(row.points, 4)},
        {"games", row.games},
        {"wins", row.wins},
        {"draws", row.draws},
        {"losses", row.losses},
        {"tiebreaks", std::move(values)},
        {"elo", row.games > 0 ? json::value(rounded(row.elo, 2)) : json::value(nullptr)},
        {"ci95", row.games > 0 ? json::value(rounded(row.ci95, 2)) : json::value(nullptr)},
    });
  }
  json::array ties;
  for (const rating::TieStep& t : r.ties) {
    json::array engines, values, level, skipped;
    for (const std::string& e : t.engines) engines.emplace_back(e);
    for (double v : t.values) values.emplace_back(rounded(v, 4));
    for (const auto& [tiebreak, value] : t.level)
      level.emplace_back(json::object{{"tiebreak", to_string(tiebreak)}, {"value", rounded(value, 4)}});
    for (TieBreak s : t.skipped) skipped.emplace_back(to_string(s));
    ties.emplace_back(json::object{
        {"engines", std::move(engines)},
        {"points", rounded(t.points, 4)},
        {"level", std::move(level)},
        {"skipped", std::move(skipped)},
        {"decided_by", t.decided_by ? json::value(to_string(*t.decided_by)) : json::value(nullptr)},
        {"values", std::move(values)},
        {"shared_rank", t.decided_by ? json::value(nullptr) : json::value(t.shared_rank)},
        {"text", t.describe()},
    });
  }
  const rating::PointsRule& p = r.rules.points;
  return json::object{
      {"by", to_string(r.rules.by)},
      {"tiebreaks", std::move(tiebreaks)},
      {"points", json::object{{"win", p.win}, {"draw", p.draw}, {"loss", p.loss}}},
      {"voided_games", r.voided},
      {"rows", std::move(rows)},
      {"ties", std::move(ties)},
  };
}

}  // namespace kalah::report
