// What `arena run` and `arena sprt` record about a tournament in tournament.json.
#pragma once

#include <string>

#include "arena/config/config.h"
#include "arena/journal/meta.h"

namespace kalah::arena_app {

// "1+0.01", "movetime 100", "depth 6", "nodes 1000".
std::string describe_time(const arena::Config& c);

// The fingerprint, the engines and readable settings (type, variant, time,
// seed, rounds or the SPRT hypotheses) that say what differs on a refusal.
journal::TournamentMeta tournament_meta(const arena::Config& c);

}  // namespace kalah::arena_app
