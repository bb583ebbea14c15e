#include "referee/system/files.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <charconv>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

namespace kalah::system {

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

namespace {

constexpr std::string_view kTemporaryMark = ".tmp-";

// This machine's name as it may appear in a file name (results folders can be shared between the
// machines of a cluster, whose process ids say nothing about each other).
const std::string& host_name() {
  static const std::string name = [] {
    char buffer[256] = {};
    if (::gethostname(buffer, sizeof buffer - 1) != 0 || buffer[0] == 0) return std::string("localhost");
    std::string n(buffer);
    for (char& c : n)
      if (c == '/' || c == '-') c = '_';
    return n;
  }();
  return name;
}

// ".<name>.tmp-<host>-<pid>-<n>" beside the target: hidden, unique per machine, process and call.
std::filesystem::path temporary_for(const std::filesystem::path& path) {
  static std::atomic<unsigned> counter{0};
  const std::string name = "." + path.filename().string() + std::string(kTemporaryMark) + host_name() + "-" +
                           std::to_string(::getpid()) + "-" + std::to_string(counter++);
  return path.has_parent_path() ? path.parent_path() / name : std::filesystem::path(name);
}

// The pid in the name of a temporary written on this machine, or 0 for any other name.
pid_t temporary_pid(std::string_view name) {
  if (name.size() < 2 || name[0] != '.') return 0;
  const std::string prefix = std::string(kTemporaryMark) + host_name() + "-";
  const std::size_t mark = name.rfind(prefix);
  if (mark == std::string_view::npos || mark < 2) return 0;
  const std::string_view rest = name.substr(mark + prefix.size());  // "<pid>-<n>"
  const std::size_t dash = rest.find('-');
  if (dash == std::string_view::npos || dash == 0 || dash + 1 == rest.size()) return 0;
  pid_t pid = 0;
  unsigned n = 0;
  const auto [pid_end, pid_ec] = std::from_chars(rest.data(), rest.data() + dash, pid);
  const auto [n_end, n_ec] = std::from_chars(rest.data() + dash + 1, rest.data() + rest.size(), n);
  if (pid_ec != std::errc() || pid_end != rest.data() + dash || n_ec != std::errc() ||
      n_end != rest.data() + rest.size() || pid <= 0)
    return 0;
  return pid;
}

}  // namespace

std::optional<std::string> AtomicFile::create(const std::filesystem::path& path, AtomicFile& out) {
  out = AtomicFile();
  out.path_ = path;
  out.temporary_ = temporary_for(path);
  out.fd_ = FileHandle(::open(out.temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (!out.fd_.is_open()) {
    const std::filesystem::path temporary = std::exchange(out.temporary_, {});
    return system_error_text(temporary, "cannot create");
  }
  return std::nullopt;
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept { *this = std::move(other); }

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this == &other) return *this;
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  path_ = std::move(other.path_);
  temporary_ = std::exchange(other.temporary_, {});
  fd_ = std::move(other.fd_);
  buffer_ = std::move(other.buffer_);
  error_ = std::exchange(other.error_, std::nullopt);
  return *this;
}

AtomicFile::~AtomicFile() {
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

std::optional<std::string> AtomicFile::flush() {
  if (!error_ && !buffer_.empty()) error_ = write_all(fd_.get(), buffer_, temporary_);
  buffer_.clear();
  return error_;
}

std::optional<std::string> AtomicFile::write(std::string_view data) {
  if (error_) return error_;
  constexpr std::size_t kBuffer = 1 << 20;
  if (buffer_.size() + data.size() > kBuffer) {
    if (flush()) return error_;
    if (data.size() > kBuffer) return error_ = write_all(fd_.get(), data, temporary_);
  }
  buffer_.append(data);
  return std::nullopt;
}

std::optional<std::string> AtomicFile::commit(Durability durability) {
  if (temporary_.empty()) return path_.string() + ": nothing to commit";
  if (flush()) return error_;
  if (durability == Durability::Durable && ::fsync(fd_.get()) != 0) return system_error_text(temporary_, "cannot sync");
  fd_ = FileHandle();
  if (::rename(temporary_.c_str(), path_.c_str()) != 0) return system_error_text(path_, "cannot replace");
  temporary_.clear();
  if (durability == Durability::Rebuildable) return std::nullopt;
  return sync_directory(path_.has_parent_path() ? path_.parent_path() : std::filesystem::path("."));
}

std::optional<std::string> write_file_atomically(const std::filesystem::path& path,
                                                 std::span<const std::string_view> parts, Durability durability) {
  AtomicFile file;
  if (auto error = AtomicFile::create(path, file)) return error;
  for (std::string_view part : parts)
    if (auto error = file.write(part)) return error;
  return file.commit(durability);
}

std::optional<std::string> write_file_atomically(const std::filesystem::path& path, std::string_view content,
                                                 Durability durability) {
  return write_file_atomically(path, std::span<const std::string_view>(&content, 1), durability);
}

std::vector<std::string> remove_stale_temporaries(const std::filesystem::path& dir) {
  std::vector<std::string> removed;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const pid_t pid = temporary_pid(name);
    if (pid == 0 || pid == ::getpid()) continue;
    // kill(pid, 0) fails with ESRCH only when no such process exists (EPERM: it exists).
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;
    if (std::filesystem::remove(entry.path(), ec)) removed.push_back(name);
  }
  return removed;
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

std::filesystem::path user_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "kalah-arena";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".cache" / "kalah-arena";
  return {};
}

}  // namespace kalah::system
