// One writer per results directory: an exclusive flock(2) on <dir>/arena.lock, held for as long
// as the DirectoryLock lives. The kernel drops the lock when its holder dies, however it dies, so
// a killed run never leaves a stale lock behind; the file keeps "pid N on host H" of the last
// holder only to name it in the refusal.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>

#include "referee/rules/expected.h"
#include "referee/system/files.h"

namespace kalah::system {

inline constexpr const char* kLockFile = "arena.lock";

class DirectoryLock {
 public:
  // Takes the lock of `dir` (which must exist), waiting at most kPatience while it is held. A flock(2) belongs to
  // the open file, and a fork copies it: a process that released the lock can still hold it through a child
  // forked by another of its threads that has not yet reached exec (where the close-on-exec descriptor goes), as
  // a server's ladder starting an engine while its builds take and release a contest's lock. Errors:
  // - held by another process: "<dir> is in use by pid N on host H";
  // - a filesystem that cannot lock (some NFS or Lustre mounts): says so, naming the reason;
  //   never a silent run without the lock.
  static Expected<DirectoryLock> acquire(const std::filesystem::path& dir);
  // The same, but waits (in the kernel, no polling) while another process holds it: for work that
  // the first holder does for everybody, such as a build that a second process then finds done.
  static Expected<DirectoryLock> acquire_waiting(const std::filesystem::path& dir);

  static constexpr std::chrono::milliseconds kPatience{2000};

  DirectoryLock(DirectoryLock&&) noexcept = default;
  DirectoryLock& operator=(DirectoryLock&&) noexcept = default;
  ~DirectoryLock() = default;  // closing the descriptor releases the lock

 private:
  explicit DirectoryLock(FileHandle fd) : fd_(std::move(fd)) {}
  FileHandle fd_;
};

}  // namespace kalah::system
