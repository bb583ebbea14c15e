// Does the plain maximum-likelihood estimate exist?  The log-likelihood is
// concave; it has a unique finite maximiser exactly when no direction d of the
// parameters (other than the one the normalisation removes) can be followed
// without ever lowering it. Moving along d changes a cell's logit by
// x.d = d_first - d_second + d_h, and does not lower that cell's term iff
//   x.d >= 0 whenever the first mover scored anything (points > 0) and
//   x.d <= 0 whenever the second mover scored anything (points < games).
// With d_h = 0 these are "d_winner >= d_loser" constraints, which only constant
// d satisfies iff the "scored against" graph is strongly connected (Zermelo/Ford).
// With d_h != 0 (scale it to +1 or -1) they are difference constraints, feasible
// iff their constraint graph has no negative cycle (Bellman-Ford).

#include <cassert>
#include <cstddef>
#include <vector>

#include "arena/rating/rating.h"

namespace kalah::rating {
namespace {

bool scored(const PairResult& r) { return r.games > 0.0 && r.points_first > 0.0; }
bool conceded(const PairResult& r) { return r.games > 0.0 && r.points_first < r.games; }

std::vector<bool> reachable(int players, const std::vector<std::vector<int>>& adjacency) {
  std::vector<bool> seen(players, false);
  std::vector<int> stack{0};
  seen[0] = true;
  while (!stack.empty()) {
    const int u = stack.back();
    stack.pop_back();
    for (int v : adjacency[u])
      if (!seen[v]) {
        seen[v] = true;
        stack.push_back(v);
      }
  }
  return seen;
}

bool strongly_connected(int players, std::span<const PairResult> results) {
  if (players <= 1) return true;
  std::vector<std::vector<int>> forward(players), backward(players);
  auto edge = [&](int from, int to) {  // `from` scored points against `to`
    forward[from].push_back(to);
    backward[to].push_back(from);
  };
  for (const PairResult& r : results) {
    if (scored(r)) edge(r.first, r.second);
    if (conceded(r)) edge(r.second, r.first);
  }
  for (const auto* adjacency : {&forward, &backward})
    for (bool seen : reachable(players, *adjacency))
      if (!seen) return false;
  return true;
}

// Is there d with d_second - d_first <= delta for every cell where the first mover
// scored, and d_first - d_second <= -delta for every cell where the second scored?
bool difference_constraints_feasible(int players, std::span<const PairResult> results, int delta) {
  struct Edge {
    int from, to, weight;  // d_to <= d_from + weight
  };
  std::vector<Edge> edges;
  for (const PairResult& r : results) {
    if (scored(r)) edges.push_back({r.first, r.second, delta});
    if (conceded(r)) edges.push_back({r.second, r.first, -delta});
  }
  std::vector<long> distance(players, 0);  // virtual source at distance 0 to all
  for (int round = 0; round <= players; ++round) {
    bool changed = false;
    for (const Edge& e : edges)
      if (distance[e.from] + e.weight < distance[e.to]) {
        distance[e.to] = distance[e.from] + e.weight;
        changed = true;
      }
    if (!changed) return true;
  }
  return false;  // still relaxing after `players` rounds: a negative cycle
}

}  // namespace

bool mle_exists(int players, std::span<const PairResult> results, bool first_mover) {
  assert(players >= 0);
  if (!strongly_connected(players, results)) return false;
  if (!first_mover) return true;
  return !difference_constraints_feasible(players, results, +1) &&
         !difference_constraints_feasible(players, results, -1);
}

}  // namespace kalah::rating
