#include "arena/app/time_limit.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <fmt/core.h>

#include "referee/app/cli.h"
#include "referee/system/temp_folder.h"

namespace kalah::arena_app {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// The child: the work, its exit code, its errors as the command line prints them.
[[noreturn]] void run_child(const std::string& temp, pid_t parent, const std::function<int()>& body) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlives the arena
  if (::getppid() != parent) ::_exit(2);
  ::setenv("TMPDIR", temp.c_str(), 1);
  int code = 2;
  try {
    code = body();
  } catch (const cli::UsageError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "arena: {}\n", e.what());
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "arena: {}\n", e.what());
  }
  std::fflush(stdout);
  std::fflush(stderr);
  ::_exit(code);
}

// Waits for the child until `deadline`; true when it ended (and was reaped into `status`).
bool wait_until(pid_t pid, Clock::time_point deadline, int& status) {
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) break;
    if (pidfd >= 0) {
      pollfd ready{pidfd, POLLIN, 0};
      const int n = ::poll(&ready, 1, static_cast<int>(std::min<long long>(left, 60'000)));
      if (n < 0 && errno != EINTR) break;
      if (n <= 0) continue;
    } else {  // a kernel without pidfds: look again every 50 ms
      ::usleep(50'000);
    }
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      if (pidfd >= 0) ::close(pidfd);
      return true;
    }
  }
  if (pidfd >= 0) ::close(pidfd);
  return false;
}

}  // namespace

int within_time_limit(std::chrono::seconds limit, const std::string& command, const std::function<int()>& body) {
  if (limit.count() <= 0) return body();
  system::TempFolder temp("kalah-work");  // removed whether the work finished or was stopped
  if (temp.path().empty()) throw cli::UsageError(temp.error());
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    throw cli::UsageError(fmt::format("cannot start the work of `arena {}`: {}", command, std::strerror(errno)));
  }
  if (pid == 0) run_child(temp.path().string(), parent, body);
  int status = 0;
  const bool ended = wait_until(pid, Clock::now() + limit, status);
  if (!ended) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
  }
  if (!ended) {
    fmt::print(stderr,
               "arena {}: stopped after {} s (--time-limit {}): the input takes longer than that to check; a crafted "
               "archive or journal can, and so can a very large one: raise --time-limit (0: no limit) to go on\n",
               command, limit.count(), limit.count());
    return 2;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  fmt::print(stderr, "arena {}: the work ended by signal {} ({})\n", command, WTERMSIG(status),
             ::strsignal(WTERMSIG(status)));
  return 2;
}

}  // namespace kalah::arena_app
