#include "arena/formats/schedule_format.h"

#include <vector>

#include <fmt/core.h>

#include "arena/flow/tournaments.h"
#include "arena/schedule/schedule.h"

namespace kalah::formats {

Expected<int> ScheduleFormat::play(const arena::Config& config, const arena::FlowOptions& options,
                                   std::FILE* out) const {
  return arena::play_schedule(config, options, out);
}

int ScheduleFormat::plan(const arena::Config& config, int shards, bool ids) const {
  const std::vector<arena::GameSpec> all = arena::make_schedule(config);
  fmt::print("{}: {} {} engines, {} games in {} colour-swapped pairs, as {} shards\n", config.tournament.name,
             arena::to_string(config.tournament.type), config.engines.size(), all.size(), arena::count_pairs(all),
             shards);
  fmt::print("{:<9} {:>7} {:>7}  {}\n", "shard", "pairs", "games", "first game");
  std::vector<std::vector<arena::GameSpec>> parts;
  for (int i = 1; i <= shards; ++i) {
    parts.push_back(arena::shard_games(all, arena::Shard{i, shards}));
    const auto& part = parts.back();
    fmt::print("{:<9} {:>7} {:>7}  {}\n", fmt::format("{}/{}", i, shards), part.size() / 2, part.size(),
               part.front().id);
  }
  if (ids)
    for (int i = 1; i <= shards; ++i)
      for (const arena::GameSpec& g : parts[static_cast<std::size_t>(i - 1)]) fmt::print("{}/{} {}\n", i, shards, g.id);
  return 0;
}

}  // namespace kalah::formats
