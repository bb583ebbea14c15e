// What a tournament records about itself in tournament.json (docs/FORMATS.md), so that a resumed
// run can refuse a journal written under another configuration.
#pragma once

#include <map>
#include <string>

#include "arena/config/config.h"
#include "arena/journal/meta.h"

namespace kalah::arena {

// The fingerprint, the engines and readable settings (type, variant, time, openings, seed, rounds or
// the SPRT hypotheses, each engine's command and options) that say what differs on a refusal and what
// a report shows in its "About" section.
journal::TournamentMeta tournament_meta(const Config& c);

// What this run records about itself (Journal::update_settings, keys "run.*"): the arena's version, the
// machine, the concurrency and each engine's sandbox and limits.
std::map<std::string, std::string> run_settings(const Config& c);

// "book main.txt (120 lines, in order)", "a random opening of 4 plies per game pair, ...", "none: ...".
std::string describe_openings(const OpeningsConfig& o);
// The engine's command as written in the config, with its arguments ('quoted' where they hold spaces).
std::string describe_command(const EngineSpec& e);

}  // namespace kalah::arena
