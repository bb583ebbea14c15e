#include "referee/engine/memory_group.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <utility>
#include <vector>

#include <fmt/core.h>

namespace kalah {
namespace {

namespace fs = std::filesystem;

struct Hierarchy {
  bool v2 = false;
  std::string parent;  // the arena's own memory group, where ours are made
};

std::string read_small(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool write_small(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

// Where the arena's memory group is: the v1 `memory` line of /proc/self/cgroup, or the v2 `0::` line
// when the unified hierarchy offers the memory controller.
Expected<Hierarchy> find_hierarchy() {
  std::istringstream lines(read_small("/proc/self/cgroup"));
  std::string v2_path;
  for (std::string line; std::getline(lines, line);) {
    const std::size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1), path = line.substr(second + 1);
    std::istringstream names(controllers);
    for (std::string name; std::getline(names, name, ',');)
      if (name == "memory" && fs::exists("/sys/fs/cgroup/memory/memory.limit_in_bytes"))
        return Hierarchy{false, "/sys/fs/cgroup/memory" + path};
    if (line.rfind("0::", 0) == 0) v2_path = path;
  }
  if (!v2_path.empty() && read_small("/sys/fs/cgroup/cgroup.controllers").find("memory") != std::string::npos)
    return Hierarchy{true, "/sys/fs/cgroup" + (v2_path == "/" ? std::string() : v2_path)};
  return Error{
      "the kernel offers no memory controller here (no cgroup v1 `memory` hierarchy, no cgroup v2 with "
      "`memory` in /sys/fs/cgroup/cgroup.controllers)"};
}

const Expected<Hierarchy>& hierarchy() {
  static const Expected<Hierarchy> found = find_hierarchy();
  return found;
}

}  // namespace

namespace {

// Groups that could not be removed yet (a member still exiting when its engine was let go): tried
// again whenever a group is made or removed, never waited for.
std::mutex& stale_mutex() {
  static std::mutex m;
  return m;
}
std::vector<std::string>& stale_groups() {
  static std::vector<std::string> groups;
  return groups;
}

void remove_stale_groups() {
  std::lock_guard lock(stale_mutex());
  auto& groups = stale_groups();
  std::erase_if(groups, [](const std::string& dir) { return ::rmdir(dir.c_str()) == 0 || errno == ENOENT; });
}

}  // namespace

Expected<MemoryGroup> MemoryGroup::create(unsigned long long limit_bytes) {
  const Expected<Hierarchy>& h = hierarchy();
  if (!h) return Error{h.error()};
  remove_stale_groups();
  static std::atomic<unsigned> counter{0};
  MemoryGroup g;
  g.dir_ = h->parent + fmt::format("/kalah-{}-{}", ::getpid(), counter++);
  if (::mkdir(g.dir_.c_str(), 0755) != 0 && errno != EEXIST)
    return Error{fmt::format("cannot create the memory group {}: {}", g.dir_, std::strerror(errno))};
  g.procs_ = g.dir_ + "/cgroup.procs";
  const std::string limit = std::to_string(limit_bytes);
  bool ok = false;
  if (h->v2) {
    g.events_ = g.dir_ + "/memory.events";
    ok = write_small(g.dir_ + "/memory.max", limit);
    write_small(g.dir_ + "/memory.swap.max", "0");  // absent without swap accounting: then nothing to bound
  } else {
    g.events_ = g.dir_ + "/memory.oom_control";
    ok = write_small(g.dir_ + "/memory.limit_in_bytes", limit);
    write_small(g.dir_ + "/memory.memsw.limit_in_bytes", limit);  // swap counted too, where accounted
  }
  if (!ok) {
    const std::string why = std::strerror(errno);
    g.remove();
    return Error{fmt::format("cannot limit the memory group {}: {}", g.dir_, why)};
  }
  return g;
}

MemoryGroup::MemoryGroup(MemoryGroup&& other) noexcept { *this = std::move(other); }

MemoryGroup& MemoryGroup::operator=(MemoryGroup&& other) noexcept {
  if (this == &other) return *this;
  remove();
  dir_ = std::exchange(other.dir_, {});
  procs_ = std::exchange(other.procs_, {});
  events_ = std::exchange(other.events_, {});
  return *this;
}

MemoryGroup::~MemoryGroup() { remove(); }

bool MemoryGroup::killed_for_memory() const {
  if (events_.empty()) return false;
  std::istringstream lines(read_small(events_));
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("oom_kill ", 0) == 0) return std::stoll(line.substr(9)) > 0;
  return false;
}

void MemoryGroup::remove() {
  if (dir_.empty()) return;
  // Whatever is still in the group (nothing, once the engine is reaped) is killed. A group whose last
  // member is still exiting cannot be removed yet: it is kept for the next attempt, not slept on.
  std::istringstream pids(read_small(procs_));
  for (std::string pid; std::getline(pids, pid);)
    if (!pid.empty()) ::kill(static_cast<pid_t>(std::stol(pid)), SIGKILL);
  if (::rmdir(dir_.c_str()) != 0 && errno == EBUSY) {
    std::lock_guard lock(stale_mutex());
    stale_groups().push_back(dir_);
  }
  dir_.clear();
  remove_stale_groups();
}

std::optional<std::string> memory_controller_unavailable() {
  static const std::optional<std::string> problem = []() -> std::optional<std::string> {
    Expected<MemoryGroup> probe = MemoryGroup::create(64ull << 20);
    if (!probe) return probe.error();
    return std::nullopt;
  }();
  return problem;
}

}  // namespace kalah
