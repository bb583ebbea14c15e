#include "arena/rating/rank_interval.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>
#include <numeric>

namespace kalah::rating {
namespace {

constexpr double kLogit = std::numbers::ln10 / 400.0;  // the fit's logistic scale (rating.cpp)

double model_score(double diff) { return 1.0 / (1.0 + std::exp(-kLogit * diff)); }

// splitmix64: small, fast, and the same sequence on every platform.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

// A probability as a threshold for 32 random bits u: P(u < threshold) = p, to 2^-32.
std::uint64_t threshold(double p) {
  if (!(p > 0)) return 0;
  if (p >= 1) return std::uint64_t{1} << 32;
  return static_cast<std::uint64_t>(std::ldexp(p, 32));
}

// One game of the design (engines and colours as played) with the model's chances for South.
struct DesignGame {
  int south = 0, north = 0;
  int count = 0;               // games alike
  std::uint64_t win = 0;       // threshold (threshold()) of P(South wins)
  std::uint64_t not_loss = 0;  // threshold of P(South wins or draws)
};

// A tournament's totals: per engine its wins (high 32 bits) and draws (low 32 bits) in one counter, so that a
// game is two additions; its games are the design's.
struct Totals {
  static constexpr std::uint64_t kAdd[3] = {0, 1, std::uint64_t{1} << 32};  // by result: loss, draw, win
  std::vector<std::uint64_t> wins_draws;
  std::vector<int> games;
  long long south_half_points = 0;  // South's points over all games, in half points
  explicit Totals(int n) : wins_draws(n), games(n) {}
  int wins(int i) const { return static_cast<int>(wins_draws[i] >> 32); }
  int draws(int i) const { return static_cast<int>(wins_draws[i] & 0xffffffffU); }
  int losses(int i) const { return games[i] - wins(i) - draws(i); }
  double score(int i) const { return wins(i) + 0.5 * draws(i); }
  // `times` games in which engine a had `result` (kLoss, kDraw, kWin) against b.
  void add(int a, int b, int result, int times) {
    wins_draws[a] += kAdd[result] * static_cast<std::uint64_t>(times);
    wins_draws[b] += kAdd[2 - result] * static_cast<std::uint64_t>(times);
    games[a] += times;
    games[b] += times;
  }
};

// The observed totals of the games.
Totals observed_totals(const RankProblem& p) {
  Totals t(p.engines);
  for (const PairingGames& g : p.pairings) {
    for (int k = 0; k < 9; ++k) {
      const int n = g.pairs[k];
      if (n == 0) continue;
      t.add(g.a, g.b, k / 3, n);
      t.add(g.a, g.b, k % 3, n);
      t.south_half_points += static_cast<long long>(n) * (k / 3 + 2 - k % 3);
    }
    for (int r = 0; r < 3; ++r) {
      t.add(g.a, g.b, r, g.singles[0][r] + g.singles[1][r]);
      t.south_half_points += static_cast<long long>(g.singles[0][r]) * r + g.singles[1][r] * (2 - r);
    }
  }
  return t;
}

// The tournament's share of draws.
double draw_share(const RankProblem& p, const Totals& observed) {
  long long games = 0, draws = 0;
  for (int i = 0; i < p.engines; ++i) {
    games += observed.games[i];
    draws += observed.draws(i);
  }
  return games > 0 ? static_cast<double>(draws) / static_cast<double>(games) : 0.0;
}

// The games of one pairing as played (engines, colours, number), each with the fitted model's chances. Draws:
// the tournament's share of draws, held below what the expected score allows (a draw is worth half a point to
// each side).
void add_design(const RankProblem& p, const PairingGames& g, double draws, std::vector<DesignGame>& out) {
  auto add = [&](int south, int north, int n) {
    if (n == 0) return;
    const double e = model_score(p.elo[south] - p.elo[north] + p.first_mover);
    const double d = std::min(draws, 2 * std::min(e, 1 - e));
    out.push_back({south, north, n, threshold(e - d / 2), threshold(e + d / 2)});
  };
  int pairs = 0;
  for (int n : g.pairs) pairs += n;
  add(g.a, g.b, pairs + g.singles[0][0] + g.singles[0][1] + g.singles[0][2]);
  add(g.b, g.a, pairs + g.singles[1][0] + g.singles[1][1] + g.singles[1][2]);
}

std::vector<DesignGame> design(const RankProblem& p, const Totals& observed) {
  const double draws = draw_share(p, observed);
  std::vector<DesignGame> out;
  for (const PairingGames& g : p.pairings) add_design(p, g, draws, out);
  return out;
}

// One resampled tournament into `t` (whose games are already the design's).
void simulate(const std::vector<DesignGame>& games, Random& random, Totals& t) {
  std::fill(t.wins_draws.begin(), t.wins_draws.end(), 0);
  long long south = 0;
  std::uint64_t bits = 0;  // each draw of the generator gives two games their 32 bits
  bool half = false;
  for (const DesignGame& g : games)
    for (int k = 0; k < g.count; ++k) {
      if (!half) bits = random.next();
      half = !half;
      const std::uint64_t u = bits & 0xffffffffU;
      bits >>= 32;
      const int result = 2 - (u >= g.win ? 1 : 0) - (u >= g.not_loss ? 1 : 0);
      t.wins_draws[g.south] += Totals::kAdd[result];
      t.wins_draws[g.north] += Totals::kAdd[2 - result];
      south += result;
    }
  t.south_half_points = south;
}

// Points rounded so that equal totals reached in a different order compare equal (a rule of 0.1 points).
double comparable(double x) { return std::round(x * 1e9) / 1e9; }

// Each engine's value in a resampled tournament, for the engines in the order (higher ranks first).
// Elo: one Newton step from the fit (theta + C g, g the change in the score equations), which is the fit's
// first-order answer to the new games (docs/RANKING.md).
class Measure {
 public:
  Measure(const RankProblem& p, const Totals& observed) : p_(p), observed_(observed), delta_(p.engines) {}

  void operator()(const Totals& t, const std::vector<int>& in_order, std::vector<double>& value) {
    if (p_.by == OrderBy::Points) {
      for (int i : in_order)
        value[i] = comparable((p_.offset.empty() ? 0.0 : p_.offset[i]) + t.wins(i) * p_.points.win +
                              t.draws(i) * p_.points.draw + t.losses(i) * p_.points.loss);
      return;
    }
    const int n = p_.engines;
    for (int j = 0; j < n; ++j) delta_[j] = kLogit * (t.score(j) - observed_.score(j));
    const double delta_h = kLogit * 0.5 * static_cast<double>(t.south_half_points - observed_.south_half_points);
    for (int i : in_order) {
      const std::vector<double>& row = p_.covariance[i];
      double step = row[n] * delta_h;
      for (int j = 0; j < n; ++j) step += row[j] * delta_[j];
      value[i] = p_.elo[i] + step;
    }
  }

 private:
  const RankProblem& p_;
  const Totals& observed_;
  std::vector<double> delta_;
};

// Ranks in a resampled tournament: higher value first; on equal values the published order decides, and
// engines that share a published rank share this one.
void rank_once(const std::vector<int>& in_order, const std::vector<int>& published, const std::vector<double>& value,
               int base, std::vector<int>& order, std::vector<int>& rank) {
  order = in_order;
  std::sort(order.begin(), order.end(), [&](int x, int y) {
    if (value[x] != value[y]) return value[x] > value[y];
    if (published[x] != published[y]) return published[x] < published[y];
    return x < y;
  });
  for (std::size_t k = 0; k < order.size(); ++k) {
    const int i = order[k];
    const bool shares = k > 0 && value[order[k - 1]] == value[i] && published[order[k - 1]] == published[i];
    rank[i] = shares ? rank[order[k - 1]] : base + static_cast<int>(k);
  }
}

// Tie groups: the published order is cut between two places where every engine above has a worse end of its
// interval better than the best end of every engine below.
void tie_groups(const std::vector<int>& in_order, const std::vector<int>& published, RankUncertainty& out) {
  std::vector<int> by_rank = in_order;
  std::stable_sort(by_rank.begin(), by_rank.end(), [&](int x, int y) { return published[x] < published[y]; });
  std::vector<int> min_low_below(by_rank.size() + 1, 1 << 30);
  for (std::size_t k = by_rank.size(); k-- > 0;)
    min_low_below[k] = std::min(min_low_below[k + 1], out.engines[by_rank[k]].low);
  int group = 1, max_high = 0;
  for (std::size_t k = 0; k < by_rank.size(); ++k) {
    if (k > 0 && max_high < min_low_below[k]) ++group;
    out.engines[by_rank[k]].group = group;
    max_high = std::max(max_high, out.engines[by_rank[k]].high);
  }
}

// Each engine's interval and top-k shares from hist[i][r] (how often engine i finished r-th, r from `base`),
// then the tie groups.
void summarize(const RankProblem& p, const std::vector<int>& in_order, int base,
               const std::vector<std::vector<int>>& hist, RankUncertainty& out) {
  const double total = p.replicates;
  const std::size_t span = in_order.size();
  for (int i : in_order) {
    EngineInterval& e = out.engines[i];
    int below = 0;  // replicates with a rank better than r
    e.low = e.high = 0;
    for (std::size_t r = 0; r < span; ++r) {
      below += hist[i][r];
      const int at = base + static_cast<int>(r);
      if (e.low == 0 && below > 0.025 * total) e.low = at;
      if (e.high == 0 && below >= 0.975 * total) e.high = at;
      for (std::size_t c = 0; c < p.cuts.size(); ++c)
        if (at == p.cuts[c]) e.top[c] = below / total;
    }
    for (std::size_t c = 0; c < p.cuts.size(); ++c)
      if (p.cuts[c] >= base + static_cast<int>(span)) e.top[c] = 1.0;
    // The interval always holds the published rank (a replay can leave it outside only where the published
    // order comes from something the replays do not apply, but the promise is absolute).
    e.low = std::min(e.low, p.rank[i]);
    e.high = std::max(e.high, p.rank[i]);
  }
  tie_groups(in_order, p.rank, out);
}

// A knockout's bracket replayed (docs/RANKING.md): each match played again with its games as played, its
// winner the engine with more points (level: the winner as played, for the match's own tie rule); an engine
// goes out at the first match of its path it loses. One that wins every match it played (the one it lost
// included) is counted one round further and no more: the games of rounds it never reached cannot be replayed.
void replay_bracket(const RankProblem& p, const Totals& observed, const std::vector<int>& in_order,
                    std::vector<std::vector<int>>& hist) {
  struct Match {
    int winner = 0, loser = 0;
    std::vector<DesignGame> games;
  };
  const double draws = draw_share(p, observed);
  std::vector<Match> matches;
  std::vector<std::vector<std::size_t>> path(static_cast<std::size_t>(p.engines));
  for (const PairingGames& g : p.pairings) {
    const int ra = p.rank[g.a], rb = p.rank[g.b];
    if (ra == 0 || rb == 0 || ra == rb) continue;  // an engine outside the order, or a match not decided yet
    Match m{ra < rb ? g.a : g.b, ra < rb ? g.b : g.a, {}};
    add_design(p, g, draws, m.games);
    path[m.winner].push_back(matches.size());
    path[m.loser].push_back(matches.size());
    matches.push_back(std::move(m));
  }
  // A path in round order: an earlier round's loser went out with a worse rank.
  for (std::vector<std::size_t>& x : path)
    std::sort(x.begin(), x.end(),
              [&](std::size_t a, std::size_t b) { return p.rank[matches[a].loser] > p.rank[matches[b].loser]; });
  std::vector<int> ranks;  // the ranks of the rounds' losers, best first
  for (int i : in_order) ranks.push_back(p.rank[i]);
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  auto one_round_further = [&](int rank) {
    const auto it = std::lower_bound(ranks.begin(), ranks.end(), rank);
    return it == ranks.begin() ? rank : *(it - 1);
  };
  const int base = ranks.front();
  Random random(p.seed);
  std::vector<char> kept(matches.size());  // the winner as played wins the replay
  for (int rep = 0; rep < p.replicates; ++rep) {
    for (std::size_t m = 0; m < matches.size(); ++m) {
      long long winner_half_points = 0, loser_half_points = 0;
      std::uint64_t bits = 0;
      bool half = false;
      for (const DesignGame& g : matches[m].games)
        for (int k = 0; k < g.count; ++k) {
          if (!half) bits = random.next();
          half = !half;
          const std::uint64_t u = bits & 0xffffffffU;
          bits >>= 32;
          const int south = 2 - (u >= g.win ? 1 : 0) - (u >= g.not_loss ? 1 : 0);
          const bool winner_south = g.south == matches[m].winner;
          winner_half_points += winner_south ? south : 2 - south;
          loser_half_points += winner_south ? 2 - south : south;
        }
      kept[m] = winner_half_points >= loser_half_points;
    }
    for (int i : in_order) {
      int rank = 0;
      for (std::size_t m : path[i]) {
        const bool lost = (matches[m].winner == i) != static_cast<bool>(kept[m]);
        if (lost) {
          rank = p.rank[matches[m].loser];
          break;
        }
      }
      if (rank == 0) rank = p.rank[i] == base ? base : one_round_further(p.rank[i]);
      ++hist[i][static_cast<std::size_t>(rank - base)];
    }
  }
}

}  // namespace

void set_model(RankProblem& p, const Rating& fit) {
  const std::size_t n = fit.elo.size();
  p.elo = fit.elo;
  p.first_mover = fit.first_mover_elo;
  p.covariance.assign(n + 1, std::vector<double>(n + 1, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) p.covariance[i][j] = fit.covariance[i][j];
    const double h = i < fit.first_mover_covariance.size() ? fit.first_mover_covariance[i] : 0.0;
    p.covariance[i][n] = p.covariance[n][i] = h;
  }
  p.covariance[n][n] = fit.first_mover_variance;
}

RankUncertainty rank_intervals(const RankProblem& p) {
  const int n = p.engines;
  assert(static_cast<int>(p.rank.size()) == n && static_cast<int>(p.elo.size()) == n);
  assert(p.by != OrderBy::Elo || static_cast<int>(p.covariance.size()) > n);
  RankUncertainty out;
  out.by = p.by;
  out.replicates = p.replicates;
  out.seed = p.seed;
  out.cuts = p.cuts;
  out.engines.assign(n, EngineInterval{});
  std::vector<int> in_order;
  for (int i = 0; i < n; ++i)
    if (p.rank[i] > 0) in_order.push_back(i);
  for (int i = 0; i < n; ++i) out.engines[i].top.assign(p.cuts.size(), 0.0);
  if (in_order.empty() || p.replicates <= 0) return out;
  int base = p.rank[in_order.front()];
  for (int i : in_order) base = std::min(base, p.rank[i]);

  const Totals observed = observed_totals(p);
  // hist[i][r]: how often engine i finished r-th (r from `base`).
  const std::size_t span = in_order.size();
  std::vector<std::vector<int>> hist(n, std::vector<int>(span, 0));
  if (p.by == OrderBy::Bracket) {
    replay_bracket(p, observed, in_order, hist);
    summarize(p, in_order, base, hist, out);
    return out;
  }
  const std::vector<DesignGame> games = design(p, observed);
  Random random(p.seed);
  Totals totals = observed;  // the design's games per engine; simulate() redraws the results
  Measure measure(p, observed);
  std::vector<double> value(n);
  std::vector<int> order, rank(n);
  for (int rep = 0; rep < p.replicates; ++rep) {
    simulate(games, random, totals);
    measure(totals, in_order, value);
    rank_once(in_order, p.rank, value, base, order, rank);
    for (int i : in_order) ++hist[i][static_cast<std::size_t>(rank[i] - base)];
  }
  summarize(p, in_order, base, hist, out);
  tie_groups(in_order, p.rank, out);
  return out;
}

}  // namespace kalah::rating
