#include "referee/engine/sandbox.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string_view>

#include <fmt/core.h>
#include <fmt/format.h>

#include "referee/engine/sandbox_orphans.h"
#include "referee/system/executable.h"
#include "referee/system/path_walk.h"
#include "referee/system/untrusted_files.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;

bool is_root() { return ::geteuid() == 0; }

// The uids of live sandboxed engines (root only): each engine process gets one no other live engine has.
class UidPool {
 public:
  std::optional<unsigned> take() {
    std::lock_guard lock(mutex_);
    // Once, before the first: what a killed arena's sandboxes left (their uids may come round to us).
    if (!swept_) {
      swept_ = true;
      const std::vector<pid_t> killed = kill_orphaned_sandboxes();
      if (!killed.empty())
        fmt::print(stderr, "sandbox: killed {} sandboxed process(es) a killed arena left behind (pid {})\n",
                   killed.size(), fmt::join(killed, ", "));
    }
    for (unsigned i = 0; i < kSandboxUids; ++i) {
      const unsigned uid = kSandboxFirstUid + (next_ + i) % kSandboxUids;
      if (used_.insert(uid).second) {
        next_ = (next_ + i + 1) % kSandboxUids;  // round the range: a freed uid rests before reuse
        return uid;
      }
    }
    return std::nullopt;
  }
  void give_back(unsigned uid) {
    std::lock_guard lock(mutex_);
    used_.erase(uid);
  }

 private:
  std::mutex mutex_;
  std::set<unsigned> used_;
  unsigned next_ = 0;
  bool swept_ = false;
};

UidPool& uids() {
  static UidPool pool;
  return pool;
}

// /bin, /lib ... as the host has them: a link into /usr (merged /usr, Debian 12) or a directory.
void add_system_dirs(std::vector<std::string>& a) {
  a.insert(a.end(), {"--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"});
  for (const char* name : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    std::error_code ec;
    if (fs::is_symlink(name, ec)) {
      a.insert(a.end(), {"--symlink", fs::read_symlink(name, ec).string(), name});
    } else if (fs::is_directory(name, ec)) {
      a.insert(a.end(), {"--ro-bind", name, name});
    }
  }
}

bool inside(const fs::path& path, const fs::path& dir) {
  if (dir.empty()) return false;
  const fs::path rel = path.lexically_normal().lexically_relative(dir.lexically_normal());
  return !rel.empty() && *rel.begin() != "..";
}

// bubblewrap's arguments around the engine's command line: its own namespaces, the system folders read-only,
// private /tmp, /dev/shm and working folder `work`, the engine's folder and executable bound read-only, and a
// clean environment.
std::vector<std::string> bwrap_arguments(const EngineSpec& spec, const std::string& work) {
  // With max_file_mb every place the engine can write holds no more than one file may: /tmp, /dev/shm
  // and its working folder are memory of that size (counted against memory_mb too); / and /dev are
  // read-only (docs/SECURITY.md). A build's folder stays on disk: its files are copied out afterwards
  // (its size is watched, docs/CONTEST.md).
  std::vector<std::string> size;
  if (spec.limits.max_file_mb > 0)
    size = {"--size", std::to_string(static_cast<unsigned long long>(spec.limits.max_file_mb) << 20)};
  auto tmpfs = [&](std::vector<std::string>& a, const std::string& where) {
    a.insert(a.end(), size.begin(), size.end());
    a.insert(a.end(), {"--tmpfs", where});
  };
  std::vector<std::string> a = {"--unshare-all", "--die-with-parent", "--new-session", "--clearenv"};
  add_system_dirs(a);
  a.insert(a.end(), {"--proc", "/proc", "--dev", "/dev"});
  tmpfs(a, "/dev/shm");
  tmpfs(a, "/tmp");
  // After the private /tmp, so that paths under /tmp stay visible.
  if (spec.limits.max_file_mb > 0 && !spec.private_dir_on_disk) {
    a.insert(a.end(), {"--perms", "0700"});
    tmpfs(a, work);
  } else {
    a.insert(a.end(), {"--bind", work, work});
  }
  if (!spec.dir.empty()) a.insert(a.end(), {"--ro-bind", spec.dir.string(), spec.dir.string()});
  if (!inside(spec.cmd, "/usr") && !inside(spec.cmd, spec.dir)) {
    a.insert(a.end(), {"--ro-bind", spec.cmd.string(), spec.cmd.string()});
  } else if (const fs::path real = system::walk_path(spec.cmd).target;
             !inside(real, "/usr") && (spec.dir.empty() || !inside(real, system::walk_path(spec.dir).target))) {
    // A link in /usr or in `dir` that leads elsewhere: where it leads is bound too, at its own place.
    a.insert(a.end(), {"--ro-bind", real.string(), real.string()});
  }
  a.insert(a.end(), {"--remount-ro", "/dev", "--remount-ro", "/"});
  a.insert(a.end(), {"--chdir", work, "--setenv", "HOME", work, "--setenv", "TMPDIR", "/tmp", "--setenv", "PATH",
                     "/usr/local/bin:/usr/bin:/bin", "--setenv", "LANG", "C.UTF-8", "--", spec.cmd.string()});
  a.insert(a.end(), spec.args.begin(), spec.args.end());
  return a;
}

}  // namespace

std::optional<std::string> sandbox_unavailable() {
  static const std::optional<std::string> problem = []() -> std::optional<std::string> {
    Expected<fs::path> bwrap = system::find_executable("bwrap", system::path_variable(), fs::current_path());
    if (!bwrap) return "sandbox = \"bwrap\" needs bubblewrap, which is not installed (apt-get install bubblewrap)";
    // A sandbox like the engines' (as the uid they get), running `true`.
    process::SpawnSpec probe;
    probe.command = bwrap->string();
    probe.args = {"--unshare-all",
                  "--die-with-parent",
                  "--new-session",
                  "--ro-bind",
                  "/",
                  "/",
                  "--proc",
                  "/proc",
                  "--dev",
                  "/dev",
                  "--",
                  "true"};
    std::optional<unsigned> uid;
    if (is_root()) {
      uid = uids().take();
      if (uid) probe.run_as = process::RunAs{*uid, *uid};
    }
    auto spawned = process::EngineProcess::spawn(probe);
    std::optional<std::string> failure;
    if (auto* error = std::get_if<process::SpawnError>(&spawned)) {
      failure = error->message;
    } else {
      auto& child = std::get<std::unique_ptr<process::EngineProcess>>(spawned);
      const auto exit = child->wait_for_exit(process::Clock::now() + std::chrono::seconds(10));
      if (!exit || exit->signaled() || exit->value != 0)
        failure = exit ? exit->describe() : std::string("did not finish in 10 s");
    }
    if (uid) uids().give_back(*uid);
    if (!failure) return std::nullopt;
    return fmt::format(
        "sandbox = \"bwrap\": a test sandbox did not start ({}{}); bubblewrap needs user namespaces "
        "(a container may forbid them: allow them, or run the arena on the host; "
        "check /proc/sys/user/max_user_namespaces > 0)",
        failure->substr(0, 200), is_root() ? fmt::format(", as uid {}", kSandboxFirstUid) : "");
  }();
  return problem;
}

process::ExitInfo engine_exit(SandboxMode mode, const process::ExitInfo& exit) {
  if (mode != SandboxMode::Bwrap || exit.kind != process::ExitInfo::Kind::Exited || exit.value <= 128 ||
      exit.value > 128 + 64)
    return exit;
  process::ExitInfo inner = exit;
  inner.kind = process::ExitInfo::Kind::Signaled;
  inner.value = exit.value - 128;
  return inner;
}

std::optional<std::string> memory_limit_problem(const EngineSpec& spec) {
  if (spec.limits.memory_mb > 0 && spec.limits.memory_enforcement == MemoryEnforcement::Cgroup)
    if (auto problem = memory_controller_unavailable())
      return "memory_mb is enforced by the kernel's memory controller (memory_enforcement = \"cgroup\", the "
             "default), which cannot be used here: " +
             *problem +
             (::geteuid() == 0 ? std::string() : std::string(" (creating memory groups usually needs root)")) +
             ". Run where it can, or choose the weaker per-process bound explicitly: memory_enforcement = "
             "\"rlimit\" (RLIMIT_DATA: heap and private mappings only, not shared memory or /tmp)";
  return std::nullopt;
}

std::optional<std::string> limits_problem(const EngineSpec& spec) {
  if (spec.limits.max_processes > 0 && !(spec.sandbox == SandboxMode::Bwrap && is_root()) &&
      controller_unavailable(Controller::Pids))
    return "max_processes needs the kernel's pids controller, which cannot be used here (" +
           *controller_unavailable(Controller::Pids) +
           "), or else a sandboxed engine (sandbox = \"bwrap\") of an arena running as root, where each engine gets "
           "a uid of its own for RLIMIT_NPROC; otherwise RLIMIT_NPROC would count every process of your user. Remove "
           "the key, or run the arena as root";
  return std::nullopt;
}

std::optional<std::string> keep_sandbox_problem(const EngineSpec& spec) {
  if (spec.sandbox == SandboxMode::Bwrap && spec.keep_sandbox && spec.limits.max_file_mb > 0 &&
      !spec.private_dir_on_disk)
    return "keep_sandbox = true cannot be kept with max_file_mb: the working folder of a sandbox with max_file_mb is "
           "memory capped at that size (docs/SECURITY.md), gone when the engine ends. Drop max_file_mb while you "
           "inspect what the engine writes, or drop keep_sandbox";
  return std::nullopt;
}

namespace {

std::string octal_mode(mode_t mode) { return fmt::format("{:04o}", mode & 07777); }

// `path` as a message names it: with where it leads when a link is on the way.
std::string named(const fs::path& path, const system::PathWalk& walk) {
  if (walk.links.empty()) return path.string();
  return fmt::format("{} (a link to {})", path.string(), walk.target.string());
}

// The first folder on the way to a path (links followed, docs/SECURITY.md) that other users cannot
// traverse.
std::optional<std::string> blocked_on_the_way(const system::PathWalk& walk) {
  for (const fs::path& folder : walk.folders) {
    struct stat st {};
    if (::stat(folder.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & S_IXOTH) == 0)
      return fmt::format("{} (mode {}) cannot be entered by other users", folder.string(), octal_mode(st.st_mode));
  }
  if (walk.too_many_links)
    return fmt::format("more than {} symbolic links on the way (a loop?)", system::kMaxLinksOnAWalk);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> sandbox_reach_problem(const EngineSpec& spec) {
  if (spec.sandbox != SandboxMode::Bwrap || !is_root()) return std::nullopt;
  const std::string why =
      "; a sandboxed engine runs under a uid of its own (docs/SECURITY.md). Move the engine to a folder "
      "others can enter (such as /opt/bots or /srv/contest), or open the way (chmod o+x on each folder, "
      "chmod o+rx on the engine's own)";
  const system::PathWalk cmd = system::walk_path(spec.cmd);
  const system::PathWalk dir = system::walk_path(spec.dir);
  for (const auto& [target, walk] : {std::pair{spec.cmd, &cmd}, std::pair{spec.dir, &dir}}) {
    if (target.empty() || (inside(target, "/usr") && inside(walk->target, "/usr"))) continue;
    if (auto blocked = blocked_on_the_way(*walk))
      return fmt::format("{} is out of the sandbox's reach: {}{}", named(target, *walk), *blocked, why);
  }
  struct stat st {};
  if (!spec.dir.empty() && ::stat(spec.dir.c_str(), &st) == 0 &&
      (st.st_mode & (S_IROTH | S_IXOTH)) != (S_IROTH | S_IXOTH))
    return fmt::format("{} (mode {}) cannot be read by other users{}", named(spec.dir, dir), octal_mode(st.st_mode),
                       why);
  if (!inside(cmd.target, "/usr") && ::stat(spec.cmd.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
      (st.st_mode & S_IXOTH) == 0)
    return fmt::format("{} (mode {}) cannot be run by other users{}", named(spec.cmd, cmd), octal_mode(st.st_mode),
                       why);
  return std::nullopt;
}

std::optional<std::string> sandbox_dir_problem(const EngineSpec& spec, const fs::path& results_dir) {
  if (spec.sandbox != SandboxMode::Bwrap || spec.dir.empty()) return std::nullopt;
  // Judged where the paths lead: a link to "/" is the whole machine as well.
  const fs::path dir = system::walk_path(spec.dir).target;
  if (dir == dir.root_path())
    return "dir = \"/\" would show a sandboxed engine the whole machine; give it the folder of its own files";
  const fs::path results = fs::absolute(results_dir).lexically_normal();
  const system::PathWalk results_walk = system::walk_path(results);
  if (results_walk.target == dir || inside(results_walk.target, dir))
    return fmt::format(
        "dir = \"{}\" holds the results folder {}: a sandboxed engine would read the results of its games; "
        "write the results elsewhere (output, --out) or give the engine a folder of its own",
        spec.dir.string(), named(results, results_walk));
  return std::nullopt;
}

bool cpu_tree_forced() {
  const char* forced = std::getenv("KALAH_CPU_CLOCK_SCHEDSTAT");
  return forced && std::string_view(forced) == "1";
}

std::optional<std::string> cpu_group_unavailable() {
  if (cpu_tree_forced()) return "KALAH_CPU_CLOCK_SCHEDSTAT=1 is set";
  return controller_unavailable(Controller::Cpuacct);
}

CpuMeter Sandbox::cpu_meter(int pid) const {
  if (groups_ && !groups_->cpu_usage_file().empty()) return CpuMeter::of_group(groups_->cpu_usage_file());
  return CpuMeter::of_process_tree(pid);
}

Expected<Sandbox> Sandbox::prepare(const EngineSpec& spec, const fs::path& stderr_file, bool cpu_accounting) {
  Sandbox box;
  process::SpawnSpec& s = box.spawn_;
  s.stderr_log_path = stderr_file.string();
  s.cpus = spec.cpus;
  // A bwrap helper process and the sandbox's init (PID namespace) are in its groups and under its uid too.
  const int sandbox_processes = spec.sandbox == SandboxMode::Bwrap ? 2 : 0;
  const unsigned long long memory_bytes = static_cast<unsigned long long>(spec.limits.memory_mb) << 20;
  GroupLimits groups;
  if (spec.limits.memory_mb > 0 && spec.limits.memory_enforcement == MemoryEnforcement::Cgroup)
    groups.memory_bytes = memory_bytes;
  else
    s.limits.data_bytes = memory_bytes;
  // Pinned through a cpuset where the kernel offers one, so that the engine cannot widen its CPUs; the
  // affinity alone (which it can) otherwise.
  if (!spec.cpus.empty() && !controller_unavailable(Controller::Cpuset)) groups.cpus = spec.cpus;
  if (spec.limits.max_processes > 0) {
    const auto processes = static_cast<unsigned long long>(spec.limits.max_processes + sandbox_processes);
    if (!controller_unavailable(Controller::Pids))
      groups.max_tasks = processes;
    else
      s.limits.processes = processes;
  }
  const std::optional<std::string> no_cpu_group = cpu_accounting ? cpu_group_unavailable() : std::nullopt;
  groups.cpu_accounting = cpu_accounting && !no_cpu_group;
  // Without a group the CPU clock reads the engine's process tree, and a process that leaves the tree (a
  // double fork re-parents it to the arena) would use CPU time charged to nobody. The sandbox's PID namespace
  // keeps every process of the engine in its tree; an engine outside it is refused (docs/PROCESSES.md, "CPU
  // time"). KALAH_CPU_CLOCK_SCHEDSTAT=1 is the tests' switch to the tree on purpose, and said by its name.
  if (cpu_accounting && no_cpu_group && spec.sandbox == SandboxMode::None && !cpu_tree_forced())
    return Error{fmt::format(
        "the CPU clock cannot charge this engine for every process it starts: no control group with CPU accounting "
        "can be made here ({}), and outside the sandbox a process that leaves the engine's process tree (a double "
        "fork) would use CPU time charged to nobody; run the arena as root (or in a delegated cgroup v2 group), "
        "sandbox the engine (sandbox = \"bwrap\"), or play on the wall clock",
        *no_cpu_group)};
  if (!groups.empty()) {
    Expected<EngineGroups> made = EngineGroups::create(groups);
    if (!made) return Error{(groups.memory_bytes > 0 ? "memory_mb: " : "") + made.error()};
    box.groups_.emplace(std::move(made).value());
    s.cgroup_procs = box.groups_->procs_files();
  }
  s.limits.file_bytes = static_cast<unsigned long long>(spec.limits.max_file_mb) << 20;
  // The arena writes the log when the engine's own writes are limited: the log of earlier games must not
  // count against max_file_mb, and max_output_kb is counted as it arrives; and when a transcript keeps
  // the tail of what the engine writes.
  s.relay_stderr = spec.limits.max_output_kb > 0 || (spec.limits.max_file_mb > 0 && !stderr_file.empty()) ||
                   spec.stderr_tail_bytes > 0;
  s.stderr_tail_bytes = spec.stderr_tail_bytes;
  s.max_stderr_bytes = static_cast<unsigned long long>(spec.limits.max_output_kb) << 10;
  // What the arena writes on the engine's behalf counts against its file limit: the log as a whole.
  s.max_log_bytes = static_cast<unsigned long long>(spec.limits.max_file_mb) << 20;
  if (spec.sandbox == SandboxMode::None) {
    s.command = spec.cmd.string();
    s.args = spec.args;
    s.working_dir = spec.dir.string();
    return box;
  }

  if (auto problem = sandbox_unavailable()) return Error{*problem};
  if (auto problem = keep_sandbox_problem(spec)) return Error{*problem};
  static std::atomic<unsigned> counter{0};
  box.private_dir_ = fs::temp_directory_path() / fmt::format("kalah-sandbox-{}-{}", ::getpid(), counter++);
  box.keep_ = spec.keep_sandbox;
  system::remove_tree(box.private_dir_);
  if (::mkdir(box.private_dir_.c_str(), 0700) != 0)
    return Error{fmt::format("cannot create the sandbox directory {}", box.private_dir_.string())};
  if (is_root()) {
    box.uid_ = uids().take();
    if (!box.uid_) return Error{"no free sandbox uid: more than 2000 sandboxed engines at once"};
    s.run_as = process::RunAs{*box.uid_, *box.uid_};
    if (::chown(box.private_dir_.c_str(), *box.uid_, *box.uid_) != 0)
      return Error{fmt::format("cannot hand {} to uid {}", box.private_dir_.string(), *box.uid_)};
  }
  const std::string work = box.private_dir_.string();
  std::vector<std::string> a = bwrap_arguments(spec, work);
  Expected<fs::path> bwrap = system::find_executable("bwrap", system::path_variable(), fs::current_path());
  s.command = bwrap ? bwrap->string() : "bwrap";
  s.args = std::move(a);
  // bubblewrap's own processes (its init is pid 1 in the sandbox, its /proc/1/environ readable by the
  // engine) get nothing of the organiser's environment either: --clearenv only clears the engine's.
  s.environment = std::vector<std::string>{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"};
  return box;
}

Sandbox::Sandbox(Sandbox&& other) noexcept { *this = std::move(other); }

Sandbox& Sandbox::operator=(Sandbox&& other) noexcept {
  if (this == &other) return *this;
  release();
  spawn_ = std::move(other.spawn_);
  private_dir_ = std::exchange(other.private_dir_, {});
  groups_ = std::move(other.groups_);
  other.groups_.reset();
  keep_ = other.keep_;
  uid_ = std::exchange(other.uid_, std::nullopt);
  return *this;
}

Sandbox::~Sandbox() { release(); }

void Sandbox::release() {
  if (!private_dir_.empty() && !keep_) system::remove_tree(private_dir_);
  private_dir_.clear();
  groups_.reset();  // the groups go before the uid can be handed to another engine
  if (uid_) uids().give_back(*uid_);
  uid_.reset();
}

}  // namespace kalah
