// The typed config written as TOML (docs/CONFIG.md): what `arena match` and `arena sprt` print for
// --print-config, the one way from typed values back to config text. parse_config() reads what is written to
// the same config: its fingerprint, tables, engines and keys (config_toml_test, the round trip).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "referee/rules/expected.h"

namespace kalah::arena {

// The keys of a time control as TOML `key = value` items: the limits of its mode, then each deadline that
// differs from `over`'s (a [time] table's over TimeControl{}, an engine's own time over the tournament's).
// `clock` is the tournament's ([time]'s), not written here.
std::vector<std::string> time_items(const TimeControl& time, const TimeControl& over);

// `config` as the TOML of a config file: each table and key that differs from its default; the engines'
// commands and the output folder as written; other paths absolute, but those a file reads against the working
// directory (pgnout, stderr, summary) relative to `work_dir` where they lie in it; an unsandboxed engine's
// folder left out where it is `work_dir` (where the file is read without one). A contest's entrants are not the
// config's ([submissions], entries.json), nor are the stages of a staged tournament: a config with them is an
// error that says so.
Expected<std::string> to_toml(const Config& config, const std::filesystem::path& work_dir);

}  // namespace kalah::arena
