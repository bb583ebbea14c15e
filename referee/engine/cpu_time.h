// The CPU time an engine's processes have used, for the CPU clock (docs/PROCESSES.md, "CPU time"): the
// kernel's accounting of the engine's control group where one is made (cgroup v1 `cpuacct.usage`, in ns;
// v2 `cpu.stat` `usage_usec`), otherwise the CPU time of the processes descended
// from the engine's leader (their CPU-time clocks, in ns; `/proc/<pid>/task/<tid>/schedstat` where one
// cannot be read). Never the 10 ms ticks of `/proc/<pid>/stat`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace kalah {

// The CPU time in ns that process `pid` and its living descendants (by parent pid, across sessions and
// process groups) have used: the sum of their processes' CPU-time clocks (clock_getcpuclockid), which
// count every thread a process has had, in ns. Processes that have exited no longer count: the fallback
// undercharges an engine whose helper processes exit during a move. nullopt when `pid` is gone.
std::optional<std::int64_t> process_tree_cpu_ns(int pid);

// The CPU time in ns of a control group, from its accounting file: v1 `cpuacct.usage` (one number, ns)
// or v2 `cpu.stat` (the `usage_usec` line, µs). nullopt when the file cannot be read.
std::optional<std::int64_t> group_cpu_ns(const std::string& file);

// Reads one engine's CPU time from whichever source it has.
class CpuMeter {
 public:
  // A group's accounting file (EngineGroups::cpu_usage_file()).
  static CpuMeter of_group(std::string file) { return CpuMeter(std::move(file), 0); }
  // The process tree under `pid` (the engine's leader).
  static CpuMeter of_process_tree(int pid) { return CpuMeter({}, pid); }

  // The CPU time used so far, in ns; nullopt when it cannot be read (the engine is gone).
  std::optional<std::int64_t> used_ns() const {
    return file_.empty() ? process_tree_cpu_ns(pid_) : group_cpu_ns(file_);
  }
  bool from_group() const { return !file_.empty(); }
  // "cgroup (.../cpuacct.usage)" or "schedstat (process tree of pid N)".
  std::string describe() const;

 private:
  CpuMeter(std::string file, int pid) : file_(std::move(file)), pid_(pid) {}
  std::string file_;
  int pid_ = 0;
};

}  // namespace kalah
