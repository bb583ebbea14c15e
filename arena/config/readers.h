// The readers of a config file's tables (internal to kalah_config), one file each, named after its table:
// read_tournament.cpp reads [tournament], read_engine.cpp the [[engine]] tables, and so on. parse_config()
// (config.cpp) calls them in the order their checks need: a table may check itself against those read
// before it ([variant] bounds tournament.adjudicate, the engines are known before [rating]'s anchor).
// Each checks every key where it reads it, so a message carries the key's own line and column.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "arena/config/config.h"
#include "arena/config/toml_table.h"

namespace kalah::arena::detail {

// The whole of a config file or an openings book, or why not ("does not exist", "is a directory", "cannot be
// read", too big for a config file).
Expected<std::string> read_file(const std::filesystem::path& path);

// The count of games of a kind (kinds.h, RoundsCount) in `t`, `fallback` if it gives none: `pairs` (colour-swapped
// game pairs per pairing or per match) or Swiss `rounds`. A kind that counts pairs still reads the old `rounds`,
// adding a note that names the new key to `notes`; both keys given, or `pairs` on a Swiss, is an error.
int read_pairs(const Table& t, RoundsCount counts, int fallback, std::vector<std::string>& notes);
// [tournament], without adjudicate and seed_engines (read_adjudicate, read_seed_engines).
void read_tournament(const Reader& r, const toml::table& root, Config& c);
// tournament.adjudicate, an inline table; read after [variant], which bounds database_seeds.
void read_adjudicate(const Reader& r, const toml::table& root, Config& c);
// tournament.seed_engines; read after the engines it names.
void read_seed_engines(const Reader& r, const toml::table& root, Config& c);
// tournament.boundaries checked against the number of engines, once they are read.
void check_boundaries(const Reader& r, const toml::table& root, const Config& c);
// A list of places from the top (ranking.cuts, tournament.boundaries): whole numbers from 1 on, ascending, each
// once. `one` and `many` name an element in the messages ("cut", "cuts").
void read_places(const Reader& r, const Table& t, std::string_view key, std::string_view one, std::string_view many,
                 std::vector<int>& out);
// restart: in [tournament] for every engine, in [[engine]] for one.
std::optional<RestartPolicy> read_restart(const Table& t);
// sandbox, keep_sandbox and the limits: in [tournament] for every engine, in [[engine]] for one.
void read_sandbox_keys(const Table& t, SandboxMode& mode, bool& keep, EngineLimits& limits);

void read_variant(const Reader& r, const toml::table& table, Config& c);

// A list of stages under `key` of `t` (tournament.stages, season.final_stages), which must be there:
// [{ variant = "pits=6 seeds=6", pairs = 2 }, ...], each stage's variant keys over `base`, its pairs `pairs`
// unless it says (an old `rounds` read too, with a note in `notes`); at least one stage.
std::vector<StageConfig> read_stages(const Reader& r, const Table& t, std::string_view key, const Variant& base,
                                     int pairs, std::vector<std::string>& notes);
// type = "staged" and tournament.stages, read after [variant] (the stages' keys go over it).
void read_tournament_stages(const Reader& r, const Table& t, Config& c);
// What a staged tournament cannot have (an SPRT, a book, a start, ...), checked once every table is read.
void check_staged(const Reader& r, const toml::table& root, const Config& c);

// [time], which must be there.
void read_time(const Reader& r, const toml::table& root, Config& c);
// An engine's own `time` (time odds) over the tournament's `defaults`: there the way to limit a move may be
// left out (the tournament's is kept) and every other key defaults to the tournament's.
TimeControl read_engine_time(const Reader& r, const toml::table& table, const TimeControl& defaults);

void read_openings(const Reader& r, const toml::table& table, Config& c);
void read_sprt(const Reader& r, const toml::table& table, Config& c);
void read_submissions(const Reader& r, const toml::table& table, const toml::table& root, Config& c);
// The [[engine]] tables (none for a contest without house bots or a git SPRT).
void read_engines(const Reader& r, const toml::table& root, Config& c);
// `options = { NAME = value }` of an [[engine]], or sprt.base_options / test_options, written at `t`.
void read_options(const Reader& r, const Table& t, const toml::node& node, EngineSpec& e);
void read_rating(const Reader& r, const toml::table& table, Config& c);
void read_ranking(const Reader& r, const toml::table& table, Config& c);
void read_analysis(const Reader& r, const toml::table& table, Config& c);

}  // namespace kalah::arena::detail
