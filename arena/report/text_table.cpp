#include <algorithm>

#include <fmt/format.h>

#include "arena/report/ranking_report.h"
#include "arena/report/reporters.h"
#include "arena/report/text_util.h"

namespace kalah::report {

namespace {

// The sentence under the table when games repeat (rating::repeated_note), on a line of its own.
std::string repeated_line(const Standings& s) {
  const std::string note = rating::repeated_note(s);
  return note.empty() ? note : "note: " + note + "\n";
}

}  // namespace

std::string format_standings_table(const Standings& s, const MoveQuality* quality) {
  const std::string quality_table = quality ? move_quality_text(s, *quality) : "";
  if (s.ranking)
    return ranking_text_table(*s.ranking) + quality_table +
           fmt::format("{} games; first mover {} Elo, South scores {}%\n", s.games,
                       signed_fixed(s.first_mover.elo, 1) + " +- " + fixed(s.first_mover.ci95, 1),
                       fixed(s.first_mover.score_pct, 1)) +
           repeated_line(s);
  std::size_t width = 6;
  for (const EngineStanding& e : s.engines) width = std::max(width, e.name.size());
  std::string out = fmt::format(
      "{:>4}  {:<{}}  {:>7}  {:>6}  {:>5}  {:>6}  {:>6}  {:>4}  {:>4}  {:>4}  {:>4}  {:>15}  {:>6}\n", "Rank", "Engine",
      width, "Elo", "+-", "Games", "Points", "Score", "W", "D", "L", "Forf", "Next: diff +-", "LOS");
  for (const EngineStanding& e : s.engines)
    out +=
        fmt::format("{:>4}  {:<{}}  {:>7}  {:>6}  {:>5}  {:>6}  {:>6}  {:>4}  {:>4}  {:>4}  {:>4}  {:>15}  {:>6}\n",
                    rank_text(e), e.name, width, elo_text(e, "-"), ci95_text(e, "-"), e.games, fixed(e.points, 1),
                    fixed(e.score_pct, 1) + "%", e.wins, e.draws, e.losses, e.forfeits,
                    e.diff_next ? signed_fixed(*e.diff_next, 1) + " +- " + fixed(e.diff_next_ci95.value_or(0), 1) : "-",
                    e.los_next ? percent(*e.los_next, 1) : "-");
  if (s.form) out += form_order_text(s) + "\n";
  out += quality_table;
  out += fmt::format("{} games; first mover {} Elo, South scores {}%\n", s.games,
                     signed_fixed(s.first_mover.elo, 1) + " +- " + fixed(s.first_mover.ci95, 1),
                     fixed(s.first_mover.score_pct, 1));
  return out + repeated_line(s);
}

}  // namespace kalah::report
