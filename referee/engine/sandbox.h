// Running an untrusted engine (docs/SECURITY.md): the bubblewrap command line around it, a private
// working directory, its own unprivileged uid when the arena is root, and the kernel limits.
//
// Inside the sandbox an engine sees /usr, /etc and the /bin, /lib links read-only, a fresh /proc
// and /dev, an empty /tmp of its own, its `dir` read-only at its own absolute path, its executable
// read-only, and a private writable working directory (also $HOME). It has no network (--unshare-all),
// its own PID namespace, a new session (it cannot reach the arena's terminal) and dies with the arena
// (--die-with-parent). It sees neither the results folder nor other engines' folders.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "referee/engine/control_groups.h"
#include "referee/engine/cpu_time.h"
#include "referee/engine/engine_spec.h"
#include "referee/process/engine_process.h"
#include "referee/rules/expected.h"

namespace kalah {

// First uid of the range sandboxed engines run under when the arena is root: one uid per live
// engine process, so that RLIMIT_NPROC counts that engine's processes only.
inline constexpr unsigned kSandboxFirstUid = 61000;
inline constexpr unsigned kSandboxUids = 2000;
// Owner of the built contest entries (root only): no engine runs under it, so entries are readable by
// every sandboxed engine and writable by none, and nothing in them belongs to root.
inline constexpr unsigned kEntriesOwnerUid = kSandboxFirstUid - 1;
// max_output_kb of a sandboxed engine whose config gives none: its stderr is never unbounded.
inline constexpr long long kSandboxOutputKb = 1024;

// Why sandboxed engines cannot run on this machine (bubblewrap missing, user namespaces disabled),
// with how to fix it; nullopt when a test sandbox starts. Probed once, then remembered.
std::optional<std::string> sandbox_unavailable();

// Why `limits` cannot be enforced for `spec` here, or nullopt: max_processes needs the kernel's pids
// controller, or else a sandboxed engine of an arena running as root (each engine then gets its own
// uid for RLIMIT_NPROC); without either the limit would count every process of the arena's user.
std::optional<std::string> limits_problem(const EngineSpec& spec);

// Why keep_sandbox cannot be given with `spec`'s limits: with max_file_mb a sandbox's working folder
// is memory capped at that size (docs/SECURITY.md), gone with the sandbox, so there is nothing to keep.
std::optional<std::string> keep_sandbox_problem(const EngineSpec& spec);

// Why memory_mb cannot be enforced as `spec` asks: the default (memory_enforcement = "cgroup") needs
// the kernel's memory controller; without it the config must choose "rlimit" explicitly.
std::optional<std::string> memory_limit_problem(const EngineSpec& spec);

// Why the sandbox's users (other uids than the arena's, when it is root) cannot reach `spec`'s
// executable or `dir` — a folder on the way that others cannot traverse (a checkout under /root, mode
// 0700), an executable others cannot run — with the path and the fix; nullopt when they can, or when
// the engine is not sandboxed or the arena is not root (the sandbox then runs as the arena's user).
std::optional<std::string> sandbox_reach_problem(const EngineSpec& spec);

// Why a sandboxed engine's explicit `dir` must not be given: "/" (the whole machine) or a folder that
// holds `results_dir` (the engine would read the results of its own games); nullopt when fine.
std::optional<std::string> sandbox_dir_problem(const EngineSpec& spec, const std::filesystem::path& results_dir);

// How the engine inside a sandbox ended, from how bubblewrap ended: bwrap exits with 128 + N when
// the engine was killed by signal N, so a kernel limit's signal (SIGXFSZ) can still be named.
process::ExitInfo engine_exit(SandboxMode mode, const process::ExitInfo& exit);

// Why a CPU clock falls back to the scheduler statistics here: no group with CPU accounting can be made
// (the reason), or KALAH_CPU_CLOCK_SCHEDSTAT=1 is set in the arena's environment (a switch for tests of
// the fallback, docs/PROCESSES.md); nullopt when engines get such a group.
std::optional<std::string> cpu_group_unavailable();
// Whether KALAH_CPU_CLOCK_SCHEDSTAT=1 is set: the process trees are read even where a group could be made.
bool cpu_tree_forced();

// One started sandbox: the spawn to run, and what to clean up when the process is gone.
class Sandbox {
 public:
  // Builds the spawn for `spec` (with its limits); for SandboxMode::None, the plain spawn. With
  // `cpu_accounting` (a CPU clock) the engine gets a group whose CPU time can be read, where one can be made.
  static Expected<Sandbox> prepare(const EngineSpec& spec, const std::filesystem::path& stderr_file,
                                   bool cpu_accounting = false);
  Sandbox(Sandbox&&) noexcept;
  Sandbox& operator=(Sandbox&&) noexcept;
  ~Sandbox();  // removes the private directory (unless keep_sandbox) and returns the uid

  const process::SpawnSpec& spawn() const { return spawn_; }
  const std::filesystem::path& private_dir() const { return private_dir_; }
  // Whether the kernel's memory controller killed a process of this engine (memory_mb, cgroup).
  bool killed_for_memory() const { return groups_ && groups_->killed_for_memory(); }
  // What reads the CPU time of the engine whose leader is `pid`: its group's counter, or else the
  // scheduler statistics of the process tree (docs/PROCESSES.md, "CPU time").
  CpuMeter cpu_meter(int pid) const;

 private:
  Sandbox() = default;
  void release();
  process::SpawnSpec spawn_;
  std::filesystem::path private_dir_;  // empty without a sandbox
  bool keep_ = false;
  std::optional<unsigned> uid_;
  std::optional<EngineGroups> groups_;  // memory_mb (cgroup enforcement), pinning, max_processes
};

}  // namespace kalah
