// The adaptive kind (docs/SCHEDULE.md, "Adaptive"): rounds of game pairs among the engines whose order is still
// open, from the Elo fit of the results so far, up to budget_games (arena/schedule/adaptive.h); with boundaries, a
// final that stops itself once no rank interval straddles one ("Finals that stop themselves").
#pragma once

#include "arena/formats/rounds_format.h"

namespace kalah::formats::adaptive {

inline constexpr arena::TournamentType kType = arena::TournamentType::Adaptive;

const Format& format();

}  // namespace kalah::formats::adaptive
