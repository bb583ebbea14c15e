// play_schedule: a round robin or gauntlet from its schedule.
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <fmt/core.h>
#include <fmt/format.h>

#include "arena/flow/progress.h"
#include "arena/flow/tournaments.h"
#include "arena/rating/standings.h"
#include "arena/report/reporters.h"
#include "arena/schedule/schedule.h"

namespace kalah::arena {
namespace {

class ScheduleListener : public RunListener {
 public:
  ScheduleListener(const Config& config, std::FILE* out) : config_(config), out_(out) {
    schedule_ = make_schedule(config_);
    if (config_.shard) schedule_ = shard_games(schedule_, *config_.shard);
    for (const GameSpec& g : schedule_) scheduled_ids_.insert(g.id);
    // A contest's entrant that left keeps its finished games in the journal: they belong to the contest.
    if (!config_.entries.empty()) {
      Config everyone = config_;
      everyone.entries.clear();
      for (const GameSpec& g : make_schedule(everyone))
        if (!scheduled_ids_.contains(g.id)) left_ids_.insert(g.id);
    }
  }

  // A game the schedule does not have (a journal edited or pasted together by hand) still counts in
  // the standings, as every journaled game does, but never silently: start() reports it.
  void resumed(const GameRecord& record) override {
    if (scheduled_ids_.contains(record.id)) return;
    if (left_ids_.contains(record.id)) {
      ++left_games_;
      return;
    }
    if (++unscheduled_ == 1) first_unscheduled_ = record.id;
  }

  GameSource& start(const journal::Journal& journal, const TournamentDescription&,
                    const rating::StandingsBuilder& done) override {
    all_ = &done;
    if (unscheduled_ > 0)
      fmt::print(stderr,
                 "arena: warning: {} holds {} game{} whose id is not in this tournament's schedule (the first: "
                 "'{}'); {} counted in the standings and reports like the others\n",
                 journal.games_path().string(), unscheduled_, unscheduled_ == 1 ? "" : "s",
                 first_unscheduled_.substr(0, 80), unscheduled_ == 1 ? "it is" : "they are");
    const std::vector<GameSpec>& schedule = schedule_;
    std::vector<GameSpec> pending;
    for (const GameSpec& g : schedule)
      if (!journal.is_completed(g.id)) pending.push_back(g);
    const std::size_t total = schedule.size() + left_games_;
    fmt::print(out_, "{}{}: {} {} engines, {} games ({} done{}), {}, {}, concurrency {}\n", config_.tournament.name,
               config_.shard ? fmt::format(" shard {}/{}", config_.shard->index, config_.shard->count) : "",
               to_string(config_.tournament.type), config_.engines.size(), total, total - pending.size(),
               left_games_ > 0 ? fmt::format(", {} of them by entrants that left", left_games_) : "",
               to_string(config_.variant), config_.time.describe(), config_.tournament.concurrency);
    std::fflush(out_);
    progress_.emplace(static_cast<int>(total), done, config_.tournament.progress_interval,
                      config_.tournament.rating_interval, out_);
    source_.emplace(std::move(pending));
    return *source_;
  }

  int planned_games() const override { return static_cast<int>(schedule_.size() + left_games_); }

  void game_done(const GameRecord& record, const rating::StandingsBuilder& all) override {
    progress_->game_done(record, all);
  }

  void stopped(const RunResult&) override { progress_->finish(*all_); }

 private:
  const Config& config_;
  std::FILE* out_;
  std::vector<GameSpec> schedule_;
  std::unordered_set<std::string> scheduled_ids_;
  std::unordered_set<std::string> left_ids_;  // a contest's games of entrants that withdrew or were disqualified
  std::size_t left_games_ = 0;                // of those, in the journal
  std::size_t unscheduled_ = 0;
  std::string first_unscheduled_;  // in journal order
  std::optional<Progress> progress_;
  std::optional<ScheduleSource> source_;
  const rating::StandingsBuilder* all_ = nullptr;
};

}  // namespace

Expected<int> play_schedule(const Config& config, const FlowOptions& options, std::FILE* out) {
  ScheduleListener listener(config, out);
  Expected<FlowResult> played = run_tournament(config, listener, options);
  if (!played) return Error{played.error()};
  const FlowResult& r = *played;
  if (std::optional<int> code = report_interruption(r, out)) return *code;
  fmt::print(out, "{}\n", report::format_standings_table(r.standings));
  if (config.shard) {
    fmt::print(out, "shard {}/{}: {} games in {}; when every shard is done, merge them with: arena report {}\n",
               config.shard->index, config.shard->count, r.games, r.journal.string(), config.results_dir().string());
    return 0;
  }
  fmt::print(out, "results: {}/ ({})\n", r.dir.string(), fmt::join(r.reports, ", "));
  return 0;
}

}  // namespace kalah::arena
