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
#include <cstring>
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

// Waits on the child's pidfd (the arena needs pidfds anyway: referee/process) until `deadline`; true when it
// ended and was reaped into `status`, false when the deadline passed first.
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
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    throw cli::UsageError(
        fmt::format("cannot wait on the work of `arena {}` (pidfd_open: {})", command, std::strerror(errno)));
  }
  int status = 0;
  const bool ended = wait_until(pidfd, pid, Clock::now() + limit, status);
  ::close(pidfd);
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
