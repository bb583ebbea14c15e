// What a tournament records about itself in tournament.json (docs/FORMATS.md), so that a resumed
// run can refuse a journal written under another configuration.
#pragma once

#include <optional>
#include <string>

#include "arena/config/config.h"
#include "arena/config/description.h"
#include "arena/journal/meta.h"

namespace kalah::arena {

// What the tournament says of itself (type, variant, time, openings, seed, rounds or the SPRT's test, each
// engine's command and options, a contest's entrants): computed once per run, written into tournament.json
// (to_settings) to say what differs on a refusal and what a report shows in its "About" section.
TournamentDescription describe_tournament(const Config& c);

// What this run records about itself ("run.*", set with Journal::update_settings): the arena's version, the
// machine, the concurrency and each engine's sandbox and limits.
void describe_run(const Config& c, TournamentDescription& d);

// More games at once than the CPUs the arena may use (its affinity, or `[tournament] cpus`), on the wall clock
// with a clock that limits time: a move is then charged the time its engine waited for a CPU. What to say about
// it, naming `clock = "cpu"` as the remedy (the terminal warns before the first game, the "About" section keeps
// it); none when the games fit the CPUs, on the CPU clock, and when no engine plays on a clock (depth, nodes).
std::optional<std::string> oversubscription_warning(const Config& c);

// tournament.json of `c`: its fingerprint, its engines, its shard and the settings of `d`, its description.
journal::TournamentMeta tournament_meta(const Config& c, const TournamentDescription& d);

// When `c`'s results folder already holds another tournament (its tournament.json, read only: no lock taken,
// nothing moved), what the journal would refuse it with: "<dir> was written by a different configuration (<what
// differs>)". For a command to say before it builds or starts anything; the run still checks as it opens the
// journal. nullopt when the folder is new, holds this tournament, or its tournament.json cannot be read (the
// run says why).
std::optional<std::string> results_clash(const Config& c);

// "book main.txt (120 lines, in order)", "a random opening of 4 plies per game pair, ...", "none: ...".
std::string describe_openings(const OpeningsConfig& o);
// The engine's command as written in the config, with its arguments ('quoted' where they hold spaces).
std::string describe_command(const EngineSpec& e);

}  // namespace kalah::arena
