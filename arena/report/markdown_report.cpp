#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "arena/report/rank_interval_report.h"
#include "arena/report/ranking_report.h"
#include "arena/report/reporters.h"
#include "arena/report/text_util.h"

namespace kalah::report {
namespace {

std::string los_text(const EngineStanding& e) { return e.los_next ? percent(*e.los_next, 1) : "–"; }
std::string diff_text(const EngineStanding& e) { return e.diff_next ? signed_fixed(*e.diff_next, 1) : "–"; }
std::string diff_ci_text(const EngineStanding& e) { return e.diff_next_ci95 ? fixed(*e.diff_next_ci95, 1) : "–"; }

void standings_table(std::string& out, const Standings& s) {
  out += "| Rank | Engine | Elo | ± | Games | Points | Score | W | D | L | Forfeits | Elo over next | ± | LOS next |\n";
  out += "|---:|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const EngineStanding& e : s.engines)
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {}% | {} | {} | {} | {} | {} | {} | {} |\n", rank_text(e),
                       markdown_escape(e.name), elo_text(e), ci95_text(e), e.games, fixed(e.points, 1),
                       fixed(e.score_pct, 1), e.wins, e.draws, e.losses, e.forfeits, diff_text(e), diff_ci_text(e),
                       los_text(e));
}

// On the CPU clock: an engine's wall time of its moves, "–" where none was recorded.
std::string wall_text(const EngineStanding& e, double ms) { return e.moves_wall_timed > 0 ? fixed(ms, 1) : "–"; }

void crosstable(std::string& out, const Standings& s) {
  out += "|  |";
  for (const EngineStanding& e : s.engines) out += " " + markdown_escape(e.name) + " |";
  out += "\n|:---|";
  for (std::size_t i = 0; i < s.engines.size(); ++i) out += "---:|";
  out += "\n";
  for (std::size_t r = 0; r < s.engines.size(); ++r) {
    out += "| " + markdown_escape(s.engines[r].name) + " |";
    for (std::size_t c = 0; c < s.engines.size(); ++c)
      out += " " + (r == c ? std::string("·") : cross_points(s.crosstable[r][c])) + " |";
    out += "\n";
  }
}

// One column per reason that some engine forfeited by (the JSON and CSV reports list them all).
void forfeits_table(std::string& out, const Standings& s) {
  std::vector<std::size_t> shown;
  for (std::size_t r = 0; r < kForfeitReasons.size(); ++r)
    if (std::any_of(s.engines.begin(), s.engines.end(),
                    [r](const EngineStanding& e) { return e.forfeits_by_reason[r] > 0; }))
      shown.push_back(r);
  // How far past its time the worst time forfeit went, where the records say (schema 4).
  const bool overruns = std::any_of(s.engines.begin(), s.engines.end(),
                                    [](const EngineStanding& e) { return e.worst_overrun_ms.has_value(); });
  out += "| Engine | Forfeits |";
  for (std::size_t r : shown) out += std::string(" ") + to_string(kForfeitReasons[r]) + " |";
  if (overruns) out += " worst time overrun |";
  out += "\n|:---|---:|";
  for (std::size_t i = 0; i < shown.size() + (overruns ? 1 : 0); ++i) out += "---:|";
  out += "\n";
  for (const EngineStanding& e : s.engines) {
    if (e.forfeits == 0) continue;
    out += "| " + markdown_escape(e.name) + " | " + std::to_string(e.forfeits) + " |";
    for (std::size_t r : shown) out += " " + std::to_string(e.forfeits_by_reason[r]) + " |";
    if (overruns) out += e.worst_overrun_ms ? " " + fixed(*e.worst_overrun_ms, 1) + " ms |" : " – |";
    out += "\n";
  }
}

}  // namespace

std::string standings_markdown(const Standings& s, const std::string& event, const Notes& notes, const Context& context,
                               const std::string& form, const MoveQuality* quality) {
  std::string out = "# " + markdown_escape(event) + ": standings\n\n";
  for (const Note& note : notes)
    out += "> **Note:** " + markdown_escape(note.text) +
           (note.link.empty() ? "" : " ([" + markdown_escape(note.link) + "](" + note.link + "))") + "\n\n";
  // What the tournament decided (an SPRT's verdict, a Swiss or knockout's own table) before how it was run.
  out += form;
  out += context_markdown(context);
  if (s.ranking) out += ranking_markdown(*s.ranking) + "## Rating list\n\n";
  out += fmt::format(
      "{} games. Elo: maximum-likelihood Bradley–Terry fit of all games at once ({}, with a first-mover "
      "term); ± is the 95% interval. Elo over next: the difference to the next engine and the 95% interval of "
      "that difference (never wider than the two ± added). LOS next: "
      "likelihood that the engine is stronger than the next one.{}\n\n",
      s.games, markdown_escape(normalisation_text(s)),
      s.prior_used ? " These results have no finite maximum-likelihood fit (an engine, or the first move, never "
                     "lost or never won where it matters), so a weak prior of virtual draws keeps every rating "
                     "finite (docs/RATING.md)."
                   : "");
  if (s.form) out += markdown_escape(form_order_text(s)) + "\n\n";
  if (s.voided > 0)
    out += fmt::format(
        "{} game{} of contest entrants whose games are void {} left out of these standings (docs/RANKING.md).\n\n",
        s.voided, s.voided == 1 ? "" : "s", s.voided == 1 ? "is" : "are");
  standings_table(out, s);
  if (quality) out += move_quality_markdown(s, *quality);
  out += rank_intervals_markdown(s);

  out += "\n## Crosstable\n\nPoints of the row engine against the column engine / games played.\n\n";
  crosstable(out, s);

  out += "\n## Terminations\n\n| Termination | Games |\n|:---|---:|\n";
  for (int t = 0; t < kTerminations; ++t)
    if (s.terminations[t] > 0)
      out += fmt::format("| {} | {} |\n", to_string(static_cast<Termination>(t)), s.terminations[t]);

  bool any_forfeit = false;
  for (const EngineStanding& e : s.engines) any_forfeit = any_forfeit || e.forfeits > 0;
  if (any_forfeit) {
    out += "\n## Forfeits\n\nGames lost by forfeit (they count as losses above), by reason.\n\n";
    forfeits_table(out, s);
  }

  bool any_timed = false;
  for (const EngineStanding& e : s.engines) any_timed = any_timed || e.moves_timed > 0;
  if (any_timed && rating::charged_cpu_time(s)) {
    out += "\n## Time use\n\n" + markdown_escape(cpu_time_use_text()) +
           "\n\n| Engine | Moves | Mean CPU ms | Max CPU ms | Mean wall ms | Max wall ms | Mean depth |\n"
           "|:---|---:|---:|---:|---:|---:|---:|\n";
    for (const EngineStanding& e : s.engines)
      out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", markdown_escape(e.name), e.moves_timed,
                         fixed(e.mean_move_ms, 1), fixed(e.max_move_ms, 1), wall_text(e, e.mean_wall_ms),
                         wall_text(e, e.max_wall_ms), e.moves_with_depth > 0 ? fixed(e.mean_depth, 1) : "–");
  } else if (any_timed) {
    out +=
        "\n## Time use\n\nThinking time per move as the referee measured it (request sent to answer read), "
        "over the moves each engine chose, and the mean depth it reported (where it did).\n\n"
        "| Engine | Moves | Mean ms | Max ms | Mean depth |\n|:---|---:|---:|---:|---:|\n";
    for (const EngineStanding& e : s.engines)
      out +=
          fmt::format("| {} | {} | {} | {} | {} |\n", markdown_escape(e.name), e.moves_timed, fixed(e.mean_move_ms, 1),
                      fixed(e.max_move_ms, 1), e.moves_with_depth > 0 ? fixed(e.mean_depth, 1) : "–");
  }

  const FirstMover& fm = s.first_mover;
  out += "\n## First-mover advantage\n\n";
  out +=
      "The engine that started as South moved first. Elo (fit): the first-mover term of the rating fit; "
      "Elo (South's score): from South's results alone.\n\n";
  out += "| Games | South wins | Draws | South losses | South score | Elo (fit) | Elo (South's score) | LOS |\n";
  out += "|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  out += fmt::format("| {} | {} | {} | {} | {}% | {} | {} | {} |\n", fm.games, fm.wins, fm.draws, fm.losses,
                     fixed(fm.score_pct, 1), elo_with_ci(fm.elo, fm.ci95), elo_with_ci(fm.raw_elo, fm.raw_ci95),
                     percent(fm.los, 1));
  return out;
}

}  // namespace kalah::report
