// The formats paired round by round from the results so far (Swiss, knockout, adaptive): played by the flow's
// play_rounds with the lines of the format, never sharded (arena/schedule/rounds.h: the games due).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arena/config/description.h"
#include "arena/formats/format.h"
#include "arena/runner/round_source.h"

namespace kalah::formats {

class RoundsFormat : public KindFormat {
 public:
  using KindFormat::KindFormat;
  Expected<int> play(const arena::Config& config, const arena::FlowOptions& options, std::FILE* out) const override;
  // The lines of plan_head, then the first round's games (the first of each pair; `ids`: both).
  int plan(const arena::Config& config, int shards, bool ids) const override;
  // Its game source's rule: what is due given the results so far (`config` outlives it).
  virtual std::unique_ptr<arena::RoundPairing> pairing(const arena::Config& config) const = 0;

 protected:
  // The start line's account of the games ("5 rounds of a game pair, 20 games").
  virtual std::string games_text(const arena::Config& config) const = 0;
  // What is printed before the final standings: the format's own table, or how far it went.
  virtual std::string end_text(const arena::Config& config, const arena::TournamentDescription& description,
                               arena::RoundSource& source) const = 0;
  // `arena plan`'s lines before the games, `first` being the games known before any result.
  virtual void plan_head(const arena::Config& config, const std::vector<arena::GameSpec>& first) const = 0;
};

// The pairing of `config`'s format, which is paired round by round (asserted).
std::unique_ptr<arena::RoundPairing> round_pairing(const arena::Config& config);

// The Swiss table or the knockout bracket as `source`'s results stand (report::tournament_form); empty without one.
std::string form_end_text(const arena::Config& config, const arena::TournamentDescription& description,
                          const arena::RoundSource& source);

// `arena plan`'s first line for a Swiss or knockout tournament; `at_least`: its games are a minimum.
void plan_first_line(const arena::Config& config, bool at_least);

}  // namespace kalah::formats
