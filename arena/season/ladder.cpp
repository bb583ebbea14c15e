#include "arena/season/ladder.h"

#include <fmt/core.h>

#include "arena/contest/entries.h"
#include "arena/flow/flow.h"
#include "arena/formats/adaptive/adaptive_format.h"
#include "arena/runner/ladder_source.h"
#include "arena/season/ladder_slurm.h"
#include "referee/system/untrusted_files.h"
#include "referee/system/utc_time.h"

namespace kalah::season {

Expected<arena::Config> ladder_config(const SeasonConfig& season) {
  arena::Config config = season.contest;
  Expected<arena::Entries> entries = arena::read_entries(config.entries_file());
  if (!entries) return Error{entries.error()};
  if (std::optional<std::string> error = arena::add_entrants(config, *entries)) return Error{*error};
  arena::TournamentConfig& t = config.tournament;
  t.name = kLadderName;
  t.type = formats::adaptive::kType;
  t.budget_games = 0;  // none: the ladder plays until the server stops
  t.target_width = 0;
  t.concurrency = season.ladder_concurrency;
  t.pgnout.clear();
  config.ranking = {};  // by Elo: the entrants meet unlike opponents unequally often (docs/RANKING.md)
  config.analysis.reset();
  return config;
}

namespace {

// The flow's listener: the ladder's source, and nothing printed (the server's output is its own).
class LadderListener : public arena::RunListener {
 public:
  LadderListener(const arena::Config& config, const std::function<void()>& game_recorded)
      : source_(config), game_recorded_(game_recorded) {}
  void resumed(const GameRecord& record) override { source_.add_journaled(record); }
  arena::GameSource& start(const journal::Journal&, const arena::TournamentDescription&,
                           const rating::StandingsBuilder&) override {
    return source_;
  }
  void game_done(const GameRecord&, const rating::StandingsBuilder&) override {
    if (game_recorded_) game_recorded_();
  }
  arena::LadderSource& source() { return source_; }

 private:
  arena::LadderSource source_;
  const std::function<void()>& game_recorded_;
};

// Whether an entrant plays: the sparring partners never meet each other.
bool has_entrant(const arena::Config& config) {
  for (int i = config.house_engines; i < static_cast<int>(config.engines.size()); ++i)
    if (config.plays(i)) return true;
  return false;
}

}  // namespace

Ladder::Ladder(const SeasonConfig& season, std::function<void()> game_recorded)
    : season_(season), game_recorded_(std::move(game_recorded)) {}

Ladder::~Ladder() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    if (source_) source_->close();
    if (runner_) runner_->interrupt();
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Ladder::start() {
  thread_ = std::thread([this] { loop(); });
}

void Ladder::entrants_changed() {
  {
    const std::lock_guard lock(mutex_);
    ++generation_;
    if (source_) source_->close();
  }
  wake_.notify_all();
}

void Ladder::loop() {
  // The jobs of a server killed with its jobs in flight: their games were never recorded, and are chosen again.
  if (season_.ladder_slurm) log(LadderSlurm(season_, "srun", "").cancel_leftovers("scancel"));
  std::uint64_t seen = 0;
  bool retry = false;  // the last run stopped because a game came back from Slurm without a record
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      const auto ready = [&] { return stopping_ || generation_ != seen; };
      if (retry)
        wake_.wait_for(lock, kSlurmRetry, ready);
      else
        wake_.wait(lock, ready);
      if (stopping_) return;
      seen = generation_;
    }
    retry = false;
    Expected<arena::Config> config = ladder_config(season_);
    if (!config) {
      log("ladder: cannot play: " + config.error());
      continue;
    }
    if (has_entrant(*config)) retry = !play(*config, seen) && season_.ladder_slurm;
  }
}

bool Ladder::play(const arena::Config& config, std::uint64_t generation) {
  LadderListener listener(config, game_recorded_);
  {
    const std::lock_guard lock(mutex_);
    if (stopping_ || generation_ != generation) return true;
    source_ = &listener.source();
  }
  // On Slurm, one per run: a run stopped (an interrupt, a failed job) kills its jobs, and the next run has its own.
  std::error_code ec;
  std::optional<LadderSlurm> slurm;
  if (season_.ladder_slurm) slurm.emplace(season_, "srun", std::filesystem::read_symlink("/proc/self/exe", ec));
  arena::FlowOptions options;
  options.watch_signals = false;  // the server's own
  options.runner_attached = [this, &slurm, &config](arena::Runner* runner) {
    if (runner && slurm) runner->set_play_elsewhere(slurm->elsewhere(config));
    const std::lock_guard lock(mutex_);
    runner_ = runner;
    if (runner_ && stopping_) runner_->interrupt();
  };
  int entrants = 0;
  for (int i = config.house_engines; i < static_cast<int>(config.engines.size()); ++i) entrants += config.plays(i);
  log(fmt::format("ladder: playing with {} entrant{} and {} sparring partner{}, {} game{} at a time{}", entrants,
                  entrants == 1 ? "" : "s", config.house_engines, config.house_engines == 1 ? "" : "s",
                  config.tournament.concurrency, config.tournament.concurrency == 1 ? "" : "s",
                  slurm ? ", each a Slurm job" : ""));
  Expected<arena::FlowResult> run = arena::run_tournament(config, listener, options);
  if (slurm && slurm->killed_any()) log(slurm->cancel_leftovers("scancel"));
  {
    const std::lock_guard lock(mutex_);
    source_ = nullptr;
  }
  if (!run) {
    log("ladder: stopped: " + run.error());
    return false;
  }
  log(fmt::format("ladder: {} game{} played, {} in {}", run->run.played, run->run.played == 1 ? "" : "s", run->games,
                  run->journal.string()));
  return true;
}

void Ladder::log(const std::string& line) const {
  (void)system::write_own_file(season_.dir / "season.log", system::utc_now_iso8601() + " " + line + "\n",
                               /*append=*/true);
}

}  // namespace kalah::season
