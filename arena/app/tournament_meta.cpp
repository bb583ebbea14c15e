#include "arena/app/tournament_meta.h"

#include "arena/app/sprt.h"
#include "arena/runner/runner.h"

namespace kalah::arena_app {

std::string describe_time(const arena::Config& c) {
  return arena::Runner::settings_for(c, arena::GameSpec{}).time.describe();
}

journal::TournamentMeta tournament_meta(const arena::Config& c) {
  journal::TournamentMeta meta;
  meta.fingerprint = arena::fingerprint(c);
  for (const arena::EngineConfig& e : c.engines) meta.engines.push_back(e.name);
  if (c.sprt) {
    meta.settings["type"] = "sprt";
    meta.settings["sprt"] = describe(c.sprt->params);
  } else {
    meta.settings["type"] = to_string(c.tournament.type);
    meta.settings["rounds"] = std::to_string(c.tournament.rounds);
  }
  meta.settings["variant"] = to_string(c.variant);
  meta.settings["time"] = describe_time(c);
  meta.settings["seed"] = std::to_string(c.tournament.seed);
  return meta;
}

}  // namespace kalah::arena_app
