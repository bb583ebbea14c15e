// How long a move took, as the game's clock counts it (docs/PROCESSES.md, "CPU time"): the one place
// that knows what a wall clock and a CPU clock charge, when the wait for a reply must look again, and
// which time forfeit a move that is over its time gets. The players wait on it; nothing else asks
// which kind of clock is running.
#pragma once

#include <chrono>
#include <memory>
#include <optional>

#include "referee/engine/cpu_time.h"
#include "referee/game/player.h"
#include "referee/game/time_control.h"

namespace kalah {

class MoveClock {
 public:
  using Deadline = std::chrono::steady_clock::time_point;
  virtual ~MoveClock() = default;

  // A new game begins (before `newgame` is written): what the engine does from here on is the game's.
  virtual void begin_game() {}
  // Starts timing a move that may be charged `allowed`; called just before the request is written.
  virtual void start(std::chrono::milliseconds allowed) = 0;
  // The deadline of the next wait for the reply: when the clock must be looked at again.
  virtual Deadline next_check() = 0;
  // After a wait timed out at next_check(): the `time` fault when the move is over its time, nullopt when
  // it may go on (wait again until next_check()).
  virtual std::optional<Fault> over_time() = 0;
  // The time the move is charged so far, in ms (read once the reply has come).
  virtual double charged_ms() = 0;
  // The wall time since start(), in ms.
  double wall_ms() const;
  // The latest the request may still be written.
  Deadline wall_deadline() const { return wall_deadline_; }

 protected:
  Deadline started_{};
  Deadline wall_deadline_{};
};

// The wall clock: the time from the request to the reply.
class WallClock final : public MoveClock {
 public:
  void start(std::chrono::milliseconds allowed) override;
  Deadline next_check() override { return wall_deadline_; }
  std::optional<Fault> over_time() override;
  double charged_ms() override { return wall_ms(); }

 private:
  std::chrono::milliseconds allowed_{};
};

// The CPU clock: the CPU time the engine's processes used since its previous answer (or, for its first move,
// since the game began: what it did after `newgame` and while the opponent moved is its own move's), read from
// `meter`, but at least the move's wall time divided by kWallFactor, so that an engine that sleeps or waits
// still runs its clock down and no game lasts more than kWallFactor times its clocks (docs/PROTOCOL.md,
// "Clocks"). The wait for the reply looks at it no earlier than the engine could pass its time using all
// `cpus` CPUs it may run on (half the time left on two CPUs, and so on, at least every kMinCheck), so that an
// engine that uses CPU past its time is stopped within a few ms of it, one that sleeps at the wall-clock limit
// (kWallFactor times the allowance, plus the margin).
class CpuClock final : public MoveClock {
 public:
  static constexpr std::chrono::milliseconds kMinCheck{2};
  static constexpr int kWallFactor = 3;
  CpuClock(CpuMeter meter, int cpus, std::chrono::milliseconds margin)
      : meter_(std::move(meter)), cpus_(cpus < 1 ? 1 : cpus), margin_(margin) {}
  void begin_game() override;
  void start(std::chrono::milliseconds allowed) override;
  Deadline next_check() override;
  std::optional<Fault> over_time() override;
  double charged_ms() override;
  // The CPU time of the move so far, without the wall-time floor of charged_ms().
  double cpu_ms();
  const CpuMeter& meter() const { return meter_; }

 private:
  CpuMeter meter_;
  int cpus_ = 1;
  std::chrono::milliseconds margin_{};
  std::chrono::milliseconds allowed_{};
  bool begun_ = false;  // last_ns_ is a reading of this game's: the next move is charged from it
  std::int64_t start_ns_ = 0;
  std::int64_t last_ns_ = 0;  // the last reading (kept when the engine is gone and cannot be read)
};

// The number of CPUs a process started with `cpus` (empty: the arena's own affinity) may run on.
int usable_cpus(const std::vector<int>& cpus);

}  // namespace kalah
