// Rank intervals and fragility (arena/rating/rank_interval.h, docs/RANKING.md): small fields worked out by
// hand or by trying every set of reversals, the interval's promise over many seeded fields, determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "arena/rating/rank_interval.h"
#include "arena/rating/rating.h"
#include "arena/rating/standings.h"
#include "arena/report/rank_interval_report.h"
#include "arena/report/reporters.h"

namespace kalah::rating {
namespace {

// pairs[r_south * 3 + r_north]: engine a's results in one colour-swapped pair.
int kind(int south, int north) { return south * 3 + north; }

PairingGames pairing(int a, int b, std::initializer_list<std::pair<int, int>> pairs) {
  PairingGames g;
  g.a = a;
  g.b = b;
  for (auto [south, north] : pairs) ++g.pairs[kind(south, north)];
  return g;
}

// Points (rule `rule`) of each engine.
std::vector<double> points(int n, const std::vector<PairingGames>& pairings, const PointsRule& rule) {
  std::vector<double> m(n, 0.0);
  auto value = [&](int r) { return r == kWin ? rule.win : r == kDraw ? rule.draw : rule.loss; };
  for (const PairingGames& g : pairings)
    for (int k = 0; k < 9; ++k) {
      m[g.a] += g.pairs[k] * (value(k / 3) + value(k % 3));
      m[g.b] += g.pairs[k] * (value(2 - k / 3) + value(2 - k % 3));
    }
  return m;
}

// Published ranks by points, equal points sharing a rank.
std::vector<int> ranks_by(const std::vector<double>& value) {
  const int n = static_cast<int>(value.size());
  std::vector<int> rank(n, 1);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (value[j] > value[i]) ++rank[i];
  return rank;
}

RankProblem problem(int n, std::vector<PairingGames> pairings, OrderBy by, std::vector<int> cuts = {}) {
  RankProblem p;
  p.engines = n;
  p.pairings = std::move(pairings);
  p.by = by;
  p.cuts = std::move(cuts);
  FitOptions options;
  options.first_mover = true;
  set_model(p, fit(n, fit_results(p.pairings), options));
  if (by == OrderBy::Points) {
    p.rank = ranks_by(points(n, p.pairings, p.points));
  } else {
    p.rank = ranks_by(p.elo);
  }
  return p;
}

// Two equal engines, one pair each winning as South: the model says 50% a game. Both engines are level on
// points (a is published first, as a tie-break would): a is first when it wins both games (1/4) or splits them
// (1/2, level: the published order decides), so P(a first) = 3/4 and both intervals are 1st-2nd.
TEST(RankInterval, TwoEqualEnginesByHand) {
  RankProblem p;
  p.engines = 2;
  p.pairings = {pairing(0, 1, {{kWin, kLoss}})};
  p.by = OrderBy::Points;
  p.rank = {1, 2};
  p.elo = {0, 0};
  p.cuts = {1};
  const RankUncertainty u = rank_intervals(p);
  EXPECT_EQ(u.engines[0].low, 1);
  EXPECT_EQ(u.engines[0].high, 2);
  EXPECT_EQ(u.engines[1].low, 1);
  EXPECT_EQ(u.engines[1].high, 2);
  EXPECT_NEAR(u.engines[0].top[0], 0.75, 0.05);  // 1000 replicates: standard error 0.014
  EXPECT_NEAR(u.engines[1].top[0], 0.25, 0.05);
  EXPECT_EQ(u.engines[0].group, 1);
  EXPECT_EQ(u.engines[1].group, 1);
}

// A model with one engine 2000 Elo ahead: it wins every resampled game, so its interval is 1st-1st, the
// others' never include 1st, and it is in a group of its own.
TEST(RankInterval, ClearLeaderHasItsOwnGroup) {
  RankProblem p;
  p.engines = 3;
  p.pairings = {pairing(0, 1, {{kWin, kWin}}), pairing(0, 2, {{kWin, kWin}}), pairing(1, 2, {{kWin, kLoss}})};
  p.by = OrderBy::Points;
  p.rank = {1, 2, 3};
  p.elo = {2000, 0, 0};
  p.cuts = {1, 2};
  const RankUncertainty u = rank_intervals(p);
  EXPECT_EQ(u.engines[0].low, 1);
  EXPECT_EQ(u.engines[0].high, 1);
  EXPECT_EQ(u.engines[0].top[0], 1.0);
  EXPECT_EQ(u.engines[1].low, 2);
  EXPECT_EQ(u.engines[2].high, 3);
  EXPECT_EQ(u.engines[1].top[0], 0.0);
  EXPECT_EQ(u.engines[0].group, 1);
  EXPECT_EQ(u.engines[1].group, 2);
  EXPECT_EQ(u.engines[2].group, 2);
}

// a 3, b 2, c 1 point (1/2/0): a beat b 2-0, split with c, b beat c 2-0. Turning a-b round gives b 4, a 1:
// one reversal changes the winner; one reversal of b-c puts c level with b (the top 2 changes).
TEST(Fragility, ThreeEnginesByHand) {
  const RankProblem p =
      problem(3, {pairing(0, 1, {{kWin, kWin}}), pairing(0, 2, {{kWin, kLoss}}), pairing(1, 2, {{kWin, kWin}})},
              OrderBy::Points);
  ASSERT_EQ(p.rank, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(fragility(p, 1).count, 1);
  EXPECT_FALSE(fragility(p, 1).upper_bound);
  EXPECT_EQ(fragility(p, 2).count, 1);
  EXPECT_EQ(fragility(p, 3).count, std::nullopt);  // nobody outside the top 3
}

// a won 2 pairs against each of b and c, b and c split theirs: a 8 points, b and c 1 each. Each reversal of
// an a-b pair moves the gap of 7 by 4 (a -2, b +2), so two are needed; a cut through the shared 2nd place is
// 0 (the published order does not decide it).
TEST(Fragility, LeaderNeedsTwoReversals) {
  const RankProblem p = problem(3,
                                {pairing(0, 1, {{kWin, kWin}, {kWin, kWin}}),
                                 pairing(0, 2, {{kWin, kWin}, {kWin, kWin}}), pairing(1, 2, {{kWin, kLoss}})},
                                OrderBy::Points);
  ASSERT_EQ(p.rank, (std::vector<int>{1, 2, 2}));
  EXPECT_EQ(fragility(p, 1).count, 2);
  EXPECT_EQ(fragility(p, 2).count, 0);
}

// Every subset of units reversed, smallest first: the fewest that put an outsider level with or above an
// insider of the top k (points 3/1/0).
std::optional<int> brute_force(const RankProblem& p, int k) {
  std::vector<std::pair<std::size_t, int>> units;  // (pairing, kind), one entry per unit
  for (std::size_t x = 0; x < p.pairings.size(); ++x)
    for (int kd = 0; kd < 9; ++kd)
      for (int c = 0; c < p.pairings[x].pairs[kd]; ++c) units.emplace_back(x, kd);
  std::vector<int> order(p.engines);
  for (int i = 0; i < p.engines; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return p.rank[x] < p.rank[y]; });
  std::optional<int> best;
  for (unsigned mask = 0; mask < (1u << units.size()); ++mask) {
    const int size = __builtin_popcount(mask);
    if (best && size >= *best) continue;
    std::vector<PairingGames> g = p.pairings;
    for (std::size_t u = 0; u < units.size(); ++u)
      if (mask & (1u << u)) {
        const int kd = units[u].second;
        --g[units[u].first].pairs[kd];
        ++g[units[u].first].pairs[(2 - kd / 3) * 3 + (2 - kd % 3)];
      }
    const std::vector<double> m = points(p.engines, g, p.points);
    double lowest_in = 1e300, highest_out = -1e300;
    for (int x = 0; x < p.engines; ++x)
      (x < k ? lowest_in : highest_out) = x < k ? std::min(lowest_in, m[order[x]]) : std::max(highest_out, m[order[x]]);
    if (highest_out >= lowest_in - 1e-9) best = size;
  }
  return best;
}

TEST(Fragility, MatchesEveryReversalTriedOnSmallFields) {
  for (unsigned seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 random(seed);
    const int n = 4;
    std::vector<PairingGames> pairings;
    int units = 0;
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b) {
        PairingGames g;
        g.a = a;
        g.b = b;
        const int pairs = 1 + static_cast<int>(random() % 2);
        for (int c = 0; c < pairs && units < 12; ++c, ++units) ++g.pairs[random() % 9];
        pairings.push_back(g);
      }
    RankProblem p = problem(n, pairings, OrderBy::Points);
    p.points = {3, 1, 0};
    p.rank = ranks_by(points(n, p.pairings, p.points));
    for (int k = 1; k < n; ++k) {
      std::vector<int> sorted = p.rank;
      std::sort(sorted.begin(), sorted.end());
      const Fragility f = fragility(p, k);
      if (sorted[k - 1] == sorted[k]) {
        EXPECT_EQ(f.count, 0) << "k " << k;
        continue;
      }
      EXPECT_EQ(f.count, brute_force(p, k)) << "k " << k;
    }
  }
}

// Random fields, both orders: the published rank is always inside its interval, the groups follow the order,
// and the same problem gives the same answer.
TEST(RankInterval, AlwaysHoldsThePublishedRankAndRepeats) {
  for (unsigned seed = 1; seed <= 30; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 random(seed);
    const int n = 3 + static_cast<int>(random() % 6);
    std::vector<PairingGames> pairings;
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b) {
        PairingGames g;
        g.a = a;
        g.b = b;
        const int pairs = static_cast<int>(random() % 4);
        for (int c = 0; c < pairs; ++c) ++g.pairs[random() % 9];
        if (random() % 3 == 0) ++g.singles[random() % 2][random() % 3];
        pairings.push_back(g);
      }
    for (OrderBy by : {OrderBy::Points, OrderBy::Elo}) {
      RankProblem p = problem(n, pairings, by, {1, 2});
      p.replicates = 200;
      const RankUncertainty u = rank_intervals(p);
      for (int i = 0; i < n; ++i) {
        EXPECT_LE(u.engines[i].low, p.rank[i]);
        EXPECT_GE(u.engines[i].high, p.rank[i]);
        EXPECT_GE(u.engines[i].low, 1);
        EXPECT_LE(u.engines[i].high, n);
        for (int j = 0; j < n; ++j) {
          if (p.rank[i] < p.rank[j]) {
            EXPECT_LE(u.engines[i].group, u.engines[j].group);
          }
        }
        // A top-2 share is at least the top-1 share.
        EXPECT_GE(u.engines[i].top[1], u.engines[i].top[0]);
      }
      const RankUncertainty again = rank_intervals(p);
      for (int i = 0; i < n; ++i) {
        EXPECT_EQ(again.engines[i].low, u.engines[i].low);
        EXPECT_EQ(again.engines[i].high, u.engines[i].high);
        EXPECT_EQ(again.engines[i].top, u.engines[i].top);
      }
    }
  }
}

// The Elo order's fragility is an upper bound found by refitting: reversing that many pairs (by points) really
// changes the leader. Four engines in a ladder, one pair each: the leader's one loss-free record against the
// second needs reversing.
TEST(Fragility, EloOrderGivesACheckedUpperBound) {
  const RankProblem p =
      problem(4,
              {pairing(0, 1, {{kWin, kDraw}}), pairing(0, 2, {{kWin, kWin}}), pairing(0, 3, {{kWin, kWin}}),
               pairing(1, 2, {{kWin, kDraw}}), pairing(1, 3, {{kWin, kWin}}), pairing(2, 3, {{kWin, kDraw}})},
              OrderBy::Elo);
  ASSERT_EQ(p.rank, (std::vector<int>{1, 2, 3, 4}));
  const Fragility f = fragility(p, 1);
  EXPECT_TRUE(f.upper_bound);
  ASSERT_TRUE(f.count.has_value());
  EXPECT_GE(*f.count, 1);
  // By points (1, 1/2, 0: a 5.5, b 4) the same games need exactly one reversal: a-b turned round gives a 4.5,
  // b 5.
  RankProblem by_points = problem(4, p.pairings, OrderBy::Points);
  EXPECT_EQ(fragility(by_points, 1).count, 1);
  EXPECT_LE(*f.count, 2);
}

// A knockout of four: semi-finals a-d and b-c, final a-b, each one pair split 1-1 (the winner as played keeps a
// level match). With equal engines and no draws each match stays as played with chance 3/4. a: out in the
// semi-final 1/4 (3rd), in the final 3/4 * 1/4 (2nd), else first: 9/16. d: wins its semi-final 1/4 and is then
// counted one round further (2nd), never first.
TEST(RankInterval, KnockoutBracketByHand) {
  RankProblem p;
  p.engines = 4;  // a b c d
  p.pairings = {pairing(0, 3, {{kWin, kLoss}}), pairing(1, 2, {{kWin, kLoss}}), pairing(0, 1, {{kWin, kLoss}})};
  p.by = OrderBy::Bracket;
  p.rank = {1, 2, 3, 3};
  p.elo = {0, 0, 0, 0};
  p.cuts = {1, 2};
  const RankUncertainty u = rank_intervals(p);
  EXPECT_EQ(u.engines[0].low, 1);
  EXPECT_EQ(u.engines[0].high, 3);
  EXPECT_NEAR(u.engines[0].top[0], 9.0 / 16, 0.05);
  EXPECT_NEAR(u.engines[1].top[0], 3.0 / 16, 0.05);
  EXPECT_NEAR(u.engines[1].top[1], 12.0 / 16, 0.05);
  EXPECT_EQ(u.engines[3].low, 2);
  EXPECT_EQ(u.engines[3].high, 3);
  EXPECT_EQ(u.engines[3].top[0], 0.0);
  EXPECT_NEAR(u.engines[3].top[1], 0.25, 0.05);
}

// The same bracket with results: a beat d 2-0 and b 1.5-0.5 (a win and a draw), b beat c 1.5-0.5. First place
// turns on one reversal of the final; the top 2 on one reversal of a semi-final; the top 3 cuts through the
// shared 3rd place: 0.
TEST(Fragility, KnockoutByHand) {
  RankProblem p;
  p.engines = 4;
  p.pairings = {pairing(0, 3, {{kWin, kWin}}), pairing(1, 2, {{kWin, kDraw}}), pairing(0, 1, {{kWin, kDraw}})};
  p.by = OrderBy::Bracket;
  p.rank = {1, 2, 3, 3};
  p.elo = {0, 0, 0, 0};
  EXPECT_EQ(fragility(p, 1).count, 1);
  EXPECT_FALSE(fragility(p, 1).upper_bound);
  EXPECT_EQ(fragility(p, 2).count, 1);
  EXPECT_EQ(fragility(p, 3).count, 0);
  // With the final won 6-0 the semi-final (2-0) is where first place turns; with both won 6-0, two reversals
  // are needed: each turns a 2-0 pair into 0-2 (the gap 6 becomes 2, then -2).
  p.pairings[2] = pairing(0, 1, {{kWin, kWin}, {kWin, kWin}, {kWin, kWin}});
  EXPECT_EQ(fragility(p, 1).count, 1);
  p.pairings[0] = pairing(0, 3, {{kWin, kWin}, {kWin, kWin}, {kWin, kWin}});
  EXPECT_EQ(fragility(p, 1).count, 2);
}

// A game as the schedule names it: pair `p` of engines `x` and `y`, game g (0: x South, 1: y South).
GameRecord scheduled(const std::string& x, const std::string& y, int pair, int g, Outcome south_result) {
  GameRecord r;
  const std::string xi = x.substr(1), yi = y.substr(1);
  r.id = "r1-" + (g == 0 ? xi + "v" + yi : yi + "v" + xi) + "-p" + std::to_string(pair) + "-g" + std::to_string(g);
  r.south = g == 0 ? x : y;
  r.north = g == 0 ? y : x;
  r.result = south_result;
  r.termination = Termination::Normal;
  return r;
}

// Through the standings: a contest ranking by points where e1 and e2 share 2nd place. e0 won both games against
// each (4 points) and one more game without its partner (5); e1 and e2 split their pair (1 each). Every printed
// rank lies in its interval, and one reversal of e0's pair against e1 (2-0 to 0-2: e0 3, e1 3) puts e1 level.
TEST(RankInterval, StandingsOfAContestRanking) {
  std::vector<GameRecord> games = {
      scheduled("e0", "e1", 0, 0, Outcome::FirstWins), scheduled("e0", "e1", 0, 1, Outcome::SecondWins),
      scheduled("e0", "e2", 0, 0, Outcome::FirstWins), scheduled("e0", "e2", 0, 1, Outcome::SecondWins),
      scheduled("e1", "e2", 0, 0, Outcome::FirstWins), scheduled("e1", "e2", 0, 1, Outcome::FirstWins),
      scheduled("e0", "e2", 1, 0, Outcome::FirstWins)};
  StandingsBuilder b({"e0", "e1", "e2"});
  RankingSetup setup;
  setup.rules.by = RankBy::Points;
  setup.rules.cuts = {1, 2};
  b.set_ranking(setup);
  for (const GameRecord& g : games) b.add(g);
  const Standings s = b.standings(Intervals::With);
  ASSERT_TRUE(s.uncertainty.has_value());
  ASSERT_TRUE(s.ranking.has_value());
  EXPECT_EQ(s.ranking->rows[1].rank, 2);
  EXPECT_EQ(s.ranking->rows[2].rank, 2);  // 2=
  for (const EngineStanding& e : s.engines) {
    SCOPED_TRACE(e.name);
    EXPECT_LE(e.rank_low, e.rank);
    EXPECT_GE(e.rank_high, e.rank);
    for (const RankingRow& row : s.ranking->rows)
      if (row.name == e.name) {
        EXPECT_LE(e.rank_low, row.rank);
        EXPECT_GE(e.rank_high, row.rank);
      }
    ASSERT_EQ(e.top_share.size(), 2u);
  }
  EXPECT_EQ(s.uncertainty->first.count, 1);
  EXPECT_FALSE(s.uncertainty->first.upper_bound);
  ASSERT_EQ(s.uncertainty->cut_fragility.size(), 2u);
  EXPECT_EQ(s.uncertainty->cut_fragility[1].count, 0);  // the cut after 2nd runs through 2=
  // Asked without them, the standings carry none.
  EXPECT_FALSE(b.standings().uncertainty.has_value());
  EXPECT_EQ(b.standings().engines[0].rank_low, 0);
}

// Through the standings: a knockout's order from its form (semi-finals e0-e3 and e1-e2, final e0-e1).
TEST(RankInterval, StandingsOfAKnockout) {
  std::vector<GameRecord> games = {
      scheduled("e0", "e3", 0, 0, Outcome::FirstWins), scheduled("e0", "e3", 0, 1, Outcome::SecondWins),
      scheduled("e1", "e2", 0, 0, Outcome::FirstWins), scheduled("e1", "e2", 0, 1, Outcome::Draw),
      scheduled("e0", "e1", 1, 0, Outcome::FirstWins), scheduled("e0", "e1", 1, 1, Outcome::Draw)};
  StandingsBuilder b({"e0", "e1", "e2", "e3"});
  b.set_form([](const std::unordered_map<std::string, double>&) {
    return FormOrder{"knockout",
                     "by the round reached",
                     {{"e0", 1, false, 0}, {"e1", 2, false, 0}, {"e2", 3, true, 0}, {"e3", 3, true, 0}}};
  });
  for (const GameRecord& g : games) b.add(g);
  const Standings s = b.standings(Intervals::With);
  ASSERT_TRUE(s.uncertainty.has_value());
  EXPECT_EQ(s.uncertainty->by, OrderBy::Bracket);
  for (const EngineStanding& e : s.engines) {
    EXPECT_LE(e.rank_low, e.rank) << e.name;
    EXPECT_GE(e.rank_high, e.rank) << e.name;
  }
  // e0 won its semi-final 2-0 and the final 1.5-0.5: one reversal of either puts its opponent level.
  EXPECT_EQ(s.uncertainty->first.count, 1);
  EXPECT_FALSE(s.uncertainty->first.upper_bound);
}

TEST(RankIntervalReport, OrdinalsAndIntervals) {
  EXPECT_EQ(report::ordinal(1), "1st");
  EXPECT_EQ(report::ordinal(2), "2nd");
  EXPECT_EQ(report::ordinal(3), "3rd");
  EXPECT_EQ(report::ordinal(4), "4th");
  EXPECT_EQ(report::ordinal(11), "11th");
  EXPECT_EQ(report::ordinal(12), "12th");
  EXPECT_EQ(report::ordinal(13), "13th");
  EXPECT_EQ(report::ordinal(21), "21st");
  EXPECT_EQ(report::ordinal(112), "112th");
  EngineStanding e;
  e.rank_low = 3;
  e.rank_high = 5;
  EXPECT_EQ(report::rank_interval_text(e), "3rd–5th");
  e.rank_high = 3;
  EXPECT_EQ(report::rank_interval_text(e), "3rd");
  e.rank_low = 0;
  EXPECT_EQ(report::rank_interval_text(e), "–");
  EXPECT_EQ(report::fragility_text({2, true}), "at most 2");
  EXPECT_EQ(report::fragility_text({0, false}), "0");
  EXPECT_EQ(report::fragility_text({}), "–");
}

// Every format shows the intervals of standings that carry them, names escaped, and nothing of them without.
TEST(RankIntervalReport, EveryFormatShowsThem) {
  std::vector<GameRecord> games;
  for (int pair = 0; pair < 3; ++pair) {
    games.push_back(scheduled("e0", "e1", pair, 0, Outcome::FirstWins));
    games.push_back(scheduled("e0", "e1", pair, 1, pair == 0 ? Outcome::FirstWins : Outcome::SecondWins));
  }
  for (GameRecord& g : games)
    for (std::string* name : {&g.south, &g.north})
      if (*name == "e1") *name = "<b>&";
  RankingSetup setup;
  setup.rules.cuts = {1};
  StandingsBuilder b({"e0", "<b>&"});
  b.set_ranking(setup);
  for (const GameRecord& g : games) b.add(g);
  const Standings s = b.standings(Intervals::With);
  const std::string md = report::standings_markdown(s, "t"), html = report::report_html(s, {}, "t");
  const std::string csv = report::standings_csv(s), json = report::standings_json(s, "t");
  EXPECT_NE(md.find("## How sure the order is"), std::string::npos) << md;
  EXPECT_NE(md.find("| 1 | e0 | 1st"), std::string::npos) << md;
  EXPECT_NE(md.find("Fragility: "), std::string::npos) << md;
  EXPECT_NE(html.find("<h2>How sure the order is</h2>"), std::string::npos);
  EXPECT_NE(html.find("aria-label=\"95% rank intervals\""), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;&amp;"), std::string::npos);
  EXPECT_EQ(html.find("<b>&"), std::string::npos);
  EXPECT_EQ(csv.substr(0, csv.find('\n')).substr(csv.find(",diff_next_ci95")),
            ",diff_next_ci95,rank_low,rank_high,tie_group,top_1");
  EXPECT_NE(json.find("\"rank_low\": 1"), std::string::npos) << json;
  EXPECT_NE(json.find("\"fragility\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"top\": {"), std::string::npos) << json;
  const Standings plain = b.standings();
  EXPECT_EQ(report::standings_markdown(plain, "t").find("How sure"), std::string::npos);
  EXPECT_EQ(report::standings_json(plain, "t").find("rank_low"), std::string::npos);
  EXPECT_EQ(report::standings_csv(plain).find("rank_low"), std::string::npos);
  EXPECT_EQ(report::report_html(plain, {}, "t").find("How sure"), std::string::npos);
}

}  // namespace
}  // namespace kalah::rating
