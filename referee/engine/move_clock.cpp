#include "referee/engine/move_clock.h"

#include <sched.h>

#include <algorithm>

#include <fmt/core.h>

namespace kalah {
namespace {

using SteadyClock = std::chrono::steady_clock;

}  // namespace

double MoveClock::wall_ms() const {
  return std::chrono::duration<double, std::milli>(SteadyClock::now() - started_).count();
}

void WallClock::start(std::chrono::milliseconds allowed) {
  allowed_ = allowed;
  started_ = SteadyClock::now();
  wall_deadline_ = started_ + allowed;
}

std::optional<Fault> WallClock::over_time() {
  return Fault{Termination::Time, fmt::format("no move within {} ms", allowed_.count())};
}

void CpuClock::begin_game() {
  last_ns_ = meter_.used_ns().value_or(0);
  begun_ = true;
}

void CpuClock::start(std::chrono::milliseconds allowed) {
  allowed_ = allowed;
  started_ = SteadyClock::now();
  const std::int64_t now = std::max(last_ns_, meter_.used_ns().value_or(0));
  // From the previous answer, or the game's beginning: CPU time spent between moves (pondering, or after
  // `newgame` told the engine the variant and its seed) is never free.
  start_ns_ = begun_ ? last_ns_ : now;
  last_ns_ = now;
  begun_ = true;
  wall_deadline_ = started_ + kWallFactor * allowed + margin_;
}

double CpuClock::cpu_ms() {
  if (std::optional<std::int64_t> now = meter_.used_ns()) last_ns_ = std::max(last_ns_, *now);
  return static_cast<double>(last_ns_ - start_ns_) / 1e6;
}

double CpuClock::charged_ms() {
  // The CPU time first: its reading may take a scan of /proc, and the wall time read after it is the one the
  // reply records beside the charge.
  const double cpu = cpu_ms();
  return std::max(cpu, wall_ms() / kWallFactor);
}

MoveClock::Deadline CpuClock::next_check() {
  // CPU time grows at most `cpus_` times as fast as the wall clock: before this the engine cannot be over.
  const double left_ms = static_cast<double>(allowed_.count()) - cpu_ms();
  const auto step = std::max<SteadyClock::duration>(
      kMinCheck, std::chrono::duration_cast<SteadyClock::duration>(
                     std::chrono::duration<double, std::milli>(std::max(0.0, left_ms) / cpus_)));
  return std::min(wall_deadline_, SteadyClock::now() + step);
}

std::optional<Fault> CpuClock::over_time() {
  const double used = cpu_ms();
  if (used > static_cast<double>(allowed_.count()))
    return Fault{Termination::Time, fmt::format("used {} ms of CPU time without a move, allowed {} ms (CPU clock)",
                                                static_cast<long long>(used), allowed_.count())};
  if (SteadyClock::now() >= wall_deadline_)
    return Fault{Termination::Time,
                 fmt::format("no move within {} ms of wall-clock time, the wall-clock safety limit of the CPU clock "
                             "({} x the {} ms allowed + the {} ms margin); it used {} ms of CPU time",
                             std::chrono::duration_cast<std::chrono::milliseconds>(wall_deadline_ - started_).count(),
                             kWallFactor, allowed_.count(), margin_.count(), static_cast<long long>(used))};
  return std::nullopt;
}

int usable_cpus(const std::vector<int>& cpus) {
  if (!cpus.empty()) return static_cast<int>(cpus.size());
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}

}  // namespace kalah
