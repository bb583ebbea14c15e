// A tournament's description, typed: what tournament.json's readable settings say (docs/FORMATS.md). It is
// computed once per run from the Config (arena/flow/tournament_meta.h) and read back from the file alone by
// `arena report DIR` and `arena verify`. to_settings and description_from_settings are the one text pair:
// nowhere else is a settings key spelt.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "arena/config/config.h"
#include "arena/rating/ranking.h"
#include "arena/rating/standings.h"
#include "referee/rules/expected.h"
#include "referee/stats/sprt.h"

namespace kalah::arena {

// What an engine was on disk when a run started (arena/integrity/engine_checksums.h): the path started and its
// SHA-256, the files (a script) and the folder a digest covers ("file PATH", "tree PATH", "skip PATH" lines) and
// theirs, and every one of those files with its own digest ("<sha256>  <path>" lines, sha256sum's format). A
// digest that could not be taken reads "not recorded: <why>".
struct EngineDigests {
  std::optional<std::string> executable, sha256, files, files_sha256, dir, dir_sha256, file_sums;
  friend bool operator==(const EngineDigests&, const EngineDigests&) = default;
};

// "engine.<name>.*", and what a run learns about it, "run.engine.<name>.*". A member that is none was not
// recorded; an empty text was recorded empty.
struct EngineDescription {
  std::optional<std::string> command;   // as written in the config, with its arguments
  std::optional<std::string> time;      // its own clock (time odds): TimeControl::describe()
  std::optional<std::string> time_pgn;  // and as a PGN TimeControl tag
  std::optional<std::string> options;   // "Depth=12 Seed=3"
  std::optional<long long> bench;       // an SPRT's bench signature (bench_check.h)
  EngineDigests digests;
  std::optional<std::string> id;      // run: what it announced in the handshake
  std::optional<std::string> limits;  // run: "sandbox=bwrap memory_mb=512", empty when none
  friend bool operator==(const EngineDescription&, const EngineDescription&) = default;
};

// A contest entrant's standing, "entry.<name>.*".
struct EntryDescription {
  std::optional<EntryStatus> status;  // none: active
  std::optional<std::string> reason;
  std::optional<bool> games_kept;   // "kept" or "void"
  std::optional<std::string> gate;  // what the sanity gate said
  friend bool operator==(const EntryDescription&, const EntryDescription&) = default;
};

// An SPRT's test, exactly, so that a merge of the shards can run the same test ("sprt.*").
struct SprtDescription {
  stats::SprtParams params;
  int max_pairs = 0;
  friend bool operator==(const SprtDescription& a, const SprtDescription& b) {
    return a.params.elo0 == b.params.elo0 && a.params.elo1 == b.params.elo1 && a.params.alpha == b.params.alpha &&
           a.params.beta == b.params.beta && a.params.model == b.params.model && a.max_pairs == b.max_pairs;
  }
};

// A git SPRT's sources ("git.*"): the repository, its build and run commands, and each side.
struct GitSideDescription {
  std::string ref, commit;
  double build_seconds = 0;  // written to the millisecond
  friend bool operator==(const GitSideDescription&, const GitSideDescription&) = default;
};
struct GitDescription {
  std::string repo, build, run;
  GitSideDescription base, test;
  friend bool operator==(const GitDescription&, const GitDescription&) = default;
};

struct TournamentDescription {
  // "type": a schedule's type, or an SPRT match (then `type` is none).
  std::optional<TournamentType> type;
  bool sprt_match = false;
  std::optional<int> rounds;                // not for an SPRT
  std::optional<int> tiebreak_pairs;        // a knockout's
  std::optional<std::string> sprt_summary;  // "sprt": stats::describe(params)
  std::optional<SprtDescription> sprt;
  std::optional<GitDescription> git;
  std::optional<std::string> variant;     // to_string(Variant): "pits=6 seeds=4 ..."
  std::optional<std::string> start;       // "variant.start": a start position's notation
  std::optional<std::string> adjudicate;  // AdjudicationConfig::describe()
  std::optional<std::string> openings;    // describe_openings()
  std::optional<std::string> time, time_pgn;
  std::optional<std::uint64_t> seed;
  std::optional<rating::Anchor> anchor;              // "rating.anchor", "rating.anchor_elo"
  std::optional<rating::RankingRules> ranking;       // "ranking.*"; none: by Elo
  std::map<std::string, EngineDescription> engines;  // by name
  std::optional<std::string> contest;                // a contest's ("contest"): what its games rules are
  std::map<std::string, EntryDescription> entries;   // by engine name
  std::map<std::string, std::string> not_entered;    // by submission folder: "name (reason)", empty once entered
  // What the last run recorded ("run.*").
  std::optional<std::string> arena_version, machine, concurrency;
  // Keys this version does not know, kept as they were so that a file of another version loses nothing.
  std::map<std::string, std::string> extra;

  // The engine's description; an empty one when nothing is recorded of it.
  const EngineDescription& engine(const std::string& name) const;
  bool plays_by_rounds() const { return type && arena::plays_by_rounds(*type); }
  // The contest's rules and entrants as the ranking reads them (docs/RANKING.md).
  rating::RankingSetup ranking_setup() const;

  friend bool operator==(const TournamentDescription&, const TournamentDescription&) = default;
};

// The settings of tournament.json (journal::TournamentMeta::settings) and back. A value that cannot be read
// is refused with a message naming its key; a key not known here is kept in `extra`.
std::map<std::string, std::string> to_settings(const TournamentDescription& d);
Expected<TournamentDescription> description_from_settings(const std::map<std::string, std::string>& settings);

// The key of engine `name`'s `digest` in tournament.json, for a message that sends the reader to the file:
// "engine.<name>.dir_sha256".
std::string digest_setting(const std::string& name, std::optional<std::string> EngineDigests::*digest);

// For tournament.json's comparison of two tournaments (journal::describe_difference, same_tournament): settings
// with these prefixes describe a run rather than the tournament (Journal::update_settings sets them), or how the
// standings rank ([ranking], docs/RANKING.md), which no game depends on; neither counts as a difference.
inline constexpr const char* kRunSettingPrefix = "run.";
inline constexpr const char* kRankingSettingPrefix = "ranking.";
// Settings that a run measures and records when it starts (the engines' digests and bench counts, a git SPRT's
// build times, "run."), after its journal was compared with tournament.json: a configuration about to run has
// none of them, so they never count as a difference between two configurations.
bool recorded_by_run(std::string_view key);
// The setting that marks a contest ([submissions]): its engine list may grow at the end (late entries) without
// making it another tournament.
inline constexpr const char* kContestSetting = "contest";

}  // namespace kalah::arena
