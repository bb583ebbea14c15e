// Files that must survive a crash, and files that must never be seen half-written: whole writes,
// fsync, atomic replacement (with the temporaries of a killed writer removed later), syncing a
// directory after a rename. The only place the project writes files this way; errors come back as
// text naming the path and the system's reason.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kalah::system {

// An open file descriptor, closed on destruction.
class FileHandle {
 public:
  FileHandle() = default;
  explicit FileHandle(int fd) : fd_(fd) {}
  FileHandle(FileHandle&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  FileHandle& operator=(FileHandle&& other) noexcept;
  FileHandle(const FileHandle&) = delete;
  FileHandle& operator=(const FileHandle&) = delete;
  ~FileHandle();

  int get() const { return fd_; }
  bool is_open() const { return fd_ >= 0; }
  int release() {  // the caller closes it from now on
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_ = -1;
};

// "path: reason" with the text of errno.
std::string system_error_text(const std::filesystem::path& path, std::string_view what);

// Writes all of `data` (retrying on partial writes and EINTR). Returns an error text or nothing.
std::optional<std::string> write_all(int fd, std::string_view data, const std::filesystem::path& path);

// Makes a rename or a new file in `dir` durable.
std::optional<std::string> sync_directory(const std::filesystem::path& dir);

// How hard write_file_atomically works to make the new file survive a power cut.
enum class Durability {
  Durable,      // fsync the file and its directory: the journal's meta file
  Rebuildable,  // only the rename: what can be computed again (reports, sprt.json, solver databases)
};

// Replaces `path` atomically with `parts`, written one after the other: readers see the old file or
// the new one, never part of one. The new content goes to a temporary in the same directory,
// ".<name>.tmp-<host>-<pid>-<n>", created with O_CREAT|O_EXCL|O_NOFOLLOW (never an existing file or a
// planted link), and is renamed over `path`; on any error the temporary is removed.
std::optional<std::string> write_file_atomically(const std::filesystem::path& path,
                                                 std::span<const std::string_view> parts,
                                                 Durability durability = Durability::Durable);
std::optional<std::string> write_file_atomically(const std::filesystem::path& path, std::string_view content,
                                                 Durability durability = Durability::Durable);

// The same, for content too large to hold at once: write() it piece by piece, then commit(). A
// file destroyed without commit() leaves `path` as it was (its temporary is removed).
class AtomicFile {
 public:
  static std::optional<std::string> create(const std::filesystem::path& path, AtomicFile& out);
  AtomicFile() = default;
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  ~AtomicFile();

  // Buffered; an error is kept and returned again by commit().
  std::optional<std::string> write(std::string_view data);
  std::optional<std::string> commit(Durability durability);

 private:
  std::optional<std::string> flush();
  std::filesystem::path path_, temporary_;
  FileHandle fd_;
  std::string buffer_;
  std::optional<std::string> error_;
};

// Removes the temporaries that write_file_atomically left in `dir` when its process was killed
// mid-write: only names of its pattern written on this machine by a process that no longer runs,
// so a writer at work (here or on another machine sharing the folder) is never disturbed. Returns the names removed
// (nothing when `dir` cannot be read).
std::vector<std::string> remove_stale_temporaries(const std::filesystem::path& dir);

// Cuts `path` to `size` bytes and syncs it.
std::optional<std::string> truncate_file(const std::filesystem::path& path, std::uintmax_t size);

// The whole file; an error text if it cannot be read.
std::optional<std::string> read_file(const std::filesystem::path& path, std::string& content);

// The arena's cache folder: $XDG_CACHE_HOME/kalah-arena or ~/.cache/kalah-arena; empty without either
// variable. Nothing is created.
std::filesystem::path user_cache_dir();

}  // namespace kalah::system
