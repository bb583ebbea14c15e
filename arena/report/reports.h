// Writes every report of a results directory: used by `arena run` when a
// tournament ends and by `arena report DIR`.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "referee/game/record.h"

namespace kalah::report {

// The files write_all_reports writes, in this order.
inline constexpr const char* kReportFiles[] = {"standings.json", "standings.md", "standings.csv", "games.pgn",
                                               "report.html"};

// An output file that cannot be written (an operator problem: the message names the path).
struct ReportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Computes the standings of `games` (engines: `engine_names` plus any other name in
// the games) and writes every report into `dir`, each file replaced atomically.
// Throws ReportError.
void write_all_reports(const std::filesystem::path& dir, const std::vector<GameRecord>& games,
                       const std::vector<std::string>& engine_names, const std::string& event_name);

}  // namespace kalah::report
