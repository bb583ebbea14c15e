// The contest's ranking (rating::Ranking, docs/RANKING.md) in each output format: the reporters add it
// when the standings carry one (ranking.by = "points"). With the Elo order as the ranking nothing here
// is used, so those reports stay as they were.
#pragma once

#include <string>

#include <boost/json/object.hpp>

#include "arena/rating/ranking.h"
#include "arena/rating/standings.h"
#include "arena/report/move_quality.h"

namespace kalah::report {

// "Ranked by points (win 1, draw 0.5, loss 0), then head-to-head, then buchholz (docs/RANKING.md)."
std::string ranking_rule_text(const rating::Ranking& r);
// What is printed under each table: one line per tie and its decision, each entrant not ranked (with the
// reason), the voided games.
std::vector<std::string> ranking_notes(const rating::Ranking& r);

std::string ranking_text_table(const rating::Ranking& r);  // for the terminal, notes below
std::string ranking_markdown(const rating::Ranking& r);    // a "## Ranking" section
// standings.csv when ranking by points; with `intervals` (standings with rank intervals), each engine's interval
// columns after its own; with `quality`, each engine's move quality in columns at the end.
std::string ranking_csv(const rating::Ranking& r, const MoveQuality* quality = nullptr,
                        const rating::Standings* intervals = nullptr);
std::string ranking_html(const rating::Ranking& r);  // a table and the notes
boost::json::object ranking_json(const rating::Ranking& r);

}  // namespace kalah::report
