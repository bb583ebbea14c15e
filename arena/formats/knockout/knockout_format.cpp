#include "arena/formats/knockout/knockout_format.h"

#include <fmt/core.h>

#include "arena/schedule/rounds.h"

namespace kalah::formats::knockout {
namespace {

// The bracket's matches whose engines are known, tie-break pairs while they are tied (arena/schedule/knockout.h).
class KnockoutPairing : public arena::RoundPairing {
 public:
  explicit KnockoutPairing(const arena::Config& config) : config_(config) {}
  std::vector<arena::GameSpec> due(const arena::GameResults& results) override {
    return arena::knockout_games_due(config_, results);
  }
  // (n - 1) matches of `rounds` game pairs.
  int least_games() const override {
    return (static_cast<int>(config_.engines.size()) - 1) * config_.tournament.rounds * 2;
  }
  bool open_ended() const override { return true; }

 private:
  const arena::Config& config_;
};

class Knockout : public RoundsFormat {
 public:
  Knockout() : RoundsFormat(kType) {}
  std::unique_ptr<arena::RoundPairing> pairing(const arena::Config& config) const override {
    return std::make_unique<KnockoutPairing>(config);
  }

 protected:
  std::string games_text(const arena::Config& config) const override {
    const arena::TournamentConfig& t = config.tournament;
    return fmt::format("matches of {} game pair{} (+ up to {} tie-break), at least {} games", t.rounds,
                       t.rounds == 1 ? "" : "s", t.tiebreak_pairs, pairing(config)->least_games());
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
