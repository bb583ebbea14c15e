// One reporter per output format (docs/FORMATS.md). Each turns the standings
// and/or the game records into the text of one file; none of them does I/O.
#pragma once

#include <string>
#include <vector>

#include "arena/rating/standings.h"
#include "referee/record/record.h"

namespace kalah::report {

// The reports render the standings that arena/rating computes.
using rating::CrossCell;
using rating::EngineStanding;
using rating::FirstMover;
using rating::Standings;

std::string standings_json(const Standings& standings, const std::string& event);       // standings.json
std::string standings_markdown(const Standings& standings, const std::string& event);   // standings.md
std::string standings_csv(const Standings& standings);                                  // standings.csv
std::string games_pgn(const std::vector<GameRecord>& games, const std::string& event);  // games.pgn
std::string report_html(const Standings& standings, const std::vector<GameRecord>& games,
                        const std::string& event);  // report.html

// The standings as a plain-text table for the terminal (printed live during a run).
std::string format_standings_table(const Standings& standings);

}  // namespace kalah::report
