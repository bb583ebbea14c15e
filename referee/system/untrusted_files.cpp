#include "referee/system/untrusted_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "referee/system/files.h"

namespace kalah::system {
namespace fs = std::filesystem;

namespace {

constexpr int kOpenFile = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
constexpr int kOpenDir = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
constexpr std::size_t kMaxLinkBytes = 4096;

std::string errno_text(const std::string& path, std::string_view what) {
  return path + ": " + std::string(what) + ": " + std::strerror(errno);
}

// Pseudo file systems whose "regular" files block, never end, or say things about the machine.
bool pseudo_file_system(int fd) {
  struct statfs s {};
  if (::fstatfs(fd, &s) != 0) return true;
  switch (static_cast<unsigned long>(s.f_type)) {
    case PROC_SUPER_MAGIC:
    case SYSFS_MAGIC:
    case DEBUGFS_MAGIC:
    case SECURITYFS_MAGIC:
    case CGROUP_SUPER_MAGIC:
    case CGROUP2_SUPER_MAGIC:
    case TRACEFS_MAGIC:
    case BPF_FS_MAGIC: return true;
    default: return false;
  }
}

TreeItem::Kind kind_of(mode_t mode) {
  if (S_ISREG(mode)) return TreeItem::Kind::File;
  if (S_ISDIR(mode)) return TreeItem::Kind::Directory;
  if (S_ISLNK(mode)) return TreeItem::Kind::Link;
  return TreeItem::Kind::Other;
}

std::string join(const std::string& dir, const std::string& name) { return dir.empty() ? name : dir + "/" + name; }

// The names in a folder, sorted; "." and ".." left out.
std::optional<std::string> list_names(int dirfd, const std::string& where, std::vector<std::string>& names,
                                      std::uintmax_t max_names) {
  const int copy = ::fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
  if (copy < 0) return errno_text(where, "cannot list");
  DIR* dir = ::fdopendir(copy);
  if (!dir) {
    ::close(copy);
    return errno_text(where, "cannot list");
  }
  ::rewinddir(dir);
  errno = 0;
  while (const dirent* e = ::readdir(dir)) {
    const std::string_view name = e->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
    if (names.size() > max_names) break;
    errno = 0;
  }
  const int err = errno;
  ::closedir(dir);
  if (err != 0) {
    errno = err;
    return errno_text(where, "cannot list");
  }
  std::sort(names.begin(), names.end());
  return std::nullopt;
}

class Walker {
 public:
  Walker(std::string root_text, const WalkOptions& options,
         const std::function<std::optional<std::string>(const TreeItem&)>& visit)
      : root_(std::move(root_text)), options_(options), visit_(visit) {}

  std::optional<std::string> folder(int dirfd, const std::string& rel, int depth) {
    if (depth > options_.bounds.max_depth)
      return root_ + ": folders nested deeper than " + std::to_string(options_.bounds.max_depth);
    std::vector<std::string> names;
    if (auto error = list_names(dirfd, where(rel), names, options_.bounds.max_entries)) return error;
    for (const std::string& name : names) {
      struct stat st {};
      if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) continue;  // gone meanwhile
        return errno_text(where(join(rel, name)), "cannot look at");
      }
      TreeItem item;
      item.kind = kind_of(st.st_mode);
      item.path = join(rel, name);
      item.mode = st.st_mode & 07777;
      if (options_.leave_out && options_.leave_out(item)) continue;
      if (++entries_ > options_.bounds.max_entries)
        return root_ + ": holds more than " + std::to_string(options_.bounds.max_entries) + " files, folders and links";
      FileHandle held;
      switch (item.kind) {
        case TreeItem::Kind::File: {
          bytes_ += static_cast<std::uintmax_t>(st.st_size);
          if (bytes_ > options_.bounds.max_bytes) return too_big();
          item.size = static_cast<std::uintmax_t>(st.st_size);
          if (!options_.open_files) break;
          held = FileHandle(::openat(dirfd, name.c_str(), kOpenFile));
          if (!held.is_open()) {
            if (errno == ENOENT) continue;
            return errno_text(where(item.path), "cannot open");
          }
          struct stat opened {};
          if (::fstat(held.get(), &opened) != 0 || !S_ISREG(opened.st_mode) || opened.st_ino != st.st_ino ||
              opened.st_dev != st.st_dev)
            return where(item.path) + ": changed while it was read (not the regular file listed)";
          bytes_ += static_cast<std::uintmax_t>(std::max<off_t>(0, opened.st_size - st.st_size));
          if (bytes_ > options_.bounds.max_bytes) return too_big();
          item.size = static_cast<std::uintmax_t>(opened.st_size);
          item.fd = held.get();
          break;
        }
        case TreeItem::Kind::Link: {
          std::array<char, kMaxLinkBytes + 1> target{};
          const ssize_t n = ::readlinkat(dirfd, name.c_str(), target.data(), target.size());
          if (n < 0) {
            if (errno == ENOENT) continue;
            return errno_text(where(item.path), "cannot read the link");
          }
          if (static_cast<std::size_t>(n) > kMaxLinkBytes) return where(item.path) + ": a link longer than 4096 bytes";
          item.link.assign(target.data(), static_cast<std::size_t>(n));
          break;
        }
        case TreeItem::Kind::Directory:
          held = FileHandle(::openat(dirfd, name.c_str(), kOpenDir));
          if (!held.is_open()) {
            if (errno == ENOENT) continue;
            return errno_text(where(item.path), "cannot open");
          }
          {
            struct stat opened {};
            if (::fstat(held.get(), &opened) != 0 || opened.st_ino != st.st_ino || opened.st_dev != st.st_dev)
              return where(item.path) + ": changed while it was read (not the folder listed)";
          }
          break;
        case TreeItem::Kind::Other: break;
      }
      if (auto error = visit_(item)) return error;
      if (item.kind == TreeItem::Kind::Directory)
        if (auto error = folder(held.get(), item.path, depth + 1)) return error;
    }
    return std::nullopt;
  }

 private:
  std::string where(const std::string& rel) const { return rel.empty() ? root_ : root_ + "/" + rel; }
  std::string too_big() const {
    return root_ + ": holds more than " + std::to_string(options_.bounds.max_bytes >> 20) + " MiB of files";
  }

  std::string root_;
  const WalkOptions& options_;
  const std::function<std::optional<std::string>(const TreeItem&)>& visit_;
  std::uintmax_t entries_ = 0;
  std::uintmax_t bytes_ = 0;
};

Expected<FileHandle> open_root(const fs::path& root) {
  FileHandle fd(::open(root.c_str(), kOpenDir));
  if (!fd.is_open()) {
    if (errno == ELOOP || errno == ENOTDIR) return Error{root.string() + ": not a folder (a link is never followed)"};
    return Error{errno_text(root.string(), "cannot open")};
  }
  if (pseudo_file_system(fd.get())) return Error{root.string() + ": a folder of a pseudo file system (/proc, /sys)"};
  return fd;
}

mode_t copied_mode(const TreeItem& item, bool read_only) {
  const bool exec = item.kind == TreeItem::Kind::Directory || (item.mode & S_IXUSR) != 0;
  if (read_only) return exec ? 0555 : 0444;
  return exec ? 0755 : 0644;
}

}  // namespace

const char* to_string(TreeItem::Kind kind) {
  switch (kind) {
    case TreeItem::Kind::File: return "file";
    case TreeItem::Kind::Directory: return "folder";
    case TreeItem::Kind::Link: return "symbolic link";
    case TreeItem::Kind::Other: return "special file (FIFO, device or socket)";
  }
  return "?";
}

std::optional<std::string> walk_untrusted_tree(
    const fs::path& root, const WalkOptions& options,
    const std::function<std::optional<std::string>(const TreeItem&)>& visit) {
  Expected<FileHandle> fd = open_root(root);
  if (!fd) return fd.error();
  Walker walker(root.string(), options, visit);
  return walker.folder(fd->get(), "", 0);
}

std::optional<std::string> read_bounded(int fd, std::uintmax_t max_bytes,
                                        const std::function<void(std::string_view)>& take,
                                        std::string_view path_for_messages) {
  std::array<char, 1 << 16> buffer;
  std::uintmax_t total = 0;
  for (;;) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno_text(std::string(path_for_messages), "cannot read");
    }
    if (n == 0) return std::nullopt;
    total += static_cast<std::uintmax_t>(n);
    if (total > max_bytes)
      return std::string(path_for_messages) + ": longer than " + std::to_string(max_bytes) + " bytes";
    take(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
  }
}

Expected<std::pair<int, std::uintmax_t>> open_regular_file(const fs::path& path, bool follow_link) {
  const int flags = follow_link ? (kOpenFile & ~O_NOFOLLOW) : kOpenFile;
  FileHandle fd(::open(path.c_str(), flags));
  if (!fd.is_open()) {
    if (errno == ELOOP) return Error{path.string() + ": a symbolic link (never followed here)"};
    return Error{errno_text(path.string(), "cannot open")};
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return Error{errno_text(path.string(), "cannot look at")};
  if (!S_ISREG(st.st_mode)) return Error{path.string() + ": not a regular file"};
  if (pseudo_file_system(fd.get())) return Error{path.string() + ": a file of a pseudo file system (/proc, /sys)"};
  // Reads may block only on FIFOs and devices, which are refused above; plain blocking reads from here.
  ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
  const std::uintmax_t size = static_cast<std::uintmax_t>(st.st_size);
  return std::make_pair(fd.release(), size);
}

Expected<std::string> read_regular_file(const fs::path& path, std::uintmax_t max_bytes, bool follow_link) {
  auto opened = open_regular_file(path, follow_link);
  if (!opened) return Error{opened.error()};
  FileHandle fd(opened->first);
  std::string content;
  if (opened->second > max_bytes) return Error{path.string() + ": larger than " + std::to_string(max_bytes) + " bytes"};
  if (auto error = read_bounded(
          fd.get(), max_bytes, [&](std::string_view piece) { content += piece; }, path.string()))
    return Error{*error};
  return content;
}

std::optional<std::string> list_folder(int dirfd, const std::string& where, std::vector<std::string>& names,
                                       std::size_t max_names) {
  return list_names(dirfd, where, names, max_names);
}

Expected<int> open_folder_at(int dirfd, const std::string& name, const std::string& where) {
  FileHandle fd(::openat(dirfd, name.c_str(), kOpenDir));
  if (!fd.is_open()) {
    if (errno == ELOOP || errno == ENOTDIR) return Error{where + ": not a folder (a link is never followed)"};
    return Error{errno_text(where, "cannot open")};
  }
  return fd.release();
}

Expected<int> open_listed_file_at(int dirfd, const std::string& name, const struct stat& listed,
                                  const std::string& where) {
  if (!S_ISREG(listed.st_mode)) return Error{where + ": not a regular file (never opened)"};
  FileHandle fd(::openat(dirfd, name.c_str(), kOpenFile));
  if (!fd.is_open()) {
    if (errno == ELOOP) return Error{where + ": a symbolic link (never followed here)"};
    return Error{errno_text(where, "cannot open")};
  }
  struct stat opened {};
  if (::fstat(fd.get(), &opened) != 0 || !S_ISREG(opened.st_mode) || opened.st_ino != listed.st_ino ||
      opened.st_dev != listed.st_dev)
    return Error{where + ": changed while it was opened (not the regular file listed)"};
  if (pseudo_file_system(fd.get())) return Error{where + ": a file of a pseudo file system (/proc, /sys)"};
  // Reads may block only on FIFOs and devices, which are refused above; plain blocking reads from here.
  ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
  return fd.release();
}

Expected<CopyReport> copy_untrusted_tree(const fs::path& from, const fs::path& to, const CopyOptions& options) {
  CopyReport report;
  if (::mkdir(to.c_str(), 0700) != 0) return Error{errno_text(to.string(), "cannot create")};
  // Open folders of the copy, innermost last, with the mode each gets once it is complete.
  struct Open {
    std::string rel;
    FileHandle fd;
    mode_t mode;
  };
  std::vector<Open> stack;
  {
    FileHandle root(::open(to.c_str(), kOpenDir));
    if (!root.is_open()) return Error{errno_text(to.string(), "cannot open")};
    stack.push_back({"", std::move(root), static_cast<mode_t>(options.read_only ? 0555 : 0755)});
  }
  auto own = [&](int fd, const char* name, int flags) -> bool {
    if (!options.owner) return true;
    return ::fchownat(fd, name, options.owner->first, options.owner->second, flags) == 0;
  };
  auto close_folder = [&]() -> std::optional<std::string> {
    Open& top = stack.back();
    if (::fchmod(top.fd.get(), top.mode) != 0 || !own(top.fd.get(), "", AT_EMPTY_PATH))
      return errno_text((to / top.rel).string(), "cannot set the mode or owner of");
    stack.pop_back();
    return std::nullopt;
  };

  WalkOptions walk;
  walk.bounds = options.bounds;
  walk.open_files = true;
  walk.leave_out = options.leave_out;
  std::optional<std::string> error =
      walk_untrusted_tree(from, walk, [&](const TreeItem& item) -> std::optional<std::string> {
        const std::string parent =
            item.path.find('/') == std::string::npos ? "" : item.path.substr(0, item.path.rfind('/'));
        while (stack.back().rel != parent)
          if (auto e = close_folder()) return e;
        const int dirfd = stack.back().fd.get();
        const std::string name = item.path.substr(parent.empty() ? 0 : parent.size() + 1);
        const std::string target = (to / item.path).string();
        switch (item.kind) {
          case TreeItem::Kind::Directory: {
            if (::mkdirat(dirfd, name.c_str(), 0700) != 0) return errno_text(target, "cannot create");
            FileHandle fd(::openat(dirfd, name.c_str(), kOpenDir));
            if (!fd.is_open()) return errno_text(target, "cannot open");
            stack.push_back({item.path, std::move(fd), copied_mode(item, options.read_only)});
            return std::nullopt;
          }
          case TreeItem::Kind::File: {
            FileHandle out(::openat(dirfd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
            if (!out.is_open()) return errno_text(target, "cannot create");
            std::optional<std::string> write_error;
            // At most the size the file had when opened: a file that grows meanwhile is cut there.
            std::uintmax_t left = item.size;
            if (auto e = read_bounded(
                    item.fd, options.bounds.max_bytes,
                    [&](std::string_view piece) {
                      if (write_error || left == 0) return;
                      piece = piece.substr(0, static_cast<std::size_t>(std::min<std::uintmax_t>(left, piece.size())));
                      left -= piece.size();
                      write_error = write_all(out.get(), piece, target);
                    },
                    (from / item.path).string()))
              return e;
            if (write_error) return write_error;
            if (::fchmod(out.get(), copied_mode(item, options.read_only)) != 0 || !own(out.get(), "", AT_EMPTY_PATH))
              return errno_text(target, "cannot set the mode or owner of");
            ++report.files;
            report.bytes += item.size;
            return std::nullopt;
          }
          case TreeItem::Kind::Link:
            if (!options.keep_links) break;
            if (::symlinkat(item.link.c_str(), dirfd, name.c_str()) != 0) return errno_text(target, "cannot create");
            if (!own(dirfd, name.c_str(), AT_SYMLINK_NOFOLLOW)) return errno_text(target, "cannot set the owner of");
            return std::nullopt;
          case TreeItem::Kind::Other: break;
        }
        report.left_out.push_back(item.path + " (a " + to_string(item.kind) + ")");
        return std::nullopt;
      });
  while (!error && !stack.empty()) error = close_folder();
  if (error) {
    stack.clear();
    remove_tree(to);
    return Error{*error};
  }
  return report;
}

namespace {

std::optional<std::string> remove_inside(int dirfd, const std::string& where, int depth) {
  if (depth > 256) return where + ": folders nested too deep to remove";
  std::vector<std::string> names;
  if (auto error = list_names(dirfd, where, names, ~std::uintmax_t{0})) return error;
  for (const std::string& name : names) {
    struct stat st {};
    if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      FileHandle fd(::openat(dirfd, name.c_str(), kOpenDir));
      if (fd.is_open()) {
        ::fchmod(fd.get(), 0700);  // a read-only folder of a non-root arena
        if (auto error = remove_inside(fd.get(), where + "/" + name, depth + 1)) return error;
      }
      if (::unlinkat(dirfd, name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT)
        return errno_text(where + "/" + name, "cannot remove");
    } else if (::unlinkat(dirfd, name.c_str(), 0) != 0 && errno != ENOENT) {
      return errno_text(where + "/" + name, "cannot remove");
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> remove_tree(const fs::path& root) {
  struct stat st {};
  if (::lstat(root.c_str(), &st) != 0)
    return errno == ENOENT ? std::nullopt : std::optional(errno_text(root.string(), "cannot look at"));
  if (!S_ISDIR(st.st_mode)) {
    if (::unlink(root.c_str()) != 0 && errno != ENOENT) return errno_text(root.string(), "cannot remove");
    return std::nullopt;
  }
  {
    FileHandle fd(::open(root.c_str(), kOpenDir));
    if (!fd.is_open()) return errno_text(root.string(), "cannot open");
    ::fchmod(fd.get(), 0700);
    if (auto error = remove_inside(fd.get(), root.string(), 0)) return error;
  }
  if (::rmdir(root.c_str()) != 0 && errno != ENOENT) return errno_text(root.string(), "cannot remove");
  return std::nullopt;
}

std::optional<std::string> write_own_file(const fs::path& path, std::string_view content, bool append) {
  FileHandle fd(::open(path.c_str(),
                       O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (append ? O_APPEND : 0),
                       0644));
  if (!fd.is_open()) return errno_text(path.string(), "cannot write");
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return path.string() + ": not a regular file";
  if (!append && ::ftruncate(fd.get(), 0) != 0) return errno_text(path.string(), "cannot truncate");
  return write_all(fd.get(), content, path);
}

std::optional<std::string> make_own_folder(const std::filesystem::path& dir) {
  if (::mkdir(dir.c_str(), 0755) == 0) return std::nullopt;
  if (errno != EEXIST) return system_error_text(dir, "cannot create the folder");
  struct stat info {};
  if (::lstat(dir.c_str(), &info) != 0) return system_error_text(dir, "cannot look at the folder");
  if (S_ISDIR(info.st_mode)) return std::nullopt;
  return dir.string() + ": is " + (S_ISLNK(info.st_mode) ? "a symbolic link" : "not a folder") +
         ", not a folder to write into: nothing is written through it";
}

}  // namespace kalah::system
