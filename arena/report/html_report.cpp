// report.html: one self-contained page (inline CSS, JS and SVG; nothing is
// fetched): the standings, the charts and tables, and the game viewer
// (html_viewer.h), in which every game is replayable.
#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "arena/report/bot_pages.h"
#include "arena/report/html_viewer.h"
#include "arena/report/rank_interval_report.h"
#include "arena/report/ranking_report.h"
#include "arena/report/reporters.h"
#include "arena/report/submission_pages.h"
#include "arena/report/text_util.h"

namespace kalah::report {
namespace {

// Horizontal bars from 0 to each Elo with the 95% interval as whiskers. `narrow`: the layout for a phone (the page
// shows one of the two by the screen's width), 360 wide, each engine's name and Elo on a line above its bar, so that
// the bars on both sides of 0 show without scrolling; the wide one keeps the names on the left.
std::string elo_chart(const Standings& s, bool narrow) {
  if (s.engines.empty()) return "<p>No engines.</p>\n";
  double extent = 0;
  for (const EngineStanding& e : s.engines)
    if (e.games > 0) extent = std::max(extent, std::abs(e.elo) + e.ci95);
  double step = 10;
  for (double candidate : {10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0}) {
    step = candidate;
    if (extent / candidate <= 4) break;
  }
  const double limit = std::max(step, std::ceil(extent / step) * step);
  // Where the plot starts and how wide it is; a row's height, and where its bar starts in it.
  const double left = narrow ? 16 : 170, plot = narrow ? 328 : 500, row = narrow ? 40 : 26, bar = narrow ? 18 : 5;
  const double width = narrow ? 360 : left + plot + 120;
  constexpr double kTop = 10;
  const double height = kTop + row * static_cast<double>(s.engines.size()) + 30;
  const auto x = [&](double elo) { return left + (std::clamp(elo, -limit, limit) + limit) / (2 * limit) * plot; };

  std::string out = fmt::format(
      "<svg width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"Elo with 95% "
      "intervals\">\n",
      width, height);
  const double bottom = kTop + row * static_cast<double>(s.engines.size());
  for (double t = -limit; t <= limit + 1e-9; t += step)
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"{3}\"/>"
        "<text x=\"{0:.1f}\" y=\"{4}\" text-anchor=\"middle\">{5}</text>\n",
        x(t), kTop, bottom, t == 0 ? "#888" : "#e4e4e4", bottom + 16, signed_fixed(t, 0));
  for (std::size_t i = 0; i < s.engines.size(); ++i) {
    const EngineStanding& e = s.engines[i];
    const double y = kTop + row * static_cast<double>(i);
    const double x0 = x(0), x1 = x(e.elo);
    if (narrow)
      out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", left, y + 13, html_escape(e.name));
    else
      out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 8, y + 17,
                         html_escape(e.name));
    if (e.games == 0) {  // no rating: no bar
      out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">no games, no Elo</text>\n", x(0),
                         y + bar + 12);
      continue;
    }
    out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"16\" fill=\"{}\"/>\n",
                       std::min(x0, x1), y + bar, std::abs(x1 - x0), e.elo >= 0 ? "#4a7bd0" : "#d0704a");
    const double lo = x(e.elo - e.ci95), hi = x(e.elo + e.ci95);
    out += fmt::format(
        "<path d=\"M{0:.1f} {2:.1f}H{1:.1f}M{0:.1f} {3:.1f}V{4:.1f}M{1:.1f} {3:.1f}V{4:.1f}\" stroke=\"#222\" "
        "fill=\"none\"/>\n",
        lo, hi, y + bar + 8, y + bar + 3, y + bar + 13);
    if (narrow)
      out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left + plot, y + 13,
                         html_escape(elo_with_ci(e.elo, e.ci95)));
    else
      out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", left + plot + 6, y + 17,
                         html_escape(elo_with_ci(e.elo, e.ci95)));
  }
  out += "</svg>\n";
  return out;
}

// Each engine's Elo after every checkpoint of the run, with its 95% band; engines in ranking order.
std::string elo_history_chart(const EloHistory& h) {
  if (h.games.size() < 2 || h.names.empty()) return "";
  constexpr const char* kColours[] = {"#4a7bd0", "#d0704a", "#3a9a5a", "#9a5ac0", "#c0a030",
                                      "#30a0b0", "#b04070", "#707070", "#6a8a20", "#a06030"};
  double lo = 0, hi = 0;
  for (const std::vector<EloPoint>& series : h.series)
    for (const EloPoint& p : series)
      if (p.rated) lo = std::min(lo, p.elo - p.ci95), hi = std::max(hi, p.elo + p.ci95);
  lo = std::max(lo, -2000.0), hi = std::min(hi, 2000.0);
  const double span = std::max(1.0, hi - lo);
  constexpr double kLeft = 50, kWidth = 620, kTop = 10, kHeight = 220;
  const double most = std::max(1, h.games.back());
  const auto x = [&](int games) { return kLeft + games / most * kWidth; };
  const auto y = [&](double elo) { return kTop + (hi - std::clamp(elo, lo, hi)) / span * kHeight; };
  const double legend = 18.0 * static_cast<double>(h.names.size());
  std::string out = fmt::format(
      "<svg id=\"elo-history\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
      "aria-label=\"Elo over the games played, with 95% bands\">\n",
      kLeft + kWidth + 150, std::max(kTop + kHeight + 30, legend + 20));
  out += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#888\"/>\n", kLeft, y(0),
                     kLeft + kWidth);
  out += fmt::format(
      "<text x=\"{0}\" y=\"{1:.1f}\" text-anchor=\"end\">{2}</text><text x=\"{0}\" y=\"{3:.1f}\" "
      "text-anchor=\"end\">{4}</text><text x=\"{0}\" y=\"{5:.1f}\" text-anchor=\"end\">0</text>\n",
      kLeft - 4, y(hi) + 10, signed_fixed(hi, 0), y(lo), signed_fixed(lo, 0), y(0) + 4);
  out += fmt::format("<text x=\"{}\" y=\"{}\">0</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{} games</text>\n",
                     kLeft, kTop + kHeight + 18, kLeft + kWidth, kTop + kHeight + 18, h.games.back());
  for (std::size_t e = h.series.size(); e-- > 0;) {  // the leader drawn last, on top
    const char* colour = kColours[e % std::size(kColours)];
    std::string band_top, band_bottom, line;
    for (std::size_t k = 0; k < h.games.size(); ++k) {
      const EloPoint& p = h.series[e][k];
      if (!p.rated) continue;
      band_top += fmt::format("{:.1f},{:.1f} ", x(h.games[k]), y(p.elo + p.ci95));
      band_bottom = fmt::format("{:.1f},{:.1f} ", x(h.games[k]), y(p.elo - p.ci95)) + band_bottom;
      line += fmt::format("{:.1f},{:.1f} ", x(h.games[k]), y(p.elo));
    }
    if (line.empty()) continue;
    out += fmt::format("<polygon points=\"{}{}\" fill=\"{}\" fill-opacity=\"0.12\" stroke=\"none\"/>\n", band_top,
                       band_bottom, colour);
    out += fmt::format(
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"><title>{}</title></polyline>\n", line,
        colour, html_escape(h.names[e]));
    out += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{:.1f}\" "
        "y=\"{:.1f}\">{}</text>\n",
        kLeft + kWidth + 14, kTop + 18.0 * static_cast<double>(e), colour, kLeft + kWidth + 30,
        kTop + 18.0 * static_cast<double>(e) + 11, html_escape(h.names[e]));
  }
  return out + "</svg>\n";
}

std::string standings_table(const Standings& s, bool bot_pages) {
  std::string out =
      // Points and W-D-L first after the name: on a phone they are what shows before the table scrolls.
      "<table><thead><tr><th>Rank</th><th class=\"name\">Engine</th><th>Points</th><th>W</th><th>D</th><th>L</th>"
      "<th>Games</th><th>Score</th><th>Elo</th><th>±</th><th>Forfeits</th><th>Elo over next</th><th>LOS next</th>"
      "</tr></thead><tbody>\n";
  for (const EngineStanding& e : s.engines) {
    std::string forfeits = std::to_string(e.forfeits);
    std::string reasons;
    for (std::size_t r = 0; r < kForfeitReasons.size(); ++r)
      if (e.forfeits_by_reason[r] > 0)
        reasons += (reasons.empty() ? "" : ", ") + std::to_string(e.forfeits_by_reason[r]) + " " +
                   to_string(kForfeitReasons[r]);
    if (e.worst_overrun_ms) reasons += "; worst time overrun " + fixed(*e.worst_overrun_ms, 1) + " ms";
    if (!reasons.empty()) forfeits += " (" + reasons + ")";
    out += fmt::format(
        "<tr><td>{}</td><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}%</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        rank_text(e),
        bot_pages ? fmt::format("<a href=\"{}\">{}</a>", html_escape(bot_page_path(e.name)), html_escape(e.name))
                  : html_escape(e.name),
        fixed(e.points, 1), e.wins, e.draws, e.losses, e.games, fixed(e.score_pct, 1), elo_text(e), ci95_text(e),
        forfeits, e.diff_next ? signed_fixed(*e.diff_next, 1) + " ± " + fixed(e.diff_next_ci95.value_or(0), 1) : "–",
        e.los_next ? percent(*e.los_next, 1) : "–");
  }
  return out + "</tbody></table>\n";
}

std::string crosstable(const Standings& s) {
  std::string out = "<table><thead><tr><th></th>";
  for (const EngineStanding& e : s.engines) out += "<th>" + html_escape(e.name) + "</th>";
  out += "</tr></thead><tbody>\n";
  for (std::size_t r = 0; r < s.engines.size(); ++r) {
    out += "<tr><th class=\"name\">" + html_escape(s.engines[r].name) + "</th>";
    for (std::size_t c = 0; c < s.engines.size(); ++c) {
      const CrossCell& cell = s.crosstable[r][c];
      if (r == c || cell.games == 0) {
        out += r == c ? "<td class=\"self\"></td>" : "<td></td>";
        continue;
      }
      // Points / games, then W-D-L; a click lists the pair's games.
      std::string penta;
      if (cell.pairs() > 0)
        penta = fmt::format("<br><small title=\"game pairs scoring 0, 1/2, 1, 3/2, 2\">[{}]</small>",
                            fmt::join(cell.penta, " "));
      out += fmt::format("<td><a href=\"#games\" data-filter=\"{} {}\">{}<br><small>{}-{}-{}</small>{}</a></td>",
                         html_escape(s.engines[r].name), html_escape(s.engines[c].name), cross_points(cell), cell.wins,
                         cell.draws, cell.losses, penta);
    }
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

std::string summary_tables(const Standings& s) {
  std::string out = "<table><thead><tr><th class=\"name\">Termination</th><th>Games</th></tr></thead><tbody>\n";
  for (int t = 0; t < kTerminations; ++t)
    if (s.terminations[t] > 0)
      out += fmt::format("<tr><td class=\"name\">{}</td><td>{}</td></tr>\n", to_string(static_cast<Termination>(t)),
                         s.terminations[t]);
  out += "</tbody></table>\n";
  if (rating::charged_cpu_time(s)) {
    // On the CPU clock: what was charged, and the wall time of the same moves beside it.
    out += "<h2>Time use</h2>\n<p class=\"note\">" + html_escape(cpu_time_use_text()) +
           "</p>\n<div class=\"scroll\"><table><thead><tr><th class=\"name\">Engine</th><th>Moves</th><th>Mean CPU "
           "ms</th><th>Max CPU ms</th><th>Mean wall ms</th><th>Max wall ms</th><th>Mean depth</th></tr></thead>"
           "<tbody>\n";
    for (const EngineStanding& e : s.engines)
      out += fmt::format(
          "<tr><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
          html_escape(e.name), e.moves_timed, fixed(e.mean_move_ms, 1), fixed(e.max_move_ms, 1),
          e.moves_wall_timed > 0 ? fixed(e.mean_wall_ms, 1) : "–",
          e.moves_wall_timed > 0 ? fixed(e.max_wall_ms, 1) : "–",
          e.moves_with_depth > 0 ? fixed(e.mean_depth, 1) : "–");
    out += "</tbody></table></div>\n";
  } else {
    out +=
        "<h2>Time use</h2>\n<p class=\"note\">Thinking time per move as the referee measured it, over the moves "
        "each engine chose, and the mean depth it reported (where it did).</p>\n<div "
        "class=\"scroll\"><table><thead><tr><th "
        "class=\"name\">Engine</th><th>Moves</th><th>Mean ms</th><th>Max ms</th><th>Mean depth</th></tr></thead>"
        "<tbody>\n";
    for (const EngineStanding& e : s.engines)
      out += fmt::format("<tr><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                         html_escape(e.name), e.moves_timed, fixed(e.mean_move_ms, 1), fixed(e.max_move_ms, 1),
                         e.moves_with_depth > 0 ? fixed(e.mean_depth, 1) : "–");
    out += "</tbody></table></div>\n";
  }
  const FirstMover& fm = s.first_mover;
  out +=
      "<h2>First-mover advantage</h2>\n<p class=\"note\">The engine that started as South moved first. "
      "Elo (fit) is the first-mover term of the rating fit; Elo (South's score) comes from South's results "
      "alone.</p>\n";
  out += fmt::format(
      "<div class=\"scroll\"><table><thead><tr><th>Games</th><th>South wins</th><th>Draws</th><th>South losses</th>"
      "<th>South score</th><th>Elo (fit)</th><th>Elo (South's score)</th><th>LOS</th></tr></thead><tbody>\n"
      "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}%</td><td>{}</td><td>{}</td><td>{}</td></tr>\n"
      "</tbody></table></div>\n",
      fm.games, fm.wins, fm.draws, fm.losses, fixed(fm.score_pct, 1), elo_with_ci(fm.elo, fm.ci95),
      elo_with_ci(fm.raw_elo, fm.raw_ci95), percent(fm.los, 1));
  return out;
}

}  // namespace

std::string report_html(const Standings& s, const std::vector<GameRecord>& games, const std::string& event,
                        const Notes& notes, std::size_t total_games, const Context& context, const EloHistory& history,
                        const std::string& form, bool bot_pages, const MoveQuality* quality,
                        const std::vector<std::optional<analysis::GameJudgement>>& judgements) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + html_escape(event) + " – Kalah Arena</title>\n<style>" + std::string(html_style()) +
         "</style>\n</head>\n<body>\n";
  out += "<h1>" + html_escape(event) + "</h1>\n";
  std::string notes_html;
  for (const Note& note : notes)
    notes_html += "<p class=\"warn\"><b>Note:</b> " + html_escape(note.text) +
                  (note.link.empty() ? "" : fmt::format(" (<a href=\"{0}\">{0}</a>)", html_escape(note.link))) +
                  "</p>\n";
  // A contest's ranking is what its page is for: its first screen on a phone, before the notes (the submissions that
  // did not enter, ...). Without one the notes come first, as what the standings below are read with.
  if (!s.ranking) out += notes_html;
  // What the tournament decided (an SPRT's verdict, a Swiss or knockout's own table) before how it was run.
  out += form;
  if (s.ranking) out += "<h2>Ranking</h2>\n" + ranking_html(*s.ranking) + notes_html;
  out += "<h2>Standings</h2>\n";
  if (s.form) out += "<p class=\"note\">" + html_escape(form_order_text(s)) + "</p>\n";
  if (bot_pages)
    out +=
        "<p class=\"note\">An engine's name opens its page: its results, its forfeits with their reasons, "
        "transcripts and stderr.</p>\n";
  out += "<div class=\"scroll\">" + standings_table(s, bot_pages) + "</div>\n";
  out += fmt::format(
      "<p class=\"note\">{} games. Elo: maximum-likelihood Bradley–Terry fit of all games at once ({}, with a "
      "first-mover term), ± the 95% interval; Elo over next: the difference to the next engine with the 95% interval "
      "of that difference; LOS next: likelihood of being stronger than the next engine.{}</p>\n",
      s.games, html_escape(normalisation_text(s)),
      s.prior_used ? " These results have no finite maximum-likelihood fit (an engine, or the first move, never lost "
                     "or never won where it matters), so a weak prior of virtual draws keeps every rating finite."
                   : "");
  out += rank_intervals_html(s);
  out += submissions_html(context.submissions);
  if (quality) out += move_quality_html(s, *quality);
  // How it was run comes after what it decided, folded: on a phone the standings are the first screen.
  if (const std::string about = context_html(context); !about.empty())
    out += "<details class=\"about\"><summary>About this tournament: its settings, engines and machine</summary>\n" +
           about + "</details>\n";
  // On a phone a chart keeps its size and scrolls in its box (shrunk to the screen its labels were ~4 px), but the
  // Elo chart has a narrow layout of its own, so that its bars on both sides of 0 show without scrolling.
  out += "<h2>Elo</h2>\n<div class=\"chart-box elo-wide\">" + elo_chart(s, false) +
         "</div>\n<div class=\"elo-narrow\">" + elo_chart(s, true) + "</div>\n";
  if (const std::string chart = elo_history_chart(history); !chart.empty())
    out += fmt::format(
               "<h3>Elo over the games</h3>\n<p class=\"note\">Each engine's rating refitted at {} points of the run "
               "(as the journal was read), with its 95% band.</p>\n",
               history.games.size()) +
           "<div class=\"chart-box\">" + chart + "</div>\n";
  out +=
      "<h2>Crosstable</h2>\n<p class=\"note\">Points of the row engine against the column engine / games, and its "
      "wins-draws-losses; for colour-swapped game pairs (one opening played with both colours), the pairs in which "
      "it scored 0, 1/2, 1, 3/2 and 2 points [pentanomial]. Click a cell for the pair's games.</p>\n";
  out += "<div class=\"scroll\">" + crosstable(s) + "</div>\n";
  out += "<h2>Terminations</h2>\n" + summary_tables(s);
  out += "<h2>Games</h2>\n";
  if (total_games > games.size())
    out += fmt::format(
        "<p class=\"note\">The viewer holds the last {} of the {} games, so that this page stays small; every game "
        "is in <a href=\"games.pgn\">games.pgn</a> and, with every detail, in the journal (<a "
        "href=\"games.jsonl\">games.jsonl</a>), found by its id (docs/SCALE.md).</p>\n",
        games.size(), total_games);
  out += viewer_html(quality != nullptr);
  out += "<script type=\"application/json\" id=\"games-data\">" + viewer_games_json(games, judgements) + "</script>\n";
  out += "<script>" + viewer_script(quality != nullptr) + "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace kalah::report
