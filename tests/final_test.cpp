// Finals that stop themselves (arena/schedule/final_cut.h, docs/SCHEDULE.md "Finals that stop themselves"):
// the stopping rule on hand-built fields (an interval straddles a boundary only with places on both sides of
// it; the entrants straddling a boundary are paired across it, those all on one side with the engine just across,
// those left idle by more uncertain pairs with each other, and an entrant clear of every boundary is not paired), then
// whole finals played in memory: an entrant clearly first stops while a pair straddling a cut plays on to the budget, a
// field whose boundaries are all decided ends early, and a final cut after any game replays into the same rounds and
// the same stops.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "arena/schedule/adaptive.h"
#include "arena/schedule/final_cut.h"
#include "tests/support/adaptive_play.h"

namespace kalah::arena {
namespace {

using test::logistic;
using test::play_out;
using test::spread;

std::vector<int> first_to_last(int n) {
  std::vector<int> order;
  for (int i = 0; i < n; ++i) order.push_back(i);
  return order;
}

TEST(FinalCut, AnIntervalStraddlesABoundaryOnlyWithPlacesOnBothSides) {
  const std::vector<int> cuts = {1, 3};
  EXPECT_FALSE(straddles({1, 1}, cuts));  // clearly first
  EXPECT_TRUE(straddles({1, 2}, cuts));   // first or second: the prize is open
  EXPECT_FALSE(straddles({2, 3}, cuts));  // second or third: inside the top 3, not first
  EXPECT_TRUE(straddles({3, 4}, cuts));   // third or fourth
  EXPECT_FALSE(straddles({4, 9}, cuts));  // below every boundary, however wide
  EXPECT_TRUE(straddles({1, 9}, cuts));
  EXPECT_FALSE(straddles({2, 2}, {}));
}

TEST(FinalCut, AnEntrantClearlyFirstIsNotPairedAndThePairAtTheCutIs) {
  // Six engines, best first; boundaries after places 1 and 3.
  //   place: 1     2     3     4     5     6
  //   span:  1-1   2-3   3-5   3-5   4-6   5-6
  // Only engines 2 and 3 straddle (the cut after place 3); 0 is clearly first, 1 inside the top 3 below it.
  const std::vector<RankSpan> spans = {{1, 1}, {2, 3}, {3, 5}, {3, 5}, {4, 6}, {5, 6}};
  EXPECT_EQ(final_pairs(first_to_last(6), spans, {1, 3}), (std::vector<Pairing>{{2, 3}}));
  // Everything clear: nothing to play.
  const std::vector<RankSpan> settled = {{1, 1}, {2, 3}, {2, 3}, {4, 6}, {4, 6}, {4, 6}};
  EXPECT_TRUE(final_pairs(first_to_last(6), settled, {1, 3}).empty());
}

TEST(FinalCut, StraddlersOfABoundaryMeetAcrossItOnce) {
  // The order is not the engines' numbers: 3 is first, then 0, 2, 1, 4.
  const std::vector<int> order = {3, 0, 2, 1, 4};
  std::vector<RankSpan> spans(5);
  spans[3] = {1, 2};  // straddles 1
  spans[0] = {1, 4};  // straddles 1 and 3
  spans[2] = {2, 4};  // straddles 3
  spans[1] = {3, 5};  // straddles 3
  spans[4] = {5, 5};
  // Boundary 1: 3 (place 1) against 0 (place 2). Boundary 3: 0 and 2 (places 2 and 3) against 1 (place 4); 0
  // and 2 are on the same side of it and do not meet. Each pair once, the better placed engine first.
  EXPECT_EQ(final_pairs(order, spans, {1, 3}), (std::vector<Pairing>{{3, 0}, {0, 1}, {2, 1}}));
  // Three ways of one boundary: every one above against every one below.
  EXPECT_EQ(final_pairs(first_to_last(4), {{1, 3}, {1, 3}, {2, 4}, {4, 4}}, {2}),
            (std::vector<Pairing>{{0, 2}, {1, 2}}));
}

TEST(FinalCut, AnEntrantStraddlingAloneMeetsTheEngineJustAcrossTheBoundary) {
  // Engine 0 (place 1) may be second; nobody else may be first: it plays the engine at place 2.
  EXPECT_EQ(final_pairs(first_to_last(4), {{1, 2}, {2, 3}, {2, 4}, {4, 4}}, {1}), (std::vector<Pairing>{{0, 1}}));
  // Engine 2 (place 3) may be second; it plays the engine at place 2, the last of the top 2.
  EXPECT_EQ(final_pairs(first_to_last(4), {{1, 1}, {1, 2}, {2, 3}, {4, 4}}, {2}), (std::vector<Pairing>{{1, 2}}));
}

TEST(FinalCut, StraddlersLeftIdleByMoreUncertainPairsMeetEachOther) {
  // All four could finish anywhere; the round took 1-2 (the most uncertain), so 0 and 3 meet each other.
  const std::vector<RankSpan> open(4, RankSpan{1, 4});
  std::vector<Pairing> boards = {{1, 2}};
  pair_idle(first_to_last(4), open, {2}, boards);
  EXPECT_EQ(boards, (std::vector<Pairing>{{1, 2}, {0, 3}}));
  // An idle entrant clear of every boundary is left alone, and one without a partner waits.
  boards = {{1, 2}};
  pair_idle(first_to_last(5), {{1, 1}, {2, 4}, {2, 4}, {2, 4}, {5, 5}}, {1, 3}, boards);
  EXPECT_EQ(boards, (std::vector<Pairing>{{1, 2}}));
}

// Engine 0 beats everyone and 3 loses to everyone, but every fourth game of each pairing is a draw (so that the
// fit's ratings are finite); 1 and 2 always draw.
test::PlayFn fixed_field() {
  auto met = std::make_shared<std::map<std::pair<int, int>, int>>();
  return [met](int south, int north) {
    const int meeting = (*met)[{std::min(south, north), std::max(south, north)}]++;
    if ((south == 1 && north == 2) || (south == 2 && north == 1) || meeting % 4 == 3) return 0.5;
    return south == 0 || north == 3 ? 1.0 : 0.0;
  };
}

TEST(Final, AnEntrantClearlyFirstStopsWhileAPairStraddlingTheCutPlaysOn) {
  // The cut after place 2 falls between two engines that cannot be told apart: they play to the budget.
  GameResults results;
  const AdaptiveProgress p = play_out({4, 80, 0, 3, {2}}, fixed_field(), results);
  EXPECT_EQ(p.end, AdaptiveEnd::Budget);
  EXPECT_EQ(p.games_paired, 80);
  ASSERT_EQ(p.entrants.size(), 4u);
  const FinalEntrant &first = p.entrants[0], &last = p.entrants[3];
  EXPECT_GT(first.clear_after, 0);
  EXPECT_EQ(first.low, 1);
  EXPECT_EQ(first.high, 1);
  EXPECT_GT(last.clear_after, 0);
  EXPECT_EQ(last.low, 4);
  EXPECT_EQ(p.entrants[1].clear_after, 0);
  EXPECT_EQ(p.entrants[2].clear_after, 0);
  EXPECT_LE(p.entrants[1].low, 2);
  EXPECT_GE(p.entrants[1].high, 3);
  // After its stop, an engine is on no board: the games go to the pair at the cut.
  for (const AdaptiveRound& r : p.rounds)
    for (const Pairing& b : r.boards) {
      if (r.round > first.clear_after) {
        EXPECT_TRUE(b.first != 0 && b.second != 0) << "round " << r.round;
      }
      if (r.round > last.clear_after) {
        EXPECT_TRUE(b.first != 3 && b.second != 3) << "round " << r.round;
      }
    }
  // The games each stopped entrant had played when it stopped are all it played.
  int zero = 0;
  for (const AdaptiveRound& r : p.rounds)
    for (const Pairing& b : r.boards) zero += 2 * (b.first == 0 || b.second == 0);
  EXPECT_EQ(first.games, zero);
}

TEST(Final, EndsOnceNoIntervalStraddlesABoundary) {
  // The cuts after places 1 and 3 are both clear of the level pair: decided long before the budget.
  GameResults results;
  const AdaptiveProgress p = play_out({4, 1000, 0, 3, {1, 3}}, fixed_field(), results);
  EXPECT_EQ(p.end, AdaptiveEnd::Decided);
  EXPECT_LT(p.games_paired, 1000);
  for (const FinalEntrant& e : p.entrants) {
    EXPECT_GT(e.clear_after, 0);
    EXPECT_FALSE(straddles({e.low, e.high}, {1, 3})) << e.low << "-" << e.high;
  }
  EXPECT_EQ(static_cast<int>(results.size()), p.games_paired);
}

TEST(Final, ACutRunReplaysIntoTheSameRoundsAndStops) {
  const AdaptivePlan plan{8, 120, 0, 29, {1, 3}};
  GameResults all;
  const AdaptiveProgress full = play_out(plan, logistic(spread(8, 900), 31), all);
  std::vector<std::string> order;
  for (const AdaptiveRound& r : full.rounds)
    for (const Pairing& b : r.boards)
      for (const std::string& id : adaptive_game_ids(r.round, b)) order.push_back(id);
  ASSERT_EQ(static_cast<int>(order.size()), full.games_paired);
  GameResults cut;
  for (std::size_t kept = 0; kept <= order.size(); ++kept) {
    if (kept > 0) cut.emplace(order[kept - 1], all.at(order[kept - 1]));
    const AdaptiveProgress p = replay_adaptive(plan, cut);
    ASSERT_LE(p.rounds.size(), full.rounds.size());
    for (std::size_t r = 0; r < p.rounds.size(); ++r)
      ASSERT_EQ(p.rounds[r].boards, full.rounds[r].boards) << kept << " games kept, round " << r + 1;
    EXPECT_EQ(p.complete, kept == order.size());
  }
  const AdaptiveProgress again = replay_adaptive(plan, all);
  EXPECT_EQ(again.end, full.end);
  ASSERT_EQ(again.entrants.size(), full.entrants.size());
  for (std::size_t e = 0; e < full.entrants.size(); ++e) {
    EXPECT_EQ(again.entrants[e].clear_after, full.entrants[e].clear_after) << e;
    EXPECT_EQ(again.entrants[e].low, full.entrants[e].low) << e;
    EXPECT_EQ(again.entrants[e].high, full.entrants[e].high) << e;
  }
  // The same seed and results: the same final.
  GameResults twice;
  const AdaptiveProgress same = play_out(plan, logistic(spread(8, 900), 31), twice);
  EXPECT_EQ(twice, all);
  EXPECT_EQ(same.rounds.size(), full.rounds.size());
}

}  // namespace
}  // namespace kalah::arena
