#include "arena/flow/tournament_meta.h"

#include <fmt/core.h>

#include "arena/schedule/schedule.h"

namespace kalah::arena {

journal::TournamentMeta tournament_meta(const Config& c) {
  journal::TournamentMeta meta;
  meta.fingerprint = fingerprint(c);
  for (const EngineSpec& e : c.engines) meta.engines.push_back(e.name);
  if (c.sprt) {
    meta.settings["type"] = "sprt";
    meta.settings["sprt"] = stats::describe(c.sprt->params);
    // Exactly, so that a merge of the shards can run the same test (arena report).
    const stats::SprtParams& p = c.sprt->params;
    meta.settings["sprt.elo0"] = fmt::format("{}", p.elo0);
    meta.settings["sprt.elo1"] = fmt::format("{}", p.elo1);
    meta.settings["sprt.alpha"] = fmt::format("{}", p.alpha);
    meta.settings["sprt.beta"] = fmt::format("{}", p.beta);
    meta.settings["sprt.model"] = stats::to_string(p.model);
    meta.settings["sprt.max_pairs"] = std::to_string(c.sprt->max_pairs);
  } else {
    meta.settings["type"] = to_string(c.tournament.type);
    meta.settings["rounds"] = std::to_string(c.tournament.rounds);
  }
  meta.settings["variant"] = to_string(c.variant);
  meta.settings["time"] = c.time.describe();
  meta.settings["seed"] = std::to_string(c.tournament.seed);
  if (c.shard) {
    const int games = c.sprt ? 0 : static_cast<int>(shard_games(make_schedule(c), *c.shard).size());
    meta.shard = journal::ShardMeta{c.shard->index, c.shard->count, games};
  }
  return meta;
}

}  // namespace kalah::arena
