// Parent-side preparation of a spawn that needs no Boost: file descriptors that are born close-on-exec,
// the executable lookup, and operator-facing error messages. Internal to referee/process.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "referee/process/engine_process.h"

namespace kalah::process::detail {

// Owns one file descriptor.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  void reset();

 private:
  int fd_ = -1;
};

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

// Both ends close-on-exec from birth (pipe2), and numbered 3 or above: a child end that landed on 0, 1 or 2
// (an arena started with a closed stdio) would be clobbered by the dup2 calls that set up the child's stdio.
std::variant<Pipe, SpawnError> make_pipe();

// The program `command` names, found by system::find_executable against the arena's working
// directory and PATH. The result is absolute, so that the child's chdir to working_dir cannot change
// its meaning.
std::variant<std::string, SpawnError> resolve_executable(std::string_view command);

std::optional<SpawnError> check_working_dir(const std::string& dir);

// The file the child's stderr goes to: the log (O_APPEND, created 0644) or /dev/null. Close-on-exec.
std::variant<UniqueFd, SpawnError> open_stderr_target(const std::string& log_path);

}  // namespace kalah::process::detail
