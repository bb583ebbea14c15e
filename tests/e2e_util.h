// Helpers for the end-to-end tests that drive the real `referee` and `arena` executables:
// marked copies of engine binaries, running a command with a deadline,
// and finding the processes a test left behind (alive or zombie) through /proc.
//
// Every test copies the engines it uses into its own temporary directory under a file name that
// starts with a marker unique to the test ("e2<pid>_<n>_"). The kernel names a process after the
// first 15 bytes of its executable's file name (/proc/<pid>/stat, kept even for a zombie, whose
// cmdline is empty), so a scan of /proc finds everything the test started, grandchildren included
// (a fork keeps the name), and nothing else.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "referee/system/temp_folder.h"
#include "tests/files.h"

namespace kalah::e2e {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// The executables under test and the engines they run, as built.
inline const fs::path kArena = KALAH_BINARY_DIR "/arena";
inline const fs::path kReferee = KALAH_BINARY_DIR "/referee";
inline const fs::path kBadEngine = KALAH_BINARY_DIR "/tests/engines/bad_engine";
inline const fs::path kRandom = KALAH_BINARY_DIR "/bots/kalah-random";
inline const fs::path kGreedy = KALAH_BINARY_DIR "/bots/kalah-greedy";
inline const fs::path kMcts = KALAH_BINARY_DIR "/bots/kalah-mcts";

using test::read_file;
using test::read_lines;
using test::write_file;

// The lines of `text` that start with `prefix`.
inline std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) found.push_back(line);
  return found;
}

// A marker unique to this test process and call: "e2<pid>_<n>_" (at most 13 bytes, so a marker
// plus one more character still fits the kernel's 15-byte process name).
inline std::string unique_marker() {
  static int counter = 0;
  return "e2" + std::to_string(::getpid()) + "_" + std::to_string(++counter) + "_";
}

// Copies an executable into `dir` as `name` (a copy, not a symlink: a symlink would be resolved by
// exec and the process would carry the original's name).
inline fs::path copy_executable(const fs::path& source, const fs::path& dir, const std::string& name) {
  const fs::path target = dir / name;
  fs::copy_file(source, target, fs::copy_options::overwrite_existing);
  fs::permissions(target, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec,
                  fs::perm_options::replace);
  return target;
}

// A copy of `source` (an executable, or a folder of the checkout) that a sandboxed engine, which runs
// under a uid of its own, can reach wherever the checkout lives (a clone under /root is mode 0700): in
// a world-traversable folder of this test process, removed when it exits. Copied once per process.
inline fs::path reachable(const fs::path& source) {
  // In /tmp itself, not $TMPDIR, which may be a folder of this user's alone.
  static const struct Folder {
    system::TempFolder temp{"/tmp/kalah-e2e-bin"};
    const fs::path& path = temp.path();
    Folder() {
      fs::permissions(path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec);
    }
  } folder;
  const fs::path target = folder.path / source.filename();
  std::error_code ec;
  if (fs::exists(target, ec)) return target;
  fs::copy(source, target, fs::copy_options::recursive);
  for (auto it = fs::recursive_directory_iterator(folder.path); it != fs::recursive_directory_iterator(); ++it)
    fs::permissions(it->path(),
                    fs::perms::group_read | fs::perms::others_read | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add, ec);
  return target;
}

struct ProcessInfo {
  pid_t pid = 0;
  char state = '?';  // from /proc/<pid>/stat: R, S, D, Z, ...
  std::string name;  // comm
  std::string cmdline;
};

inline std::string describe(const std::vector<ProcessInfo>& processes) {
  std::string text;
  for (const ProcessInfo& p : processes)
    text += "  pid " + std::to_string(p.pid) + " state " + p.state + " name " + p.name + " cmd '" + p.cmdline + "'\n";
  return text;
}

// Whether process `pid`, or a process it descends from, is an `arena` that is still running: after a test's
// own arena has exited, a sandboxed process under a running arena is another run's (a second test suite, a
// user's tournament), while one this test's arena leaked has been handed to init. Stops at pid 1, at a
// process that is gone, and after 64 steps.
inline bool under_running_arena(pid_t pid) {
  for (int step = 0; step < 64 && pid > 1; ++step) {
    const fs::path proc = fs::path("/proc") / std::to_string(pid);
    if (read_file(proc / "comm") == "arena\n") return true;
    const std::string status = read_file(proc / "status");
    const size_t at = status.find("\nPPid:");
    if (at == std::string::npos) return false;
    pid = static_cast<pid_t>(std::atol(status.c_str() + at + 7));
  }
  return false;
}

// The sandboxes' private folders (kalah-sandbox-PID-N in the temporary folder, referee/engine/sandbox.cpp) made by
// the process `pid`: after a test's arena has exited, what it left. Another test's arena running beside it (ctest
// -j2), or killed meanwhile with its folders left on purpose, is never taken for this one.
inline std::vector<std::string> sandbox_dirs_of(pid_t pid) {
  std::vector<std::string> out;
  const std::string prefix = "kalah-sandbox-" + std::to_string(pid) + "-";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::temp_directory_path(), ec))
    if (e.path().filename().string().starts_with(prefix)) out.push_back(e.path().string());
  return out;
}

// Every process whose name or command line contains `marker`; zombies included.
inline std::vector<ProcessInfo> find_processes(const std::string& marker) {
  std::vector<ProcessInfo> found;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator("/proc", error)) {
    const std::string pid_text = entry.path().filename().string();
    if (pid_text.empty() || pid_text.find_first_not_of("0123456789") != std::string::npos) continue;
    ProcessInfo p;
    p.pid = static_cast<pid_t>(std::stol(pid_text));
    if (p.pid == ::getpid()) continue;
    // stat is "pid (comm) state ...", and comm may itself contain ") ".
    const std::string stat = read_file(entry.path() / "stat");
    const size_t open = stat.find('(');
    const size_t close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close + 2 >= stat.size()) continue;  // gone
    p.name = stat.substr(open + 1, close - open - 1);
    p.state = stat[close + 2];
    p.cmdline = read_file(entry.path() / "cmdline");
    for (char& c : p.cmdline)
      if (c == '\0') c = ' ';
    if (p.name.find(marker) != std::string::npos || p.cmdline.find(marker) != std::string::npos) found.push_back(p);
  }
  return found;
}

// Waits (up to `limit`) for every process carrying `marker` to be gone, reaped included: an
// orphan is reaped by init a moment after it dies. Returns those still there.
inline std::vector<ProcessInfo> wait_until_gone(const std::string& marker,
                                                std::chrono::milliseconds limit = std::chrono::milliseconds(5000)) {
  const Clock::time_point end = Clock::now() + limit;
  for (;;) {
    std::vector<ProcessInfo> left = find_processes(marker);
    if (left.empty() || Clock::now() >= end) return left;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

struct ExitStatus {
  int code = -1;           // the exit code, or -1 if killed by a signal
  int signal = 0;          // the signal that killed it, or 0
  bool timed_out = false;  // did not exit in time and was killed by the helper
};

// A child process with stdout and stderr redirected to files, in a process group of its own (as a
// shell job is, so that signal_group() is what Ctrl-C on a terminal does); killed and reaped on
// destruction.
class Child {
 public:
  Child(const std::vector<std::string>& argv, const fs::path& stdout_path, const fs::path& stderr_path,
        const fs::path& cwd = {}) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    started_ = Clock::now();
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      // Only async-signal-safe calls from here on.
      ::setpgid(0, 0);
      const int out = ::open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      const int err = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      const int in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
      if (out < 0 || err < 0 || in < 0) ::_exit(126);
      ::dup2(in, 0);
      ::dup2(out, 1);
      ::dup2(err, 2);
      if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
  }
  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  pid_t pid() const { return pid_; }
  bool running() const { return pid_ > 0; }
  void signal(int sig) const {
    if (pid_ > 0) ::kill(pid_, sig);
  }
  // To the child's whole process group: what the terminal does on Ctrl-C.
  void signal_group(int sig) const {
    if (pid_ > 0) ::kill(-pid_, sig);
  }

  // Waits up to `limit` for the child to exit; on timeout kills it (SIGKILL) and says so.
  ExitStatus wait(std::chrono::milliseconds limit) {
    const Clock::time_point end = Clock::now() + limit;
    ExitStatus result;
    int status = 0;
    for (;;) {
      const pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == pid_) break;
      if (r < 0) throw std::runtime_error("waitpid failed");
      if (Clock::now() >= end) {
        result.timed_out = true;
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    pid_ = -1;
    elapsed_ = Clock::now() - started_;
    if (WIFEXITED(status)) result.code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    return result;
  }

  // Non-blocking: true once the child has exited (and then it is reaped).
  std::optional<ExitStatus> poll() {
    int status = 0;
    if (pid_ <= 0 || ::waitpid(pid_, &status, WNOHANG) != pid_) return std::nullopt;
    pid_ = -1;
    elapsed_ = Clock::now() - started_;
    ExitStatus result;
    if (WIFEXITED(status)) result.code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    return result;
  }

  double elapsed_seconds() const { return std::chrono::duration<double>(elapsed_).count(); }

 private:
  pid_t pid_ = -1;
  Clock::time_point started_;
  Clock::duration elapsed_{};
};

struct RunResult {
  ExitStatus status;
  pid_t pid = 0;  // the process's, now gone
  std::string out;
  std::string err;
  double seconds = 0;

  // For assertion messages.
  std::string summary() const {
    return "exit code " + std::to_string(status.code) + ", signal " + std::to_string(status.signal) +
           (status.timed_out ? " (timed out)" : "") + " after " + std::to_string(seconds) + " s\nstdout:\n" + out +
           "\nstderr:\n" + err;
  }
};

// Runs a command to completion (killing it after `limit`) with its output captured in files of
// `scratch`; the output is read back after it exits, so an engine that inherited a descriptor by
// mistake cannot make the test wait.
inline RunResult run(const std::vector<std::string>& argv, const fs::path& scratch,
                     std::chrono::milliseconds limit = std::chrono::milliseconds(60000)) {
  static int counter = 0;
  const std::string stem = "run" + std::to_string(++counter);
  const fs::path out = scratch / (stem + ".out");
  const fs::path err = scratch / (stem + ".err");
  RunResult r;
  {
    Child child(argv, out, err);
    r.pid = child.pid();
    r.status = child.wait(limit);
    r.seconds = child.elapsed_seconds();
  }
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

}  // namespace kalah::e2e
