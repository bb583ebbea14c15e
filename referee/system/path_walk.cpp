#include "referee/system/path_walk.h"

#include <sys/stat.h>

#include <deque>
#include <vector>

namespace kalah::system {

namespace fs = std::filesystem;

PathWalk walk_path(const fs::path& path) {
  PathWalk walk;
  std::error_code ec;
  const fs::path absolute = path.is_absolute() ? path : fs::current_path(ec) / path;
  std::deque<fs::path> parts;
  for (const fs::path& part : absolute.relative_path()) parts.push_back(part);
  fs::path at = absolute.root_path();
  int links = 0;
  while (!parts.empty()) {
    const fs::path part = parts.front();
    parts.pop_front();
    if (part.empty() || part == ".") continue;
    if (part == "..") {  // the parent of where the walk is, links already followed ("/.." is "/")
      at = at.parent_path();
      continue;
    }
    walk.folders.push_back(at);
    const fs::path next = at / part;
    struct stat st {};
    const bool exists = ::lstat(next.c_str(), &st) == 0;
    if (!exists || !S_ISLNK(st.st_mode) || links == kMaxLinksOnAWalk) {
      walk.too_many_links = exists && S_ISLNK(st.st_mode);
      at = next;
      if (!exists || walk.too_many_links) {  // the rest as written
        for (const fs::path& rest : parts) at /= rest;
        break;
      }
      continue;
    }
    ++links;
    const fs::path says = fs::read_symlink(next, ec);
    if (ec) {
      at = next;
      continue;
    }
    walk.links.emplace_back(next, says);
    // What the link says is walked in its place, from the root or from the link's own folder.
    const fs::path said = says.relative_path();
    std::vector<fs::path> first(said.begin(), said.end());
    parts.insert(parts.begin(), first.begin(), first.end());
    if (says.is_absolute()) at = says.root_path();
  }
  walk.target = at.lexically_normal();
  return walk;
}

}  // namespace kalah::system
