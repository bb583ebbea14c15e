// The round robin (docs/SCHEDULE.md): every engine meets every other, in Berger tables; its games all known before the
// first, played from its schedule and split into shards of whole game pairs (ScheduleFormat). Its row in the registry
// of kinds, arena/config/kinds.cpp, says which keys it reads.
#pragma once

#include "arena/formats/schedule_format.h"

namespace kalah::formats::round_robin {

inline constexpr arena::TournamentType kType = arena::TournamentType::RoundRobin;

const Format& format();

}  // namespace kalah::formats::round_robin
