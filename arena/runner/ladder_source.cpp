#include "arena/runner/ladder_source.h"

#include <algorithm>
#include <cassert>

#include "arena/runner/round_source.h"

namespace kalah::arena {

std::string ladder_game_id(int pair, int south, int north, int game_in_pair) {
  return "l" + std::to_string(pair + 1) + "-" + std::to_string(south) + "v" + std::to_string(north) + "-g" +
         std::to_string(game_in_pair);
}

LadderSource::LadderSource(const Config& config)
    : config_(config),
      openings_(config),
      tally_(static_cast<int>(config.engines.size())),
      engines_(config.engines.size()),
      busy_(config.engines.size(), 0) {
  for (int i = 0; i < static_cast<int>(config.engines.size()); ++i) {
    LadderEngine& e = engines_[static_cast<std::size_t>(i)];
    e.plays = config.plays(i);
    e.entrant = config.submissions && i >= config.house_engines;
  }
}

void LadderSource::add_journaled(const GameRecord& record) {
  const int south = config_.engine_index(record.south), north = config_.engine_index(record.north);
  if (south < 0 || north < 0 || south == north) return;
  tally_.add(south, north, south_points(record));
  const int pair = record.round - 1;
  if (pair < 0 ||
      (record.id != ladder_game_id(pair, south, north, 0) && record.id != ladder_game_id(pair, south, north, 1)))
    return;  // not a game of a ladder's pair: counted, nothing to finish
  next_pair_ = std::max(next_pair_, pair + 1);
  const int game_in_pair = record.id.ends_with("-g1") ? 1 : 0;
  if (!halves_.erase(pair)) halves_[pair] = {south, north, game_in_pair};
}

GameSpec ladder_game(const OpeningSource& openings, int pair, int south, int north, int game_in_pair) {
  GameSpec g;
  g.round = pair + 1;
  g.pair = pair;
  g.game_in_pair = game_in_pair;
  g.south = south;
  g.north = north;
  g.id = ladder_game_id(pair, south, north, game_in_pair);
  const OpeningLine line = openings.for_pair(static_cast<std::uint64_t>(pair));
  g.start = line.start;
  g.opening = line.moves;
  return g;
}

GameSpec LadderSource::game(int pair, int south, int north, int game_in_pair) const {
  return ladder_game(openings_, pair, south, north, game_in_pair);
}

void LadderSource::due(GameSpec spec) {
  ++busy_[static_cast<std::size_t>(spec.south)];
  ++busy_[static_cast<std::size_t>(spec.north)];
  due_.push_back(std::move(spec));
}

void LadderSource::resume_halves() {
  for (const auto& [pair, half] : halves_)
    if (engines_[static_cast<std::size_t>(half.south)].plays && engines_[static_cast<std::size_t>(half.north)].plays)
      due(game(pair, half.north, half.south, 1 - half.game_in_pair));
  halves_.clear();
}

std::optional<GameSpec> LadderSource::next() {
  if (closed_) return std::nullopt;
  if (!resumed_) {
    resume_halves();
    resumed_ = true;
  }
  if (due_.empty()) {
    for (std::size_t i = 0; i < engines_.size(); ++i) engines_[i].busy = busy_[i] > 0;
    const std::optional<Pairing> pair = choose_ladder_pair(engines_, tally_, config_.tournament.seed, next_pair_);
    if (!pair) return std::nullopt;
    const int number = next_pair_++;
    due(game(number, pair->first, pair->second, 0));
    due(game(number, pair->second, pair->first, 1));
  }
  GameSpec spec = std::move(due_.front());
  due_.pop_front();
  ++in_flight_;
  return spec;
}

void LadderSource::finished(const GameSpec& spec, const GameRecord& record) {
  assert(in_flight_ > 0);
  --in_flight_;
  --busy_[static_cast<std::size_t>(spec.south)];
  --busy_[static_cast<std::size_t>(spec.north)];
  tally_.add(spec.south, spec.north, south_points(record));
}

}  // namespace kalah::arena
