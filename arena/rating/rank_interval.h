// How sure a ranking is (docs/RANKING.md, "Rank intervals" and "Fragility"): a 95% rank interval per
// engine, the chance of finishing in each declared top k, and the fewest game-pair reversals that change who
// is first or who makes a cut. Pure maths over the games' counts: no I/O, no names.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "arena/rating/ranking.h"
#include "arena/rating/rating.h"

namespace kalah::rating {

// The bootstrap's fixed seed ("kalah-rk" in ASCII): the same games give the same intervals, byte for byte.
inline constexpr std::uint64_t kRankSeed = 0x6b616c61682d726bULL;
inline constexpr int kRankReplicates = 1000;

// A game's result for one engine: 0 loss, 1 draw, 2 win.
inline constexpr int kLoss = 0, kDraw = 1, kWin = 2;

// Every counted game of one pairing, as seen by engine `a`.
struct PairingGames {
  int a = 0, b = 0;  // engine indexes, a != b
  // Colour-swapped game pairs (both games of one opening) by a's result in the game a started as South
  // (first index) and in the game b started as South: pairs[r_south * 3 + r_north].
  std::array<int, 9> pairs{};
  // Games without their partner: singles[0] with a as South, singles[1] with b as South, each counted by a's
  // result (singles[x][r]).
  std::array<std::array<int, 3>, 2> singles{};
};

// The order the report ranks by.
enum class OrderBy {
  Points,  // by points under `points` (plus `offset`), as a contest's ranking or a Swiss tournament does
  Elo,     // by the rating fit
  // A knockout's bracket: `rank` is the round reached (the engines out in one round share a rank); each pairing
  // is one match, won by the engine with the better rank.
  Bracket,
};

struct RankProblem {
  int engines = 0;
  std::vector<PairingGames> pairings;
  // Each engine's published rank (1 = first; shared ranks repeat). 0: outside the order (a withdrawn or
  // disqualified entrant, or an engine without a counted game): it keeps its rank and interval as published.
  std::vector<int> rank;
  OrderBy by = OrderBy::Elo;
  PointsRule points;           // OrderBy::Points
  std::vector<double> offset;  // OrderBy::Points: points without a game (a Swiss bye), per engine; empty: none
  // The rating fit of the games (rating::fit with a first-mover term): the model the bootstrap simulates, and
  // for OrderBy::Elo its covariance, (engines + 1) x (engines + 1) with the first-mover term last.
  std::vector<double> elo;
  double first_mover = 0;
  std::vector<std::vector<double>> covariance;
  std::vector<int> cuts;  // the declared top k (each >= 1)
  int replicates = kRankReplicates;
  std::uint64_t seed = kRankSeed;
};

struct EngineInterval {
  int low = 0, high = 0;    // 95% rank interval, low <= published rank <= high; 0 0 outside the order
  int group = 0;            // tie group, 1 = the first; 0 outside the order
  std::vector<double> top;  // per cut, the share of resampled tournaments in which it finishes in the top k
};

// A fragility figure: the fewest reversals, exact or an upper bound (a set of reversals found that does it,
// checked by refitting); none when no set of reversals does it or the cut does not apply.
struct Fragility {
  std::optional<int> count;
  bool upper_bound = false;
};

struct RankUncertainty {
  OrderBy by = OrderBy::Elo;
  int replicates = 0;
  std::uint64_t seed = 0;
  std::vector<int> cuts;
  std::vector<EngineInterval> engines;   // by engine index
  Fragility first;                       // the cut k = 1
  std::vector<Fragility> cut_fragility;  // per cut
};

// The games as the rating fit takes them (per ordered pair of South and North engines).
std::vector<PairResult> fit_results(const std::vector<PairingGames>& pairings);
// Copies the fit (with a first-mover term) into p: elo, first_mover, covariance.
void set_model(RankProblem& p, const Rating& fit);

// The intervals, tie groups and top-k shares by a parametric bootstrap (docs/RANKING.md).
RankUncertainty rank_intervals(const RankProblem& p);

// The fewest reversals of a game pair (both games' results turned round: a win becomes a loss, a draw stays a
// draw; a game without its partner is a unit of its own) after which the top k is no longer the published
// top k: an engine outside it reaches at least the points (or Elo) of one inside. Exact for OrderBy::Points;
// for OrderBy::Elo an upper bound.
Fragility fragility(const RankProblem& p, int k);

}  // namespace kalah::rating
