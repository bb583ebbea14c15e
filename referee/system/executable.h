// Finding the program an engine command names: the one rule used by the config loader,
// every `referee` command that takes an engine and the process layer.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// A bundled bot by its name ("kalah-random"): this program's own, wherever it is run from. Looked for in
// its build tree's bots/ folder (build/arena and build/referee beside build/bots/), then beside it where
// it is installed (bin/arena beside bin/kalah-random). None for a name that is no bot's (without the
// "kalah-" prefix, or with a '/'); every place looked at is added to `tried`.
std::optional<std::filesystem::path> find_bundled_bot(std::string_view name, std::vector<std::string>& tried);

}  // namespace kalah::system
