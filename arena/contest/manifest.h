// bot.toml: the manifest of one contest submission (docs/CONTEST.md). Read as strictly as a config:
// unknown keys, wrong types and a missing `name` or `run` are errors with file:line:column.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "referee/engine/engine_spec.h"
#include "referee/rules/expected.h"

namespace kalah::arena {

inline constexpr const char* kManifestFile = "bot.toml";

struct Manifest {
  std::string name;                  // [A-Za-z0-9._-], 1 to 64 characters: it names the bot's folder
  std::string author;                // optional
  std::string language;              // optional, shown in the reports
  std::optional<std::string> build;  // a shell command run in the bot's folder; none: nothing to build
  std::vector<std::string> run;      // the program and its arguments (a string is split at spaces)
  Protocol protocol = Protocol::Kep;
};

// Whether `name` may name a bot: 1 to 64 letters, digits, '.', '_' or '-', not "." or "..".
bool valid_bot_name(std::string_view name);

// `path_for_messages` starts every error message.
Expected<Manifest> parse_manifest(std::string_view toml_text, std::string_view path_for_messages);
Expected<Manifest> read_manifest(const std::filesystem::path& file);

}  // namespace kalah::arena
