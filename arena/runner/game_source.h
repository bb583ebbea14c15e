// Where a runner's games come from: pull-style, one game at a time.
#pragma once

#include <optional>
#include <vector>

#include "arena/schedule/schedule.h"
#include "referee/record/record.h"

namespace kalah::arena {

class GameSource {
 public:
  virtual ~GameSource() = default;
  // The next game to play; nullopt when there is nothing to hand out now.
  virtual std::optional<GameSpec> next() = 0;
  // After next() said nullopt: whether games still in flight may make more (a Swiss round is paired
  // when the previous one has finished). The runner then waits for a game to finish and asks again;
  // a source says true only while a game it handed out is unfinished.
  virtual bool more_later() const { return false; }
  // A game handed out by next() has finished and is written to the journal (in the journal's order; on
  // the disk a moment later, before anyone outside the runner hears of it).
  virtual void finished(const GameSpec& /*spec*/, const GameRecord& /*record*/) {}
  // A game finished() told of is on the disk and about to be reported (in the journal's order): what a
  // source shows of its state (an SPRT's status) counts it from now on.
  virtual void reported(const GameSpec& /*spec*/, const GameRecord& /*record*/) {}
  // Games this source will hand out in all, or -1 when open-ended (SPRT).
  virtual int total() const = 0;
};

// A fixed list: the games of a schedule not yet in the journal.
class ScheduleSource : public GameSource {
 public:
  explicit ScheduleSource(std::vector<GameSpec> games) : games_(std::move(games)) {}
  std::optional<GameSpec> next() override {
    if (next_ == games_.size()) return std::nullopt;
    return games_[next_++];
  }
  int total() const override { return static_cast<int>(games_.size()); }

 private:
  std::vector<GameSpec> games_;
  size_t next_ = 0;
};

}  // namespace kalah::arena
