#include "arena/season/ladder_analyst.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>

#include <fmt/core.h>

#include "arena/analysis/analyse.h"
#include "arena/journal/games_file.h"
#include "arena/journal/journal.h"
#include "arena/season/ladder.h"
#include "referee/system/untrusted_files.h"
#include "referee/system/utc_time.h"

namespace kalah::season {

namespace {

// losing.jsonl holds a short line per lost game: far below this for any season.
constexpr std::uintmax_t kMaxLosingFileBytes = 256u << 20;
// A line in season.log after each this many games analysed (and after the first pass).
constexpr std::size_t kLogEveryGames = 100;
// Games analysed in a pass, the newest first, before they are judged and shown: the ladder plays faster than it is
// analysed, and its authors are shown their latest games first.
constexpr std::size_t kBatchGames = 10;

std::filesystem::path ladder_folder(const SeasonConfig& season) {
  return season.contest.tournament.output / kLadderName;
}

}  // namespace

analysis::AnalyserOptions ladder_analyser_options(const SeasonConfig& season) {
  const arena::AnalysisConfig a = season.contest.analysis.value_or(arena::AnalysisConfig{});
  analysis::AnalyserOptions o;
  o.budget = std::chrono::milliseconds(a.budget_ms);
  o.database_only = a.db_only;
  o.database_mb = static_cast<std::uint64_t>(a.db_mb);
  o.hash_mb = static_cast<std::size_t>(a.hash_mb);
  o.cache_dir = endgame::default_cache_dir();
  o.database_threads = 1;
  return o;
}

LadderAnalyst::LadderAnalyst(const SeasonConfig& season)
    : season_(season), folder_(season.dir / kAnalysisFolder), options_(ladder_analyser_options(season)) {
  options_.stop = &halt_;
  // A database not in the cache can take minutes to build: its start and its end are said.
  options_.database_progress = [this](const analysis::DatabaseProgress& p) {
    if (p.ready == p.loaded || p.ready == p.target) log("analysis: " + analysis::describe(p));
  };
  databases_ = std::make_unique<analysis::Databases>(options_);
}

LadderAnalyst::~LadderAnalyst() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  halt_ = true;
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LadderAnalyst::start() {
  thread_ = std::thread([this] { loop(); });
}

void LadderAnalyst::game_recorded() {
  {
    const std::lock_guard lock(mutex_);
    ++recorded_;
  }
  wake_.notify_all();
}

boost::json::object LadderAnalyst::author_json(const std::string& public_name) const {
  const std::lock_guard lock(mutex_);
  const auto found = by_author_.find(public_name);
  return author_analysis_json(public_name, found == by_author_.end() ? AuthorGames{} : found->second);
}

void LadderAnalyst::loop() {
  // Behind the builds, the gates and the ladder's games: the lowest priority, inherited by the threads it starts.
  (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19);
  std::uint64_t seen = 0;
  bool more = false;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      if (!more) wake_.wait(lock, [&] { return stopping_ || recorded_ != seen; });
      if (stopping_) return;
      seen = recorded_;
    }
    more = pass();
  }
}

bool LadderAnalyst::pass() {
  if (halt_) return false;
  const std::filesystem::path ladder = ladder_folder(season_);
  std::error_code ec;
  if (!std::filesystem::exists(ladder / journal::kGamesFile, ec)) return false;  // no game yet
  if (std::optional<std::string> error = system::make_own_folder(folder_)) {
    log_once("analysis: " + *error);
    return false;
  }
  // At the start, what the files hold is shown before any new game is analysed.
  if (!losing_file_read_ && !judge_new_games(ladder)) return false;
  analysis::AnalyseOptions options;
  options.analyser = options_;
  options.threads = 1;
  options.stop = &halt_;
  options.newest = kBatchGames;
  options.output = folder_ / analysis::kAnalysisFile;
  options.databases = databases_.get();
  Expected<analysis::AnalyseSummary> s = analysis::analyse_folder(ladder, options);
  if (!s) {
    log_once("analysis: stopped: " + s.error());
    return false;
  }
  for (const std::string& note : s->notes) log_once("analysis: " + note);
  if (halt_ || !judge_new_games(ladder)) return false;
  analysed_here_ += s->analysed;
  const std::size_t analysed = s->already + s->analysed;
  if (analysed_logged_ == 0 || analysed >= analysed_logged_ + kLogEveryGames) {
    log(fmt::format("analysis: {} game{} of the ladder analysed ({} by this server), in {}", analysed,
                    analysed == 1 ? "" : "s", analysed_here_, options.output.string()));
    analysed_logged_ = std::max<std::size_t>(analysed, 1);
  }
  return s->analysed == kBatchGames && s->already + s->analysed < s->games;
}

void LadderAnalyst::read_losing_file() {
  losing_file_read_ = true;
  const std::filesystem::path file = folder_ / kLosingFile;
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) return;
  Expected<std::string> text = system::read_regular_file(file, kMaxLosingFileBytes);
  if (!text) return log_once("analysis: " + text.error());
  std::size_t at = 0;
  for (std::size_t end; (end = text->find('\n', at)) != std::string::npos; at = end + 1)
    if (std::optional<MoveValues> m = move_values_from_line(std::string_view(*text).substr(at, end - at)))
      losing_read_.try_emplace(m->id, std::move(*m));
  // A last line a kill cut short is cut off, so that the next line starts on a line of its own.
  if (at < text->size())
    if (std::optional<std::string> error = system::write_own_file(file, std::string_view(*text).substr(0, at)))
      log_once("analysis: " + *error);
}

bool LadderAnalyst::judge_new_games(const std::filesystem::path& ladder) {
  if (!losing_file_read_) read_losing_file();
  const std::filesystem::path journal = ladder / journal::kGamesFile;
  analysis::JournalPlies plies;
  journal::SeenIds seen;
  Expected<journal::ScanSummary> listed = journal::scan_games(
      journal,
      [&](GameRecord&& g) {
        if (!judged_.contains(g.id)) plies.emplace(g.id, g.moves.size());
      },
      seen);
  if (!listed) {
    log_once("analysis: " + listed.error());
    return true;
  }
  if (plies.empty()) return true;
  Expected<analysis::AnalysisFile> file = analysis::read_analysis(folder_ / analysis::kAnalysisFile, plies);
  if (!file) {
    log_once("analysis: " + file.error());
    return true;
  }
  std::optional<analysis::Analyser> analyser;  // for the moves of a losing ply, made when one needs it
  journal::SeenIds again;
  std::uint64_t order = 0;
  Expected<journal::ScanSummary> scanned = journal::scan_games(
      journal,
      [&](GameRecord&& g) {
        ++order;
        const auto analysed = file->games.find(g.id);
        if (halt_ || analysed == file->games.end() || judged_.contains(g.id)) return;
        const auto read = losing_read_.find(g.id);
        std::optional<MoveValues> values;
        if (read != losing_read_.end()) values = read->second;
        Expected<GameVerdict> verdict = judge_ladder_game(g, analysed->second, values);
        if (!verdict) return log_once("analysis: " + verdict.error());
        // The moves at the ply that lost are valued for an author's revision only: a sparring partner has no page.
        const std::string& loser = g.result == Outcome::FirstWins ? g.north : g.south;
        const std::size_t dash = loser.rfind("-r");
        const bool authors = dash != std::string::npos && is_revision_of(loser.substr(0, dash), loser);
        if (authors && verdict->losing_ply && (!values || values->ply != *verdict->losing_ply + 1)) {
          if (!analyser) analyser.emplace(options_, *databases_);
          values = value_moves(*analyser, g, static_cast<std::size_t>(*verdict->losing_ply));
          if (halt_) return;  // the server stops: a search cut short is no verdict on these moves
          if (std::optional<std::string> error = system::write_own_file(folder_ / kLosingFile, to_line(*values), true))
            return log_once("analysis: " + *error);
          verdict = judge_ladder_game(g, analysed->second, values);
        }
        if (read != losing_read_.end()) losing_read_.erase(read);
        judged_.insert(g.id);
        GameVerdict judged = std::move(verdict).value();
        judged.order = order;
        add(std::move(judged));
      },
      again);
  if (!scanned) log_once("analysis: " + scanned.error());
  return !halt_;
}

void LadderAnalyst::add(GameVerdict&& verdict) {
  const std::lock_guard lock(mutex_);
  for (bool south : {true, false}) {
    const std::string& engine = (south ? verdict.south : verdict.north).engine;
    const std::size_t dash = engine.rfind("-r");
    if (dash == std::string::npos || !is_revision_of(engine.substr(0, dash), engine)) continue;
    AuthorGames& games = by_author_[engine.substr(0, dash)];
    ++games.games;
    const bool lost = verdict.result == (south ? "0-1" : "1-0");
    games.lost += lost;
    games.losing_moves += lost && verdict.losing.has_value();
    // In the journal's order, newest first, whatever order they were analysed in; the oldest beyond kShownGames go.
    auto& list = games.newest_first;
    list.insert(std::find_if(list.begin(), list.end(), [&](const GameVerdict& g) { return g.order < verdict.order; }),
                verdict);
    if (list.size() > kShownGames) list.pop_back();
  }
}

void LadderAnalyst::log(const std::string& line) const {
  (void)system::write_own_file(season_.dir / "season.log", system::utc_now_iso8601() + " " + line + "\n",
                               /*append=*/true);
}

void LadderAnalyst::log_once(const std::string& line) {
  if (said_.insert(line).second) log(line);
}

}  // namespace kalah::season
