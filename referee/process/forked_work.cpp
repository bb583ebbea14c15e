#include "referee/process/forked_work.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/core.h>

namespace kalah::process {
namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void become_child(pid_t parent, const std::function<int()>& child) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlives the process that waits for it
  if (::getppid() != parent) ::_exit(2);
  int code = 2;
  try {
    code = child();
  } catch (...) {
    // The caller's `child` reports its own errors; one that escapes still ends the child, as a failure.
  }
  std::fflush(stdout);
  std::fflush(stderr);
  ::_exit(code);
}

// True when the child ended before `deadline` and was reaped into `status`.
bool wait_until(int pidfd, pid_t pid, Clock::time_point deadline, int& status) {
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd ready{pidfd, POLLIN, 0};
    if (::poll(&ready, 1, static_cast<int>(std::min<long long>(left, 60'000))) > 0 &&
        ::waitpid(pid, &status, WNOHANG) == pid)
      return true;
  }
}

}  // namespace

ForkedWork run_forked(std::chrono::milliseconds limit, const std::function<int()>& child) {
  ForkedWork result;
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    result.detail = fmt::format("fork: {}", std::strerror(errno));
    return result;
  }
  if (pid == 0) become_child(parent, child);
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) {
    result.detail = fmt::format("pidfd_open: {}", std::strerror(errno));
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    return result;
  }
  int status = 0;
  const bool ended = wait_until(pidfd, pid, Clock::now() + limit, status);
  ::close(pidfd);
  if (!ended) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    result.outcome = ForkedWork::Outcome::TimedOut;
    return result;
  }
  if (WIFEXITED(status)) {
    result.outcome = ForkedWork::Outcome::Exited;
    result.code = WEXITSTATUS(status);
  } else {
    result.outcome = ForkedWork::Outcome::Signalled;
    result.code = WTERMSIG(status);
  }
  return result;
}

}  // namespace kalah::process
