// The sanity gate of a contest ([submissions] gate, docs/CONTEST.md): a built and checked bot plays games
// against the gate's opponent and answers the suite's solver-labelled positions before it may enter.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "arena/contest/contest.h"
#include "arena/contest/entries.h"
#include "referee/game/seed_secret.h"
#include "referee/suite/labels.h"

namespace kalah::arena::contest {

// The gate of one `arena contest build`: what every bot faces is prepared once, at the first bot that
// reaches it (the opponent started once to see that it can play, the suite's positions labelled or read
// from the solver's cache), then run bot after bot.
class Gate {
 public:
  // config.submissions->gate must be set. `secret` is the results folder's (journal::load_or_make_seed_secret):
  // the games' seeds and the suite's positions are drawn with it, so that a bot cannot tell the gate from the
  // contest by what it is sent.
  Gate(const Config& config, const SeedSecret& secret);
  ~Gate();
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;

  // Runs the gate for `bot`, the entrant as it would play (sandbox, limits, restart policy of the
  // contest): games against the opponent and the suite's positions. Every game and position goes to
  // `log`, one line each; `say` gets a line when something takes long (the labelling). Nothing the bot
  // does is an error: a forfeit is a lost game, a failed position not a perfect move. An error only for
  // what stops every gate: an opponent that does not start, positions that cannot be labelled.
  Expected<GateResult> run(const EngineSpec& bot, const std::filesystem::path& log, const Say& say);

 private:
  std::optional<std::string> prepare(const Say& say);

  const Config& config_;
  SeedSecret secret_;
  bool prepared_ = false;
  std::vector<suite::LabelledPosition> positions_;
};

}  // namespace kalah::arena::contest
