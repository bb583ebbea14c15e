// An SPRT described on the command line instead of in a file. The options become the typed values of a Config
// (sprt_draft), which is written out as TOML (to_toml, arena/config/config_toml.h) and goes through
// parse_config, so both ways get the same validation, the same defaults and the same fingerprint (a match
// started from options resumes from a file that says the same, and the other way round), and `arena sprt
// --print-config` prints what was read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "referee/rules/expected.h"

namespace kalah::arena {

// The plies of the random opening each pair of `arena sprt` plays unless --openings or --openings-plies says.
inline constexpr int kSprtOpeningPlies = 4;

// `arena sprt --base CMD --test CMD ...`; every field as the option was given.
struct SprtCommandLine {
  std::string base, test;  // commands; words after the first are arguments
  std::string base_name = "base", test_name = "test";
  std::vector<std::string> base_options, test_options;  // NAME=VALUE
  std::string tc;             // "40/60+0.6" (seconds); empty: TimeControl's default clock when no other limit is given
  std::int64_t movetime = 0;  // ms
  int depth = 0;
  std::int64_t nodes = 0;
  int concurrency = 0;      // 0: 1
  int openings_plies = -1;  // -1: kSprtOpeningPlies unless a book is given
  std::string openings;     // a book file
  // [sprt]'s defaults (SprtConfig's initialisers).
  double elo0 = SprtConfig{}.params.elo0, elo1 = SprtConfig{}.params.elo1;
  double alpha = SprtConfig{}.params.alpha, beta = SprtConfig{}.params.beta;
  std::string model = stats::to_string(SprtConfig{}.params.model);
  int max_pairs = -1;                               // -1: 0 (until decided)
  bool bench = false;                               // --bench: check each engine's bench before the first game
  std::optional<long long> base_bench, test_bench;  // --base-bench N, --test-bench N (imply --bench)
  std::string variant;                              // "pits=6 seeds=4 ..."
  std::string name = "sprt";
  std::uint64_t seed = 1;
  std::string out;    // output folder
  std::string clock;  // "wall" or "cpu" ([time] clock); empty: wall
  // A git SPRT (docs/SPRT.md, "From git"): the engines are two commits of `repo`, instead of base/test.
  std::string repo, base_ref, test_ref;
  std::string build, run;  // shell command run in each checkout; the engine's command there
  std::string worktrees;   // the build cache; empty: the default
  std::string build_sandbox;
  // [tournament]'s sandbox and limits for both engines (empty or 0: not given): `--sandbox bwrap` with
  // `--memory-mb`, `--memory-enforcement`, `--max-file-mb`, `--max-processes`, `--max-output-kb`.
  std::string sandbox;
  std::string memory_enforcement;  // "cgroup" or "rlimit" (--memory-enforcement); empty: not given
  long long memory_mb = 0, max_file_mb = 0, max_output_kb = 0;
  int max_processes = 0;
  std::string summary;  // a Markdown summary for a pull request
};

// A TOML basic string ("..."): TOML's escapes (quote, backslash, \n, \t, \u and four hex digits ...)
// are JSON's. For the command lines written out as TOML.
std::string toml_string(std::string_view text);

// The config the options describe (relative paths against `work_dir`); errors name the option.
Expected<Config> sprt_config(const SprtCommandLine& options, const std::filesystem::path& work_dir);

// The options as the typed values of a Config, before the checks of reading it (a command found, a book read, an
// engine's sandbox): what sprt_config() writes out and reads. An option no config could hold is an error naming it.
Expected<Config> sprt_draft(const SprtCommandLine& options);

}  // namespace kalah::arena
