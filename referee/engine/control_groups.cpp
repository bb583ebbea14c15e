#include "referee/engine/control_groups.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>

#include <fmt/core.h>

#include "referee/engine/cpu_time.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;

const char* name_of(Controller c) {
  switch (c) {
    case Controller::Memory: return "memory";
    case Controller::Cpuset: return "cpuset";
    case Controller::Pids: return "pids";
    case Controller::Cpuacct: return "cpuacct";
    case Controller::Cpu: return "cpu";
  }
  return "?";
}

// Where the groups of one controller are made: under the arena's own group of that hierarchy.
struct Place {
  bool v2 = false;
  std::string parent;
};

std::string read_small(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

bool write_small(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

bool has_word(const std::string& list, std::string_view word, char separator) {
  std::istringstream words(list);
  for (std::string w; std::getline(words, w, separator);)
    if (trimmed(w) == word) return true;
  return false;
}

// The v1 line of /proc/self/cgroup that names the controller (its hierarchy mounted at
// /sys/fs/cgroup/<name>), or else the v2 `0::` line when the arena's group hands the controller to
// the groups below it (its cgroup.subtree_control names it).
Expected<Place> find_place(Controller c) {
  const std::string name = name_of(c);
  std::istringstream lines(read_small("/proc/self/cgroup"));
  std::string v2_path;
  for (std::string line; std::getline(lines, line);) {
    const std::size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1), path = line.substr(second + 1);
    if (has_word(controllers, name, ',') && fs::exists("/sys/fs/cgroup/" + name + "/cgroup.procs"))
      return Place{false, "/sys/fs/cgroup/" + name + (path == "/" ? std::string() : path)};
    if (line.rfind("0::", 0) == 0) v2_path = path;
  }
  if (!v2_path.empty() && fs::exists("/sys/fs/cgroup/cgroup.controllers")) {
    const std::string parent = "/sys/fs/cgroup" + (v2_path == "/" ? std::string() : v2_path);
    // Every v2 group but the root counts its CPU time in cpu.stat, whatever controllers it has.
    if (c == Controller::Cpuacct) return Place{true, parent};
    if (has_word(read_small(parent + "/cgroup.subtree_control"), name, ' ')) return Place{true, parent};
    return Error{
        fmt::format("the arena's control group {} does not hand the `{}` controller to groups below it (cgroup v2: "
                    "`{}` is not in its cgroup.subtree_control; start the arena in a delegated group, e.g. "
                    "`systemd-run --scope -p Delegate=yes ...`)",
                    parent, name, name)};
  }
  return Error{fmt::format(
      "the kernel offers no `{}` controller here (no cgroup v1 hierarchy at /sys/fs/cgroup/{}, no cgroup v2 "
      "hierarchy at /sys/fs/cgroup)",
      name, name)};
}

const Expected<Place>& place(Controller c) {
  static const std::array<Expected<Place>, 5> found = {find_place(Controller::Memory), find_place(Controller::Cpuset),
                                                       find_place(Controller::Pids), find_place(Controller::Cpuacct),
                                                       find_place(Controller::Cpu)};
  return found[static_cast<std::size_t>(c)];
}

// Groups that could not be removed yet (a member still exiting when its engine was let go): tried
// again whenever a group is made or removed, never waited for during a run. At the process's exit
// they are waited for, a little: no empty group of ours outlives the arena.
class StaleGroups {
 public:
  // How long the exit waits for the last members of stale groups to finish exiting.
  static constexpr int kExitTries = 200;
  static constexpr std::chrono::milliseconds kExitPause{5};

  ~StaleGroups() {
    std::lock_guard lock(mutex);
    for (int i = 0; i < kExitTries && !remove_empty(); ++i) std::this_thread::sleep_for(kExitPause);
  }
  // Removes what can be removed; whether none is left.
  bool remove_empty() {
    std::erase_if(dirs, [](const std::string& dir) { return ::rmdir(dir.c_str()) == 0 || errno == ENOENT; });
    return dirs.empty();
  }

  std::mutex mutex;
  std::vector<std::string> dirs;
};

StaleGroups& stale() {
  static StaleGroups groups;
  return groups;
}

void remove_stale_groups() {
  std::lock_guard lock(stale().mutex);
  stale().remove_empty();
}

// The pid in a group name of ours, "kalah-<pid>-<n>"; nullopt for any other name.
std::optional<pid_t> arena_of(const std::string& name) {
  if (name.rfind("kalah-", 0) != 0) return std::nullopt;
  const std::size_t dash = name.find('-', 6);
  if (dash == std::string::npos || dash == 6 || dash + 1 == name.size()) return std::nullopt;
  pid_t pid = 0;
  for (std::size_t i = 6; i < dash; ++i) {
    if (name[i] < '0' || name[i] > '9' || pid > 400'000'000) return std::nullopt;
    pid = pid * 10 + (name[i] - '0');
  }
  for (std::size_t i = dash + 1; i < name.size(); ++i)
    if (name[i] < '0' || name[i] > '9') return std::nullopt;
  return pid;
}

// Once per process, before its first group: the empty groups that an arena which no longer runs left beside
// ours (one killed outright, which no exit handler outlives) are removed. A group that still holds a process
// is not empty, and rmdir leaves it alone.
void sweep_groups_of_gone_arenas() {
  static std::once_flag once;
  std::call_once(once, [] {
    std::vector<std::string> parents;
    for (Controller c :
         {Controller::Memory, Controller::Cpuset, Controller::Pids, Controller::Cpuacct, Controller::Cpu})
      if (const Expected<Place>& p = place(c);
          p && std::find(parents.begin(), parents.end(), p->parent) == parents.end())
        parents.push_back(p->parent);
    for (const std::string& parent : parents) {
      std::error_code ec;
      for (fs::directory_iterator it(parent, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const std::optional<pid_t> arena = arena_of(name);
        if (!arena || *arena == ::getpid() || *arena <= 0) continue;
        if (::kill(*arena, 0) == 0 || errno != ESRCH) continue;  // that arena still runs (or is not ours to ask)
        ::rmdir(it->path().c_str());
      }
    }
  });
}

std::string cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (int cpu : cpus) out += (out.empty() ? "" : ",") + std::to_string(cpu);
  return out;
}

}  // namespace

Expected<EngineGroups> EngineGroups::create(const GroupLimits& limits) {
  sweep_groups_of_gone_arenas();
  remove_stale_groups();
  static std::atomic<unsigned> counter{0};
  const std::string name = fmt::format("kalah-{}-{}", ::getpid(), counter++);
  EngineGroups g;
  // The group of `c` (made on first use; in v2 all controllers share one), or why it cannot be.
  auto group_of = [&](Controller c) -> Expected<std::string> {
    const Expected<Place>& p = place(c);
    if (!p) return Error{p.error()};
    const std::string dir = p->parent + "/" + name;
    if (std::find(g.dirs_.begin(), g.dirs_.end(), dir) != g.dirs_.end()) return dir;
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
      return Error{fmt::format("cannot create the {} group {}: {}", name_of(c), dir, std::strerror(errno))};
    g.dirs_.push_back(dir);
    g.procs_.push_back(dir + "/cgroup.procs");
    return dir;
  };
  // Writes `value` to the group's `file`, or says why not.
  auto set = [&](Controller c, const std::string& dir, const std::string& file,
                 const std::string& value) -> std::optional<std::string> {
    if (write_small(dir + "/" + file, value)) return std::nullopt;
    return fmt::format("cannot set {} of the {} group {} to {}: {}", file, name_of(c), dir, value,
                       std::strerror(errno));
  };
  auto fail = [&](std::string why) -> Expected<EngineGroups> {
    g.remove();
    return Error{std::move(why)};
  };

  if (limits.memory_bytes > 0) {
    Expected<std::string> dir = group_of(Controller::Memory);
    if (!dir) return fail(dir.error());
    const std::string limit = std::to_string(limits.memory_bytes);
    const bool v2 = place(Controller::Memory)->v2;
    if (auto why = set(Controller::Memory, *dir, v2 ? "memory.max" : "memory.limit_in_bytes", limit)) return fail(*why);
    // Swap counted too where the kernel accounts it (the file is absent otherwise: nothing to bound).
    if (v2)
      write_small(*dir + "/memory.swap.max", "0");
    else
      write_small(*dir + "/memory.memsw.limit_in_bytes", limit);
    g.events_ = *dir + (v2 ? "/memory.events" : "/memory.oom_control");
  }
  if (!limits.cpus.empty()) {
    Expected<std::string> dir = group_of(Controller::Cpuset);
    if (!dir) return fail(dir.error());
    const Place& p = *place(Controller::Cpuset);
    // A v1 cpuset starts with no memory nodes and no CPUs, and takes no process until it has both.
    if (!p.v2)
      if (auto why = set(Controller::Cpuset, *dir, "cpuset.mems", trimmed(read_small(p.parent + "/cpuset.mems"))))
        return fail(*why);
    if (auto why = set(Controller::Cpuset, *dir, "cpuset.cpus", cpu_list(limits.cpus))) return fail(*why);
  }
  if (limits.max_tasks > 0) {
    Expected<std::string> dir = group_of(Controller::Pids);
    if (!dir) return fail(dir.error());
    if (auto why = set(Controller::Pids, *dir, "pids.max", std::to_string(limits.max_tasks))) return fail(*why);
  }
  if (limits.cpu_accounting) {
    Expected<std::string> dir = group_of(Controller::Cpuacct);
    if (!dir) return fail(dir.error());
    g.cpu_usage_ = *dir + (place(Controller::Cpuacct)->v2 ? "/cpu.stat" : "/cpuacct.usage");
    if (!group_cpu_ns(g.cpu_usage_)) return fail(fmt::format("cannot read the CPU time of the group {}", *dir));
    // A group of the scheduler's `cpu` controller too, where there is one: siblings share the CPUs by equal
    // weights, so that on the CPU clock an engine not on move (pondering with many processes) takes at most
    // an even share from the one on move, whatever number of processes it has.
    if (place(Controller::Cpu)) {
      Expected<std::string> weighted = group_of(Controller::Cpu);
      if (!weighted) return fail(weighted.error());
    }
  }
  return g;
}

EngineGroups::EngineGroups(EngineGroups&& other) noexcept { *this = std::move(other); }

EngineGroups& EngineGroups::operator=(EngineGroups&& other) noexcept {
  if (this == &other) return *this;
  remove();
  dirs_ = std::exchange(other.dirs_, {});
  procs_ = std::exchange(other.procs_, {});
  events_ = std::exchange(other.events_, {});
  cpu_usage_ = std::exchange(other.cpu_usage_, {});
  return *this;
}

EngineGroups::~EngineGroups() { remove(); }

bool EngineGroups::killed_for_memory() const {
  if (events_.empty()) return false;
  std::istringstream lines(read_small(events_));
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("oom_kill ", 0) == 0) return std::stoll(line.substr(9)) > 0;
  return false;
}

void EngineGroups::remove() {
  // Whatever is still in a group (nothing, once the engine is reaped) is killed. A group whose last
  // member is still exiting cannot be removed yet: it is kept for the next attempt, not slept on.
  for (const std::string& dir : dirs_) {
    std::istringstream pids(read_small(dir + "/cgroup.procs"));
    for (std::string pid; std::getline(pids, pid);)
      if (!pid.empty()) ::kill(static_cast<pid_t>(std::stol(pid)), SIGKILL);
  }
  for (const std::string& dir : dirs_) {
    if (::rmdir(dir.c_str()) != 0 && errno == EBUSY) {
      std::lock_guard lock(stale().mutex);
      stale().dirs.push_back(dir);
    }
  }
  const bool had_groups = !dirs_.empty();
  dirs_.clear();
  procs_.clear();
  events_.clear();
  cpu_usage_.clear();
  if (had_groups) remove_stale_groups();
}

std::optional<std::string> controller_unavailable(Controller controller) {
  static std::array<std::once_flag, 5> once;
  static std::array<std::optional<std::string>, 5> problem;
  const auto i = static_cast<std::size_t>(controller);
  std::call_once(once[i], [&] {
    GroupLimits test;
    switch (controller) {
      case Controller::Memory: test.memory_bytes = 64ull << 20; break;
      case Controller::Pids: test.max_tasks = 64; break;
      case Controller::Cpuacct:
      case Controller::Cpu: test.cpu_accounting = true; break;
      case Controller::Cpuset: {
        cpu_set_t mine;
        CPU_ZERO(&mine);
        ::sched_getaffinity(0, sizeof mine, &mine);
        for (int cpu = 0; cpu < CPU_SETSIZE && test.cpus.empty(); ++cpu)
          if (CPU_ISSET(cpu, &mine)) test.cpus.push_back(cpu);
        break;
      }
    }
    Expected<EngineGroups> probe = EngineGroups::create(test);
    if (!probe) problem[i] = probe.error();
  });
  return problem[i];
}

}  // namespace kalah
