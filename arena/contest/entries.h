// <results>/entries.json: a contest's submissions as `arena contest build` found and built them, and
// what became of each (docs/CONTEST.md, docs/FORMATS.md). The one record of who is in a contest: the
// run reads its entrants from here, `arena contest withdraw` changes their status here.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "referee/rules/expected.h"

namespace kalah::arena {

enum class SubmissionStatus { Entered, NotEntered, Withdrawn, Disqualified };
const char* to_string(SubmissionStatus s);  // "entered", "not-entered", "withdrawn", "disqualified"

// What a bot did at the contest's sanity gate ([submissions] gate, docs/CONTEST.md): the games against the
// gate's opponent and the suite of solver-labelled positions, each with the threshold it faced.
struct GateGames {
  std::string opponent;  // as written in the config
  int games = 0;
  int wins = 0;  // the bot's; a forfeit of the bot is a loss, one of the opponent a win
  int draws = 0;
  int losses = 0;
  double min_score = 0;
  // The bot's forfeits, "gate-g3: time: answered after 130 ms, allowed 120 ms", at most kMaxGateForfeits.
  std::vector<std::string> forfeits;
  int opponent_forfeits = 0;  // games the opponent lost by forfeit (the organiser's to look into)

  double score() const { return wins + 0.5 * draws; }
  double share() const { return games > 0 ? score() / games : 0.0; }
  bool passed() const { return share() + 1e-9 >= min_score; }
};
inline constexpr std::size_t kMaxGateForfeits = 5;

struct GateSuite {
  int positions = 0;
  int perfect = 0;       // a perfect move (loss 0)
  int failed = 0;        // no legal move in time
  double mean_loss = 0;  // over the answered positions
  double min_perfect = 0;

  double share() const { return positions > 0 ? static_cast<double>(perfect) / positions : 0.0; }
  bool passed() const { return share() + 1e-9 >= min_perfect; }
};

// What a bot's gate result depends on, one line: the gate's settings, the variant, start and [time] and
// the seed. A bot kept out by a gate is gated again when this changes (docs/CONTEST.md).
std::string gate_key(const Config& config);

struct GateResult {
  std::string key;  // gate_key() of the config it was run under: a bot kept out is gated again when it changes
  std::optional<GateGames> games;
  std::optional<GateSuite> suite;

  bool passed() const { return (!games || games->passed()) && (!suite || suite->passed()); }
  // Why the bot is kept out, one clause per part it failed ("gate: scored 3.5/20 = 17.5% against
  // kalah-random, needs 75%; gate: 9/30 perfect moves = 30%, needs 50%"); empty when it passed.
  std::string failure() const;
  // Every part's figures against its threshold ("scored 18/20 = 90% against kalah-random (needs 75%); ...").
  std::string figures() const;
};

struct Submission {
  std::string folder;  // the subfolder of [submissions] dir
  std::string name;    // from the manifest; empty when the manifest could not be read
  std::string author;
  std::string language;
  Protocol protocol = Protocol::Kep;
  SubmissionStatus status = SubmissionStatus::NotEntered;
  std::string reason;             // why it is not entered, withdrawn or disqualified
  int order = 0;                  // 1, 2, ... in the order bots entered (never reused); 0: never entered
  std::filesystem::path cmd;      // as it runs: absolute
  std::vector<std::string> args;  // as it runs: files of the bot named by absolute path
  std::string source_digest;      // of the submission folder this build came from
  std::string built_at;           // ISO 8601 UTC
  double build_seconds = 0;
  std::optional<GateResult> gate;  // none: no gate was run (none configured, or it failed before)

  bool ever_entered() const { return order > 0; }
};

struct Entries {
  std::vector<Submission> submissions;  // sorted by folder
  int next_order() const;
  // The bots that ever entered, in entry order (withdrawn and disqualified ones keep their place).
  std::vector<const Submission*> entrants() const;
  Submission* by_name(std::string_view name);
  // The first bot that ever entered whose name is `name` or looks like it (system::confusable).
  const Submission* looking_like(std::string_view name) const;
};

// The file's text and back; `read_entries` of a missing file is an empty Entries.
std::string entries_to_text(const Entries& entries);
Expected<Entries> entries_from_text(std::string_view text);
Expected<Entries> read_entries(const std::filesystem::path& file);
std::optional<std::string> write_entries(const std::filesystem::path& file, const Entries& entries);

// Appends a contest's entrants to `config.engines` (after the house bots) with the sandbox, limits and
// restart policy of [tournament], and fills config.entries. An error when entries.json is unreadable,
// fewer than two engines would play, or an active entrant has the name of a house bot (a build before issue
// 36 let one in): it must be withdrawn or disqualified first. A withdrawn or disqualified one never stops
// the contest: it plays no more games, and goes by entrant_engine_name() (with a warning).
std::optional<std::string> add_entrants(Config& config, const Entries& entries);

// The name an entrant goes by among `house` (the config's [[engine]]s): its own, or, when a house bot has
// that name, "NAME (entrant)" (a bot's name has no space; made unique against `house` with "-2", ...).
std::string entrant_engine_name(const std::vector<EngineSpec>& house, const std::string& name);

// The config file at `path` (load_config) and, for a contest, its entrants from entries.json (add_entrants):
// what a run plays. A config without [submissions] comes back as load_config reads it.
Expected<Config> load_with_entrants(const std::filesystem::path& path);
inline constexpr const char* kEntrantSuffix = " (entrant)";

}  // namespace kalah::arena
