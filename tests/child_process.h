// A child process with its stdin and stdout on pipes, for the tests that
// drive engine executables line by line (bots_test, solver_test).
#pragma once

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

extern char** environ;

namespace kalah::test_support {

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;

  explicit ChildProcess(const std::vector<std::string>& args) {
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0) return;
    if (pipe(from_child) != 0) {
      close(to_child[0]);
      close(to_child[1]);
      return;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
    for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]})
      posix_spawn_file_actions_addclose(&actions, fd);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    close(to_child[0]);
    close(from_child[1]);
    to_ = to_child[1];
    from_ = from_child[0];
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // End of input first (a bot loop then quits); one that ignores it is killed
  // after two seconds, so a broken bot cannot hang the test.
  ~ChildProcess() {
    if (to_ >= 0) close(to_);
    if (from_ >= 0) close(from_);
    if (pid_ <= 0) return;
    for (int i = 0; i < 200 && waitpid(pid_, nullptr, WNOHANG) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (waitpid(pid_, nullptr, WNOHANG) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }

  bool started() const { return pid_ > 0; }

  void send(const std::string& line) {
    const std::string text = line + "\n";
    ASSERT_EQ(write(to_, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }

  // The next line, or nullopt at the deadline or end of output.
  std::optional<std::string> read_line(Clock::time_point deadline) {
    for (;;) {
      if (const size_t nl = buffer_.find('\n'); nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return line;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return std::nullopt;
      pollfd pfd{from_, POLLIN, 0};
      if (poll(&pfd, 1, static_cast<int>(left.count())) <= 0) continue;
      char chunk[4096];
      const ssize_t n = read(from_, chunk, sizeof chunk);
      if (n <= 0) return std::nullopt;
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }
  std::optional<std::string> read_line(std::chrono::milliseconds patience) {
    return read_line(Clock::now() + patience);
  }

  // Reads until a line starting with `prefix` and returns it (nullopt at the deadline).
  std::optional<std::string> wait_for(const std::string& prefix, Clock::time_point deadline) {
    while (std::optional<std::string> line = read_line(deadline))
      if (line->rfind(prefix, 0) == 0) return line;
    return std::nullopt;
  }
  std::optional<std::string> wait_for(const std::string& prefix, std::chrono::milliseconds patience) {
    return wait_for(prefix, Clock::now() + patience);
  }

  // Closes the child's input and returns its exit code (-1 if a signal ended it).
  int wait_exit() {
    int status = 0;
    close(to_);
    to_ = -1;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  std::string buffer_;
};

}  // namespace kalah::test_support
