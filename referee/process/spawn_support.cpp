#include "referee/process/spawn_support.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "referee/system/executable.h"

namespace kalah::process::detail {

namespace {

SpawnError error_from_errno(std::string message, int err) {
  return SpawnError{fmt::format("{}: {}", message, std::strerror(err)), err};
}

// Moves `fd` to a number >= 3 (keeping close-on-exec) if it is one of 0, 1, 2.
int lift_above_stdio(int fd) {
  if (fd > 2) return fd;
  const int lifted = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  const int err = errno;
  ::close(fd);
  errno = err;
  return lifted;
}

}  // namespace

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    reset();
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

void UniqueFd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::variant<Pipe, SpawnError> make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return error_from_errno("cannot create a pipe", errno);
  Pipe p;
  p.read_end = UniqueFd(lift_above_stdio(fds[0]));
  p.write_end = UniqueFd(lift_above_stdio(fds[1]));
  if (p.read_end.get() < 0 || p.write_end.get() < 0) {
    return error_from_errno("cannot create a pipe", errno);
  }
  return p;
}

std::variant<std::string, SpawnError> resolve_executable(std::string_view command) {
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  if (ec) return SpawnError{"cannot read the working directory: " + ec.message(), ec.value()};
  Expected<std::filesystem::path> found = system::find_executable(command, system::path_variable(), cwd);
  if (!found) return SpawnError{"engine executable " + found.error()};
  return found->string();
}

std::optional<SpawnError> check_working_dir(const std::string& dir) {
  if (dir.empty()) return std::nullopt;
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    return error_from_errno(fmt::format("engine working directory '{}'", dir), errno);
  }
  if (!S_ISDIR(st.st_mode)) {
    return SpawnError{fmt::format("engine working directory '{}' is not a directory", dir), ENOTDIR};
  }
  return std::nullopt;
}

std::variant<UniqueFd, SpawnError> open_stderr_target(const std::string& log_path) {
  const char* path = log_path.empty() ? "/dev/null" : log_path.c_str();
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return error_from_errno(fmt::format("cannot open engine stderr log '{}'", path), errno);
  const int lifted = lift_above_stdio(fd);
  if (lifted < 0) return error_from_errno(fmt::format("cannot open engine stderr log '{}'", path), errno);
  return UniqueFd(lifted);
}

}  // namespace kalah::process::detail
