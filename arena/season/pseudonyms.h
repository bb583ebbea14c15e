// A season's pseudonyms (docs/SEASON.md, "Pseudonyms"): with `[season] pseudonyms = true` every author plays under
// a name like `swift-otter-42`, so that the ladder's and the final's engines are `swift-otter-42-r1`, never
// `alice-r1`. A pseudonym is derived from a secret of the season's own (256 random bits) and the author's name by
// HMAC-SHA-256 (SeedSecret::number_for), read as two words of fixed lists and a number: without the secret it says
// nothing of the author, with it anyone recomputes it. DIR/pseudonyms.txt (mode 0600, written atomically and
// durably) holds the secret and every author's pseudonym: the organiser's map back to the authors. Made on first
// use (the server's start), extended for an author added since, never changed. The names a season gives its
// revisions are fixed by the first one it names: open_public_names refuses a changed key or a changed file.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arena/season/freeze.h"
#include "arena/season/season_config.h"
#include "arena/season/store.h"
#include "referee/game/seed_secret.h"
#include "referee/rules/expected.h"

namespace kalah::season {

inline constexpr const char* kPseudonymsFile = "pseudonyms.txt";
// The most pseudonyms tried for one author before the season gives up (each try a new HMAC label).
inline constexpr int kMaxPseudonymAttempts = 1000;

// The two word lists and the number's range: `ADJECTIVE-NOUN-NN`, NN from 10 to 99.
const std::vector<std::string_view>& pseudonym_adjectives();
const std::vector<std::string_view>& pseudonym_nouns();

// The pseudonym of `author` at try `attempt` (0, 1, ...): pure, the same for the same key, author and try.
std::string derive_pseudonym(const SeedSecret& key, std::string_view author, int attempt);

using PseudonymList = std::vector<std::pair<std::string, std::string>>;  // author, pseudonym; in the roster's order

// Every author of `authors` (the roster's order) with a pseudonym: those of `given` kept as they are, each other one
// the first try of derive_pseudonym that is free: unlike (ignoring case) every pseudonym given or chosen before it
// and every author's name, and holding no author's name of 3 or more characters. Deterministic for the same key,
// roster and `given`. An error only when kMaxPseudonymAttempts tries find nothing free.
Expected<PseudonymList> assign_pseudonyms(const SeedSecret& key, const std::vector<std::string>& authors,
                                          PseudonymList given);

struct PseudonymTable {
  SeedSecret key;
  PseudonymList names;
  std::optional<std::string> of(std::string_view author) const;
};

// DIR/pseudonyms.txt: comment lines, `key HEX64`, then `AUTHOR PSEUDONYM` a line. `where` names the file in errors
// (`where:LINE: ...`).
std::string pseudonyms_text(const PseudonymTable& table);
Expected<PseudonymTable> pseudonyms_from_text(std::string_view text, const std::string& where);
// DIR/pseudonyms.txt of the season in `dir`; nullopt when there is none.
Expected<std::optional<PseudonymTable>> read_pseudonyms(const std::filesystem::path& dir);
// Replaces DIR/pseudonyms.txt atomically and durably, mode 0600 from its first byte.
std::optional<std::string> write_pseudonyms(const std::filesystem::path& dir, const PseudonymTable& table);

// The public name of every author of `authors` when the season has pseudonyms (author -> pseudonym; empty without):
// DIR/pseudonyms.txt read, made with a new secret when missing, extended for authors it lacks. Then every revision
// the store has named (its status records the bot) must carry the name the season gives it now; otherwise the key
// or the file changed mid-season, and the error says which, at the key's place in season.toml.
Expected<std::map<std::string, std::string>> open_public_names(const SeasonConfig& season,
                                                               const std::vector<std::string>& authors,
                                                               const RevisionStore& store);

// Why revision `number` of `author`, named `bot` when it was processed, is not `now`, the name the season gives it
// today: pseudonyms turned on or off (at the key's place in season.toml), or DIR/pseudonyms.txt changed or removed
// (`had_file`: whether there is one).
std::string naming_changed(const SeasonConfig& season, bool had_file, const std::string& author, int number,
                           const std::string& bot, const std::string& now);

// The final's engines (frozen.finalists()) named as the season names its revisions now, DIR/pseudonyms.txt read
// (never made): the reason when one is not (naming_changed), so that a key changed after the freeze never shows an
// author's name in a final that says it has pseudonyms, nor a pseudonym in one that says it has none.
std::optional<std::string> check_frozen_names(const SeasonConfig& season, const FreezeRecord& frozen);

}  // namespace kalah::season
