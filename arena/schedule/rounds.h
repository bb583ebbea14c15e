// The games of a tournament that is paired round by round (Swiss, knockout, adaptive): which games are due
// now, given the games finished so far. The flow asks again whenever a game finishes; the same
// results always give the same games, with the same ids and openings, so a resumed run continues
// exactly where the journal stops.
#pragma once

#include <vector>

#include "arena/config/config.h"
#include "arena/schedule/adaptive.h"
#include "arena/schedule/knockout.h"
#include "arena/schedule/schedule.h"
#include "arena/schedule/swiss.h"

namespace kalah::arena {

// The games that can be played now, each kind's (finished ones included; the caller skips those), empty when the
// tournament is over. Within the list, the first games of the pairs come before the second games, as in
// make_schedule, so that parallel workers start on different engines. With no results: the games known before any
// is played.
//
// A Swiss tournament's current round (the first one not complete).
std::vector<GameSpec> swiss_games_due(const Config& config, const GameResults& results);
// Every due pair of every knockout match whose two engines are known (a first round's `rounds` pairs, then
// tie-break pairs one at a time while a match is tied).
std::vector<GameSpec> knockout_games_due(const Config& config, const GameResults& results);
// An adaptive tournament's current round, with its rounds kept in `replay` between calls (`results` only growing).
std::vector<GameSpec> adaptive_games_due(const Config& config, AdaptiveReplay& replay, const GameResults& results);

// An adaptive tournament's plan from its config.
AdaptivePlan adaptive_plan(const Config& config);

}  // namespace kalah::arena
