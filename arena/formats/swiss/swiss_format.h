// The Swiss tournament (docs/SCHEDULE.md, "Swiss"): `rounds` rounds of one colour-swapped game pair, each round
// paired from the results of the rounds before (arena/schedule/swiss.h), ranked by the Swiss table.
#pragma once

#include "arena/formats/rounds_format.h"

namespace kalah::formats::swiss {

inline constexpr arena::TournamentType kType = arena::TournamentType::Swiss;

const Format& format();

}  // namespace kalah::formats::swiss
