// How the config's relative paths are found (docs/CONFIG.md, "Paths").
#pragma once

#include <filesystem>
#include <string>

#include "referee/rules/expected.h"

namespace kalah::arena {

// `path` made absolute against `dir` (unless already absolute) and lexically normalised, without a
// trailing separator.
std::filesystem::path absolute_from(const std::filesystem::path& dir, const std::filesystem::path& path);

// An engine command:
// - absolute: used as it is;
// - a bare name without '/' ("python3"): searched on PATH like a shell does; a bundled bot's name
//   ("kalah-random") then in this arena's own bots (its build tree's bots/, or beside it when installed);
//   then treated as relative;
// - relative: the current working directory first, then the config file's directory.
// The result is absolute and must be an executable regular file. The error message says which
// places were tried (without a position: the caller adds the key's).
Expected<std::filesystem::path> resolve_command(const std::string& cmd, const std::filesystem::path& work_dir,
                                                const std::filesystem::path& config_dir, const std::string& path_env);

// An engine working directory: the same order (working directory, then config directory), but no
// PATH search; it must be an existing directory.
Expected<std::filesystem::path> resolve_directory(const std::string& dir, const std::filesystem::path& work_dir,
                                                  const std::filesystem::path& config_dir);

}  // namespace kalah::arena
