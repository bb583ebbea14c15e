#include "arena/formats/rounds_format.h"

#include <cassert>
#include <optional>

#include <fmt/core.h>

#include "arena/flow/tournaments.h"
#include "arena/formats/registry.h"
#include "arena/report/form_report.h"

namespace kalah::formats {

Expected<int> RoundsFormat::play(const arena::Config& config, const arena::FlowOptions& options, std::FILE* out) const {
  const arena::RoundsText text{[this](const arena::Config& c) { return games_text(c); },
                               [this](const arena::Config& c, const arena::TournamentDescription& d,
                                      arena::RoundSource& s) { return end_text(c, d, s); }};
  return arena::play_rounds(config, pairing(config), text, options, out);
}

int RoundsFormat::plan(const arena::Config& config, int, bool ids) const {
  const std::vector<arena::GameSpec> first = pairing(config)->due({});
  plan_head(config, first);
  for (const arena::GameSpec& g : first)
    if (ids || g.game_in_pair == 0)
      fmt::print("{} {} v {}\n", g.id, config.engines[static_cast<std::size_t>(g.south)].name,
                 config.engines[static_cast<std::size_t>(g.north)].name);
  return 0;
}

std::unique_ptr<arena::RoundPairing> round_pairing(const arena::Config& config) {
  const auto* format = dynamic_cast<const RoundsFormat*>(&format_of(config));
  assert(format && "a Swiss, knockout or adaptive tournament");
  return format->pairing(config);
}

std::string form_end_text(const arena::Config& config, const arena::TournamentDescription& description,
                          const arena::RoundSource& source) {
  std::vector<std::string> names;
  for (const EngineSpec& e : config.engines) names.push_back(e.name);
  std::optional<report::TournamentForm> form = report::tournament_form(description, names, source.results());
  return form ? report::form_text(*form) : "";
}

void plan_first_line(const arena::Config& config, bool at_least) {
  const arena::TournamentConfig& t = config.tournament;
  fmt::print("{}: {} {} engines, {}{} games, paired round by round (not shardable)\n", t.name, arena::to_string(t.type),
             config.engines.size(), at_least ? "at least " : "", round_pairing(config)->least_games());
}

}  // namespace kalah::formats
