// How many of its own games a new revision needs on a season's ladder before its rank is stable (docs/SEASON.md
// "The ladder", figures in docs/PERFORMANCE.md "How soon a new revision's rank is stable"): the real pair choice
// (arena/schedule/ladder.h, choose_ladder_pair) driven with simulated results, the reports' fit and 95% rank
// intervals (arena/rating) read at checkpoints. Used by bench/ladder_bench.cpp and tests/ladder_test.cpp.
//
// A season: `entrants` engines of known strength spread evenly over `spread` Elo, and the two sparring partners
// of `arena season init` (random and greedy, far below the weakest entrant: the gate keeps out what random beats)
// play the ladder one pair at a time until the entrants have `warmup` games each on average. Then a new author's
// revision of a strength drawn uniformly over the entrants' range joins, and the ladder goes on until it has
// `horizon` games. Results: the logistic model of bench/adaptive_bench.cpp (30 Elo for the first move, a quarter
// of the games drawn between equals).
//
// Stable after g games: at every checkpoint (every `step` of its games) from g to the horizon, its point rank (by
// the fit, among all who play) is within 1 of
//   settled: its point rank at the horizon (what many more games say; the truth unknown, as on a real ladder),
//   true:    its true rank (its rank by strength),
//   sure:    its true rank, and its 95% rank interval holds the true rank and is at most `max_width` places wide
//            (high - low + 1).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "arena/rating/rank_interval.h"
#include "arena/rating/rating.h"
#include "arena/schedule/ladder.h"

namespace kalah::ladder_sim {

struct SeasonShape {
  int entrants = 20;
  double spread = 800;   // Elo between the strongest and the weakest entrant
  int warmup = 800;      // the entrants' mean games before the new revision joins
  int horizon = 800;     // the new revision's games at the end
  int step = 10;         // a checkpoint every `step` of its games
  int max_width = 5;     // places, for `sure`
  int replicates = 200;  // of the rank intervals' bootstrap (the reports use 1000)
};

// A ladder in play: every engine's strength, the real tally, and each ordered pair's losses, draws and wins.
struct Ladder {
  std::vector<double> elo;
  std::vector<arena::LadderEngine> engines;
  arena::LadderTally tally{0};
  std::map<std::pair<int, int>, std::array<int, 3>> ldw;  // by South's result
  int pairs = 0;
};

inline double south_score(std::mt19937_64& rng, double diff) {
  const double e = 1.0 / (1.0 + std::pow(10.0, -diff / 400.0));
  const double d = 0.25 * 2 * std::min(e, 1 - e);
  const double u = std::uniform_real_distribution<double>(0, 1)(rng);
  return u < e - d / 2 ? 1.0 : u < e + d / 2 ? 0.5 : 0.0;
}

// One colour-swapped pair chosen by the ladder's own code; the pair, or none when no pair may play.
inline std::optional<arena::Pairing> play_pair(Ladder& l, std::mt19937_64& rng, std::uint64_t seed) {
  const std::optional<arena::Pairing> p = arena::choose_ladder_pair(l.engines, l.tally, seed, l.pairs);
  if (!p) return std::nullopt;
  ++l.pairs;
  for (const auto& [south, north] : {std::pair{p->first, p->second}, std::pair{p->second, p->first}}) {
    const double points =
        south_score(rng, l.elo[static_cast<std::size_t>(south)] - l.elo[static_cast<std::size_t>(north)] + 30);
    l.tally.add(south, north, points);
    ++l.ldw[{south, north}][static_cast<std::size_t>(points * 2)];
  }
  return p;
}

// Engines 0 and 1 the sparring partners, 2.. the entrants, the last one the new revision (not yet playing).
inline Ladder warmed_up(const SeasonShape& s, std::uint64_t seed) {
  Ladder l;
  const double weakest = -s.spread / 2;
  l.elo = {weakest - 800, weakest - 400};
  for (int i = 0; i < s.entrants; ++i) l.elo.push_back(s.spread / 2 - s.spread * i / (s.entrants - 1));
  l.elo.push_back(0);
  const int n = static_cast<int>(l.elo.size());
  l.engines.assign(static_cast<std::size_t>(n), {true, true});
  l.engines[0].entrant = l.engines[1].entrant = false;
  l.engines.back().plays = false;
  l.tally = arena::LadderTally(n);
  std::mt19937_64 rng(seed);
  const auto entrant_games = [&] {
    long long games = 0;
    for (int i = 2; i < n - 1; ++i) games += l.tally.games(i);
    return games;
  };
  while (entrant_games() < static_cast<long long>(s.warmup) * s.entrants) play_pair(l, rng, seed);
  return l;
}

// The point rank (1 = first) by the fit, and the 95% rank interval, of engine `who` among those that play.
struct RankSeen {
  int rank = 0, low = 0, high = 0;
};

inline RankSeen rank_of(const Ladder& l, int who, int replicates, bool with_interval) {
  const int n = static_cast<int>(l.elo.size());
  rating::RankProblem p;
  p.engines = n;
  for (const auto& [pair, g] : l.ldw) {
    rating::PairingGames games;
    games.a = pair.first;
    games.b = pair.second;
    games.singles[0] = g;  // each game on its own, by South's result
    p.pairings.push_back(games);
  }
  rating::FitOptions options;
  options.first_mover = true;
  const rating::Rating fit = rating::fit(n, rating::fit_results(p.pairings), options);
  p.rank.assign(static_cast<std::size_t>(n), 0);
  for (int i = 0; i < n; ++i) {
    if (!l.engines[static_cast<std::size_t>(i)].plays) continue;
    int above = 0;
    for (int j = 0; j < n; ++j)
      above += l.engines[static_cast<std::size_t>(j)].plays &&
               fit.elo[static_cast<std::size_t>(j)] > fit.elo[static_cast<std::size_t>(i)];
    p.rank[static_cast<std::size_t>(i)] = above + 1;
  }
  RankSeen seen;
  seen.rank = p.rank[static_cast<std::size_t>(who)];
  if (!with_interval) return seen;
  rating::set_model(p, fit);
  p.replicates = replicates;
  const rating::RankUncertainty u = rating::rank_intervals(p);
  seen.low = u.engines[static_cast<std::size_t>(who)].low;
  seen.high = u.engines[static_cast<std::size_t>(who)].high;
  return seen;
}

// What one season says: after how many of its games the new revision's rank was stable by each definition
// (none: not by the horizon), and its games when it had caught up (had as many as the fewest of the others).
struct Stability {
  std::optional<int> settled;    // point rank within 1 of its point rank at the horizon from then on
  std::optional<int> true_rank;  // point rank within 1 of the truth from then on
  std::optional<int> sure;       // and the interval holds the truth and is at most max_width wide
  int caught_up = 0;
  int ladder_pairs = 0;  // pairs the whole ladder played from its entry to the horizon
};

// The first of `games` from which `ok` holds at every checkpoint to the end; none if it fails at the last.
template <class Ok>
std::optional<int> stable_from(const std::vector<int>& games, const std::vector<RankSeen>& seen, Ok ok) {
  std::optional<int> from;
  for (std::size_t i = 0; i < games.size(); ++i)
    if (!ok(seen[i]))
      from.reset();
    else if (!from)
      from = games[i];
  return from;
}

// Plays the season on from `warm` (copied): the new revision of strength `elo` joins and plays `horizon` games.
inline Stability new_revision(const SeasonShape& s, Ladder l, double elo, std::uint64_t seed) {
  const int who = static_cast<int>(l.elo.size()) - 1;
  l.elo[static_cast<std::size_t>(who)] = elo;
  l.engines[static_cast<std::size_t>(who)].plays = true;
  int truth = 1;
  for (int j = 0; j < who; ++j) truth += l.elo[static_cast<std::size_t>(j)] > elo;
  std::mt19937_64 rng(seed);
  Stability out;
  const int start = l.pairs;
  std::vector<int> at;
  std::vector<RankSeen> seen;
  while (l.tally.games(who) < s.horizon && play_pair(l, rng, seed)) {
    const int games = l.tally.games(who);
    if (out.caught_up == 0) {
      int fewest = games + 1;
      for (int j = 2; j < who; ++j) fewest = std::min(fewest, l.tally.games(j));
      if (games >= fewest) out.caught_up = games;
    }
    if (!at.empty() && games < at.back() + s.step) continue;
    if (at.empty() && games < s.step) continue;
    at.push_back(games);
    seen.push_back(rank_of(l, who, s.replicates, true));
  }
  const int last = seen.empty() ? 0 : seen.back().rank;
  out.settled = stable_from(at, seen, [&](const RankSeen& r) { return std::abs(r.rank - last) <= 1; });
  out.true_rank = stable_from(at, seen, [&](const RankSeen& r) { return std::abs(r.rank - truth) <= 1; });
  out.sure = stable_from(at, seen, [&](const RankSeen& r) {
    return std::abs(r.rank - truth) <= 1 && r.low <= truth && truth <= r.high && r.high - r.low + 1 <= s.max_width;
  });
  out.ladder_pairs = l.pairs - start;
  return out;
}

}  // namespace kalah::ladder_sim
