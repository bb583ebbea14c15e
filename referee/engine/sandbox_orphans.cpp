#include "referee/engine/sandbox_orphans.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "referee/engine/sandbox.h"

namespace kalah {

namespace {

// The value of `key` ("Uid:", "PPid:") in a /proc/PID/status text: its first number.
std::optional<long> status_field(std::string_view status, std::string_view key) {
  const std::size_t at = status.find(std::string("\n") + std::string(key));
  if (at == std::string_view::npos) return std::nullopt;
  const std::string rest(status.substr(at + 1 + key.size(), 32));
  char* end = nullptr;
  const long value = std::strtol(rest.c_str(), &end, 10);
  if (end == rest.c_str()) return std::nullopt;
  return value;
}

// /proc/PID/status, at most 8 KiB of it (the fields read come first); empty when the process is gone.
std::string read_status(int proc_fd, const char* pid) {
  const int fd = ::openat(proc_fd, (std::string(pid) + "/status").c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return {};
  std::string text(8192, '\0');
  const ssize_t n = ::read(fd, text.data(), text.size());
  ::close(fd);
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return text;
}

}  // namespace

std::vector<pid_t> kill_orphaned_sandboxes() {
  std::vector<pid_t> killed;
  if (::geteuid() != 0 || ::getpid() == 1) return killed;
  const std::unique_ptr<DIR, int (*)(DIR*)> proc(::opendir("/proc"), ::closedir);
  if (!proc) return killed;
  const int proc_fd = ::dirfd(proc.get());
  // Bounded: one look at each process there is.
  while (const dirent* entry = ::readdir(proc.get())) {
    const std::string_view name(entry->d_name);
    if (name.empty() || name.find_first_not_of("0123456789") != std::string_view::npos) continue;
    const std::string status = read_status(proc_fd, entry->d_name);
    const std::optional<long> uid = status_field(status, "Uid:");
    const std::optional<long> parent = status_field(status, "PPid:");
    if (!uid || !parent || *parent != 1) continue;
    if (*uid < static_cast<long>(kSandboxFirstUid) || *uid >= static_cast<long>(kSandboxFirstUid + kSandboxUids))
      continue;
    const pid_t pid = static_cast<pid_t>(std::atol(entry->d_name));
    if (::kill(pid, SIGKILL) == 0) killed.push_back(pid);
  }
  return killed;
}

}  // namespace kalah
