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

// The games that can be played now (finished ones included; the caller skips those): a Swiss
// tournament's current round (the first one not complete), or every due pair of every knockout match
// whose two engines are known, or an adaptive tournament's current round. Empty when the tournament is over.
// `config` is a Swiss, knockout or adaptive tournament (asserted). Within the list, the first games of the pairs come
// before the second games, as in make_schedule, so that parallel workers start on different engines.
std::vector<GameSpec> games_due(const Config& config, const GameResults& results);

// games_due for an adaptive tournament, with its rounds kept in `replay` between calls (`results` only growing).
std::vector<GameSpec> adaptive_games_due(const Config& config, AdaptiveReplay& replay, const GameResults& results);

// The games of a tournament that are known before any is played: a Swiss tournament's first round,
// a knockout's first-round matches (their `rounds` pairs, no tie-breaks).
inline std::vector<GameSpec> first_games(const Config& config) { return games_due(config, {}); }

// The games of a complete tournament, at least: rounds x floor(n / 2) pairs for a Swiss tournament;
// (n - 1) matches of `rounds` pairs for a knockout, tie-break pairs not counted; for an adaptive tournament its
// budget, the most it plays (fewer when its order settles or its target width is reached first).
int least_games(const Config& config);

// An adaptive tournament's plan from its config.
AdaptivePlan adaptive_plan(const Config& config);

}  // namespace kalah::arena
