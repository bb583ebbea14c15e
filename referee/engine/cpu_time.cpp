#include "referee/engine/cpu_time.h"

#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <charconv>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kalah {
namespace {

// Up to `size` bytes of a small /proc or /sys file; empty when it cannot be read.
std::string_view read_into(const char* path, char* buffer, std::size_t size) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  const ssize_t n = ::read(fd, buffer, size);
  ::close(fd);
  return n > 0 ? std::string_view(buffer, static_cast<std::size_t>(n)) : std::string_view();
}

std::optional<std::int64_t> leading_number(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  return value;
}

// The numeric entries of a /proc folder (pids, or the tids of /proc/<pid>/task).
template <class F>
void each_number(const char* dir, F&& f) {
  DIR* d = ::opendir(dir);
  if (!d) return;
  while (const dirent* e = ::readdir(d)) {
    int n = 0;
    const char* end = e->d_name + std::strlen(e->d_name);
    if (auto [p, ec] = std::from_chars(e->d_name, end, n); ec == std::errc() && p == end) f(n);
  }
  ::closedir(d);
}

// The parent pid from /proc/<pid>/stat: the fourth field, after the command in parentheses (which may
// itself hold spaces and parentheses, hence the last ')').
std::optional<int> parent_of(int pid) {
  char path[64], buffer[512];
  std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
  const std::string_view stat = read_into(path, buffer, sizeof buffer);
  const std::size_t paren = stat.rfind(')');
  if (paren == std::string_view::npos || paren + 4 >= stat.size()) return std::nullopt;
  const std::string_view rest = stat.substr(paren + 4);  // ") S " then the parent pid
  const std::optional<std::int64_t> parent = leading_number(rest);
  if (!parent) return std::nullopt;
  return static_cast<int>(*parent);
}

// The CPU time of every thread of one process, in ns, from their scheduler statistics: only the threads
// alive now.
std::int64_t threads_cpu_ns(int pid) {
  char dir[64];
  std::snprintf(dir, sizeof dir, "/proc/%d/task", pid);
  std::int64_t total = 0;
  each_number(dir, [&](int tid) {
    char path[96], buffer[128];
    std::snprintf(path, sizeof path, "/proc/%d/task/%d/schedstat", pid, tid);
    if (std::optional<std::int64_t> ns = leading_number(read_into(path, buffer, sizeof buffer))) total += *ns;
  });
  return total;
}

// The CPU time of one process in ns: its CPU-time clock, which the kernel keeps for the whole thread group,
// the threads that have exited included (a bot that starts a search thread a move, as the bundled ones do,
// would otherwise be charged nothing for a thread gone before the reply was read). The threads' scheduler
// statistics where the clock cannot be read.
std::int64_t process_cpu_ns(int pid) {
  clockid_t clock{};
  timespec t{};
  if (::clock_getcpuclockid(pid, &clock) == 0 && ::clock_gettime(clock, &t) == 0)
    return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
  return threads_cpu_ns(pid);
}

}  // namespace

std::optional<std::int64_t> process_tree_cpu_ns(int pid) {
  char leader[64];
  std::snprintf(leader, sizeof leader, "/proc/%d/task", pid);
  if (::access(leader, F_OK) != 0) return std::nullopt;
  // The kernel here keeps no list of a process's children (/proc/<pid>/task/<tid>/children needs
  // CONFIG_PROC_CHILDREN), so one pass over /proc finds every parent.
  std::unordered_map<int, std::vector<int>> children;
  each_number("/proc", [&](int p) {
    if (p == pid) return;
    if (std::optional<int> parent = parent_of(p)) children[*parent].push_back(p);
  });
  std::int64_t total = 0;
  std::vector<int> pending{pid};
  while (!pending.empty()) {
    const int p = pending.back();
    pending.pop_back();
    total += process_cpu_ns(p);
    if (auto found = children.find(p); found != children.end())
      pending.insert(pending.end(), found->second.begin(), found->second.end());
  }
  return total;
}

std::optional<std::int64_t> group_cpu_ns(const std::string& file) {
  char buffer[1024];
  std::string_view text = read_into(file.c_str(), buffer, sizeof buffer);
  if (text.empty()) return std::nullopt;
  if (!file.ends_with("cpu.stat")) return leading_number(text);
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(at, end - at);
    if (line.starts_with("usage_usec "))
      if (std::optional<std::int64_t> us = leading_number(line.substr(11))) return *us * 1000;
    at = end + 1;
  }
  return std::nullopt;
}

std::string CpuMeter::describe() const {
  if (!file_.empty()) return "cgroup (" + file_ + ")";
  return "schedstat (process tree of pid " + std::to_string(pid_) + ")";
}

}  // namespace kalah
