// Engines that never start (docs/PROTOCOL.md, "An engine that never starts"): a run whose engine has
// failed to start in its first games, every time for the same reason, and never once started, cannot
// give a result — every game it plays is a start-up forfeit. Read from the games' records as they are
// journalled; the runner stops the run with the message this gives.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "arena/schedule/schedule.h"
#include "referee/record/record.h"

namespace kalah::arena {

// An engine whose first kStartFailures start-ups in a run all failed with one reason stops the run.
inline constexpr int kStartFailures = 3;

class StartWatch {
 public:
  // A contest's entrant is never a reason to stop: it passed its checks when it entered, so it forfeits
  // (and the reports say so).
  explicit StartWatch(const Config& config);

  // After each journalled game: why the run must stop, or nullopt.
  std::optional<std::string> add(const GameSpec& spec, const GameRecord& record);

  struct NeverStarted {
    std::string engine;
    int failures = 0;
    std::string reason;  // the first start-up failure's
  };
  // The engines that failed to start in this run and never started (a contest's entrants among them).
  std::vector<NeverStarted> never_started() const;

 private:
  struct Health {
    bool started = false;
    int failures = 0;    // start-up failures before it ever started
    bool same = true;    // every one of them with `reason`
    std::string reason;  // the first one's
  };
  const Config& config_;
  std::vector<Health> health_;
};

}  // namespace kalah::arena
