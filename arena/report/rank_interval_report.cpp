#include "arena/report/rank_interval_report.h"

#include <algorithm>

#include <boost/json/array.hpp>
#include <fmt/format.h>

#include "arena/report/text_util.h"

namespace kalah::report {

namespace json = boost::json;
using rating::EngineStanding;
using rating::Fragility;
using rating::Standings;

namespace {

// The engines in the order with an interval, in rank order.
std::vector<const EngineStanding*> ranked(const Standings& s) {
  std::vector<const EngineStanding*> out;
  for (const EngineStanding& e : s.engines)
    if (e.rank_low > 0) out.push_back(&e);
  return out;
}

// The rank as the report's ranking prints it: a contest's ranking shares ranks ("2="), the others as the table.
std::string shown_rank(const Standings& s, const EngineStanding& e) {
  if (s.ranking)
    for (const rating::RankingRow& row : s.ranking->rows)
      if (row.name == e.name) return row.rank_text();
  return rank_text(e);
}

std::string order_text(const Standings& s) {
  if (s.ranking) return "the ranking by points";
  if (s.form && s.form->by == "knockout") return "the knockout's bracket (the round reached)";
  if (s.form) return "the " + s.form->by + " standings (points, a bye's included)";
  return "the order by Elo";
}

// "95% rank intervals of the order by Elo, from 1000 tournaments ...": the paragraph above each table.
std::string method_text(const Standings& s) {
  const rating::RankUncertainty& u = *s.uncertainty;
  return fmt::format(
      "95% rank intervals for {}: the places each engine takes in {} tournaments replayed from the rating fit, "
      "with the same games (pairings and colours) as played (seed {:#x}; docs/RANKING.md). An interval always "
      "holds the engine's rank. A tie group is a run of engines whose intervals the games cannot separate from "
      "their neighbours'.{}",
      order_text(s), u.replicates, u.seed,
      u.cuts.empty() ? "" : " Top k: the share of the replayed tournaments in which the engine finishes in the top k.");
}

std::string share_text(const EngineStanding& e, std::size_t c) {
  return c < e.top_share.size() ? percent(e.top_share[c], 1) : "–";
}

// "Fragility ...: first place 2; top 3 at most 4; top 10 –." with the unit and what "at most" means.
std::string fragility_sentence(const Standings& s) {
  const rating::RankUncertainty& u = *s.uncertainty;
  std::string out =
      "Fragility: the fewest game pairs whose results, turned round (in both games of the pair a win becomes a "
      "loss and a loss a win; a game without its partner counts as a pair of its own), put an engine level with "
      "or ahead of one placed above the cut: first place " +
      fragility_text(u.first);
  for (std::size_t c = 0; c < u.cuts.size(); ++c)
    if (u.cuts[c] != 1) out += fmt::format("; top {} {}", u.cuts[c], fragility_text(u.cut_fragility[c]));
  out += ".";
  bool bound = u.first.upper_bound;
  for (const Fragility& f : u.cut_fragility) bound = bound || f.upper_bound;
  if (bound) out += " \"At most\": a set of that many reversals found and checked by refitting the ratings.";
  out +=
      " 0: the games already leave it level (a tie-break or the shared rank decides it); –: nothing to change "
      "(nobody below the cut) or no reversal changes it.";
  return out;
}

// A horizontal bar per engine over the ranks 1..N from its interval's best to its worst end, a dot at its rank;
// bars alternate in colour by tie group.
std::string interval_chart(const Standings& s) {
  const std::vector<const EngineStanding*> rows = ranked(s);
  int last = 1;
  for (const EngineStanding* e : rows) last = std::max(last, e->rank_high);
  constexpr double kLeft = 170, kPlot = 500, kRow = 18, kTop = 10;
  const double height = kTop + kRow * static_cast<double>(rows.size()) + 30;
  const auto x = [&](double rank) { return kLeft + (last == 1 ? 0.5 : (rank - 1) / (last - 1)) * kPlot; };
  int step = 1;
  for (int candidate : {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}) {
    step = candidate;
    if (last / candidate <= 10) break;
  }
  std::string out = fmt::format(
      "<svg width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"95% rank "
      "intervals\">\n",
      kLeft + kPlot + 90, height);
  const double bottom = kTop + kRow * static_cast<double>(rows.size());
  for (int t = 1; t <= last; t = t == 1 && step > 1 ? step : t + step)
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#e4e4e4\"/>"
        "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        x(t), kTop, bottom, bottom + 16, ordinal(t));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const EngineStanding& e = *rows[i];
    const double y = kTop + kRow * static_cast<double>(i);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", kLeft - 8, y + 13,
                       html_escape(e.name));
    const double x0 = x(e.rank_low), x1 = x(e.rank_high);
    out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"10\" rx=\"5\" fill=\"{}\"/>\n",
                       x0 - 5, y + 4, x1 - x0 + 10, e.tie_group % 2 == 1 ? "#9db7e6" : "#e6b89d");
    out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"#222\"/>\n", x(e.rank), y + 9);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", kLeft + kPlot + 10, y + 13,
                       html_escape(rank_interval_text(e)));
  }
  return out + "</svg>\n";
}

}  // namespace

std::string ordinal(int n) {
  const int tens = n % 100, ones = n % 10;
  const char* suffix = tens >= 11 && tens <= 13 ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

std::string rank_interval_text(const EngineStanding& e) {
  if (e.rank_low <= 0) return "–";
  if (e.rank_low == e.rank_high) return ordinal(e.rank_low);
  return ordinal(e.rank_low) + "–" + ordinal(e.rank_high);
}

std::string fragility_text(const Fragility& f) {
  if (!f.count) return "–";
  return (f.upper_bound ? "at most " : "") + std::to_string(*f.count);
}

std::string rank_intervals_markdown(const Standings& s) {
  if (!s.uncertainty) return {};
  const rating::RankUncertainty& u = *s.uncertainty;
  std::string out = "\n## How sure the order is\n\n" + markdown_escape(method_text(s)) + "\n\n";
  out += "| Rank | Engine | 95% rank interval | Tie group |";
  for (int k : u.cuts) out += fmt::format(" Top {} |", k);
  out += "\n|---:|:---|:---|---:|";
  for (std::size_t c = 0; c < u.cuts.size(); ++c) out += "---:|";
  out += "\n";
  for (const EngineStanding* e : ranked(s)) {
    out += fmt::format("| {} | {} | {} | {} |", shown_rank(s, *e), markdown_escape(e->name), rank_interval_text(*e),
                       e->tie_group);
    for (std::size_t c = 0; c < u.cuts.size(); ++c) out += " " + share_text(*e, c) + " |";
    out += "\n";
  }
  return out + "\n" + markdown_escape(fragility_sentence(s)) + "\n";
}

std::string rank_intervals_html(const Standings& s) {
  if (!s.uncertainty) return {};
  const rating::RankUncertainty& u = *s.uncertainty;
  std::string out = "<h2>How sure the order is</h2>\n<p class=\"note\">" + html_escape(method_text(s)) + "</p>\n";
  out +=
      "<div class=\"scroll\"><table><thead><tr><th>Rank</th><th class=\"name\">Engine</th>"
      "<th>95% rank interval</th><th>Tie group</th>";
  for (int k : u.cuts) out += fmt::format("<th>Top {}</th>", k);
  out += "</tr></thead><tbody>\n";
  for (const EngineStanding* e : ranked(s)) {
    out += fmt::format("<tr><td>{}</td><td class=\"name\">{}</td><td>{}</td><td>{}</td>", shown_rank(s, *e),
                       html_escape(e->name), html_escape(rank_interval_text(*e)), e->tie_group);
    for (std::size_t c = 0; c < u.cuts.size(); ++c) out += "<td>" + share_text(*e, c) + "</td>";
    out += "</tr>\n";
  }
  out += "</tbody></table></div>\n";
  out += "<p class=\"note\">" + html_escape(fragility_sentence(s)) + "</p>\n";
  if (!ranked(s).empty()) out += "<div class=\"chart-box\">" + interval_chart(s) + "</div>\n";
  return out;
}

std::string rank_intervals_csv_header(const Standings& s) {
  if (!s.uncertainty) return {};
  std::string out = ",rank_low,rank_high,tie_group";
  for (int k : s.uncertainty->cuts) out += ",top_" + std::to_string(k);
  return out;
}

std::string rank_intervals_csv_cells(const Standings& s, const std::string& name) {
  if (!s.uncertainty) return {};
  const auto it =
      std::find_if(s.engines.begin(), s.engines.end(), [&](const EngineStanding& e) { return e.name == name; });
  const bool in = it != s.engines.end() && it->rank_low > 0;
  std::string out = in ? fmt::format(",{},{},{}", it->rank_low, it->rank_high, it->tie_group) : ",,,";
  for (std::size_t c = 0; c < s.uncertainty->cuts.size(); ++c)
    out += "," + (in && c < it->top_share.size() ? fixed(it->top_share[c], 4) : std::string());
  return out;
}

void add_rank_interval_json(const EngineStanding& e, const Standings& s, json::object& o) {
  if (!s.uncertainty) return;
  const bool in = e.rank_low > 0;
  o["rank_low"] = in ? json::value(e.rank_low) : json::value(nullptr);
  o["rank_high"] = in ? json::value(e.rank_high) : json::value(nullptr);
  o["tie_group"] = in ? json::value(e.tie_group) : json::value(nullptr);
  if (s.uncertainty->cuts.empty()) return;
  json::object top;
  for (std::size_t c = 0; c < s.uncertainty->cuts.size(); ++c)
    top[std::to_string(s.uncertainty->cuts[c])] =
        in && c < e.top_share.size() ? json::value(rounded(e.top_share[c], 4)) : json::value(nullptr);
  o["top"] = std::move(top);
}

void add_uncertainty_json(const Standings& s, json::object& root) {
  if (!s.uncertainty) return;
  const rating::RankUncertainty& u = *s.uncertainty;
  json::array cuts;
  for (int k : u.cuts) cuts.emplace_back(k);
  const char* order = u.by == rating::OrderBy::Elo ? "elo" : u.by == rating::OrderBy::Bracket ? "bracket" : "points";
  root["rank_intervals"] = json::object{{"order", order},
                                        {"method", "parametric bootstrap"},
                                        {"level", "95%"},
                                        {"replicates", u.replicates},
                                        {"seed", fmt::format("{:#x}", u.seed)},
                                        {"cuts", std::move(cuts)}};
  auto count = [](const Fragility& f) { return f.count ? json::value(*f.count) : json::value(nullptr); };
  auto bound = [](const Fragility& f) { return f.upper_bound ? "upper" : "exact"; };
  json::object fragility{{"unit", "game pair"}, {"first", count(u.first)}, {"first_bound", bound(u.first)}};
  json::object by_cut, bounds;
  for (std::size_t c = 0; c < u.cuts.size(); ++c) {
    by_cut[std::to_string(u.cuts[c])] = count(u.cut_fragility[c]);
    bounds[std::to_string(u.cuts[c])] = bound(u.cut_fragility[c]);
  }
  fragility["cuts"] = std::move(by_cut);
  fragility["cuts_bound"] = std::move(bounds);
  root["fragility"] = std::move(fragility);
}

}  // namespace kalah::report
