// Rank intervals, tie groups, top-k chances and fragility (rating::RankUncertainty, docs/RANKING.md) in each
// output format. Each function gives nothing when the standings carry none (a knockout, or standings not asked
// for them), so those reports stay as they were.
#pragma once

#include <string>

#include <boost/json/object.hpp>

#include "arena/rating/standings.h"

namespace kalah::report {

// "1st", "2nd", "3rd", "11th", "22nd".
std::string ordinal(int n);
// "3rd–5th", or "3rd" when both ends are the same; "–" outside the order.
std::string rank_interval_text(const rating::EngineStanding& e);
// What the fragility figure says: "2", "at most 2", "–" (none).
std::string fragility_text(const rating::Fragility& f);

std::string rank_intervals_markdown(const rating::Standings& s);  // a "## How sure the order is" section
std::string rank_intervals_html(const rating::Standings& s);      // the same with a rank-interval chart
// standings.csv: the columns' names (",rank_low,rank_high,tie_group,top_1,...") and one engine's cells.
std::string rank_intervals_csv_header(const rating::Standings& s);
std::string rank_intervals_csv_cells(const rating::Standings& s, const std::string& name);
// standings.json: the members of one engine's object, and the top-level "rank_intervals" and "fragility".
void add_rank_interval_json(const rating::EngineStanding& e, const rating::Standings& s, boost::json::object& o);
void add_uncertainty_json(const rating::Standings& s, boost::json::object& root);

}  // namespace kalah::report
