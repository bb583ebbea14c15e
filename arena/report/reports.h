// Writes every report of a results directory: used when a tournament's play stops and by
// `arena report DIR`.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "referee/record/record.h"
#include "referee/rules/expected.h"

namespace kalah::report {

// The files write_all_reports writes, in this order.
inline constexpr const char* kReportFiles[] = {"standings.md", "standings.json", "standings.csv", "games.pgn",
                                               "report.html"};

// Computes the standings of `games` (engines: `engine_names` plus any other name in the games) and
// writes every report into `dir`, each file replaced atomically. Returns the names written, or
// an error naming the path that could not be written.
Expected<std::vector<std::string>> write_all_reports(const std::filesystem::path& dir,
                                                     const std::vector<GameRecord>& games,
                                                     const std::vector<std::string>& engine_names,
                                                     const std::string& event_name);

}  // namespace kalah::report
