#include "arena/formats/knockout/knockout_format.h"

#include <fmt/core.h>

#include "arena/schedule/rounds.h"

namespace kalah::formats::knockout {
namespace {

class Knockout : public RoundsFormat {
 public:
  Knockout() : RoundsFormat(kType) {}

 protected:
  std::string games_text(const arena::Config& config) const override {
    const arena::TournamentConfig& t = config.tournament;
    return fmt::format("matches of {} game pair{} (+ up to {} tie-break), at least {} games", t.rounds,
                       t.rounds == 1 ? "" : "s", t.tiebreak_pairs, arena::least_games(config));
  }
  std::string end_text(const arena::Config& config, const arena::TournamentDescription& description,
                       arena::RoundSource& source) const override {
    return form_end_text(config, description, source);
  }
  void plan_head(const arena::Config& config, const std::vector<arena::GameSpec>& first) const override {
    const arena::TournamentConfig& t = config.tournament;
    plan_first_line(config, true);
    fmt::print(
        "matches of {} colour-swapped game pair{} and up to {} tie-break pair{}; {} games are known before any "
        "result (below: the first of each pair; --ids: both; byes may bring a second-round match forward), the "
        "rest depend on results (docs/SCHEDULE.md)\n",
        t.rounds, t.rounds == 1 ? "" : "s", t.tiebreak_pairs, t.tiebreak_pairs == 1 ? "" : "s", first.size());
  }
};

}  // namespace

const Format& format() {
  static const Knockout f;
  return f;
}

}  // namespace kalah::formats::knockout
