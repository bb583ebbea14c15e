// `arena report DIR` (alias `arena merge DIR`): every report again from a results folder's
// journals, merging the shards of a sharded run (docs/SCALE.md). Reads complete lines only, so
// it may run while the tournament is still being played; it takes no lock.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <fmt/format.h>

#include "arena/app/commands.h"
#include "arena/app/time_limit.h"
#include "arena/flow/tournaments.h"
#include "arena/journal/journal.h"
#include "arena/report/report_service.h"
#include "arena/report/reporters.h"
#include "referee/system/files.h"

namespace kalah::arena_app {
namespace {

// "--anchor NAME=ELO": the engine must be one of the tournament's, the Elo a finite number.
rating::Anchor parse_anchor(const std::string& text, const std::vector<std::string>& engines, const std::string& dir) {
  const std::size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw UsageError("--anchor '" + text.substr(0, 80) + "': expected NAME=ELO, e.g. --anchor alphabeta=1500");
  const std::string name = text.substr(0, eq);
  const std::string number = text.substr(eq + 1);
  char* end = nullptr;
  const double elo = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size() || !std::isfinite(elo) || std::abs(elo) > 100'000)
    throw UsageError("--anchor '" + text.substr(0, 80) + "': '" + number.substr(0, 40) +
                     "' is not an Elo (a finite number within ±100000)");
  if (std::find(engines.begin(), engines.end(), name) == engines.end())
    throw UsageError(fmt::format("--anchor: no engine named '{}' in {}; the engines are: {}", name.substr(0, 80), dir,
                                 fmt::join(engines, ", ")));
  return rating::Anchor{name, elo};
}

struct ReportOptions {
  std::vector<std::string> dirs;
  std::string out;
  std::string anchor;
  bool publish = false;
  bool allow_mixed_variants = false;
  long long time_limit_s = kDefaultTimeLimit.count();
};

// A rating list over several folders (`--out`): each folder's journals, read as their tournament.
report::LoadedReport rating_list(const ReportOptions& o, const std::string& out, report::RatingListRecord& record) {
  std::vector<journal::StoredResults> all;
  std::vector<arena::TournamentDescription> described;  // each folder's tournament.json, read back
  for (const std::string& dir : o.dirs) {
    Expected<report::LoadedReport> loaded = report::load_report_input(dir, {.require_games = true});
    if (!loaded) throw UsageError(loaded.error());
    for (const std::string& w : loaded->stored.warnings) fmt::print(stderr, "arena: warning: {}\n", w);
    all.push_back(std::move(loaded->stored));
    described.push_back(std::move(loaded->description));
  }
  // A list's reports in one of its own tournaments' folders would replace that tournament's reports.
  for (std::size_t i = 0; i < o.dirs.size(); ++i) {
    std::error_code ec;
    if (std::filesystem::equivalent(o.dirs[i], out, ec))
      throw UsageError("--out " + out + " is one of the tournaments of the list; give the list a folder of its own");
    for (std::size_t j = 0; j < i; ++j)
      if (std::filesystem::equivalent(o.dirs[i], o.dirs[j], ec))
        throw UsageError(o.dirs[i] + " is given twice: each tournament once");
  }
  // One rating list assumes one game: the same engine under other rules is another player.
  for (std::size_t i = 1; i < all.size() && !o.allow_mixed_variants; ++i)
    if (described[i].variant != described[0].variant)
      throw UsageError(
          fmt::format("{} was played under '{}' but {} under '{}': a rating list mixes variants only "
                      "with --allow-mixed-variants",
                      o.dirs[i], described[i].variant.value_or(""), o.dirs[0], described[0].variant.value_or("")));
  std::string event = std::filesystem::path(out).filename().string();
  if (event.empty()) event = std::filesystem::path(out).parent_path().filename().string();
  report::LoadedReport list;
  list.input = report::rating_list_input(record, event, all);
  return list;
}

int report(const ReportOptions& o) {
  const bool list = o.dirs.size() > 1;
  if (list && o.out.empty())
    throw UsageError("a rating list over several results folders needs --out DIR for its reports");
  const std::string out = o.out.empty() ? o.dirs.front() : o.out;
  report::RatingListRecord record;  // a list's, recorded in its list.json
  record.sources = o.dirs;
  record.publish = o.publish;
  report::ReportOptions options{.out = out, .publish = o.publish, .require_games = true};
  report::LoadedReport loaded;
  if (list) {
    loaded = rating_list(o, out, record);
  } else {
    Expected<report::LoadedReport> read = report::load_report_input(o.dirs[0], options);
    if (!read) throw UsageError(read.error());
    loaded = std::move(read).value();
    for (const std::string& w : loaded.stored.warnings) fmt::print(stderr, "arena: warning: {}\n", w);
  }
  if (!o.anchor.empty())
    loaded.input.anchor = parse_anchor(o.anchor, loaded.input.engine_names, fmt::format("{}", fmt::join(o.dirs, ", ")));
  record.anchor = loaded.input.anchor;

  // An SPRT's merge prints the test's own Elo estimate instead of a second, Bradley-Terry one, ends with
  // its decision as an exit code a CI job can gate on, and its reports lead with the test.
  const std::optional<report::SprtRecord>& sprt = loaded.sprt_state;
  if (sprt) {
    fmt::print("{}", report::sprt_result_text(*sprt));
    std::fflush(stdout);
  }
  Expected<report::RewrittenReports> written = report::write_loaded_reports(loaded, options);
  if (!written) throw UsageError(written.error());
  std::vector<std::string> files = written->summary.written;
  if (list) {
    // What `arena verify LIST SOURCE...` needs to write the list again: its tournaments as labelled here.
    if (auto error = system::write_file_atomically(std::filesystem::path(out) / report::kRatingListFile,
                                                   report::rating_list_to_text(record)))
      throw UsageError(*error);
    files.push_back(report::kRatingListFile);
  }
  const report::ReportSummary& summary = written->summary;
  for (const std::string& w : summary.warnings) fmt::print(stderr, "arena: warning: {}\n", w);
  if (!sprt)
    fmt::print("{}\n",
               report::format_standings_table(summary.standings, summary.quality ? &*summary.quality : nullptr));
  if (!list && loaded.stored.shard_count > 0)
    fmt::print("merged {} games from {} of {} shards\n", summary.games,
               loaded.stored.shard_count - static_cast<int>(loaded.stored.missing_shards.size()),
               loaded.stored.shard_count);
  for (const report::Note& note : summary.notes) fmt::print("note: {}\n", note.text);
  fmt::print("wrote {} in {}\n", fmt::join(files, ", "), out);
  if (!sprt) return 0;
  fmt::print("wrote {} in {}\n", report::kSprtFile, out);
  return arena::sprt_exit_code(sprt->state.decision);
}

}  // namespace

int report_folder(const std::string& dir) {
  ReportOptions o;
  o.dirs = {dir};
  return report(o);
}

void add_report_command(cli::Commands& commands) {
  for (const char* name : {"report", "merge"}) {
    auto o = std::make_shared<ReportOptions>();
    CLI::App* cmd = commands.add(
        name,
        std::string(name) == "report" ? "Rewrite standings, crosstable, PGN and HTML from a results folder, merging "
                                        "its shards; or one rating list over several folders (--out)"
                                      : "The same as `arena report`: merge the shards of a results folder",
        [o, name] {
          return within_time_limit(std::chrono::seconds(o->time_limit_s), name, [o] { return report(*o); });
        });
    cmd->add_option("dirs", o->dirs,
                    "A tournament's results folder, e.g. results/quick; several make one rating list (with --out)")
        ->required();
    cmd->add_option("--out", o->out,
                    "Write the reports here (required with several folders; default: the one folder itself)");
    cmd->add_flag("--allow-mixed-variants", o->allow_mixed_variants,
                  "Let a rating list mix tournaments played under different variants");
    cmd->add_option("--anchor", o->anchor,
                    "Hold this engine at this Elo in the rating list, e.g. alphabeta=1500 (default: mean 0)");
    cmd->add_flag("--publish", o->publish,
                  "Leave local paths and your user name out of the engine commands shown in the reports");
    cmd->add_option("--time-limit", o->time_limit_s,
                    "Give up after this many seconds (exit 2): a journal is untrusted input (0: no limit)")
        ->default_val(kDefaultTimeLimit.count())
        ->check(CLI::Range(0LL, 1'000'000LL));
  }
}

}  // namespace kalah::arena_app
