#include "arena/journal/durable_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace kalah::journal {

FileHandle& FileHandle::operator=(FileHandle&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FileHandle::~FileHandle() {
  if (fd_ >= 0) ::close(fd_);
}

std::string system_error_text(const std::filesystem::path& path, std::string_view what) {
  return path.string() + ": " + std::string(what) + ": " + std::strerror(errno);
}

std::optional<std::string> write_all(int fd, std::string_view data, const std::filesystem::path& path) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return system_error_text(path, "cannot write");
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return std::nullopt;
}

std::optional<std::string> sync_directory(const std::filesystem::path& dir) {
  FileHandle fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.is_open()) return system_error_text(dir, "cannot open directory");
  if (::fsync(fd.get()) != 0) return system_error_text(dir, "cannot sync directory");
  return std::nullopt;
}

std::optional<std::string> write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  std::filesystem::path temporary = path;
  temporary += ".tmp";
  {
    FileHandle fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!fd.is_open()) return system_error_text(temporary, "cannot create");
    if (auto error = write_all(fd.get(), content, temporary)) return error;
    if (::fsync(fd.get()) != 0) return system_error_text(temporary, "cannot sync");
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) return system_error_text(path, "cannot replace");
  return sync_directory(path.has_parent_path() ? path.parent_path() : std::filesystem::path("."));
}

std::optional<std::string> truncate_file(const std::filesystem::path& path, std::uintmax_t size) {
  FileHandle fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
  if (!fd.is_open()) return system_error_text(path, "cannot open");
  if (::ftruncate(fd.get(), static_cast<off_t>(size)) != 0) return system_error_text(path, "cannot truncate");
  if (::fdatasync(fd.get()) != 0) return system_error_text(path, "cannot sync");
  return std::nullopt;
}

std::optional<std::string> read_file(const std::filesystem::path& path, std::string& content) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return system_error_text(path, "cannot open");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return system_error_text(path, "cannot read");
  content = std::move(buffer).str();
  return std::nullopt;
}

}  // namespace kalah::journal
