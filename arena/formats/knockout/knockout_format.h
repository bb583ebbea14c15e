// The knockout (docs/SCHEDULE.md, "Knockout"): a bracket of matches of `rounds` colour-swapped game pairs, up to
// `tiebreak_pairs` more while a match is tied (arena/schedule/knockout.h), ranked by the bracket.
#pragma once

#include "arena/formats/rounds_format.h"

namespace kalah::formats::knockout {

inline constexpr arena::TournamentType kType = arena::TournamentType::Knockout;

const Format& format();

}  // namespace kalah::formats::knockout
