// Fragility (docs/RANKING.md): the fewest game-pair reversals that change who is in the top k.
#include <algorithm>
#include <cassert>
#include <cmath>

#include "arena/rating/rank_interval.h"
#include "arena/rating/rating.h"

namespace kalah::rating {
namespace {

// One kind of unit of a pairing: kinds 0..8 are the colour-swapped pairs (PairingGames::pairs), 9..11 the
// single games with a as South (a's result 0..2), 12..14 those with b as South.
constexpr int kKinds = 15;

int units_of(const PairingGames& g, int kind) {
  return kind < 9 ? g.pairs[kind] : g.singles[(kind - 9) / 3][(kind - 9) % 3];
}

double points_of(const PointsRule& rule, int result) {
  return result == kWin ? rule.win : result == kDraw ? rule.draw : rule.loss;
}

// The points engine a (first) and engine b (second) score in one unit of this kind.
std::pair<double, double> unit_points(const PointsRule& rule, int kind) {
  if (kind < 9)
    return {points_of(rule, kind / 3) + points_of(rule, kind % 3),
            points_of(rule, 2 - kind / 3) + points_of(rule, 2 - kind % 3)};
  const int r = (kind - 9) % 3;
  return {points_of(rule, r), points_of(rule, 2 - r)};
}

bool level_or_better(double outsider, double insider) { return outsider >= insider - 1e-9 * (1 + std::abs(insider)); }

// Reversals that narrow the gap between insider a and outsider b, largest first: a unit a won against a third
// engine (a loses what it won over that opponent), a unit b lost to a third engine, a unit a won against b
// (twice as much: a loses and b gains).
struct Gain {
  double gain = 0;
  int pairing = 0, kind = 0, count = 0;
};

std::vector<Gain> gains(const RankProblem& p, const PointsRule& rule, int a, int b) {
  std::vector<Gain> out;
  for (std::size_t x = 0; x < p.pairings.size(); ++x) {
    const PairingGames& g = p.pairings[x];
    const bool has_a = g.a == a || g.b == a, has_b = g.a == b || g.b == b;
    if (!has_a && !has_b) continue;
    for (int kind = 0; kind < kKinds; ++kind) {
      const int n = units_of(g, kind);
      if (n == 0) continue;
      auto [first, second] = unit_points(rule, kind);
      // Points of a and b in this unit (0 for the one not playing in it).
      const double of_a = g.a == a ? first : g.b == a ? second : 0;
      const double of_b = g.a == b ? first : g.b == b ? second : 0;
      const double other = g.a == a || g.a == b ? second : first;  // the opponent's, in a unit with a third
      double gain = 0;
      if (has_a && has_b)
        gain = 2 * (of_a - of_b);
      else if (has_a)
        gain = of_a - other;
      else
        gain = other - of_b;
      if (gain > 1e-12) out.push_back({gain, static_cast<int>(x), kind, n});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Gain& x, const Gain& y) { return x.gain > y.gain; });
  return out;
}

// The fewest reversals from `gains` that close `gap`; none when all of them do not.
std::optional<int> fewest(const std::vector<Gain>& list, double gap) {
  if (gap <= 1e-9 * (1 + std::abs(gap))) return 0;
  int used = 0;
  double closed = 0;
  for (const Gain& g : list) {
    const double need = gap - closed;
    const int take = std::min(g.count, static_cast<int>(std::ceil(need / g.gain - 1e-9)));
    used += take;
    closed += take * g.gain;
    if (closed >= gap - 1e-9 * (1 + std::abs(gap))) return used;
  }
  return std::nullopt;
}

// The engines in the published order, best first.
std::vector<int> published_order(const RankProblem& p) {
  std::vector<int> order;
  for (int i = 0; i < p.engines; ++i)
    if (p.rank[i] > 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return p.rank[x] < p.rank[y]; });
  return order;
}

std::vector<double> points_measure(const RankProblem& p) {
  std::vector<double> m(p.engines, 0.0);
  for (int i = 0; i < p.engines; ++i) m[i] = p.offset.empty() ? 0.0 : p.offset[i];
  for (const PairingGames& g : p.pairings)
    for (int kind = 0; kind < kKinds; ++kind) {
      auto [first, second] = unit_points(p.points, kind);
      m[g.a] += units_of(g, kind) * first;
      m[g.b] += units_of(g, kind) * second;
    }
  return m;
}

Fragility by_points(const RankProblem& p, const std::vector<int>& order, int k) {
  const std::vector<double> m = points_measure(p);
  std::optional<int> best;
  for (int x = 0; x < k; ++x)
    for (std::size_t y = static_cast<std::size_t>(k); y < order.size(); ++y) {
      const int a = order[static_cast<std::size_t>(x)], b = order[y];
      if (best && *best == 0) return {best, false};
      const double gap = m[a] - m[b];
      if (level_or_better(m[b], m[a])) {
        best = 0;
        continue;
      }
      // Cheap bound first: no reversal gains more than 4 * (win - loss) (a pair a won twice against b).
      const double most = 4 * (p.points.win - p.points.loss);
      if (best && std::ceil(gap / most - 1e-9) >= *best) continue;
      const std::optional<int> n = fewest(gains(p, p.points, a, b), gap);
      if (n && (!best || *n < *best)) best = n;
    }
  return {best, false};
}

// The fit's results with the first `take` reversals of `list` applied.
std::vector<PairResult> reversed_results(const RankProblem& p, const std::vector<Gain>& list, int take) {
  std::vector<PairingGames> games = p.pairings;
  for (const Gain& g : list) {
    if (take <= 0) break;
    const int n = std::min(take, g.count);
    take -= n;
    PairingGames& x = games[static_cast<std::size_t>(g.pairing)];
    if (g.kind < 9) {
      x.pairs[g.kind] -= n;
      x.pairs[(2 - g.kind / 3) * 3 + (2 - g.kind % 3)] += n;
    } else {
      const int side = (g.kind - 9) / 3, r = (g.kind - 9) % 3;
      x.singles[side][r] -= n;
      x.singles[side][2 - r] += n;
    }
  }
  return fit_results(games);
}

}  // namespace

std::vector<PairResult> fit_results(const std::vector<PairingGames>& pairings) {
  std::vector<PairResult> out;
  for (const PairingGames& g : pairings) {
    PairResult south_a{g.a, g.b, 0, 0}, south_b{g.b, g.a, 0, 0};
    for (int kind = 0; kind < 9; ++kind) {
      south_a.games += g.pairs[kind];
      south_a.points_first += g.pairs[kind] * 0.5 * (kind / 3);
      south_b.games += g.pairs[kind];
      south_b.points_first += g.pairs[kind] * (1.0 - 0.5 * (kind % 3));
    }
    for (int r = 0; r < 3; ++r) {
      south_a.games += g.singles[0][r];
      south_a.points_first += g.singles[0][r] * 0.5 * r;
      south_b.games += g.singles[1][r];
      south_b.points_first += g.singles[1][r] * (1.0 - 0.5 * r);
    }
    for (const PairResult& r : {south_a, south_b})
      if (r.games > 0) out.push_back(r);
  }
  return out;
}

namespace {

// Each engine's score change when a unit of this kind is turned round: (engine a's, engine b's).
std::pair<double, double> score_change(int kind) {
  const PointsRule score;
  auto [a, b] = unit_points(score, kind);
  return {b - a, a - b};
}

// The shortest prefix of `list` after which the fit's linear answer (one Newton step from the fit, as the
// bootstrap uses) puts an outsider level with an insider; the whole list when it never does.
int predicted_prefix(const RankProblem& p, const std::vector<Gain>& list, const std::vector<int>& inside,
                     const std::vector<int>& outside) {
  constexpr double kLogitScale = 0.005756462732485115;  // ln(10) / 400
  std::vector<double> elo = p.elo;
  auto changed = [&] {
    double lowest_in = 1e300, highest_out = -1e300;
    for (int i : inside) lowest_in = std::min(lowest_in, elo[static_cast<std::size_t>(i)]);
    for (int i : outside) highest_out = std::max(highest_out, elo[static_cast<std::size_t>(i)]);
    return level_or_better(highest_out, lowest_in);
  };
  int used = 0;
  for (const Gain& g : list) {
    const PairingGames& x = p.pairings[static_cast<std::size_t>(g.pairing)];
    const auto [da, db] = score_change(g.kind);
    for (int c = 0; c < g.count; ++c) {
      for (int i = 0; i < p.engines; ++i)
        elo[static_cast<std::size_t>(i)] +=
            kLogitScale * (p.covariance[static_cast<std::size_t>(i)][static_cast<std::size_t>(x.a)] * da +
                           p.covariance[static_cast<std::size_t>(i)][static_cast<std::size_t>(x.b)] * db);
      ++used;
      if (changed()) return used;
    }
  }
  return used;
}

// An upper bound for the Elo order: for the closest insider/outsider pairs, a prefix of their reversals (by
// points, largest first) after which a refit puts the outsider level with or above an insider. The fit's
// linear answer says where to look; every count returned was checked by a refit.
Fragility by_elo(const RankProblem& p, const std::vector<int>& order, int k) {
  FitOptions options;
  options.first_mover = true;
  options.covariance = false;
  double mean = 0;
  for (double e : p.elo) mean += e / p.engines;
  for (double e : p.elo) options.start.push_back(e - mean);
  options.start.push_back(p.first_mover);
  const std::vector<int> inside(order.begin(), order.begin() + k), outside(order.begin() + k, order.end());
  auto changed = [&](const std::vector<Gain>& list, int take) {
    const std::vector<PairResult> results = reversed_results(p, list, take);
    const Rating r = fit(p.engines, results, options);
    double lowest_in = 1e300, highest_out = -1e300;
    for (int i : inside) lowest_in = std::min(lowest_in, r.elo[static_cast<std::size_t>(i)]);
    for (int i : outside) highest_out = std::max(highest_out, r.elo[static_cast<std::size_t>(i)]);
    return level_or_better(highest_out, lowest_in);
  };
  if (changed({}, 0)) return {0, false};
  // The two weakest inside and the two strongest outside by Elo: the closest contests of the cut, tried in
  // the order of their predicted prefix.
  auto by_elo_desc = [&](int x, int y) { return p.elo[x] > p.elo[y]; };
  std::vector<int> in = inside, out = outside;
  std::sort(in.begin(), in.end(), by_elo_desc);
  std::sort(out.begin(), out.end(), by_elo_desc);
  struct Candidate {
    std::vector<Gain> list;
    int all = 0, predicted = 0;
  };
  std::vector<Candidate> candidates;
  for (std::size_t x = in.size() > 2 ? in.size() - 2 : 0; x < in.size(); ++x)
    for (std::size_t y = 0; y < std::min<std::size_t>(2, out.size()); ++y) {
      Candidate c{gains(p, PointsRule{}, in[x], out[y]), 0, 0};
      for (const Gain& g : c.list) c.all += g.count;
      c.predicted = std::max(1, predicted_prefix(p, c.list, inside, outside));
      if (c.all > 0) candidates.push_back(std::move(c));
    }
  std::sort(candidates.begin(), candidates.end(),
            [](const Candidate& x, const Candidate& y) { return x.predicted < y.predicted; });
  std::optional<int> best;
  for (std::size_t c = 0; c < std::min<std::size_t>(2, candidates.size()); ++c) {
    const Candidate& cand = candidates[c];
    const int limit = best ? std::min(cand.all, *best - 1) : cand.all;
    if (limit <= 0) continue;
    // Up from the prediction (doubling the step) to a prefix that does it, then down while a shorter one does.
    int hi = std::min(cand.predicted, limit), step = 1;
    while (!changed(cand.list, hi)) {
      if (hi == limit) {
        hi = 0;
        break;
      }
      hi = std::min(limit, hi + step);
      step *= 2;
    }
    if (hi == 0) continue;
    while (hi > 1 && changed(cand.list, hi - 1)) --hi;
    best = hi;
  }
  return {best, true};
}

// A knockout: the cut changes when a match whose winner is above it and whose loser is below goes the other
// way (the winner then goes out in that round, below the cut). The fewest reversals that put the loser level
// with or ahead of the winner in the points of that match (1, 1/2, 0), over every such match.
Fragility by_bracket(const RankProblem& p, const std::vector<int>& order, int k) {
  std::vector<char> above(static_cast<std::size_t>(p.engines), 0);
  for (int x = 0; x < k; ++x) above[static_cast<std::size_t>(order[static_cast<std::size_t>(x)])] = 1;
  const PointsRule score;
  std::optional<int> best;
  for (const PairingGames& g : p.pairings) {
    const int ra = p.rank[g.a], rb = p.rank[g.b];
    if (ra == 0 || rb == 0 || ra == rb) continue;
    const bool a_won = ra < rb;
    const int winner = a_won ? g.a : g.b, loser = a_won ? g.b : g.a;
    if (!above[static_cast<std::size_t>(winner)] || above[static_cast<std::size_t>(loser)]) continue;
    double gap = 0;
    std::vector<Gain> list;
    for (int kind = 0; kind < kKinds; ++kind) {
      const int n = units_of(g, kind);
      if (n == 0) continue;
      auto [first, second] = unit_points(score, kind);
      const double w = a_won ? first : second, l = a_won ? second : first;
      gap += n * (w - l);
      if (w > l) list.push_back({2 * (w - l), 0, kind, n});
    }
    std::stable_sort(list.begin(), list.end(), [](const Gain& x, const Gain& y) { return x.gain > y.gain; });
    const std::optional<int> n = fewest(list, gap);
    if (n && (!best || *n < *best)) best = n;
  }
  return {best, false};
}

}  // namespace

Fragility fragility(const RankProblem& p, int k) {
  assert(k >= 1);
  const std::vector<int> order = published_order(p);
  if (static_cast<std::size_t>(k) >= order.size()) return {};  // nobody outside the top k
  // A cut through a shared rank: the published order itself does not decide it.
  if (p.rank[order[static_cast<std::size_t>(k) - 1]] == p.rank[order[static_cast<std::size_t>(k)]]) return {0, false};
  if (p.by == OrderBy::Bracket) return by_bracket(p, order, k);
  return p.by == OrderBy::Points ? by_points(p, order, k) : by_elo(p, order, k);
}

}  // namespace kalah::rating
