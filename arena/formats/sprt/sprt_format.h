// The SPRT (docs/SPRT.md): a config with an [sprt] table is an open-ended match of two engines, colour-swapped
// game pairs until the test decides, played by the flow's play_sprt; a shard plays every Nth pair and reads the
// others' journals. Not a [tournament] type: `type` stays that of a round robin, which the SPRT replaces.
#pragma once

#include "arena/formats/format.h"

namespace kalah::formats::sprt {

const Format& format();

}  // namespace kalah::formats::sprt
