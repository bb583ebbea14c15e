// The gauntlet (docs/SCHEDULE.md): the seed engines (tournament.seed_engines) meet every other engine; its games all
// known before the first, played from its schedule and split into shards of whole game pairs (ScheduleFormat). Its row
// in the registry of kinds, arena/config/kinds.cpp, says which keys it reads.
#pragma once

#include "arena/formats/schedule_format.h"

namespace kalah::formats::gauntlet {

inline constexpr arena::TournamentType kType = arena::TournamentType::Gauntlet;

const Format& format();

}  // namespace kalah::formats::gauntlet
