// The one entry of `arena run` and `arena match`: which kind of tournament the config asks for, decided
// once, and played by its own flow listener (arena/flow/*_match.cpp).
#include "arena/flow/tournaments.h"
#include "arena/schedule/schedule.h"

namespace kalah::arena {

Expected<int> play(const Config& config, const FlowOptions& options, std::FILE* out) {
  // Stage by stage, each a round robin played by play_schedule: arena/formats/staged, above this layer.
  if (config.tournament.staged())
    return Error{"a staged tournament is played by `arena run` or `arena season final` (docs/CONFIG.md, \"Staged\")"};
  if (config.sprt) return play_sprt(config, options, out);
  if (paired_from_results(config.tournament.type)) return play_rounds(config, options, out);
  return play_schedule(config, options, out);
}

}  // namespace kalah::arena
