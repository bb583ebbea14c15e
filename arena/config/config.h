// A tournament's configuration: TOML (docs/CONFIG.md) -> one validated value.
//
// Everything is checked once, here, before anything starts: unknown tables and keys, wrong types,
// out-of-range values, duplicate engine names, missing or non-executable commands, bad openings.
// The first problem found comes back as an Error whose message is "path:line:column: message",
// the position taken from toml++'s source regions (or from the openings file for a bad opening).
// The rest of the arena receives the result as `const Config&`; nothing reads the file again.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/stats/sprt.h"
#include "referee/rules/expected.h"
#include "referee/rules/position.h"
#include "referee/rules/variant.h"

namespace kalah::arena {

enum class TournamentType { RoundRobin, Gauntlet };
const char* to_string(TournamentType t);  // "round-robin", "gauntlet"

struct TournamentConfig {
  std::string name;  // [A-Za-z0-9._-]+, not "." or ".."; the results go to <output>/<name>/
  TournamentType type = TournamentType::RoundRobin;
  int rounds = 1;       // colour-swapped game pairs per pairing
  int concurrency = 1;  // games at once, 1..256
  std::uint64_t seed = 1;
  std::filesystem::path output = "results";  // as written (relative to the working directory)
  int rating_interval = 0;     // games between standings prints; 0 = only at the end
  int progress_interval = 10;  // games between plain progress lines off a terminal; 0 = only at the end
  std::vector<int> seed_engines;  // gauntlet only: indices into Config::engines; empty for round robin
  int max_plies = 1000;           // a game still running after this many plies is adjudicated
};

// Exactly one way to limit a move.
enum class TimeMode {
  Fischer,   // base_ms per game + inc_ms per move
  MoveTime,  // movetime_ms per move
  Depth,     // go depth <depth>, bounded by hard_limit_ms
  Nodes,     // go nodes <nodes>, bounded by hard_limit_ms
};
const char* to_string(TimeMode m);  // "fischer", "movetime", "depth", "nodes"

struct TimeConfig {
  TimeMode mode = TimeMode::Fischer;
  std::int64_t base_ms = 0;      // Fischer
  std::int64_t inc_ms = 0;       // Fischer (optional, default 0)
  std::int64_t movetime_ms = 0;  // MoveTime
  int depth = 0;                 // Depth
  std::int64_t nodes = 0;        // Nodes
  std::int64_t margin_ms = 50;        // grace after the clock runs out before a time forfeit
  std::int64_t startup_ms = 5000;     // deadline for start-up and the kep handshake
  std::int64_t ping_ms = 5000;        // deadline for readyok after isready
  std::int64_t hard_limit_ms = 60000; // per-move deadline in Depth and Nodes modes
};

enum class OpeningOrder { Sequential, Random };
const char* to_string(OpeningOrder o);  // "sequential", "random"

struct OpeningsConfig {
  int random_plies = 0;          // > 0: a random legal opening of this many plies per game pair
  std::filesystem::path file;    // the book as resolved (empty: no book)
  std::vector<std::vector<Move>> book;  // the book's lines, each replayed and checked
  OpeningOrder order = OpeningOrder::Sequential;  // how book lines are handed out
};

struct SprtConfig {
  stats::SprtParams params;  // elo0 < elo1, 0 < alpha, beta < 0.5; model defaults to Normalized
  int max_pairs = 0;         // 0 = until a bound is crossed
};

enum class Protocol { Kep, Mankalah };
const char* to_string(Protocol p);  // "kep", "mankalah"

enum class RestartPolicy { OnCrash, Always };
const char* to_string(RestartPolicy r);  // "on-crash", "always"

struct EngineOption {
  std::string name;
  std::string value;  // as sent with setoption: 12, 1.5, true/false, or the string itself
  friend bool operator==(const EngineOption&, const EngineOption&) = default;
};

struct EngineConfig {
  std::string name;                  // unique within the tournament
  std::string cmd_as_written;        // the `cmd` text from the file (used by fingerprint())
  std::filesystem::path cmd;         // resolved, absolute, executable
  std::vector<std::string> args;
  std::filesystem::path dir;         // absolute working directory of the process
  std::vector<EngineOption> options; // sorted by name
  Protocol protocol = Protocol::Kep;
  RestartPolicy restart = RestartPolicy::OnCrash;
  std::filesystem::path stderr_file;  // absolute; empty = the engine's stderr is discarded
};

struct Config {
  std::string source;  // the config file as named in messages
  TournamentConfig tournament;
  Variant variant;
  TimeConfig time;
  OpeningsConfig openings;
  std::optional<SprtConfig> sprt;  // present iff the file has an [sprt] table
  std::vector<EngineConfig> engines;  // at least two

  // <output>/<name>: where the journal and the reports go.
  std::filesystem::path results_dir() const { return tournament.output / tournament.name; }
  // The index of the engine with this name, or -1.
  int engine_index(std::string_view name) const;
};

// Reads and validates a config file. Relative paths inside it (`cmd`, `dir`, `openings.file`) are
// resolved as documented in docs/CONFIG.md, against the current working directory and the
// directory of `path`.
Expected<Config> load_config(const std::filesystem::path& path);

// The same from text: `path_for_messages` starts every error message, `base_dir` is the directory
// relative paths fall back to (the config file's directory), `work_dir` stands in for the current
// working directory (tests pass their own).
Expected<Config> parse_config(std::string_view toml_text, std::string_view path_for_messages,
                              const std::filesystem::path& base_dir,
                              const std::filesystem::path& work_dir = std::filesystem::current_path());

// A canonical text of everything that decides which games are played and how: type, rounds, seed,
// seed engines, max_plies, variant, the whole [time] table, openings (the book by content), [sprt]
// except max_pairs, and each engine's name, cmd as written, args, options and protocol. Not the
// tournament name, concurrency, output or the intervals, nor an engine's dir, restart or stderr,
// which change nothing about the games. One `key=value` per line, so two fingerprints can be
// diffed to say what changed.
std::string fingerprint(const Config& config);

// FNV-1a 64 of fingerprint(), as 16 lowercase hex digits: short enough for a journal header.
std::string fingerprint_hash(const Config& config);

}  // namespace kalah::arena
