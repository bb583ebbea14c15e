// The kernel's memory controller around one engine (docs/SECURITY.md, "Limits"): a control group of its
// own, nested under the arena's, whose limit bounds everything the engine's processes hold — private,
// shared and memfd memory, and what they write to a tmpfs (/tmp, /dev/shm in the sandbox). When the
// engine passes it the kernel kills it, and the group's oom_kill counter says so, so that the forfeit
// can say `memory` rather than `crash`. cgroup v1 (a `memory` hierarchy) and v2 (a unified hierarchy
// with the memory controller) are both supported; which one the machine has is found once.
#pragma once

#include <optional>
#include <string>

#include "referee/rules/expected.h"

namespace kalah {

// Why no memory group can be made here (no controller, not allowed), with what to do; nullopt when a
// test group could be created, limited and removed. Probed once, then remembered.
std::optional<std::string> memory_controller_unavailable();

class MemoryGroup {
 public:
  // A new group limited to `limit_bytes` (swap included where the kernel counts it).
  static Expected<MemoryGroup> create(unsigned long long limit_bytes);
  MemoryGroup(MemoryGroup&& other) noexcept;
  MemoryGroup& operator=(MemoryGroup&& other) noexcept;
  MemoryGroup(const MemoryGroup&) = delete;
  MemoryGroup& operator=(const MemoryGroup&) = delete;
  ~MemoryGroup();  // removes the group (its processes are gone by then)

  // The file a child writes "0" to, before exec, to enter the group.
  const std::string& procs_file() const { return procs_; }
  // Whether the kernel killed a process of the group for passing the limit.
  bool killed_for_memory() const;

 private:
  MemoryGroup() = default;
  void remove();
  std::string dir_;
  std::string procs_;
  std::string events_;  // v1 memory.oom_control, v2 memory.events: an "oom_kill N" line
};

}  // namespace kalah
