// tournament.json: what a results directory was written by, so that a resumed
// run can refuse a journal from a different configuration (docs/FORMATS.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "referee/rules/expected.h"

namespace kalah::journal {

// Which part of a sharded tournament a journal holds (docs/SCALE.md).
struct ShardMeta {
  int index = 0;  // 1-based
  int count = 0;
  int games = 0;  // games of the schedule in this shard; 0 for an open-ended SPRT stream
  friend bool operator==(const ShardMeta&, const ShardMeta&) = default;
};

// The version of tournament.json's layout (its "format" key); another one is refused.
inline constexpr int kMetaFormat = 1;

struct TournamentMeta {
  // Opaque to the journal (the caller's digest of the configuration); equal
  // fingerprints mean the same tournament.
  std::string fingerprint;
  std::vector<std::string> engines;  // names, in configuration order
  // Optional readable settings ("variant" -> "pits=6 seeds=4 ...", "time" -> "2000+20ms"): the tournament's
  // description as text (arena/config/description.h, the only place that spells their keys); never compared
  // for equality, only used to say what differs. Those of a run ("run.*") and of the ranking ("ranking.*") never
  // count as a difference, and a contest's ("contest") engine list may grow at the end (late entries).
  std::map<std::string, std::string> settings;
  std::string created_at;          // ISO 8601 UTC; filled in when the file is first written
  std::optional<ShardMeta> shard;  // a shard's journal; none for a whole tournament

  friend bool operator==(const TournamentMeta&, const TournamentMeta&) = default;
};

std::string meta_to_text(const TournamentMeta& meta);  // pretty JSON, ends with a newline
Expected<TournamentMeta> meta_from_text(std::string_view text);
// tournament.json is at most this long (a contest's settings name every entrant and its digests).
inline constexpr std::uintmax_t kMaxMetaBytes = 16u << 20;
Expected<TournamentMeta> read_meta(const std::filesystem::path& file);

// Whether a journal written under `stored` may be continued under `wanted`:
// the fingerprints, the engine lists and the shards must be equal.
bool same_tournament(const TournamentMeta& stored, const TournamentMeta& wanted);

// What differs, for the operator: "engines: removed 'x', added 'y'; time: 2000+20ms -> 1000+10ms".
// Falls back to "the configuration fingerprint differs (a1b2 -> c3d4)".
std::string describe_difference(const TournamentMeta& stored, const TournamentMeta& wanted);

}  // namespace kalah::journal
