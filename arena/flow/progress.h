// Live progress of a run: one rewritten line on a terminal, a plain line
// every N games otherwise, and the standings every `rating_interval` games.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "arena/rating/standings.h"
#include "referee/record/record.h"

namespace kalah::arena {

// The pace of a run in a unit that shows it: "3.7 games/s", "12.5 games/min" (under one game a second),
// "2.4 min/game" (under one game a minute); "-" before the first game.
std::string pace_text(int games, double seconds);

class Progress {
 public:
  // `total`: games of the whole run (-1: open-ended); `done` sums those already played.
  Progress(int total, const rating::StandingsBuilder& done, int progress_interval, int rating_interval, std::FILE* out);
  // `all` sums every finished game of the tournament, this one included.
  void game_done(const GameRecord& r, const rating::StandingsBuilder& all);
  void finish(const rating::StandingsBuilder& all);

 private:
  std::string line(const rating::StandingsBuilder& all) const;

  int total_;
  int done_ = 0;
  int printed_ = -1;  // done_ when the last plain line was printed
  int done_at_start_ = 0;
  int progress_interval_;
  int rating_interval_;
  std::FILE* out_;
  bool tty_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace kalah::arena
