#include "arena/report/report_service.h"

#include <algorithm>

#include <fmt/core.h>
#include <fmt/format.h>

#include "referee/system/files.h"

namespace kalah::report {
namespace {

namespace fs = std::filesystem;

// The title of reports written into `out` when none is given: the folder's name (of "results/x/" too).
std::string folder_event(const fs::path& out) {
  std::string event = out.filename().string();
  if (event.empty()) event = out.parent_path().filename().string();
  return event;
}

// An SPRT's test over every finished pair of every journal of the folder (docs/SCALE.md): the decision is the
// test on all of them, whichever shard played them.
Expected<rating::SprtTally> sprt_tally(const journal::StoredResults& stored,
                                       const arena::TournamentDescription& description) {
  if (!description.sprt || stored.meta.engines.size() != 2)
    return Error{(stored.dir / journal::kMetaFile).string() +
                 " does not hold the SPRT's parameters (written by an older arena?): the standings can be merged, "
                 "but the test cannot be recomputed"};
  rating::SprtTally tally(description.sprt->params, stored.meta.engines[0], stored.meta.engines[1]);
  journal::SeenIds seen;
  for (const journal::StoredJournal& j : stored.journals) {
    Expected<journal::ScanSummary> scanned = journal::scan_games(
        j.games, [&](GameRecord&& r) { tally.add(r); }, seen);
    if (!scanned) return Error{scanned.error()};
  }
  return tally;
}

// The record of the test, as the run recorded its sides: a git SPRT's commits, the engines' benches.
SprtRecord sprt_of(const std::string& name, const rating::SprtTally& tally,
                   const arena::TournamentDescription& description, bool with_llr_by_pair) {
  SprtRecord r = sprt_record(name, tally, description.sprt->max_pairs, with_llr_by_pair);
  if (const std::optional<arena::GitDescription>& git = description.git)
    for (const auto& [side, role] : {std::pair{&git->base, "base"}, std::pair{&git->test, "test"}})
      r.commits.push_back({role, side->ref, side->commit, side->build_seconds});
  r.base_bench = description.engine(tally.base()).bench;
  r.test_bench = description.engine(tally.test()).bench;
  return r;
}

}  // namespace

Expected<ReportInput> report_input(const journal::StoredResults& stored,
                                   const arena::TournamentDescription& description, const ReportOptions& options,
                                   std::optional<SprtRecord>* sprt_state) {
  ReportInput input;
  input.event = options.event.empty() ? folder_event(options.out.empty() ? stored.dir : options.out) : options.event;
  input.publish = options.publish;
  input.description = description;
  add_results(input, stored, "", stored.dir.string());
  if (options.anchor) {
    input.anchor = options.anchor;
  } else if (const std::optional<rating::Anchor>& own = description.anchor; own && !own->engine.empty()) {
    // The tournament's own [rating] anchor, as its run recorded it.
    if (std::find(input.engine_names.begin(), input.engine_names.end(), own->engine) == input.engine_names.end())
      return Error{fmt::format("{}: the anchor recorded in {} is '{}', not one of its engines: {}", stored.dir.string(),
                               journal::kMetaFile, own->engine, fmt::join(input.engine_names, ", "))};
    input.anchor = own;
  }
  // An SPRT's reports lead with its test, recomputed from the journals.
  if (description.sprt_match) {
    Expected<rating::SprtTally> tally = sprt_tally(stored, description);
    if (!tally) return Error{tally.error()};
    input.sprt = sprt_of(input.event, *tally, description, true);
    if (sprt_state) {
      SprtRecord state = sprt_of(input.event, *tally, description, false);
      const int max_pairs = description.sprt->max_pairs;
      state.finished = state.state.decision != stats::Decision::Continue || (max_pairs > 0 && state.pairs >= max_pairs);
      *sprt_state = std::move(state);
    }
  }
  return input;
}

Expected<LoadedReport> load_report_input(const fs::path& dir, const ReportOptions& options) {
  Expected<journal::StoredResults> stored = journal::read_results(dir);
  if (!stored) return Error{stored.error()};
  if (options.require_games) {
    std::uintmax_t bytes = 0;
    for (const journal::StoredJournal& j : stored->journals) {
      std::error_code ec;
      const std::uintmax_t size = fs::file_size(j.games, ec);
      if (!ec) bytes += size;
    }
    if (bytes == 0)
      return Error{fmt::format("{}: no games to report yet (its journal{} empty); run the tournament first",
                               dir.string(), stored->journals.size() == 1 ? " is" : "s are")};
  }
  Expected<arena::TournamentDescription> description = arena::description_from_settings(stored->meta.settings);
  if (!description) return Error{(dir / journal::kMetaFile).string() + ": " + description.error()};
  LoadedReport loaded{std::move(stored).value(), std::move(description).value(), {}, std::nullopt};
  Expected<ReportInput> input = report_input(loaded.stored, loaded.description, options, &loaded.sprt_state);
  if (!input) return Error{input.error()};
  loaded.input = std::move(input).value();
  return loaded;
}

Expected<RewrittenReports> write_loaded_reports(const LoadedReport& loaded, const ReportOptions& options) {
  const fs::path out = options.out.empty() ? loaded.stored.dir : options.out;
  Expected<ReportSummary> written = write_reports(out, loaded.input);
  if (!written) return Error{written.error()};
  RewrittenReports done{std::move(written).value(), {}, loaded.sprt_state};
  done.files = done.summary.written;
  if (loaded.sprt_state && options.sprt_state) {
    // Like the reports, computed from the journals again whenever it is needed: no fsync.
    if (std::optional<std::string> error = system::write_file_atomically(
            out / kSprtFile, sprt_file_text(*loaded.sprt_state), system::Durability::Rebuildable))
      return Error{*error};
    done.files.push_back(kSprtFile);
  }
  return done;
}

Expected<RewrittenReports> rewrite_reports(const fs::path& dir, const ReportOptions& options) {
  Expected<LoadedReport> loaded = load_report_input(dir, options);
  if (!loaded) return Error{loaded.error()};
  return write_loaded_reports(*loaded, options);
}

}  // namespace kalah::report
