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
#include "arena/report/reporters.h"
#include "arena/report/reports.h"
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

// Reports of nothing would be empty tables that look like a result: say so instead.
void require_games(const std::string& dir, const journal::StoredResults& stored) {
  std::uintmax_t bytes = 0;
  for (const journal::StoredJournal& j : stored.journals) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(j.games, ec);
    if (!ec) bytes += size;
  }
  if (bytes == 0)
    throw UsageError(fmt::format("{}: no games to report yet (its journal{} empty); run the tournament first", dir,
                                 stored.journals.size() == 1 ? " is" : "s are"));
}

int report(const ReportOptions& o) {
  std::vector<journal::StoredResults> all;
  std::vector<arena::TournamentDescription> described;  // each folder's tournament.json, read back
  for (const std::string& dir : o.dirs) {
    Expected<journal::StoredResults> stored = journal::read_results(dir);
    if (!stored) throw UsageError(stored.error());
    for (const std::string& w : stored->warnings) fmt::print(stderr, "arena: warning: {}\n", w);
    require_games(dir, *stored);
    Expected<arena::TournamentDescription> description = arena::description_from_settings(stored->meta.settings);
    if (!description)
      throw UsageError((std::filesystem::path(dir) / journal::kMetaFile).string() + ": " + description.error());
    all.push_back(std::move(stored).value());
    described.push_back(std::move(description).value());
  }
  const bool list = all.size() > 1;
  if (list && o.out.empty())
    throw UsageError("a rating list over several results folders needs --out DIR for its reports");
  const std::string out = o.out.empty() ? o.dirs.front() : o.out;
  // A list's reports in one of its own tournaments' folders would replace that tournament's reports.
  for (std::size_t i = 0; list && i < o.dirs.size(); ++i) {
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
  report::RatingListRecord record;  // a list's, recorded in its list.json
  record.sources = o.dirs;
  record.publish = o.publish;
  report::ReportInput input;
  if (list) {
    input = report::rating_list_input(record, event, all);
  } else {
    input.event = event;
    input.publish = o.publish;
    input.description = described[0];
    report::add_results(input, all[0], "", o.dirs[0]);
  }
  if (!o.anchor.empty()) {
    input.anchor = parse_anchor(o.anchor, input.engine_names, fmt::format("{}", fmt::join(o.dirs, ", ")));
  } else if (const std::optional<rating::Anchor>& own = described[0].anchor; !list && own && !own->engine.empty()) {
    // The tournament's own [rating] anchor, as its run recorded it.
    input.anchor = parse_anchor(fmt::format("{}={}", own->engine, own->elo), input.engine_names, o.dirs[0]);
  }
  record.anchor = input.anchor;

  // An SPRT's merge prints the test's own Elo estimate instead of a second, Bradley-Terry one, ends with
  // its decision as an exit code a CI job can gate on, and its reports lead with the test.
  const bool sprt = !list && described[0].sprt_match;
  std::optional<Expected<int>> decision;
  if (sprt) {
    report::SprtReport lead;
    decision = arena::report_sprt(out, all[0], described[0], stdout, &lead);
    if (!*decision) throw UsageError(decision->error());
    input.sprt = std::move(lead);
    std::fflush(stdout);
  }
  Expected<report::ReportSummary> written = report::write_reports(out, input);
  if (!written) throw UsageError(written.error());
  std::vector<std::string> files = written->written;
  if (list) {
    // What `arena verify LIST SOURCE...` needs to write the list again: its tournaments as labelled here.
    if (auto error = system::write_file_atomically(std::filesystem::path(out) / report::kRatingListFile,
                                                   report::rating_list_to_text(record)))
      throw UsageError(*error);
    files.push_back(report::kRatingListFile);
  }
  for (const std::string& w : written->warnings) fmt::print(stderr, "arena: warning: {}\n", w);
  if (!sprt)
    fmt::print("{}\n",
               report::format_standings_table(written->standings, written->quality ? &*written->quality : nullptr));
  if (!list && all[0].shard_count > 0)
    fmt::print("merged {} games from {} of {} shards\n", written->games,
               all[0].shard_count - static_cast<int>(all[0].missing_shards.size()), all[0].shard_count);
  for (const report::Note& note : written->notes) fmt::print("note: {}\n", note.text);
  fmt::print("wrote {} in {}\n", fmt::join(files, ", "), out);
  if (!sprt) return 0;
  fmt::print("wrote sprt.json in {}\n", out);
  return **decision;
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
