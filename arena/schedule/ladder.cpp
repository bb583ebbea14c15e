#include "arena/schedule/ladder.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <string>

#include "arena/rating/rating.h"
#include "arena/schedule/adaptive.h"

namespace kalah::arena {

LadderTally::LadderTally(int engines) : games_(static_cast<std::size_t>(engines), 0) {}

void LadderTally::add(int south, int north, double south_points) {
  assert(south != north && south >= 0 && north >= 0 && south < engines() && north < engines());
  ++games_[static_cast<std::size_t>(south)];
  ++games_[static_cast<std::size_t>(north)];
  Ordered& o = results_[{south, north}];
  o.games += 1;
  o.south_points += south_points;
}

int LadderTally::games_between(int a, int b) const {
  double games = 0;
  for (const auto& key : {std::pair{a, b}, std::pair{b, a}})
    if (const auto found = results_.find(key); found != results_.end()) games += found->second.games;
  return static_cast<int>(games);
}

namespace {

// The fit the reports make of these games: Bradley–Terry with a first-mover term (docs/RATING.md).
rating::Rating fit_of(const LadderTally& tally) {
  std::vector<rating::PairResult> results;
  for (const auto& [pair, o] : tally.ordered()) results.push_back({pair.first, pair.second, o.games, o.south_points});
  rating::FitOptions options;
  options.first_mover = true;
  return rating::fit(tally.engines(), results, options);
}

// The pairs that may play now, those of the engines with the fewest games.
std::vector<Pairing> fewest_games_pairs(const std::vector<LadderEngine>& engines, const LadderTally& tally) {
  std::vector<Pairing> pairs;
  int fewest = std::numeric_limits<int>::max();
  const int n = static_cast<int>(engines.size());
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      const LadderEngine &ea = engines[static_cast<std::size_t>(a)], &eb = engines[static_cast<std::size_t>(b)];
      if (!ea.plays || !eb.plays || ea.busy || eb.busy || !(ea.entrant || eb.entrant)) continue;
      const int low = std::min(tally.games(a), tally.games(b));
      if (low > fewest) continue;
      if (low < fewest) pairs.clear();
      fewest = low;
      pairs.push_back({a, b});
    }
  return pairs;
}

}  // namespace

std::optional<Pairing> choose_ladder_pair(const std::vector<LadderEngine>& engines, const LadderTally& tally,
                                          std::uint64_t seed, int pair_number) {
  assert(static_cast<int>(engines.size()) == tally.engines());
  const std::vector<Pairing> pairs = fewest_games_pairs(engines, tally);
  if (pairs.empty()) return std::nullopt;
  const rating::Rating fit = fit_of(tally);
  std::vector<AdaptiveCandidate> candidates;
  for (const Pairing& p : pairs) {
    const bool first_above = fit.elo[static_cast<std::size_t>(p.first)] >= fit.elo[static_cast<std::size_t>(p.second)];
    const Pairing ordered = first_above ? p : Pairing{p.second, p.first};
    const std::string key = std::to_string(seed) + " " + std::to_string(pair_number) + " " +
                            std::to_string(ordered.first) + " " + std::to_string(ordered.second);
    candidates.push_back(
        {rating::los(fit, ordered.second, ordered.first), tally.games_between(p.first, p.second), fnv1a(key), ordered});
  }
  // The adaptive kind's order of candidates: most uncertain first, then fewest games between, then the draw.
  return choose_boards(std::move(candidates), tally.engines()).front();
}

}  // namespace kalah::arena
