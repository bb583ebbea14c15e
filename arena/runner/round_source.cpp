#include "arena/runner/round_source.h"

#include <cassert>

namespace kalah::arena {

double south_points(const GameRecord& record) {
  switch (record.result) {
    case Outcome::FirstWins: return 1.0;
    case Outcome::SecondWins: return 0.0;
    case Outcome::Draw: return 0.5;
    case Outcome::Ongoing: break;
  }
  assert(false && "a journaled game always has a result");
  return 0.5;
}

RoundSource::RoundSource(const Config& config, std::unique_ptr<RoundPairing> pairing)
    : config_(config), pairing_(std::move(pairing)) {
  assert(paired_from_results(config.tournament.type));
  assert(pairing_);
}

void RoundSource::add_journaled(const GameRecord& record) { results_.emplace(record.id, south_points(record)); }

std::optional<GameSpec> RoundSource::next() {
  for (int pass = 0; pass < 2; ++pass) {
    while (next_ < due_.size()) {
      const GameSpec& g = due_[next_++];
      if (results_.contains(g.id) || handed_out_.contains(g.id)) continue;
      handed_out_.insert(g.id);
      ++in_flight_;
      return g;
    }
    if (pass == 1) break;
    // A Swiss or adaptive round changes only when all of its games have finished: no replay while one is in
    // flight.
    if (kind_of(config_.tournament.type).round_waits && in_flight_ > 0) break;
    // Everything known is handed out: what is due now may have changed since it was computed.
    due_ = pairing_->due(results_);
    next_ = 0;
  }
  return std::nullopt;
}

void RoundSource::finished(const GameSpec& spec, const GameRecord& record) {
  assert(in_flight_ > 0);
  --in_flight_;
  handed_out_.erase(spec.id);
  results_.emplace(spec.id, south_points(record));
}

int RoundSource::total() const { return pairing_->open_ended() ? -1 : pairing_->least_games(); }

}  // namespace kalah::arena
