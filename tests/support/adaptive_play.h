// Adaptive tournaments played out in memory (tests/adaptive_test.cpp, tests/final_test.cpp): every due game,
// round after round, with results from a function of the two engines, such as seeded games of engines of known
// strength.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "arena/schedule/adaptive.h"

namespace kalah::arena::test {

// The South engine's score of one game between `south` and `north`.
using PlayFn = std::function<double(int south, int north)>;

// Plays an adaptive tournament to its end with `outcome`: every due game, round after round (at most 100,000
// rounds).
inline AdaptiveProgress play_out(const AdaptivePlan& plan, const PlayFn& outcome, GameResults& results) {
  AdaptiveReplay replay(plan);
  for (int step = 0; step < 100'000; ++step) {
    const AdaptiveProgress& p = replay.update(results);
    if (p.complete) return p;
    const AdaptiveRound& round = p.rounds.back();
    for (const Pairing& b : round.boards) {
      const std::array<std::string, 2> ids = adaptive_game_ids(round.round, b);
      results.emplace(ids[0], outcome(b.first, b.second));
      results.emplace(ids[1], outcome(b.second, b.first));
    }
  }
  ADD_FAILURE() << "the tournament did not end";
  return {};
}

// Seeded games of engines of known strength (Elo), draws a quarter of the games between equals.
inline PlayFn logistic(std::vector<double> elo, std::uint64_t seed) {
  auto rng = std::make_shared<std::mt19937_64>(seed);
  return [elo = std::move(elo), rng](int s, int n) {
    const double e = 1.0 / (1.0 + std::pow(10.0, -(elo[s] - elo[n]) / 400.0));
    const double d = 0.25 * 2 * std::min(e, 1 - e);
    const double u = std::uniform_real_distribution<double>(0, 1)(*rng);
    return u < e - d / 2 ? 1.0 : u < e + d / 2 ? 0.5 : 0.0;
  };
}

// `n` strengths spread evenly over `elo`, the strongest first.
inline std::vector<double> spread(int n, double elo) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(elo / 2 - elo * i / std::max(1, n - 1));
  return out;
}

}  // namespace kalah::arena::test
