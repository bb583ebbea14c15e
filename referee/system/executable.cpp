#include "referee/system/executable.h"

#include <unistd.h>

#include <cstdlib>
#include <system_error>

namespace kalah::system {

namespace fs = std::filesystem;

bool is_executable_file(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

std::string path_variable() {
  const char* path = std::getenv("PATH");
  return path ? path : "/usr/local/bin:/usr/bin:/bin";
}

Expected<fs::path> find_executable(std::string_view command, std::string_view path_variable, const fs::path& work_dir) {
  const std::string quoted = "'" + std::string(command) + "'";
  if (command.empty()) return Error{"the command is empty"};
  if (command.find('/') != std::string_view::npos) {
    const fs::path path = (work_dir / command).lexically_normal();  // an absolute command replaces work_dir
    std::error_code ec;
    if (!fs::exists(path, ec)) return Error{quoted + " not found"};
    if (fs::is_directory(path, ec)) return Error{quoted + " is a directory, not a program"};
    if (!is_executable_file(path)) return Error{quoted + " is not executable"};
    return path;
  }
  for (std::string_view rest = path_variable; !rest.empty();) {
    const std::size_t colon = rest.find(':');
    const std::string_view entry = rest.substr(0, colon);
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    if (entry.empty()) continue;
    const fs::path candidate = (work_dir / entry / command).lexically_normal();
    if (is_executable_file(candidate)) return candidate;
  }
  return Error{quoted + " not found in PATH"};
}

std::optional<fs::path> find_bundled_bot(std::string_view name, std::vector<std::string>& tried) {
  if (!name.starts_with("kalah-") || name.find('/') != std::string_view::npos) return std::nullopt;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  for (const fs::path& dir : {exe.parent_path() / "bots", exe.parent_path()}) {
    const fs::path candidate = (dir / name).lexically_normal();
    if (is_executable_file(candidate)) return candidate;
    tried.push_back(candidate.string());
  }
  return std::nullopt;
}

}  // namespace kalah::system
