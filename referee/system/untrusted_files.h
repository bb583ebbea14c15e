// Files someone else controls — a submission, a built entry, an engine's folder, an archive — read,
// walked, copied and hashed by an arena that may run as root. Nothing here follows a symbolic link
// below the path it is given, opens a FIFO, a device, a socket or a /proc file, reads past a bound, or
// blocks on a read. Every open is relative to an open directory with O_NOFOLLOW | O_NONBLOCK, and what
// it returns is checked with fstat against what the directory listed, so a link swapped in between
// the look and the open is caught. Errors come back as text naming the path.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "referee/rules/expected.h"

namespace kalah::system {

// How far a walk over a tree may go before it stops with an error.
struct TreeBounds {
  std::uintmax_t max_bytes = 64ull << 20;  // regular files' sizes, together
  std::uintmax_t max_entries = 20000;      // files, folders, links and others, together (inodes)
  int max_depth = 32;
};

// One thing found in a tree, as the walk sees it.
struct TreeItem {
  enum class Kind { File, Directory, Link, Other };
  Kind kind = Kind::Other;
  std::string path;         // relative to the root, '/'-separated; the root itself is never an item
  mode_t mode = 0;          // the permission bits (07777) as found
  std::uintmax_t size = 0;  // File: its size when the walk opened it
  std::string link;         // Link: its target, as text (never followed)
  int fd = -1;              // File, with WalkOptions::open_files: open read-only, valid during the call
};
const char* to_string(TreeItem::Kind kind);  // "file", "folder", "symbolic link", "special file"

struct WalkOptions {
  TreeBounds bounds;
  bool open_files = false;  // give each File an fd (a walk that only measures needs none)
  // Returns true for an item to leave out (a folder is then not entered); it does not count.
  std::function<bool(const TreeItem&)> leave_out;
};

// Visits everything under `root` depth first, each folder's entries in name order, a folder before
// what it holds. `root` itself must be a folder (a link to one is refused). An error text when the
// root cannot be opened, a bound is passed, or `visit` returns one (which stops the walk). An entry
// that disappears while the walk runs (a build still writing) is passed over.
std::optional<std::string> walk_untrusted_tree(const std::filesystem::path& root, const WalkOptions& options,
                                               const std::function<std::optional<std::string>(const TreeItem&)>& visit);

// Reads from `fd` until its end or `max_bytes`, in pieces handed to `take`. An error text on a failed
// read, or when there is more than `max_bytes`.
std::optional<std::string> read_bounded(int fd, std::uintmax_t max_bytes,
                                        const std::function<void(std::string_view)>& take,
                                        std::string_view path_for_messages);

// Opens one regular file for reading: never a FIFO, device, socket or /proc file, and never blocking.
// With follow_link false a link as the last component is refused (earlier components are the
// caller's). Returns the fd (the caller closes it) and its size.
Expected<std::pair<int, std::uintmax_t>> open_regular_file(const std::filesystem::path& path, bool follow_link);

// The whole of a regular file of at most `max_bytes`, opened as open_regular_file does.
Expected<std::string> read_regular_file(const std::filesystem::path& path, std::uintmax_t max_bytes,
                                        bool follow_link = false);

// A folder's names, sorted ("." and ".." left out), from its open fd `dirfd`; at most `max_names` + 1 of them (more
// than `max_names` says there were more). An error text naming `where` when it cannot be listed.
std::optional<std::string> list_folder(int dirfd, const std::string& where, std::vector<std::string>& names,
                                       std::size_t max_names);

// Opens the folder `name` in the open folder `dirfd` (where it is `where`), never through a link; the fd (the caller
// closes it), or an error text: a link, not a folder, missing.
Expected<int> open_folder_at(int dirfd, const std::string& name, const std::string& where);

// Opens the regular file `name` in the open folder `dirfd` for reading, when it is still the file `listed` (the
// device and inode that fstatat without following a link gave): never a link, a FIFO, a device or a socket, never
// blocking. The fd (the caller closes it), or an error text naming `where`.
Expected<int> open_listed_file_at(int dirfd, const std::string& name, const struct stat& listed,
                                  const std::string& where);

struct CopyOptions {
  TreeBounds bounds;
  std::optional<std::pair<uid_t, gid_t>> owner;  // of everything copied (root only); none: the arena's user
  bool read_only = false;                        // files 0444/0555, folders 0555; otherwise 0644/0755, 0755
  bool keep_links = true;                        // copied as links (their targets as text); otherwise left out
  std::function<bool(const TreeItem&)> leave_out;
};

struct CopyReport {
  std::uintmax_t files = 0;
  std::uintmax_t bytes = 0;
  std::vector<std::string> left_out;  // "path (a FIFO)": what was not copied, and why
};

// Copies the tree `from` into `to`, which must not exist (its parent must). Only folders, regular
// files and (keep_links) symbolic links are copied; set-uid, set-gid and sticky bits are never
// copied, nor ownership: a file is executable for all when its owner could execute it, readable by
// all, writable by its owner only (never with read_only). On an error `to` is removed again.
Expected<CopyReport> copy_untrusted_tree(const std::filesystem::path& from, const std::filesystem::path& to,
                                         const CopyOptions& options);

// Removes a tree without following a link inside it (unlinkat relative to each folder's fd). Returns
// an error text naming what could not be removed; a missing tree is not an error.
std::optional<std::string> remove_tree(const std::filesystem::path& root);

// Makes sure `dir` is a real folder to write the arena's own files into: creates it (mode 0755) when it is
// missing, accepts it when it is a folder, and refuses a symbolic link or anything else there (in a results
// folder from elsewhere, a planted `bots` link to /etc would have the reports written through it). Its parent
// must exist.
std::optional<std::string> make_own_folder(const std::filesystem::path& dir);

// Creates (or truncates) the regular file `path` and writes `content`, or appends it: never through a
// link, never into a FIFO or device. The folder is the caller's (the arena's own). Mode 0644.
std::optional<std::string> write_own_file(const std::filesystem::path& path, std::string_view content,
                                          bool append = false);

}  // namespace kalah::system
