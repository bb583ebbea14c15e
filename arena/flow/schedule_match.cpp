// play_schedule: a round robin or gauntlet from its schedule.
#include <optional>
#include <unordered_set>

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
  ScheduleListener(const Config& config, std::FILE* out) : config_(config), out_(out) {}

  GameSource& start(const std::vector<GameRecord>& done) override {
    const std::vector<GameSpec> schedule = make_schedule(config_);
    std::unordered_set<std::string> done_ids;
    for (const GameRecord& r : done) done_ids.insert(r.id);
    std::vector<GameSpec> pending;
    for (const GameSpec& g : schedule)
      if (!done_ids.contains(g.id)) pending.push_back(g);
    std::vector<std::string> names;
    for (const EngineSpec& e : config_.engines) names.push_back(e.name);
    fmt::print(out_, "{}: {} {} engines, {} games ({} done), {}, {}, concurrency {}\n", config_.tournament.name,
               to_string(config_.tournament.type), names.size(), schedule.size(), schedule.size() - pending.size(),
               to_string(config_.variant), config_.time.describe(), config_.tournament.concurrency);
    std::fflush(out_);
    progress_.emplace(static_cast<int>(schedule.size()), names, done, config_.tournament.progress_interval,
                      config_.tournament.rating_interval, out_);
    source_.emplace(std::move(pending));
    return *source_;
  }

  void game_done(const GameRecord& record, const std::vector<GameRecord>& all) override {
    progress_->game_done(record, all);
  }

  void stopped(const RunResult&) override { progress_->finish(); }

 private:
  const Config& config_;
  std::FILE* out_;
  std::optional<Progress> progress_;
  std::optional<ScheduleSource> source_;
};

}  // namespace

Expected<int> play_schedule(const Config& config, const FlowOptions& options, std::FILE* out) {
  ScheduleListener listener(config, out);
  Expected<FlowResult> played = run_tournament(config, listener, options);
  if (!played) return Error{played.error()};
  const FlowResult& r = *played;
  if (r.run.interrupted) {
    fmt::print(out, "interrupted: {} games are in {}; run the same command again to resume\n", r.games.size(),
               r.journal.string());
    return kInterrupted;
  }
  fmt::print(out, "{}\n", report::format_standings_table(rating::compute_standings(r.games, r.engines)));
  fmt::print(out, "results: {}/ ({})\n", r.dir.string(), fmt::join(r.reports, ", "));
  return 0;
}

}  // namespace kalah::arena
