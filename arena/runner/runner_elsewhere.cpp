// Runner::work_elsewhere: a worker whose games are played by PlayElsewhere (runner.h), one at a time. No engine
// starts here, no live file is written (the plies are not seen here until the game is over) and no transcript.
#include "arena/runner/runner.h"

namespace kalah::arena {

void Runner::work_elsewhere() {
  while (!stop_) {
    std::optional<GameSpec> spec;
    {
      std::unique_lock lock(mutex_);
      while (!stop_ && !(spec = source_.next()) && source_.more_later()) wake_.wait(lock);
    }
    if (!spec || stop_) break;
    GameSettings settings = settings_for(config_, *spec, secret_, database_);
    Expected<GameRecord> record = elsewhere_.play(*spec);
    // Not played (the job never ran, died or said nothing readable): the run stops like one whose engine never
    // starts, and the game, not in the journal, is chosen again by the next run. The stop is raised before this
    // worker waits for the lock: the mutex is not fair, and a worker whose games come back at once could take it
    // again and again meanwhile, playing on after the failure (seen under ASan: 7 more games).
    const bool stopped_before = !record && stop_.exchange(true);
    std::lock_guard lock(mutex_);
    // A game cut short by an interrupt is not a result: it is played again on resume.
    if (record ? stop_.load() : stopped_before) break;
    if (!record) {
      if (result_.engine_failure.empty()) result_.engine_failure = "game " + spec->id + ": " + record.error();
      if (elsewhere_.abort) elsewhere_.abort();
      written_changed_.notify_one();
      break;
    }
    if (!record_played(*spec, std::move(*record), std::move(settings), Transcript{})) break;
  }
  wake_.notify_all();
}

}  // namespace kalah::arena
