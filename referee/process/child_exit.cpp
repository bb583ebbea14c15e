// EngineProcess's end of the child (engine_process_impl.h): the watch on the leader's exit, the kill of its
// process group, the reaping of the leader, its group and its children outside the group, and the polite
// shutdown (`quit`, end of input, then the kill).
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "referee/process/engine_process_impl.h"

namespace kalah::process {

// The pidfd becomes readable when the leader exits. The wait stays armed between calls and its
// handler runs inside whichever call is running the loop (read_line, wait_for_exit, ...). When the
// leader dies, the rest of its group is killed at once, so a grandchild holding the stdout pipe open
// cannot turn a crash into a hang: the read sees Eof.
void EngineProcess::Impl::arm_exit_watch() {
  pidfd.async_wait(asio::posix::descriptor_base::wait_read, [this](const error_code& ec) {
    if (ec == asio::error::operation_aborted || exit) return;
    if (leader_state() != Leader::Running) {
      reap(false);
    } else if (!ec) {
      arm_exit_watch();
    }
  });
}

// Non-blocking and non-reaping (WNOWAIT): an exited leader stays a zombie, so its pid, which is also
// the process group id, cannot be reused until reap() has killed the group.
EngineProcess::Impl::Leader EngineProcess::Impl::leader_state() const {
  siginfo_t info;
  std::memset(&info, 0, sizeof info);
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    // ECHILD: somebody else reaped it (the arena must not: no waitpid(-1), no SIGCHLD = SIG_IGN).
    return Leader::Gone;
  }
  return info.si_pid != 0 ? Leader::Exited : Leader::Running;
}

// Kill the whole group, then reap the leader, then the group's orphans. The order matters: while the
// leader is unreaped its pid cannot be reused, so killpg cannot hit a stranger's group (pitfall 5).
void EngineProcess::Impl::reap(bool killed_by_arena) {
  if (exit || pid <= 0) return;
  int status = 0;
  bool reaped = false;
  if (leader_state() != Leader::Gone) {  // if it is gone, its pid may belong to a stranger by now
    if (!outside_recorded && leader_state() == Leader::Running) record_children_outside_group();
    ::killpg(pid, SIGKILL);
    while (true) {
      if (::waitpid(pid, &status, 0) == pid) {
        reaped = true;
        break;
      }
      if (errno != EINTR) break;
    }
    // With PR_SET_CHILD_SUBREAPER (become_subreaper) the group's surviving members were re-parented
    // to the arena when the leader died; they have just been SIGKILLed, so this ends promptly.
    // Without it they went to init and waitpid reports ECHILD at once.
    while (true) {
      if (::waitpid(-pid, nullptr, 0) > 0) continue;
      if (errno == EINTR) continue;
      break;
    }
  }
  reap_children_outside_group();
  exit = reaped ? ExitInfo::from_wait_status(status) : ExitInfo{ExitInfo::Kind::Exited, -1};
  exit->killed_by_arena = killed_by_arena;
  error_code ignored;
  pidfd.close(ignored);
}

pid_t EngineProcess::Impl::parent_of(pid_t process) {
  const int fd = ::open(("/proc/" + std::to_string(process) + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buffer[1024];
  const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
  ::close(fd);
  if (n <= 0) return -1;
  buffer[n] = '\0';
  const char* after_name = std::strrchr(buffer, ')');  // "pid (comm) state ppid ...": comm may hold spaces
  if (!after_name) return -1;
  char state = 0;
  int parent = -1;
  if (std::sscanf(after_name + 1, " %c %d", &state, &parent) != 2) return -1;
  return parent;
}

// The leader's children outside its process group: a sandbox's init (bubblewrap's pid 1, which starts
// a session of its own), or anything an engine started with setsid. Each is held by a pidfd taken
// while it is still the leader's child, so that the pidfd names that process only. Read once, when
// the engine first answers (or when it is killed before that): /proc is not read per ply.
void EngineProcess::Impl::record_children_outside_group() {
  outside_recorded = true;
  for (pid_t child : children_of("/proc/" + std::to_string(pid) + "/task")) {
    if (::getpgid(child) == pid) continue;
    detail::UniqueFd child_fd(static_cast<int>(::syscall(SYS_pidfd_open, child, 0)));
    if (child_fd.get() >= 0 && parent_of(child) == pid) outside_children.push_back(std::move(child_fd));
  }
}

// After the leader is reaped: whatever of them still runs is killed, and each is reaped if it came to
// us (the arena is a subreaper; otherwise it went to init). By pidfd (P_PIDFD): never a stranger that
// got its pid, never another engine's process. Without this, a sandbox's init ends a zombie, counting
// against its uid's process limit when the uid comes round again.
void EngineProcess::Impl::reap_children_outside_group() {
  constexpr idtype_t kByPidfd = static_cast<idtype_t>(3);  // P_PIDFD (Linux 5.4)
  for (const detail::UniqueFd& child : outside_children) {
    ::syscall(SYS_pidfd_send_signal, child.get(), SIGKILL, nullptr, 0);
    siginfo_t info;
    while (::waitid(kByPidfd, static_cast<id_t>(child.get()), &info, WEXITED) != 0 && errno == EINTR) {
    }
  }
  outside_children.clear();
  if (own_uid) reap_children_of_uid(*own_uid);
}

// The arena's children that run as this engine's own uid: the orphans of an engine that ended before
// record_children_outside_group() saw them (a sandbox that failed to start its engine). The uid is
// this engine's alone until it is given back, after this.
void EngineProcess::Impl::reap_children_of_uid(unsigned uid) {
  constexpr idtype_t kByPidfd = static_cast<idtype_t>(3);  // P_PIDFD
  for (pid_t child : children_of("/proc/self/task")) {
    detail::UniqueFd fd(static_cast<int>(::syscall(SYS_pidfd_open, child, 0)));
    if (fd.get() < 0 || parent_of(child) != ::getpid() || real_uid_of(child) != static_cast<long>(uid)) continue;
    ::syscall(SYS_pidfd_send_signal, fd.get(), SIGKILL, nullptr, 0);
    siginfo_t info;
    while (::waitid(kByPidfd, static_cast<id_t>(fd.get()), &info, WEXITED) != 0 && errno == EINTR) {
    }
  }
}

// The children of a process, from the `children` file of each of its threads under `tasks`
// (/proc/<pid>/task, /proc/self/task).
std::vector<pid_t> EngineProcess::Impl::children_of(const std::string& tasks) {
  std::vector<pid_t> out;
  DIR* dir = ::opendir(tasks.c_str());
  if (!dir) return out;
  while (const dirent* task = ::readdir(dir)) {
    if (task->d_name[0] == '.') continue;
    const int fd = ::open((tasks + "/" + task->d_name + "/children").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    char buffer[8192];
    const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
    ::close(fd);
    if (n <= 0) continue;
    buffer[n] = '\0';
    for (char* p = buffer; *p;) {
      char* end = nullptr;
      const long child = std::strtol(p, &end, 10);
      if (end == p) break;
      p = end;
      if (child > 0) out.push_back(static_cast<pid_t>(child));
    }
  }
  ::closedir(dir);
  return out;
}

long EngineProcess::Impl::real_uid_of(pid_t process) {
  const int fd = ::open(("/proc/" + std::to_string(process) + "/status").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buffer[4096];
  const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
  ::close(fd);
  if (n <= 0) return -1;
  buffer[n] = '\0';
  const char* line = std::strstr(buffer, "\nUid:");
  return line ? std::strtol(line + 5, nullptr, 10) : -1;
}

void EngineProcess::Impl::kill() {
  if (exit || pid <= 0) return;
  reap(leader_state() == Leader::Running);  // reap() sends the SIGKILL to the group first
}

std::optional<ExitInfo> EngineProcess::Impl::exit_status() {
  if (!exit && pid > 0 && leader_state() != Leader::Running) reap(false);
  return exit;
}

std::optional<ExitInfo> EngineProcess::Impl::wait_for_exit(Deadline deadline) {
  if (exit_status()) return exit;
  start_timer(deadline);
  run_until([this] { return exit.has_value() || timer_done; });
  settle_timer();
  return exit_status();
}

void EngineProcess::Impl::close_pipes() {
  error_code ignored;
  to_engine.close(ignored);
  from_engine.close(ignored);
  drain_stderr();
}

void EngineProcess::Impl::shutdown(std::chrono::milliseconds grace) {
  if (!exit) {
    const Deadline deadline = Clock::now() + grace;
    if (to_engine.is_open()) write_line("quit", deadline);  // may fail: the engine may be gone
    // EOF on its stdin: an engine that ignores "quit" but stops at end of input exits too.
    error_code ignored;
    to_engine.close(ignored);
    wait_for_exit(deadline);
    kill();
  }
  close_pipes();
}
}  // namespace kalah::process
