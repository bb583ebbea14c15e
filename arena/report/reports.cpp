#include "arena/report/reports.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <type_traits>
#include <vector>

#include <fmt/core.h>

#include "arena/analysis/analysis_file.h"
#include "arena/journal/games_file.h"
#include "arena/report/bot_pages.h"
#include "arena/report/form_report.h"
#include "arena/report/reporters.h"
#include "arena/report/submission_pages.h"
#include "referee/game/transcript_file.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::report {
namespace {

namespace fs = std::filesystem;

// A transcript shown on a bot page is read whole up to this size (a game's lines and two stderr tails).
constexpr std::uintmax_t kMaxTranscriptBytes = 32u << 20;

// The transcript of a forfeited game, as `bot` wrote it: beside the game's journal (a shard's) or in `dir`.
// The folder read is untrusted: `transcripts` must be a folder there (not a link) and the file a regular
// file (not a link, FIFO or device), read with a bound. The id is a name (the journal reader refuses an
// id that could be a path), so the file is inside that folder.
std::optional<ShownTranscript> find_transcript(const fs::path& dir, const BotGame& game) {
  const std::string file = "transcripts/" + game.id + ".log";
  for (const fs::path& folder : {fs::path(game.journal_dir), dir}) {
    std::error_code ec;
    if (!fs::is_directory(fs::symlink_status(folder / "transcripts", ec))) continue;
    const fs::path path = folder / file;
    const fs::file_status status = fs::symlink_status(path, ec);
    if (!fs::exists(status)) continue;
    ShownTranscript shown;
    shown.file = file;
    Expected<std::string> text = system::read_regular_file(path, kMaxTranscriptBytes);
    if (!text) {
      shown.error = text.error();
      return shown;
    }
    Expected<TranscriptFile> parsed = parse_transcript(*text);
    if (!parsed) {
      shown.error = path.string() + ": " + parsed.error();
      return shown;
    }
    TranscriptFile transcript = std::move(parsed).value();
    shown.lines = std::move(transcript.lines);
    for (TranscriptFile::Stderr& tail : transcript.stderr_tails)
      if (tail.engine == game.forfeit->engine) {
        shown.stderr_tail = std::move(tail.text);
        shown.stderr_total = tail.total;
      }
    return shown;
  }
  return std::nullopt;
}

// bots/<name>.html for every engine, before report.html links to them.
std::optional<std::string> write_bot_pages(const fs::path& dir, const BotPagesBuilder& bots, const std::string& event,
                                           const rating::Standings& standings, const MoveQuality* quality) {
  const analysis::EngineQuality no_moves;  // an engine without a move in the games read
  if (auto error = system::make_own_folder(dir / "bots")) return error;
  for (const auto& [name, bot] : bots.bots()) {
    std::map<std::string, ShownTranscript> transcripts;
    for (const BotGame& g : bot.forfeit_games)
      if (std::optional<ShownTranscript> shown = find_transcript(dir, g)) transcripts.emplace(g.id, std::move(*shown));
    double bye_points = 0;
    for (const rating::EngineStanding& e : standings.engines)
      if (e.name == name) bye_points = e.bye_points;
    const analysis::EngineQuality* shown = nullptr;
    if (quality) shown = quality->find(name) ? quality->find(name) : &no_moves;
    if (auto error = system::write_file_atomically(dir / bot_page_path(name),
                                                   bot_page_html(bot, event, transcripts, bye_points, shown),
                                                   system::Durability::Rebuildable))
      return error;
  }
  return std::nullopt;
}

// Each game of a tournament's journals with its plies, by id, as write_reports hands them out (a game met
// again counted once): what its analysis is read against. Nothing when a journal cannot be read: the reports'
// own pass over it stops with the error.
std::optional<analysis::JournalPlies> journal_plies(const ReportInput& input, const std::string& tournament) {
  analysis::JournalPlies plies;
  journal::SeenIds seen;
  for (const ReportJournal& journal : input.journals) {
    std::error_code ec;
    if (journal.tournament != tournament || !fs::exists(fs::symlink_status(journal.path, ec))) continue;
    if (!journal::scan_games(
            journal.path, [&](GameRecord&& g) { plies.emplace(std::move(g.id), g.moves.size()); }, seen))
      return std::nullopt;
  }
  return plies;
}

// The input's analyses that exist, ready to join the games; none: the reports show no move quality. Each is
// read against its tournament's journals first, so that only the lines of their games are kept: a file of
// lines for games that are not there costs one line of memory at a time (docs/VERIFY.md, "Memory").
std::optional<MoveQualityBuilder> read_analyses(const ReportInput& input, std::vector<std::string>& warnings) {
  std::map<std::string, AnalysisSource> sources;
  for (const auto& [tournament, file] : input.analyses) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(file, ec))) continue;  // a link is there: read_analysis refuses it
    const std::optional<analysis::JournalPlies> plies = journal_plies(input, tournament);
    if (!plies) continue;
    Expected<analysis::AnalysisFile> read = analysis::read_analysis(file, *plies);
    if (!read) {
      warnings.push_back(
          fmt::format("{}: not read, so the reports show no move quality from it ({})", file.string(), read.error()));
      continue;
    }
    if (read->torn_at)
      warnings.push_back(fmt::format("{}{}: an incomplete last line, ignored (an analysis still being written?)",
                                     (file.parent_path() / "").string(), read->torn_reason));
    if (read->duplicates > 0)
      warnings.push_back(fmt::format("{}: {} line{} analyse a game of an earlier line again; the first counts",
                                     file.string(), read->duplicates, read->duplicates == 1 ? "" : "s"));
    sources.emplace(tournament, AnalysisSource{file.string(), std::move(read->games), std::move(read->misfits),
                                               read->unknown, std::move(read->unknown_named)});
  }
  if (sources.empty()) return std::nullopt;
  return MoveQualityBuilder(std::move(sources));
}

}  // namespace

void add_results(ReportInput& input, const journal::StoredResults& stored, const std::string& prefix,
                 const std::string& tournament) {
  for (const std::string& name : stored.meta.engines)
    if (std::find(input.engine_names.begin(), input.engine_names.end(), name) == input.engine_names.end())
      input.engine_names.push_back(name);
  for (const journal::StoredJournal& j : stored.journals)
    input.journals.push_back(
        {j.games, prefix + j.label, j.shard ? static_cast<std::size_t>(j.shard->games) : 0, tournament});
  // A sharded run's analysis covers the games of every shard: it is in the top folder.
  if (!stored.dir.empty()) input.analyses[tournament] = stored.dir / analysis::kAnalysisFile;
  for (int missing : stored.missing_shards)
    input.notes.push_back(
        fmt::format("{}shard {}/{} has no journal: none of its games were played (or its task "
                    "failed before the first game)",
                    prefix, missing, stored.shard_count));
}

namespace {

// What one journal's scan adds to the summary: its games (also per tournament, in input order), its
// warnings (an incomplete last line, games an earlier journal holds too), and a note when it holds fewer games
// than its run was to play.
void count_scan(const ReportJournal& journal, journal::ScanSummary summary, ReportSummary& out,
                std::vector<std::pair<std::string, std::size_t>>& per_tournament) {
  const fs::path& file = journal.path;
  out.games += summary.games;
  if (per_tournament.empty() || per_tournament.back().first != journal.tournament)
    per_tournament.emplace_back(journal.tournament, 0);
  per_tournament.back().second += summary.games;
  for (std::string& w : summary.warnings) out.warnings.push_back(std::move(w));
  if (summary.torn)
    out.warnings.push_back(file.string() + ":" + std::to_string(summary.torn->line) +
                           ": incomplete last line ignored (" + summary.torn->error + ")");
  if (summary.elsewhere > 0)
    out.warnings.push_back(fmt::format("{}: {} games are also in an earlier journal and were counted once",
                                       file.string(), summary.elsewhere));
  const std::size_t held = summary.games + summary.elsewhere;
  if (journal.expected_games > 0 && held < journal.expected_games)
    out.notes.push_back(fmt::format("{} is incomplete: {} of {} games", journal.label, held, journal.expected_games));
}

// The note of a rating list over several tournaments, naming each with its games.
Note rating_list_note(const std::vector<std::pair<std::string, std::size_t>>& per_tournament) {
  std::string list;
  for (const auto& [name, games] : per_tournament)
    list += fmt::format("{}{} ({} game{})", list.empty() ? "" : ", ", name, games, games == 1 ? "" : "s");
  return Note{fmt::format("One rating list over {} tournaments: {}. An engine name is one player in all of them.",
                          per_tournament.size(), list)};
}

// What the tournament decided, in each report's format: an SPRT's verdict, or a Swiss or knockout
// tournament's own table (replayed from `results`); empty for the others.
struct FormTexts {
  std::string markdown, html, json;
};

FormTexts form_texts(const ReportInput& input, bool by_rounds, const arena::GameResults& results) {
  FormTexts texts;
  if (std::optional<TournamentForm> form =
          by_rounds ? tournament_form(input.description, input.engine_names, results) : std::nullopt)
    texts = {form_markdown(*form), form_html(*form), form_json(*form)};
  if (input.sprt) texts = {sprt_markdown(*input.sprt), sprt_html(*input.sprt), sprt_json(*input.sprt)};
  return texts;
}

// The last kViewerGames games, which report.html's viewer embeds, and beside them (with an analysis) their
// judgements.
class RecentGames {
 public:
  void add(GameRecord&& g, std::optional<analysis::GameJudgement>&& judgement, bool judged) {
    games_.push_back(std::move(g));
    if (games_.size() > kViewerGames) games_.pop_front();
    if (judged) {
      judgements_.push_back(std::move(judgement));
      if (judgements_.size() > kViewerGames) judgements_.pop_front();
    }
  }
  std::vector<GameRecord> take_games() { return take(games_); }
  std::vector<std::optional<analysis::GameJudgement>> take_judgements() { return take(judgements_); }

 private:
  template <typename T>
  static std::vector<T> take(std::deque<T>& from) {
    std::vector<T> out(std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
    from.clear();
    return out;
  }
  std::deque<GameRecord> games_;
  std::deque<std::optional<analysis::GameJudgement>> judgements_;
};

// Widens [first, last] ("YYYY-MM-DD", empty: none yet) to the day a game started.
void widen_days(const std::string& started_at, std::string& first, std::string& last) {
  if (started_at.size() < 10) return;
  const std::string day = started_at.substr(0, 10);
  if (first.empty() || day < first) first = day;
  if (day > last) last = day;
}

// The "About" section's context, and for a contest its page per submission, from the entries.json and logs
// beside its journal.
Expected<Context> report_context(const fs::path& dir, const ReportInput& input, const std::string& first_day,
                                 const std::string& last_day) {
  Context context = make_context(input.description, input.engine_names, first_day, last_day, input.publish);
  if (input.description.contest && input.journals.size() == 1) {
    Expected<std::vector<SubmissionLink>> pages =
        write_submission_pages(dir, input.journals.front().path.parent_path(), input.event, input.engine_names);
    if (!pages) return Error{pages.error()};
    context.submissions = std::move(pages).value();
  }
  return context;
}

// The input's notes, and a contest's submissions that did not enter (tournament.json, docs/FORMATS.md): from
// the settings, so that every writer of these reports (a run, arena report, arena verify) says the same.
Notes input_notes(const ReportInput& input) {
  Notes notes = input.notes;
  for (const auto& [folder, note] : input.description.not_entered)
    if (!note.empty()) notes.push_back(Note{"Not entered: " + note, submission_page_path(folder)});
  return notes;
}

}  // namespace

Expected<ReportSummary> write_reports(const fs::path& dir, const ReportInput& input) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{dir.string() + ": cannot create the directory: " + ec.message()};

  // One pass over the journals feeds all three consumers.
  rating::StandingsBuilder builder(input.engine_names);
  BotPagesBuilder bots(input.engine_names, input.description);
  builder.set_anchor(input.anchor);
  // The contest's ranking and its entrants, as tournament.json records them (docs/RANKING.md).
  builder.set_ranking(input.description.ranking_setup());
  // A Swiss or knockout tournament's own order, replayed from the results (docs/SCHEDULE.md).
  builder.set_form(form_ranker(input.description, input.engine_names));
  system::AtomicFile pgn;
  if (auto error = system::AtomicFile::create(dir / "games.pgn", pgn)) return Error{*error};
  RecentGames recent;
  ReportSummary out;
  std::optional<MoveQualityBuilder> quality = read_analyses(input, out.warnings);
  std::string first_day, last_day;  // "YYYY-MM-DD" of the first and last game played
  EloHistoryRecorder history;
  const std::string time_control = input.description.time_pgn.value_or("?");
  // Time odds: an engine's own clock, where it has one.
  auto clock_of = [&](const std::string& engine) {
    return input.description.engine(engine).time_pgn.value_or(time_control);
  };
  // A Swiss or knockout tournament's own standings are replayed from the results (by game id).
  const bool by_rounds = input.description.plays_by_rounds();
  arena::GameResults results;
  std::map<std::string, journal::SeenIds> seen;                     // by tournament: ids repeat across tournaments
  std::vector<std::pair<std::string, std::size_t>> per_tournament;  // in input order
  out.notes = input_notes(input);
  for (const ReportJournal& journal : input.journals) {
    const fs::path& file = journal.path;
    Expected<journal::ScanSummary> scanned = journal::scan_games(
        file,
        [&](GameRecord&& g) {
          builder.add(g);
          bots.add(g, file.parent_path().string());
          std::optional<analysis::GameJudgement> judgement;
          if (quality) judgement = quality->add(g, journal.tournament);
          if (judgement) bots.add_judgement(g, *judgement);
          history.game_added(builder);
          if (by_rounds)
            results.emplace(g.id, g.result == Outcome::FirstWins ? 1.0 : g.result == Outcome::Draw ? 0.5 : 0.0);
          widen_days(g.started_at, first_day, last_day);
          pgn.write(pgn_game(g, input.event, time_control, clock_of(g.south), clock_of(g.north)));
          recent.add(std::move(g), std::move(judgement), quality.has_value());
        },
        seen[journal.tournament]);
    if (!scanned) return Error{scanned.error()};
    count_scan(journal, std::move(scanned).value(), out, per_tournament);
  }
  if (per_tournament.size() > 1) out.notes.push_back(rating_list_note(per_tournament));
  out.standings = builder.standings(input.rank_intervals ? rating::Intervals::With : rating::Intervals::Without);
  if (quality) out.quality = quality->finish(out.warnings);
  const MoveQuality* shown_quality = out.quality ? &*out.quality : nullptr;
  if (std::string repeated = rating::repeated_note(out.standings); !repeated.empty())
    out.notes.push_back(std::move(repeated));
  for (std::string& note : rating::never_started_notes(out.standings)) out.notes.push_back(std::move(note));
  const std::vector<GameRecord> shown = recent.take_games();
  const std::vector<std::optional<analysis::GameJudgement>> shown_judgements = recent.take_judgements();

  const Standings& s = out.standings;
  Expected<Context> context = report_context(dir, input, first_day, last_day);
  if (!context) return Error{context.error()};
  const EloHistory elo_history = history.finish(builder, s);
  const FormTexts form = form_texts(input, by_rounds, results);
  // Reports can always be rebuilt from the journal: no fsync.
  constexpr auto kRebuildable = system::Durability::Rebuildable;
  const std::function<std::optional<std::string>()> writers[] = {
      [&] {
        return system::write_file_atomically(
            dir / kReportFiles[0],
            standings_markdown(s, input.event, out.notes, *context, form.markdown, shown_quality), kRebuildable);
      },
      [&] {
        return system::write_file_atomically(
            dir / kReportFiles[1], standings_json(s, input.event, out.notes, form.json, shown_quality), kRebuildable);
      },
      [&] {
        return system::write_file_atomically(dir / kReportFiles[2], standings_csv(s, shown_quality), kRebuildable);
      },
      [&] { return pgn.commit(kRebuildable); },
      [&] {
        if (std::optional<std::string> error = write_bot_pages(dir, bots, input.event, s, shown_quality)) return error;
        return system::write_file_atomically(dir / kReportFiles[4],
                                             report_html(s, shown, input.event, out.notes, out.games, *context,
                                                         elo_history, form.html, true, shown_quality, shown_judgements),
                                             kRebuildable);
      },
  };
  static_assert(std::extent_v<decltype(kReportFiles)> == std::extent_v<decltype(writers)>);
  for (std::size_t i = 0; i < std::size(kReportFiles); ++i) {
    if (std::optional<std::string> error = writers[i]()) return Error{*error};
    out.written.push_back(kReportFiles[i]);
  }
  return out;
}

}  // namespace kalah::report
