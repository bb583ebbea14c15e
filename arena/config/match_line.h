// `arena match`: a tournament described with the flags engine authors know from cutechess-cli and
// fastchess (single dash, key=value groups: `-engine cmd=./a name=a -each tc=40/60+0.6 -rounds 100`).
// The flags are written out as the TOML of an equivalent config, one line per key and each line
// remembering the flag it came from, and go through parse_config: the same validation, defaults and
// fingerprint as `arena run` on a file, and a config error is reported against the flag that caused
// it. docs/CLI.md lists every flag, its TOML key and what differs from cutechess.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "referee/rules/expected.h"

namespace kalah::arena {

struct MatchLine {
  std::string toml;                  // the equivalent config
  std::vector<std::string> origins;  // origins[i]: the flag that wrote line i + 1 of `toml` ("" for none)
  bool print_config = false;         // --print-config: print `toml` and stop
  bool fresh = false;                // --fresh, as for `arena run`
  bool help = false;                 // -h / --help
  // Per -engine flag, in order: whether it gave name=, and the line of `toml` (from 0) that names it. An
  // engine without name= is named after its command until set_engine_name() gives it the name it announces.
  std::vector<bool> named;
  std::vector<std::size_t> name_lines;
  // Per -engine flag, in order: its place among the config's [[engine]] tables. The flags' own order, except
  // with -sprt, which tests the first -engine against the second: then the first is the config's second
  // engine, its SPRT's test engine (docs/SPRT.md).
  std::vector<std::size_t> config_index;
};

// Reads the flags (everything after `arena match`); an unknown or malformed flag is an error naming it.
Expected<MatchLine> parse_match_line(const std::vector<std::string>& args);

// Names engine `engine` (by its place among the -engine flags) `name` in `line.toml`.
void set_engine_name(MatchLine& line, std::size_t engine, const std::string& name);

// The config of `line` (relative paths against `work_dir`), or the first problem, named by its flag:
// "-engine cmd=x name=a: engine.cmd \"x\" not found (...)".
Expected<Config> match_config(const MatchLine& line, const std::filesystem::path& work_dir);

}  // namespace kalah::arena
