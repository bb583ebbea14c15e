#include "arena/formats/swiss/swiss_format.h"

#include <fmt/core.h>

#include "arena/schedule/rounds.h"

namespace kalah::formats::swiss {
namespace {

// Each round from the Swiss table of the rounds before (arena/schedule/swiss.h).
class SwissPairing : public arena::RoundPairing {
 public:
  explicit SwissPairing(const arena::Config& config) : config_(config) {}
  std::vector<arena::GameSpec> due(const arena::GameResults& results) override {
    return arena::swiss_games_due(config_, results);
  }
  // rounds x floor(n / 2) game pairs.
  int least_games() const override {
    return config_.tournament.rounds * (static_cast<int>(config_.engines.size()) / 2) * 2;
  }
  bool open_ended() const override { return false; }

 private:
  const arena::Config& config_;
};

class Swiss : public RoundsFormat {
 public:
  Swiss() : RoundsFormat(kType) {}
  std::unique_ptr<arena::RoundPairing> pairing(const arena::Config& config) const override {
    return std::make_unique<SwissPairing>(config);
  }

 protected:
  std::string games_text(const arena::Config& config) const override {
    return fmt::format("{} rounds of a game pair, {} games", config.tournament.rounds, pairing(config)->least_games());
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
