// Small POSIX helpers for files that must survive a crash: whole-line appends,
// fdatasync, atomic replacement, and syncing the directory after a rename.
// Errors come back as text naming the path and the system's reason.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kalah::journal {

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

 private:
  int fd_ = -1;
};

// "path: reason" with the text of errno.
std::string system_error_text(const std::filesystem::path& path, std::string_view what);

// Writes all of `data` (retrying on partial writes and EINTR). Returns an error text or nothing.
std::optional<std::string> write_all(int fd, std::string_view data, const std::filesystem::path& path);

// Makes a rename or a new file in `dir` durable.
std::optional<std::string> sync_directory(const std::filesystem::path& dir);

// Replaces `path` atomically with `content` (temporary file, fsync, rename, directory sync).
std::optional<std::string> write_file_atomically(const std::filesystem::path& path, std::string_view content);

// Cuts `path` to `size` bytes and syncs it.
std::optional<std::string> truncate_file(const std::filesystem::path& path, std::uintmax_t size);

// The whole file; an error text if it cannot be read.
std::optional<std::string> read_file(const std::filesystem::path& path, std::string& content);

}  // namespace kalah::journal
