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

#include "arena/config/analysis_config.h"
#include "arena/config/kinds.h"
#include "arena/config/openings.h"
#include "arena/rating/ranking.h"
#include "arena/sandbox_build/build_limits.h"
#include "referee/engine/engine_spec.h"
#include "referee/game/adjudication.h"
#include "referee/game/time_control.h"
#include "referee/rules/expected.h"
#include "referee/rules/position.h"
#include "referee/rules/variant.h"
#include "referee/stats/sprt.h"

namespace kalah::arena {

const char* to_string(TournamentType t);  // its name in the registry: "round-robin", "gauntlet", ...
// Swiss and knockout pair each round from the results of the rounds before (docs/SCHEDULE.md) and rank by a
// table of their own.
inline bool plays_by_rounds(TournamentType t) { return kind_of(t).form != KindForm::None; }
// Adaptive pairing (docs/SCHEDULE.md, "Adaptive") pairs each round from the results too, but ranks by Elo:
// it has no form of its own.
inline bool paired_from_results(TournamentType t) { return kind_of(t).from_results; }

// [tournament] transcripts: which games leave a protocol transcript, with the engines' stderr tails, in
// <results>/transcripts/ (docs/FORMATS.md, "Transcripts").
enum class TranscriptMode { Forfeits, All, None };
const char* to_string(TranscriptMode m);  // "forfeits", "all", "none"

// [tournament] adjudicate = { ... } (docs/CONFIG.md, "Adjudication"): when the referee may end a game
// early. Everything off unless configured.
struct AdjudicationConfig {
  bool store_majority = false;
  int database_seeds = -1;  // -1: no database; else 0..max_database_seeds(variant)
  std::optional<DrawRule> draw;
  std::optional<ResignRule> resign;

  bool any() const { return store_majority || database_seeds >= 0 || draw || resign; }
  // "store_majority=true database_seeds=20 draw=movenumber:40,movecount:4,score:0 resign=..." (only what is set)
  std::string describe() const;
  friend bool operator==(const AdjudicationConfig&, const AdjudicationConfig&) = default;
};

// The largest database_seeds for a variant: the database of that many seeds fits in 1 GiB.
int max_database_seeds(const Variant& v);

// One stage of type = "staged" (docs/CONFIG.md, "Staged"): a round robin of the engines still in, over `variant`,
// `rounds` colour-swapped pairs per pairing. Played by arena/formats/staged.
struct StageConfig {
  Variant variant;  // the stage's keys over those of [variant]
  int rounds = 1;
  friend bool operator==(const StageConfig&, const StageConfig&) = default;
};

struct TournamentConfig {
  std::string name;  // [A-Za-z0-9._-]+, not "." or ".."; the results go to <output>/<name>/
  TournamentType type = kDefaultKind;
  int rounds = 1;  // colour-swapped game pairs per pairing; Swiss: Swiss rounds (one pair each); knockout: per match
  int tiebreak_pairs = 3;         // knockout only: extra pairs, one at a time, while a match is tied
  int budget_games = 0;           // adaptive only (required there): the most games, an even number
  int target_width = 0;           // adaptive only: stop once every 95% rank interval is at most this wide; 0: none
  std::vector<int> boundaries{};  // adaptive only: a final's places, ascending (docs/SCHEDULE.md); empty: none
  int concurrency = 1;            // games at once, 1..256
  std::uint64_t seed = 1;
  std::filesystem::path output = "results";  // as written (relative to the working directory)
  int rating_interval = 0;                   // games between standings prints; 0 = only at the end
  int progress_interval = 10;                // games between plain progress lines off a terminal; 0 = only at the end
  bool publish = false;                      // reports leave local paths and the user's name out of engine commands
  int report_every = 30;                     // seconds between live rewrites of report.html and standings; 0 = off
  std::vector<int> seed_engines;             // gauntlet only: indices into Config::engines; empty for round robin
  int max_plies = kDefaultMaxPlies;          // a game still running after this many plies is adjudicated
  AdjudicationConfig adjudicate;             // the early endings; off unless configured
  // Defaults for every engine (each [[engine]] may override them): docs/SECURITY.md.
  SandboxMode sandbox = SandboxMode::None;
  bool sandbox_given = false;  // `sandbox` written in [tournament] (a contest's entrants default to bwrap)
  bool keep_sandbox = false;
  EngineLimits limits;
  RestartPolicy restart = RestartPolicy::OnCrash;
  // CPU isolation: each concurrent game slot gets its own CPUs (`pin`, from the CPUs the arena may use,
  // or from `cpus`); both engines of a game run there. Empty and false: no pinning.
  bool pin = false;
  std::vector<int> cpus;
  // A copy of games.pgn written here too after each run (cutechess's -pgnout); empty: none.
  std::filesystem::path pgnout;
  TranscriptMode transcripts = TranscriptMode::Forfeits;
  // type = "staged": the stages in order, each a round robin of `type` RoundRobin in a folder of its own; the
  // engines with more losses than wins in a stage leave (docs/CONFIG.md, "Staged"). Empty for every other type.
  std::vector<StageConfig> stages;

  bool staged() const { return !stages.empty(); }
  friend bool operator==(const TournamentConfig&, const TournamentConfig&) = default;
};

enum class OpeningOrder { Sequential, Random };
const char* to_string(OpeningOrder o);  // "sequential", "random"

struct OpeningsConfig {
  int random_plies = 0;                           // > 0: a random legal opening of this many plies per game pair
  std::filesystem::path file;                     // the book as resolved (empty: no book)
  std::vector<OpeningLine> book;                  // the book's lines, each replayed and checked
  OpeningOrder order = OpeningOrder::Sequential;  // how book lines are handed out
  BookFormat format = BookFormat::Auto;           // how the book's lines are read

  // Whether some game may start from a position other than the variant's standard start.
  bool has_positions() const;
};

// [rating]: what the reports' rating list is anchored on (docs/RATING.md, "Anchors").
struct RatingConfig {
  std::string anchor;  // an engine name; empty: no anchor (ratings have mean 0)
  double anchor_elo = 0;
};

// [submissions] (docs/CONTEST.md): a contest whose entrants are built from a folder of submissions by
// `arena contest build`, each a subfolder with a bot.toml manifest. The built entrants are recorded in
// <results>/entries.json and join Config::engines after the [[engine]] tables (house bots), in the order
// they entered, so that an engine keeps its index, and a game its id, when later entries arrive.
enum class GamesRule { Keep, Void };
const char* to_string(GamesRule r);  // "keep", "void"

// [submissions] gate (docs/CONTEST.md, "The sanity gate"): what a built and checked bot must show before
// it enters. Either part may be left out, not both: games against `opponent` (half with each colour,
// the contest's variant, start and [time]) scoring at least `min_score` of the points, and solver-labelled
// positions (`referee suite`) of which at least `min_perfect` get a perfect move.
struct GateConfig {
  std::string opponent;                // the command as written ("kalah-random"); empty: no games
  std::filesystem::path opponent_cmd;  // resolved like an [[engine]] cmd, absolute
  int games = 20;                      // even, so that the colours are balanced
  double min_score = 0;                // 0..1 of the points
  int suite = 0;                       // positions; 0: no suite
  double min_perfect = 0;              // 0..1 of the positions

  bool plays_games() const { return !opponent.empty(); }
  bool runs_suite() const { return suite > 0; }
  friend bool operator==(const GateConfig&, const GateConfig&) = default;
};

struct SubmissionsConfig {
  std::filesystem::path dir;                // absolute
  sandbox_build::BuildLimits build_limits;  // a bot's build: build_timeout_s, _memory_mb, _disk_mb, _sandbox
  // How entrants play and are checked: bwrap unless [tournament] says sandbox = "none" (docs/SECURITY.md).
  SandboxMode entrant_sandbox = SandboxMode::Bwrap;
  bool check = true;                         // a built bot must pass `referee check` to be entered
  GamesRule withdrawn = GamesRule::Keep;     // the finished games of a withdrawn entrant
  GamesRule disqualified = GamesRule::Void;  // ... and of a disqualified one
  std::optional<GateConfig> gate;            // none: a bot that builds and passes its check enters
  friend bool operator==(const SubmissionsConfig&, const SubmissionsConfig&) = default;
};

// One side of a git SPRT: a ref of the repository and, once arena/git has prepared it, its commit and
// the built engine.
struct GitSide {
  std::string ref;    // as given ("main", "HEAD~1", "v1.2")
  EngineSpec engine;  // name, options, restart, sandbox and limits from the config; cmd, args and dir once built
  // Set by arena::git::prepare_git_engines:
  std::string commit;               // the full hash the ref named
  double build_seconds = 0;         // of the build that made the cached tree (0 without a build command)
  bool built_now = false;           // false: the build was found in the cache
  std::filesystem::path build_log;  // in the cache; copied into the results folder (logs/<base|test>/build.log)
};

// [sprt] repo = ...: the two engines are two commits of one repository, each checked out into a build
// cache keyed by commit, built once with `build` and run with `run` (docs/SPRT.md, "From git").
struct GitSprtConfig {
  std::filesystem::path repo;       // absolute
  std::string build;                // a shell command run in each checkout; empty: nothing to build
  std::string run;                  // the engine's command, run in its checkout: words, the first one the program
  std::filesystem::path worktrees;  // absolute: the cache, $XDG_CACHE_HOME/kalah-arena/worktrees by default
  // The contest's default limits; build_sandbox "none" unless asked.
  sandbox_build::BuildLimits build_limits{.sandbox = SandboxMode::None};
  GitSide base, test;
};

struct SprtConfig {
  stats::SprtParams params{.model = stats::Model::Normalized};  // elo0 < elo1, 0 < alpha, beta < 0.5
  int max_pairs = 0;                                            // 0 = until a bound is crossed
  std::optional<GitSprtConfig> git;                             // the engines come from git, not from [[engine]] tables
  std::filesystem::path summary;  // a Markdown summary for a pull request written here at the end; empty: none
  // bench = true: each engine is asked for its bench before the first game (docs/SPRT.md, "A build check by
  // bench"), its count recorded and compared on resume; a declared count (base_bench, test_bench, which imply
  // bench) must match. None of them changes the games, so they are not in the fingerprint.
  bool bench = false;
  std::optional<long long> base_bench, test_bench;
};

// Where an engine stands in a contest. Every engine of a tournament without [submissions] is Active.
using rating::EntryStatus;  // Active, Withdrawn, Disqualified (arena/rating/ranking.h)

struct EntryState {
  EntryStatus status = EntryStatus::Active;
  std::string reason;  // why it was withdrawn or disqualified
  std::string gate;    // its figures at the contest's sanity gate (GateResult::figures()); empty: none
};

// One part of a sharded tournament (docs/SCALE.md): `arena run --shard I/N`.
struct Shard {
  int index = 1;  // 1-based
  int count = 1;
  std::string text() const { return std::to_string(index) + "-of-" + std::to_string(count); }  // "2-of-4"
  friend bool operator==(const Shard&, const Shard&) = default;
};

// "I/N" with 1 <= I <= N (digits only); an operator-facing error otherwise.
Expected<Shard> parse_shard(std::string_view text);

struct Config {
  std::string source;  // the config file as named in messages
  std::string text;    // the TOML it was read from, copied into the results folder (config.toml)
  TournamentConfig tournament;
  Variant variant;
  std::optional<Position> start;  // [variant] start: where every game starts (before openings)
  TimeControl time;
  OpeningsConfig openings;
  std::optional<SprtConfig> sprt;  // present iff the file has an [sprt] table
  RatingConfig rating;             // [rating]: the anchor of the reports' rating list
  rating::RankingRules ranking;    // [ranking]: how the standings rank (docs/RANKING.md); not in the fingerprint
  std::optional<AnalysisConfig> analysis;  // [analysis]: a perfect-play analysis at the end; not in the fingerprint
  std::vector<EngineSpec> engines;         // at least two; cmd resolved and absolute, options sorted by name
  std::optional<Shard> shard;              // set by `arena run --shard`, never by the file
  std::optional<SubmissionsConfig> submissions;  // present iff the file has a [submissions] table
  int house_engines = 0;                         // how many engines the [[engine]] tables gave
  std::vector<EntryState> entries;               // one per engine (empty: every engine is active)
  // A contest's submission folders and, for those that did not enter, "name (reason)"; empty for the others.
  std::vector<std::pair<std::string, std::string>> not_entered;
  // What every command that loads this config says on stderr before it starts (an unsandboxed contest).
  std::vector<std::string> warnings;

  // Whether engine `i` still plays: a withdrawn or disqualified entrant plays no more games.
  bool plays(int i) const { return entries.empty() || entries[i].status == EntryStatus::Active; }
  // Whether the finished games of engine `i` count (a contest's rule for withdrawn/disqualified entrants).
  bool games_count(int i) const;
  bool is_contest() const { return submissions.has_value(); }
  // <results>/entries.json, where `arena contest build` records the entrants.
  std::filesystem::path entries_file() const { return results_dir() / "entries.json"; }

  // <output>/<name>: where the journal and the reports go.
  std::filesystem::path results_dir() const { return tournament.output / tournament.name; }
  // Where this run's journal goes: results_dir(), or results_dir()/shards/I-of-N for a shard.
  std::filesystem::path journal_dir() const;
  // Engine `engine` as started for game `game_id`: "{shard}" in its stderr path becomes the shard
  // ("2-of-4", "all" unsharded) and "{game}" the id of the game the process is started for (an
  // engine process lives on across games, so its file holds every game it played from then on).
  EngineSpec engine_for_game(int engine, const std::string& game_id) const;
  // Where games start when no book line says otherwise: `start` or the variant's standard start.
  Position start_or_standard() const { return start ? *start : start_position(variant); }
  // Whether a game may start from a position other than the standard start (a start or a book of
  // positions): every engine must then take `position <start>` (docs/PROTOCOL.md).
  bool uses_positions() const;
  // The index of the engine with this name, or -1.
  int engine_index(std::string_view name) const;
};

// The gate's opponent as it plays: named by its command as written, with the sandbox and limits of
// [tournament] (as an [[engine]] table without keys of its own). `config` must have a gate with games.
EngineSpec gate_opponent(const Config& config);

// "0-3,6" -> {0, 1, 2, 3, 6} (tournament.cpus); an error for anything else. The game slots' CPUs are the
// runner's (arena/runner/pinning.h).
Expected<std::vector<int>> parse_cpu_list(std::string_view text);

// `arena run/match/sprt --clock`: every time control of the config (the tournament's and the engines' own)
// on `clock`; part of the fingerprint, so a journal of the other clock is refused on resume.
void set_clock(Config& config, ClockKind clock);

// Reads and validates a config file. Relative paths inside it (`cmd`, `dir`, `openings.file`) are
// resolved as documented in docs/CONFIG.md, against the current working directory and the
// directory of `path`. The file alone: a contest's ([submissions]) entrants are in its entries.json,
// which arena/contest reads (load_with_entrants, arena/contest/entries.h).
Expected<Config> load_config(const std::filesystem::path& path);

// The same from text: `path_for_messages` starts every error message, `base_dir` is the directory
// relative paths fall back to (the config file's directory), `work_dir` stands in for the current
// working directory (tests pass their own).
Expected<Config> parse_config(std::string_view toml_text, std::string_view path_for_messages,
                              const std::filesystem::path& base_dir,
                              const std::filesystem::path& work_dir = std::filesystem::current_path());

// A canonical text of everything that decides which games are played and how: type, rounds, seed,
// tiebreak_pairs (a knockout's only),
// seed engines, max_plies, adjudicate (when set), variant, the whole [time] table, openings (the book by content),
// [sprt] except max_pairs, and each engine's name, cmd as written, args, options and protocol. Not the tournament name,
// concurrency, output or the intervals, nor an engine's dir, restart or stderr, which change nothing about the games.
// One `key=value` per line, so two fingerprints can be diffed to say what changed.
std::string fingerprint(const Config& config);

// FNV-1a 64 (a fast digest for noticing change, not a security checksum) and its 16 hex digits.
std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 0xcbf29ce484222325ull);
std::string hex(std::uint64_t value);

// FNV-1a 64 of fingerprint(), as 16 lowercase hex digits: short enough for a journal header.
std::string fingerprint_hash(const Config& config);

}  // namespace kalah::arena
