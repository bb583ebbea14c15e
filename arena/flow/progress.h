// Live progress of a run: one rewritten line on a terminal, a plain line
// every N games otherwise, and the standings every `rating_interval` games.
#pragma once

#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "referee/record/record.h"

namespace kalah::arena {

class Progress {
 public:
  Progress(int total, std::vector<std::string> engines, const std::vector<GameRecord>& done, int progress_interval,
           int rating_interval, std::FILE* out);
  // `all` holds every finished game of the tournament, this one included.
  void game_done(const GameRecord& r, const std::vector<GameRecord>& all);
  void finish();

 private:
  std::string line() const;

  int total_;
  int done_ = 0;
  int printed_ = -1;  // done_ when the last plain line was printed
  int done_at_start_ = 0;
  std::vector<std::string> engines_;
  std::map<std::string, double> points_;
  int progress_interval_;
  int rating_interval_;
  std::FILE* out_;
  bool tty_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace kalah::arena
