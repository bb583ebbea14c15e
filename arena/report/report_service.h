// "Rewrite the reports of this results folder": the one builder of the reports' input from what the folder
// holds — its journals (a sharded run's shards merged), tournament.json's description (and through it a
// contest's entrants), analysis.jsonl and, for an SPRT, the test over every finished pair — and the writer of
// the reports (report::write_reports) and of an SPRT's sprt.json from it. A run when it stops, `arena report`
// (and `arena analyse` after it), `arena contest withdraw|disqualify` and `arena verify` (which writes the
// reports again elsewhere and compares) all go through here, so that they write the same files.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arena/config/description.h"
#include "arena/journal/journal.h"
#include "arena/report/reports.h"
#include "arena/report/sprt_report.h"
#include "referee/rules/expected.h"

namespace kalah::report {

// The file an SPRT's state is kept in, beside its reports (docs/SPRT.md).
inline constexpr const char* kSprtFile = "sprt.json";

struct ReportOptions {
  // Where the reports go; empty: the results folder itself.
  std::filesystem::path out{};
  // The reports' title; empty: the name of the folder they are written to, as `arena report` takes it.
  std::string event{};
  bool publish = false;  // local paths and the user's name left out of the "About" section
  // The fixed point of the ratings; none: the tournament's own [rating] anchor as its run recorded it (which
  // must name one of its engines), else the mean 0.
  std::optional<rating::Anchor> anchor = std::nullopt;
  // An SPRT's folder: also write sprt.json from the journals (a run writes its own as it plays).
  bool sprt_state = true;
  // A folder whose journals hold no byte is refused ("no games to report yet") instead of reported empty.
  bool require_games = false;
};

// A results folder read, ready to be written.
struct LoadedReport {
  journal::StoredResults stored;
  arena::TournamentDescription description;  // tournament.json's settings, read back
  ReportInput input;
  // An SPRT's: its record as sprt.json holds it (no LLR course; `finished` once decided or at max_pairs).
  std::optional<SprtRecord> sprt_state;
};

// What rewrite_reports wrote.
struct RewrittenReports {
  ReportSummary summary;
  std::vector<std::string> files;  // summary.written, then sprt.json when written
  std::optional<SprtRecord> sprt;  // an SPRT's state (as sprt.json holds it)
};

// The input of a folder already read (`stored`, whose tournament.json says `description`): its engines,
// journals, shard notes, analysis, anchor and, for an SPRT, its test recomputed from every journal.
Expected<ReportInput> report_input(const journal::StoredResults& stored,
                                   const arena::TournamentDescription& description, const ReportOptions& options,
                                   std::optional<SprtRecord>* sprt_state = nullptr);
// Reads `dir` (journal::read_results, tournament.json's description) and builds its input.
Expected<LoadedReport> load_report_input(const std::filesystem::path& dir, const ReportOptions& options = {});
// Writes the reports of `loaded` (and an SPRT's sprt.json, with options.sprt_state) into options.out, else the
// folder it was read from.
Expected<RewrittenReports> write_loaded_reports(const LoadedReport& loaded, const ReportOptions& options = {});
// Both: every report of `dir` written again from what the folder holds.
Expected<RewrittenReports> rewrite_reports(const std::filesystem::path& dir, const ReportOptions& options = {});

}  // namespace kalah::report
