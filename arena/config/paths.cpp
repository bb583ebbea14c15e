#include "arena/config/paths.h"

#include <optional>
#include <string_view>
#include <system_error>
#include <vector>

#include "referee/system/executable.h"

namespace kalah::arena {
namespace fs = std::filesystem;

namespace {

std::string quote(const std::string& s) { return "\"" + s + "\""; }

// The working directory, then the config directory (once if they are the same).
std::vector<fs::path> candidates(const std::string& path, const fs::path& work_dir, const fs::path& config_dir) {
  std::vector<fs::path> out{absolute_from(work_dir, path)};
  fs::path second = absolute_from(absolute_from(work_dir, config_dir), path);
  if (second != out.front()) out.push_back(second);
  return out;
}

std::string tried(const std::vector<std::string>& places) {
  std::string s;
  for (size_t i = 0; i < places.size(); ++i) s += (i ? ", " : "") + places[i];
  return "(tried " + s + ")";
}

}  // namespace

fs::path absolute_from(const fs::path& dir, const fs::path& path) {
  fs::path p = (path.is_absolute() ? path : dir / path).lexically_normal();
  // "/a/b/" -> "/a/b", but "/" stays.
  if (!p.has_filename() && p.has_parent_path() && p != p.root_path()) p = p.parent_path();
  return p;
}

Expected<fs::path> resolve_command(const std::string& cmd, const fs::path& work_dir, const fs::path& config_dir,
                                   const std::string& path_env) {
  std::vector<std::string> places;
  std::vector<fs::path> paths;
  if (cmd.find('/') == std::string::npos) {
    places.push_back("PATH");
    if (Expected<fs::path> found = system::find_executable(cmd, path_env, work_dir)) return *found;
    // A bundled bot by its name ("kalah-random") is the arena's own, wherever the config was copied to.
    if (std::optional<fs::path> bot = system::find_bundled_bot(cmd, places)) return *bot;
  }
  if (fs::path(cmd).is_absolute())
    paths.push_back(fs::path(cmd).lexically_normal());
  else
    paths = candidates(cmd, work_dir, config_dir);
  for (const fs::path& p : paths) {
    std::error_code ec;
    if (!fs::exists(p, ec)) {
      places.push_back(p.string());
      continue;
    }
    if (fs::is_directory(p, ec)) return Error{quote(cmd) + " (" + p.string() + ") is a directory, not a program"};
    if (!system::is_executable_file(p)) return Error{quote(cmd) + " (" + p.string() + ") is not executable"};
    return p;
  }
  return Error{quote(cmd) + " not found " + tried(places)};
}

Expected<fs::path> resolve_directory(const std::string& dir, const fs::path& work_dir, const fs::path& config_dir) {
  std::vector<std::string> places;
  for (const fs::path& p : candidates(dir, work_dir, config_dir)) {
    std::error_code ec;
    if (!fs::exists(p, ec)) {
      places.push_back(p.string());
      continue;
    }
    if (!fs::is_directory(p, ec)) return Error{quote(dir) + " (" + p.string() + ") is not a directory"};
    return p;
  }
  return Error{quote(dir) + " not found " + tried(places)};
}

}  // namespace kalah::arena
