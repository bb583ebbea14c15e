// The formats whose games are all known before the first is played (round robin, gauntlet): a schedule, played
// by the flow's play_schedule, split into shards of whole game pairs (arena/schedule).
#pragma once

#include "arena/formats/format.h"

namespace kalah::formats {

class ScheduleFormat : public KindFormat {
 public:
  using KindFormat::KindFormat;
  Expected<int> play(const arena::Config& config, const arena::FlowOptions& options, std::FILE* out) const override;
  // The schedule's games and pairs, and each shard's pairs, games and first game (--ids: every game's shard).
  int plan(const arena::Config& config, int shards, bool ids) const override;
};

}  // namespace kalah::formats
