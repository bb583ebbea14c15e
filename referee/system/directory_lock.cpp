#include "referee/system/directory_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace kalah::system {
namespace {

std::string holder_text() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0 || host[0] == 0) std::strcpy(host, "localhost");
  return "pid " + std::to_string(::getpid()) + " on host " + host;
}

std::string no_flock_text(const std::filesystem::path& path) {
  return system_error_text(path, "cannot be locked") +
         " (this filesystem does not support flock; the run is refused rather than run unlocked: "
         "put the results on a filesystem that does, or mount it with locking enabled)";
}

}  // namespace

Expected<DirectoryLock> DirectoryLock::acquire_waiting(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / kLockFile;
  FileHandle fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (!fd.is_open()) return Error{system_error_text(path, "cannot open the lock file")};
  while (::flock(fd.get(), LOCK_EX) != 0)
    if (errno != EINTR) return Error{no_flock_text(path)};
  const std::string text = holder_text() + "\n";
  if (::ftruncate(fd.get(), 0) != 0 ||
      ::pwrite(fd.get(), text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()))
    return Error{system_error_text(path, "cannot write")};
  return DirectoryLock(std::move(fd));
}

Expected<DirectoryLock> DirectoryLock::acquire(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / kLockFile;
  FileHandle fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (!fd.is_open()) return Error{system_error_text(path, "cannot open the lock file")};
  // flock(2) has no timed wait (only blocking, or none at all), and blocking would wait for a real holder for
  // ever: so look again every 10 ms, at most kPatience (200 looks), for the copy a fork left to go at its exec.
  const auto give_up = std::chrono::steady_clock::now() + kPatience;
  while (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    if (errno == EWOULDBLOCK) {
      std::string holder;
      read_file(path, holder);
      while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
      return Error{dir.string() + " is in use by " + (holder.empty() ? "another process" : holder) +
                   "; wait for it to finish or stop it (a second writer would interleave the journal)"};
    }
    return Error{no_flock_text(path)};
  }
  const std::string text = holder_text() + "\n";
  if (::ftruncate(fd.get(), 0) != 0) return Error{system_error_text(path, "cannot write")};
  if (::pwrite(fd.get(), text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()))
    return Error{system_error_text(path, "cannot write")};
  return DirectoryLock(std::move(fd));
}

}  // namespace kalah::system
