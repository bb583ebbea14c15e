// The way the kernel walks to a path: every folder it looks a name up in, and every symbolic link it
// follows to where it leads, like realpath(3) — so that a check of who can reach a path judges the
// place the path leads to, not the text it is written as. Looks only (lstat, readlink); opens nothing.
#pragma once

#include <filesystem>
#include <utility>
#include <vector>

namespace kalah::system {

// At most this many links on one walk, as Linux allows (MAXSYMLINKS): a loop ends here.
inline constexpr int kMaxLinksOnAWalk = 40;

struct PathWalk {
  // Where the path leads: absolute, without links, "." or ".."; a part that does not exist (or that a
  // loop of links stopped) is kept as written.
  std::filesystem::path target;
  // The folders a name was looked up in, in walking order: each needs search (x) permission.
  std::vector<std::filesystem::path> folders;
  // The links followed: (where the link is, what it says).
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> links;
  bool too_many_links = false;
};

// The walk to `path` (a relative one from the current directory).
PathWalk walk_path(const std::filesystem::path& path);

}  // namespace kalah::system
