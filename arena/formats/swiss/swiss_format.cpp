#include "arena/formats/swiss/swiss_format.h"

#include <fmt/core.h>

#include "arena/schedule/rounds.h"

namespace kalah::formats::swiss {
namespace {

class Swiss : public RoundsFormat {
 public:
  Swiss() : RoundsFormat(kType) {}

 protected:
  std::string games_text(const arena::Config& config) const override {
    return fmt::format("{} rounds of a game pair, {} games", config.tournament.rounds, arena::least_games(config));
  }
  std::string end_text(const arena::Config& config, const arena::TournamentDescription& description,
                       arena::RoundSource& source) const override {
    return form_end_text(config, description, source);
  }
  void plan_head(const arena::Config& config, const std::vector<arena::GameSpec>& first) const override {
    plan_first_line(config, false);
    fmt::print(
        "{} rounds of one colour-swapped game pair each; round 1 has {} games (below: the first of each pair; "
        "--ids: both), every later round is paired from the results of the rounds before it (docs/SCHEDULE.md)\n",
        config.tournament.rounds, first.size());
  }
};

}  // namespace

const Format& format() {
  static const Swiss f;
  return f;
}

}  // namespace kalah::formats::swiss
