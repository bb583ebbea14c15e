// The staged tournament as a registered format (docs/CONFIG.md, "Staged"): type = "staged" and a season's
// final = "staged", played stage by stage by play_staged (staged_play.h).
#pragma once

#include "arena/formats/format.h"

namespace kalah::formats::staged {

const Format& format();

}  // namespace kalah::formats::staged
