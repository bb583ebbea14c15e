// What a tournament records about itself in tournament.json (docs/FORMATS.md), so that a resumed
// run can refuse a journal written under another configuration.
#pragma once

#include "arena/config/config.h"
#include "arena/journal/meta.h"

namespace kalah::arena {

// The fingerprint, the engines and readable settings (type, variant, time,
// seed, rounds or the SPRT hypotheses) that say what differs on a refusal.
journal::TournamentMeta tournament_meta(const Config& c);

}  // namespace kalah::arena
