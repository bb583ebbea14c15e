#include "arena/season/inbox.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <tuple>

#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"
#include "referee/system/utc_time.h"

namespace kalah::season {
namespace fs = std::filesystem;
using system::FileHandle;

namespace {

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size &&
         a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

// Why an entry of an author's folder is refused at sight; none for a regular file of one link.
std::optional<std::string> refused_kind(const struct stat& st) {
  if (S_ISLNK(st.st_mode)) return "a symbolic link: never followed";
  if (S_ISDIR(st.st_mode)) return "a folder: an author's folder holds files (a source file, a .tar.gz or a .zip)";
  if (!S_ISREG(st.st_mode)) return "a special file (a FIFO, a device or a socket): never opened";
  if (st.st_nlink != 1)
    return "a file with " + std::to_string(st.st_nlink) + " hard links: a file from elsewhere is not taken";
  return std::nullopt;
}

std::string printable(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 200)) out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
  return out;
}

// A refused file's name in .refused/: its bytes outside [A-Za-z0-9._+-] as '_', at most 128 of them.
std::string safe_name(std::string_view name) {
  std::string out;
  for (char c : name.substr(0, 128)) {
    const bool plain = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
                       c == '_' || c == '+' || c == '-';
    out += plain ? c : '_';
  }
  return out.empty() ? "file" : out;
}

std::string errno_text(const std::string& where, std::string_view what) {
  return where + ": " + std::string(what) + ": " + std::strerror(errno);
}

Expected<FileHandle> open_root(const fs::path& root) {
  // The inbox as the config names it (a link there is the organiser's); nothing below it is followed.
  FileHandle fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC));
  if (!fd.is_open()) return Error{errno_text(root.string(), "cannot open the watched folder")};
  return fd;
}

// The folder `name` in `dirfd`, made (0755) when missing, never through a link.
Expected<FileHandle> own_folder_at(int dirfd, const std::string& name, const std::string& where) {
  if (::mkdirat(dirfd, name.c_str(), 0755) != 0 && errno != EEXIST) return Error{errno_text(where, "cannot create")};
  Expected<int> fd = system::open_folder_at(dirfd, name, where);
  if (!fd) return Error{fd.error()};
  return FileHandle(*fd);
}

}  // namespace

Expected<Inbox> Inbox::open(const fs::path& root, std::set<std::string> authors) {
  if (::mkdir(root.c_str(), 0755) != 0 && errno != EEXIST)
    return Error{errno_text(root.string(), "cannot create the watched folder")};
  Expected<FileHandle> fd = open_root(root);
  if (!fd) return Error{fd.error()};
  return Inbox(root, std::move(authors));
}

std::string Inbox::shown(const InboxFile& file) const {
  return printable((root_ / file.author).string() + "/" + file.file);
}

void Inbox::report(InboxLook& out, const std::string& key, const std::string& text) {
  reported_now_.insert(key);
  if (!reported_.contains(key)) out.reports.push_back(text);
}

InboxLook Inbox::look() {
  InboxLook out;
  std::map<std::string, struct stat> seen;
  reported_now_.clear();
  std::vector<std::string> names;
  Expected<FileHandle> inbox = open_root(root_);
  std::optional<std::string> error = inbox ? system::list_folder(inbox->get(), root_.string(), names, kMaxInboxEntries)
                                           : std::optional<std::string>(inbox.error());
  if (error) report(out, "!" + *error, *error);
  if (names.size() > kMaxInboxEntries)
    report(out, "!many",
           root_.string() + ": more than " + std::to_string(kMaxInboxEntries) +
               " entries: only the first in name order are looked at");
  names.resize(std::min(names.size(), kMaxInboxEntries));
  for (const std::string& name : names) {
    struct stat st {};
    if (name.starts_with('.') || ::fstatat(inbox->get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    const std::string key = "/" + name + "/" + std::to_string(st.st_ino), where = printable((root_ / name).string());
    if (!authors_.contains(name))
      report(out, key,
             where + ": " + (S_ISDIR(st.st_mode) ? "no author of this season has this name" : "not a folder") +
                 " (the inbox holds INBOX/AUTHOR/FILE for the authors of tokens.sha256): not taken in");
    else if (!S_ISDIR(st.st_mode))
      report(
          out, key,
          where + ": " + (S_ISLNK(st.st_mode) ? "a symbolic link, never followed" : "not a folder") + ": not taken in");
    else
      look_at_author(inbox->get(), name, out, seen);
  }
  previous_ = std::move(seen);
  reported_ = reported_now_;
  // Claimed files first: one a killed server stored is then still its author's latest from the inbox (watcher.h).
  std::sort(out.ready.begin(), out.ready.end(), [](const InboxFile& a, const InboxFile& b) {
    const auto order = [](const InboxFile& f) {
      return std::tuple<bool, time_t, long, const std::string&, const std::string&>(
          !f.claimed(), f.st.st_mtim.tv_sec, f.st.st_mtim.tv_nsec, f.author, f.name);
    };
    return order(a) < order(b);
  });
  return out;
}

void Inbox::look_at_author(int inbox_fd, const std::string& author, InboxLook& out,
                           std::map<std::string, struct stat>& seen) {
  const std::string where = printable((root_ / author).string());
  Expected<int> opened = system::open_folder_at(inbox_fd, author, where);
  std::vector<std::string> names;
  std::optional<std::string> error = opened ? std::optional<std::string>() : std::optional<std::string>(opened.error());
  FileHandle folder(opened ? *opened : -1);
  if (!error) error = system::list_folder(folder.get(), where, names, kMaxInboxEntries);
  if (error) return report(out, "!" + *error, *error);
  if (names.size() > kMaxInboxEntries)
    report(out, "!many/" + author,
           where + ": more than " + std::to_string(kMaxInboxEntries) + " entries: the first in name order go first");
  names.resize(std::min(names.size(), kMaxInboxEntries));
  for (const std::string& name : names) {
    const bool claimed = name.starts_with(kClaimPrefix);
    InboxFile file{author, name, claimed ? name.substr(std::strlen(kClaimPrefix)) : name, {}};
    if ((name.starts_with('.') && !claimed) ||
        ::fstatat(folder.get(), name.c_str(), &file.st, AT_SYMLINK_NOFOLLOW) != 0)
      continue;
    if (std::optional<std::string> why = refused_kind(file.st)) {
      out.refused.emplace_back(std::move(file), std::move(*why));
      continue;
    }
    const std::string key = author + "/" + name;
    seen[key] = file.st;
    if (const auto before = previous_.find(key); before != previous_.end() && same_file(before->second, file.st))
      out.ready.push_back(std::move(file));
  }
}

Expected<InboxFile> Inbox::claim(const InboxFile& file) const {
  Expected<FileHandle> inbox = open_root(root_);
  if (!inbox) return Error{inbox.error()};
  Expected<int> folder = system::open_folder_at(inbox->get(), file.author, (root_ / file.author).string());
  if (!folder) return Error{folder.error()};
  FileHandle fd(*folder);
  InboxFile claimed{file.author, kClaimPrefix + file.file, file.file, {}};
  if (!file.claimed() &&
      ::renameat2(fd.get(), file.name.c_str(), fd.get(), claimed.name.c_str(), RENAME_NOREPLACE) != 0)
    return Error{errno_text(shown(file), "cannot claim (rename to " + claimed.name + ")")};
  if (::fstatat(fd.get(), claimed.name.c_str(), &claimed.st, AT_SYMLINK_NOFOLLOW) != 0)
    return Error{errno_text(shown(file), "cannot look at the claimed file")};
  return claimed;
}

Expected<std::string> Inbox::read(const InboxFile& file, std::uintmax_t max_bytes) const {
  Expected<FileHandle> inbox = open_root(root_);
  if (!inbox) return Error{inbox.error()};
  Expected<int> folder = system::open_folder_at(inbox->get(), file.author, (root_ / file.author).string());
  if (!folder) return Error{folder.error()};
  const FileHandle dir(*folder);
  Expected<int> opened = system::open_listed_file_at(dir.get(), file.name, file.st, shown(file));
  if (!opened) return Error{opened.error()};
  const FileHandle fd(*opened);
  std::string content;
  char buffer[1 << 16];
  while (content.size() < max_bytes) {
    const std::size_t want = std::min<std::uintmax_t>(sizeof buffer, max_bytes - content.size());
    const ssize_t n = ::read(fd.get(), buffer, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error{errno_text(shown(file), "cannot read")};
    if (n == 0) break;
    content.append(buffer, static_cast<std::size_t>(n));
  }
  struct stat after {};
  if (::fstat(fd.get(), &after) != 0 || !same_file(after, file.st))
    return Error{shown(file) + ": changed while it was read: taken once it stays as it is"};
  return content;
}

std::optional<std::string> Inbox::remove(const InboxFile& file) const {
  Expected<FileHandle> inbox = open_root(root_);
  if (!inbox) return inbox.error();
  Expected<int> folder = system::open_folder_at(inbox->get(), file.author, (root_ / file.author).string());
  if (!folder) return folder.error();
  const FileHandle fd(*folder);
  if (::unlinkat(fd.get(), file.name.c_str(), 0) != 0 && errno != ENOENT)
    return errno_text(shown(file), "cannot remove");
  return std::nullopt;
}

Expected<std::string> Inbox::refuse(const InboxFile& file, const std::string& reason) const {
  Expected<FileHandle> inbox = open_root(root_);
  if (!inbox) return Error{inbox.error()};
  Expected<int> folder = system::open_folder_at(inbox->get(), file.author, (root_ / file.author).string());
  if (!folder) return Error{folder.error()};
  const FileHandle from(*folder);
  Expected<FileHandle> refused = own_folder_at(inbox->get(), kRefusedFolder, (root_ / kRefusedFolder).string());
  if (!refused) return Error{refused.error()};
  const fs::path place = root_ / kRefusedFolder / file.author;
  Expected<FileHandle> into = own_folder_at(refused->get(), file.author, place.string());
  if (!into) return Error{into.error()};
  std::string stamp = system::utc_now_iso8601();
  std::erase(stamp, ':');
  const std::string base = stamp + "-" + safe_name(file.file);
  for (int i = 1; i <= 100; ++i) {
    const std::string target = i == 1 ? base : base + "-" + std::to_string(i), why = target + ".why";
    FileHandle note(::openat(into->get(), why.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!note.is_open() && errno == EEXIST) continue;
    if (!note.is_open()) return Error{errno_text((place / why).string(), "cannot create")};
    std::optional<std::string> error = system::write_all(note.get(), reason + "\n", place / why);
    if (!error && ::renameat2(from.get(), file.name.c_str(), into->get(), target.c_str(), RENAME_NOREPLACE) == 0)
      return (place / target).string();
    if (!error && errno != EEXIST) error = errno_text(shown(file), "cannot move to " + place.string());
    ::unlinkat(into->get(), why.c_str(), 0);
    if (error) return Error{*error};
  }
  return Error{shown(file) + ": cannot move to " + place.string() + ": 100 refused files of that name there"};
}

}  // namespace kalah::season
