// Finding the program an engine command names: the one rule used by the config loader,
// `referee match` and the process layer.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "referee/rules/expected.h"

namespace kalah::system {

// A regular file this process may execute.
bool is_executable_file(const std::filesystem::path& path);

// $PATH, or the shell's default "/usr/local/bin:/usr/bin:/bin" when it is unset.
std::string path_variable();

// The executable `command` names, as an absolute, lexically normal path:
// - with a '/' ("bin/engine", "/usr/bin/python3"): that path, relative ones against `work_dir`;
// - a bare name ("python3"): the first PATH entry that holds an executable file of that name, as
//   a shell finds it. Empty PATH entries are skipped: the working directory is never searched
//   implicitly (a relative entry such as "." is taken against `work_dir` if written out).
// The error says what was found instead (a directory, a file without execute permission) or where
// it was looked for.
Expected<std::filesystem::path> find_executable(std::string_view command, std::string_view path_variable,
                                                const std::filesystem::path& work_dir);

}  // namespace kalah::system
