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

// Why `path` cannot be executed, or nullopt if it can.
std::optional<SpawnError> check_executable(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT) return SpawnError{fmt::format("engine executable '{}' not found", path), err};
    return error_from_errno(fmt::format("cannot access engine executable '{}'", path), err);
  }
  if (S_ISDIR(st.st_mode)) {
    return SpawnError{fmt::format("engine executable '{}' is a directory", path), EISDIR};
  }
  if (!S_ISREG(st.st_mode)) {
    return SpawnError{fmt::format("engine executable '{}' is not a regular file", path), EACCES};
  }
  if (::access(path.c_str(), X_OK) != 0) {
    return SpawnError{
        fmt::format("engine executable '{}' is not executable (no execute permission)", path), EACCES};
  }
  return std::nullopt;
}

std::string make_absolute(const std::string& path) {
  std::error_code ec;
  auto abs = std::filesystem::absolute(path, ec);
  return ec ? path : abs.string();
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
  if (command.empty()) return SpawnError{"empty engine command", EINVAL};
  const std::string cmd(command);
  if (cmd.find('/') != std::string::npos) {
    const std::string path = make_absolute(cmd);
    if (auto err = check_executable(path)) return *err;
    return path;
  }
  // Like execvp: each PATH entry in turn; an empty entry means the working directory.
  const char* env = std::getenv("PATH");
  const std::string search = env ? env : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= search.size()) {
    std::size_t end = search.find(':', start);
    if (end == std::string::npos) end = search.size();
    const std::string dir = search.substr(start, end - start);
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + cmd;
    if (!check_executable(candidate)) return make_absolute(candidate);
    start = end + 1;
  }
  return SpawnError{fmt::format("engine executable '{}' not found in PATH", cmd), ENOENT};
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
