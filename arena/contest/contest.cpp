// `arena contest withdraw` / `disqualify`: an entrant leaves the contest; its finished games stay in the
// journal and count or not by the contest's declared rule ([submissions] withdrawn / disqualified).
#include "arena/contest/contest.h"

#include <fmt/core.h>

#include "arena/config/description.h"
#include "arena/contest/entries.h"
#include "arena/journal/journal.h"
#include "arena/journal/meta.h"
#include "referee/system/directory_lock.h"
#include "referee/system/files.h"

namespace kalah::arena::contest {
namespace fs = std::filesystem;

Expected<std::string> change_status(const Config& config, const std::string& name, EntryStatus status,
                                    const std::string& reason, const WriteReports& write_reports) {
  const fs::path results = config.results_dir();
  std::error_code ec;
  if (!fs::exists(config.entries_file(), ec))
    return Error{config.entries_file().string() + " does not exist: build the submissions first (arena contest build " +
                 config.source + ")"};
  Expected<system::DirectoryLock> lock = system::DirectoryLock::acquire(results);
  if (!lock) return Error{lock.error() + ": stop that run first (Ctrl-C), then run this again and resume"};
  Expected<Entries> read = read_entries(config.entries_file());
  if (!read) return Error{read.error()};
  Entries entries = std::move(read).value();
  Submission* s = entries.by_name(name);
  if (!s) {
    std::string names;
    for (const Submission* e : entries.entrants()) names += (names.empty() ? "" : ", ") + e->name;
    return Error{fmt::format("no entrant is named '{}'; the entrants are: {}", name, names.empty() ? "(none)" : names)};
  }
  if (s->status == SubmissionStatus::Disqualified)
    return Error{fmt::format("'{}' is already disqualified ({})", name, s->reason)};
  if (s->status == SubmissionStatus::Withdrawn && status == EntryStatus::Withdrawn)
    return Error{fmt::format("'{}' is already withdrawn ({})", name, s->reason)};
  s->status = status == EntryStatus::Withdrawn ? SubmissionStatus::Withdrawn : SubmissionStatus::Disqualified;
  s->reason = reason;
  if (auto error = write_entries(config.entries_file(), entries)) return Error{*error};

  const GamesRule rule =
      status == EntryStatus::Withdrawn ? config.submissions->withdrawn : config.submissions->disqualified;
  std::string done = fmt::format(
      "'{}' {}: {}; its finished games are {} ([submissions] {} = \"{}\"), its other games "
      "are not played",
      name, to_string(status), reason, rule == GamesRule::Keep ? "kept" : "void", to_string(status), to_string(rule));
  // A contest under way: the journal's settings and the reports say so at once.
  const fs::path meta_path = results / journal::kMetaFile;
  if (!fs::exists(meta_path, ec)) return done;
  Expected<journal::TournamentMeta> stored = journal::read_meta(meta_path);
  if (!stored) return Error{stored.error()};
  journal::TournamentMeta meta = std::move(stored).value();
  Expected<TournamentDescription> recorded = description_from_settings(meta.settings);
  if (!recorded) return Error{meta_path.string() + ": " + recorded.error()};
  TournamentDescription description = std::move(recorded).value();
  // Under the name the run gives it: an entrant that has a house bot's name goes by another (add_entrants).
  EntryDescription& entry = description.entries[entrant_engine_name(config.engines, name)];
  entry.status = status;
  entry.reason = reason;
  entry.games_kept = rule == GamesRule::Keep;
  meta.settings = to_settings(description);
  if (auto error = system::write_file_atomically(meta_path, journal::meta_to_text(meta))) return Error{*error};
  const fs::path games = results / journal::kGamesFile;
  if (fs::exists(games, ec) && fs::file_size(games, ec) > 0) {
    // Everything the folder holds, as `arena report` writes it: an analysis's move quality too.
    if (std::optional<std::string> error = write_reports(results)) return Error{*error};
    done += "; reports written again";
  }
  return done;
}

}  // namespace kalah::arena::contest
