// The kernel's control groups around one engine (docs/SECURITY.md, "Limits"): groups of its own, nested
// under the arena's, that bound what the engine's processes can take however they try —
//   memory: everything they hold (private, shared and memfd memory, what they write to a tmpfs); when
//           the engine passes the limit the kernel kills it, and the group's oom_kill counter says so,
//           so that the forfeit can say `memory` rather than `crash`;
//   cpuset: the CPUs of its game slot (`pin`), which sched_setaffinity inside cannot widen;
//   pids:   how many processes and threads it may have at once (`max_processes`), counted per group,
//           not per uid as RLIMIT_NPROC does (zombies of a reused uid, other processes of the uid);
//   cpuacct: no limit, the CPU time all its processes used, for the CPU clock (referee/engine/cpu_time.h);
//           in v2 every group has it (`cpu.stat`), no controller needed;
//   cpu:    on the CPU clock too, where the controller is offered: the default weight, the same for every
//           engine, so that an engine's many processes do not take more than its share from the other's.
// cgroup v1 (one hierarchy per controller, as on the CI machines) and v2 (one unified hierarchy, the
// controllers enabled in the arena's group) are both supported; what the machine offers is probed once
// per controller.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "referee/rules/expected.h"

namespace kalah {

enum class Controller { Memory, Cpuset, Pids, Cpuacct, Cpu };

// Why no group of `controller` can be made here (no such controller, not allowed: usually not root),
// with what to do; nullopt when a test group could be created, limited and removed. Probed once each.
std::optional<std::string> controller_unavailable(Controller controller);
inline std::optional<std::string> memory_controller_unavailable() { return controller_unavailable(Controller::Memory); }

// What to bound; a zero or empty field asks for no group of that controller.
struct GroupLimits {
  unsigned long long memory_bytes = 0;  // swap included where the kernel counts it
  std::vector<int> cpus;                // the CPUs it may run on
  unsigned long long max_tasks = 0;     // processes and threads at once
  bool cpu_accounting = false;          // a group whose CPU time can be read (the CPU clock)
  bool empty() const { return memory_bytes == 0 && cpus.empty() && max_tasks == 0 && !cpu_accounting; }
};

class EngineGroups {
 public:
  static Expected<EngineGroups> create(const GroupLimits& limits);
  EngineGroups(EngineGroups&& other) noexcept;
  EngineGroups& operator=(EngineGroups&& other) noexcept;
  EngineGroups(const EngineGroups&) = delete;
  EngineGroups& operator=(const EngineGroups&) = delete;
  ~EngineGroups();  // kills what is left in the groups and removes them

  // The files a child writes "0" to, before exec, to enter its groups (one per v1 hierarchy; one in v2).
  const std::vector<std::string>& procs_files() const { return procs_; }
  // Whether the kernel killed a process of the group for passing the memory limit.
  bool killed_for_memory() const;
  // The accounting file of the group's CPU time (group_cpu_ns() reads it); empty without cpu_accounting.
  const std::string& cpu_usage_file() const { return cpu_usage_; }

 private:
  EngineGroups() = default;
  void remove();
  std::vector<std::string> dirs_;
  std::vector<std::string> procs_;
  std::string events_;     // v1 memory.oom_control, v2 memory.events: an "oom_kill N" line
  std::string cpu_usage_;  // v1 cpuacct.usage, v2 cpu.stat
};

}  // namespace kalah
