// `arena analyse DIR`: every game of a results folder valued ply by ply with perfect play, appended to
// DIR/analysis.jsonl (docs/ANALYSIS.md). Resumable: games already in the file are skipped, and a last
// line cut by a kill is cut off first. The journals are only read.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "arena/analysis/analyser.h"
#include "referee/rules/expected.h"

namespace kalah::analysis {

struct AnalyseProgress {
  std::size_t games_done = 0;  // this run
  std::size_t games_to_do = 0;
  std::uint64_t positions = 0;
  std::uint64_t proved = 0;
  double seconds = 0;
};

struct AnalyseOptions {
  AnalyserOptions analyser;
  int threads = 1;                                       // games analysed at once, each on one thread
  const std::atomic<bool>* stop = nullptr;               // set (e.g. by SIGINT): finish no further game
  std::function<void(const AnalyseProgress&)> progress;  // after each game, from one thread at a time
  // The analysis.jsonl to append to; empty: DIR/analysis.jsonl. A season keeps its ladder's analysis out of the
  // folder it serves (docs/SEASON.md, "Analysis").
  std::filesystem::path output;
  // > 0: only the newest this many games not analysed yet, the newest first (a season's ladder plays faster than
  // it is analysed: its authors see their latest games first). 0: every game, in journal order.
  std::size_t newest = 0;
  // The endgame databases to use, kept by a caller that analyses again and again (the season's ladder); none: this
  // run's own, loaded or built for it.
  Databases* databases = nullptr;
};

struct AnalyseSummary {
  std::size_t games = 0;        // in the journals
  std::size_t already = 0;      // analysed by an earlier run (skipped)
  std::size_t analysed = 0;     // by this run
  std::uint64_t positions = 0;  // valued by this run
  std::uint64_t proved = 0;     // of which exactly
  double seconds = 0;
  bool stopped = false;            // options.stop ended the run early
  std::vector<std::string> notes;  // the databases used, a cut last line
  std::vector<std::string> warnings;
};

// Errors: no results in `dir`, analysis.jsonl that cannot be read (a link, a bad line before the
// last), another `arena analyse` writing the same file, a failed write.
Expected<AnalyseSummary> analyse_folder(const std::filesystem::path& dir, const AnalyseOptions& options);

}  // namespace kalah::analysis

namespace kalah::analysis {

// `arena verify`'s check of analysis.jsonl (docs/VERIFY.md): every line parses and names a game of the
// journals, has one entry per ply, and its figures agree with each other (a ply's loss is its value
// minus the next position's, seen from its mover; the end of a finished game is its stores), and every
// value of a position the endgame database holds (up to `database_mb` of it, built in memory) is the
// database's. An error text for the first problem.
struct AnalysisCheck {
  bool present = false;
  std::size_t games = 0;
  std::uint64_t values = 0;            // known values checked for consistency
  std::uint64_t database_checked = 0;  // of which compared with the database
};
Expected<AnalysisCheck> check_analysis(const std::filesystem::path& dir, std::uint64_t database_mb = 8);

}  // namespace kalah::analysis
