// Writes every report of a results directory from its journals, streamed: the standings are summed
// game by game (rating::StandingsBuilder), games.pgn is written as the games are read, and the
// HTML viewer keeps only the last kViewerGames games, so a report of a million games needs memory
// for the engines and a thousand games, not for the million. Used when a tournament's play stops
// and by `arena report DIR` (which also merges the journals of a sharded run).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arena/config/description.h"
#include "arena/journal/journal.h"
#include "arena/rating/standings.h"
#include "arena/report/move_quality.h"
#include "arena/report/reporters.h"
#include "arena/report/sprt_report.h"
#include "referee/rules/expected.h"

namespace kalah::report {

// The files write_reports writes, in this order.
inline constexpr const char* kReportFiles[] = {"standings.md", "standings.json", "standings.csv", "games.pgn",
                                               "report.html"};

// How many games report.html embeds in its viewer at most: the last ones (docs/SCALE.md).
inline constexpr std::size_t kViewerGames = 1000;

// One journal to read. With `expected_games` > 0, a journal holding fewer distinct games is named
// in a note ("shard 3/4 is incomplete: 120 of 250 games").
struct ReportJournal {
  std::filesystem::path path;
  std::string label;
  std::size_t expected_games = 0;
  // The tournament it belongs to, for a rating list over several (`arena report A B --out L`): game ids
  // are unique within a tournament only, and the reports say how many games each one gave.
  std::string tournament{};
};

struct ReportInput {
  // The journals to read, in order; a game id met again in a later one is counted once.
  std::vector<ReportJournal> journals;
  std::vector<std::string> engine_names;  // plus any other name found in the games
  std::string event;
  Notes notes;  // shown at the top of standings.md/.json and report.html
  // The tournament's description (tournament.json's settings, read back): the "About" section
  // (arena/report/context.h), the clocks of games.pgn, a contest's ranking, entrants and submissions that did
  // not enter (each a note), a Swiss or knockout form. With `publish`, local paths and the user's name are left
  // out of the "About" section.
  arena::TournamentDescription description;
  bool publish = false;
  std::optional<rating::Anchor> anchor;  // a rating list's fixed point; none: mean 0
  // An SPRT run's test (arena sprt, or arena report of its folder): what the reports lead with.
  std::optional<SprtRecord> sprt = std::nullopt;
  // Each tournament's analysis.jsonl (`arena analyse`), by ReportJournal::tournament; add_results names the
  // folder's own. Where one exists every report shows the engines' move quality (move_quality.h); a file
  // that is missing is no analysis, one that cannot be read a warning.
  std::map<std::string, std::filesystem::path> analyses = {};
  // Rank intervals and fragility in every report (docs/RANKING.md). `arena verify` turns them off to recompute
  // a folder written before they existed, whose standings.json has no `rank_intervals`.
  bool rank_intervals = true;
};

struct ReportSummary {
  std::vector<std::string> written;  // file names, in kReportFiles order
  rating::Standings standings;
  std::size_t games = 0;               // distinct games read
  std::vector<std::string> warnings;   // duplicate ids, an incomplete last line (a game being written)
  Notes notes;                         // the input's notes and the incomplete journals, as printed in the reports
  std::optional<MoveQuality> quality;  // when an analysis was read: what the reports show of it
};

// Adds one results folder (read by journal::read_results) to `input`: its engines (each name once), its
// journals, its analysis.jsonl (in the folder itself, also for a sharded run) and a note per shard without
// a journal. `prefix` starts their labels and notes (a rating list names each folder: "results/a: ");
// `tournament` is the folder as the list names it, empty for one.
// `arena report` and `arena verify` both build their input with it, so that they recompute the same.
void add_results(ReportInput& input, const journal::StoredResults& stored, const std::string& prefix = "",
                 const std::string& tournament = "");

// Reads the journals (a torn or half-written last line is skipped with a warning) and the analyses, and
// replaces every report in `dir` atomically. Errors name the file that could not be read or written; an
// analysis that cannot be read, or a line of it that fits no game, is a warning.
Expected<ReportSummary> write_reports(const std::filesystem::path& dir, const ReportInput& input);

// A rating list's folder (`arena report A B --out L`) holds no journal: list.json records what the list was
// written from, so that `arena verify L A B` writes it again from the tournaments' journals.
inline constexpr const char* kRatingListFile = "list.json";
struct RatingListRecord {
  std::vector<std::string> sources;  // the tournaments' folders as given, in order: the labels in the reports
  std::optional<rating::Anchor> anchor;
  bool publish = false;
};
std::string rating_list_to_text(const RatingListRecord& record);
Expected<RatingListRecord> rating_list_from_text(std::string_view text);
// The ReportInput `arena report` makes of a list: `stored[i]` read from the folder of `record.sources[i]`.
ReportInput rating_list_input(const RatingListRecord& record, const std::string& event,
                              const std::vector<journal::StoredResults>& stored);

}  // namespace kalah::report
