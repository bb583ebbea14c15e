// play_schedule: a round robin or gauntlet from its schedule.
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <fmt/core.h>
#include <fmt/format.h>

#include "arena/flow/matches.h"
#include "arena/flow/progress.h"
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
  }

  // A game the schedule does not have (a journal edited or pasted together by hand) still counts in
  // the standings, as every journaled game does, but never silently: start() reports it.
  void resumed(const GameRecord& record) override {
    if (scheduled_ids_.contains(record.id)) return;
    if (++unscheduled_ == 1) first_unscheduled_ = record.id;
  }

  GameSource& start(const journal::Journal& journal, const rating::StandingsBuilder& done) override {
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
    fmt::print(out_, "{}{}: {} {} engines, {} games ({} done), {}, {}, concurrency {}\n", config_.tournament.name,
               config_.shard ? fmt::format(" shard {}/{}", config_.shard->index, config_.shard->count) : "",
               to_string(config_.tournament.type), config_.engines.size(), schedule.size(),
               schedule.size() - pending.size(), to_string(config_.variant), config_.time.describe(),
               config_.tournament.concurrency);
    std::fflush(out_);
    progress_.emplace(static_cast<int>(schedule.size()), done, config_.tournament.progress_interval,
                      config_.tournament.rating_interval, out_);
    source_.emplace(std::move(pending));
    return *source_;
  }

  int planned_games() const override { return static_cast<int>(schedule_.size()); }

  void game_done(const GameRecord& record, const rating::StandingsBuilder& all) override {
    progress_->game_done(record, all);
  }

  void stopped(const RunResult&) override { progress_->finish(*all_); }

 private:
  const Config& config_;
  std::FILE* out_;
  std::vector<GameSpec> schedule_;
  std::unordered_set<std::string> scheduled_ids_;
  std::size_t unscheduled_ = 0;
  std::string first_unscheduled_;  // in journal order
  std::optional<Progress> progress_;
  std::optional<ScheduleSource> source_;
  const rating::StandingsBuilder* all_ = nullptr;
};

}  // namespace

std::optional<int> report_interruption(const FlowResult& r, std::FILE* out) {
  if (!r.run.interrupted) return std::nullopt;
  if (r.run.limited) {
    fmt::print(out,
               "stopped after {} game{} as --max-games asked: {} games are in {}; run the same command again to "
               "play the rest\n",
               r.run.played, r.run.played == 1 ? "" : "s", r.games, r.journal.string());
    return 0;
  }
  fmt::print(out, "interrupted: {} games are in {}; run the same command again to resume\n", r.games,
             r.journal.string());
  return interrupted_exit_code(r.interrupt_signal);
}

Expected<int> play_schedule(const Config& config, const FlowOptions& options, std::FILE* out) {
  if (plays_by_rounds(config.tournament.type)) return play_rounds(config, options, out);
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
