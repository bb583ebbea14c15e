// Scenario tests for every rule and variant key. Boards are drawn with North's
// row on top (North's pit 1 on the right, as South sees it) and written in the
// notation "<south pits>/<south store>/<north pits>/<north store> <side>",
// where North's pits are listed from North's own left (pit 1 first).
#include <gtest/gtest.h>

#include <ostream>

#include "referee/rules/perft.h"
#include "referee/rules/position.h"
#include "tests/test_variants.h"

namespace kalah {
namespace {

using test::V;

using test::P;

constexpr Move pit(int n) { return Move::at(n); }

const Variant kStandard = Variant{};

TEST(Rules, StartPositionOfKalah64) {
  EXPECT_EQ(to_notation(kStandard, start_position(kStandard)), "4,4,4,4,4,4/0/4,4,4,4,4,4/0 s");
  EXPECT_EQ(legal_moves(kStandard, start_position(kStandard)).size, 6);
}

// One move from a drawn position: the position it gives and the game's outcome there.
struct MoveCase {
  const char* rule;     // the test's name
  const char* variant;  // "": the standard Kalah(6,4)
  const char* before;
  int pit;
  const char* after;
  Outcome result;  // Ongoing: the game goes on
};

// Sowing, captures and the end of the game, a move each.
const MoveCase kMoves[] = {
    //        6  5  4  3  2  1
    //      [ 4  4  4  4  4  4 ]
    //   0                        0
    //      [ 4  4  4  4  4  4 ]      South plays pit 3: 5, 6, 7 and the store.
    //        1  2  3  4  5  6
    {
        .rule = "LastSeedInOwnStoreGivesAnotherMove",
        .variant = "",
        .before = "4,4,4,4,4,4/0/4,4,4,4,4,4/0 s",
        .pit = 3,
        .after = "4,4,0,5,5,5/1/4,4,4,4,4,4/0 s",
        .result = Outcome::Ongoing,
    },
    {
        .rule = "SowingContinuesOnTheOpponentsSideAndPassesTheTurn",
        .variant = "",
        .before = "4,4,4,4,4,4/0/4,4,4,4,4,4/0 s",
        .pit = 6,
        .after = "4,4,4,4,4,0/1/5,5,5,4,4,4/0 n",
        .result = Outcome::Ongoing,
    },
    // North's pit 3 holds 4 seeds: they go to North's pits 4, 5, 6 and North's store.
    {
        .rule = "NorthPitsAreNumberedFromNorthsLeft",
        .variant = "",
        .before = "4,4,4,4,4,4/0/4,4,4,4,4,4/0 n",
        .pit = 3,
        .after = "4,4,4,4,4,4/0/4,4,0,5,5,5/1 n",
        .result = Outcome::Ongoing,
    },
    // South's pit 6 holds 9: store, North 1..6, (North's store skipped), South 1, 2.
    {
        .rule = "SowingSkipsTheOpponentsStore",
        .variant = "",
        .before = "0,1,0,0,0,9/0/1,1,1,1,1,1/0 s",
        .pit = 6,
        .after = "1,2,0,0,0,0/1/2,2,2,2,2,2/0 n",
        .result = Outcome::Ongoing,
    },
    // North's pit 6 holds 3: North's store, (South's store skipped), South 1, 2.
    {
        .rule = "SowingSkipsTheOpponentsStoreForNorthToo",
        .variant = "",
        .before = "1,1,1,1,1,1/0/1,0,0,0,0,3/0 n",
        .pit = 6,
        .after = "2,2,1,1,1,1/0/1,0,0,0,0,0/1 s",
        .result = Outcome::Ongoing,
    },
    // 13 seeds from South's pit 1: pits 2..6, store, North 1..6, then pit 1 itself,
    // which was emptied: a capture of the seed and the 2 (1+1) facing it.
    {
        .rule = "ThirteenSeedsGoRoundAndDropIntoTheStartingPit",
        .variant = "",
        .before = "13,0,0,0,0,0/0/0,0,0,0,0,1/0 s",
        .pit = 1,
        .after = "0,1,1,1,1,1/4/1,1,1,1,1,0/0 n",
        .result = Outcome::Ongoing,
    },
    // 26 seeds = two full laps of 13 (no opponent store): every cell but North's
    // store gets 2; the last seed lands in the starting pit, which now holds 2: no capture.
    {
        .rule = "TwoLapsDropTwiceIntoTheStartingPit",
        .variant = "",
        .before = "26,0,0,0,0,0/0/1,0,0,0,0,0/0 s",
        .pit = 1,
        .after = "2,2,2,2,2,2/2/3,2,2,2,2,2/0 n",
        .result = Outcome::Ongoing,
    },
    //        6  5  4  3  2  1
    //      [ 4  7  4  4  4  4 ]
    //   0                        0
    //      [ 1  0  4  4  4  4 ]     South pit 1 -> pit 2 (empty); North's pit 5 (7) faces it.
    {
        .rule = "LastSeedInOwnEmptyPitCapturesOpposite",
        .variant = "",
        .before = "1,0,4,4,4,4/0/4,4,4,4,7,4/0 s",
        .pit = 1,
        .after = "0,0,4,4,4,4/8/4,4,4,4,0,4/0 n",
        .result = Outcome::Ongoing,
    },
    {
        .rule = "NoCaptureWhenOppositePitIsEmptyUnderStandardCapture",
        .variant = "",
        .before = "1,0,4,4,4,4/0/4,4,4,4,0,4/7 s",
        .pit = 1,
        .after = "0,1,4,4,4,4/0/4,4,4,4,0,4/7 n",
        .result = Outcome::Ongoing,
    },
    {
        .rule = "EmptyCaptureTakesTheLastSeedEvenWhenOppositeIsEmpty",
        .variant = "capture=empty",
        .before = "1,0,4,4,4,4/0/4,4,4,4,0,4/7 s",
        .pit = 1,
        .after = "0,0,4,4,4,4/1/4,4,4,4,0,4/7 n",
        .result = Outcome::Ongoing,
    },
    {
        .rule = "NoCaptureInAnOccupiedOwnPit",
        .variant = "",
        .before = "1,1,4,4,4,4/0/4,4,4,4,7,4/0 s",
        .pit = 1,
        .after = "0,2,4,4,4,4/0/4,4,4,4,7,4/0 n",
        .result = Outcome::Ongoing,
    },
    // South's last seed lands in North's empty pit 1: nothing happens.
    {
        .rule = "NoCaptureOnTheOpponentsSide",
        .variant = "",
        .before = "4,4,4,4,4,2/0/0,4,4,4,4,4/2 s",
        .pit = 6,
        .after = "4,4,4,4,4,0/1/1,4,4,4,4,4/2 n",
        .result = Outcome::Ongoing,
    },
    // North's pit 1 (1 seed) -> North's empty pit 2, facing South's pit 5 (6 seeds).
    {
        .rule = "NorthCapturesFromSouthsRow",
        .variant = "",
        .before = "4,4,4,4,6,4/0/1,0,4,4,4,4/0 n",
        .pit = 1,
        .after = "4,4,4,4,0,4/0/0,0,4,4,4,4/7 s",
        .result = Outcome::Ongoing,
    },
    // South's last seed goes into its store; South's row is then empty.
    {
        .rule = "SideEmptyEndsTheGameAndGivesTheRestToTheOwner",
        .variant = "",
        .before = "0,0,0,0,0,1/20/4,4,4,4,4,4/3 s",
        .pit = 6,
        .after = "0,0,0,0,0,0/21/0,0,0,0,0,0/27 s",
        .result = Outcome::SecondWins,
    },
    // South captures North's last seeds: North's row is empty after South's move.
    {
        .rule = "SideEmptyAlsoEndsWhenTheOpponentIsEmptied",
        .variant = "",
        .before = "1,0,0,0,0,5/20/0,0,0,0,2,0/20 s",
        .pit = 1,
        .after = "0,0,0,0,0,0/28/0,0,0,0,0,0/20 n",
        .result = Outcome::FirstWins,
    },
    {
        .rule = "NoMoveEndingEndsWhenTheMoverHasAnExtraTurnButNoSeeds",
        .variant = "ending=no-move",
        .before = "0,0,0,0,0,1/20/4,4,4,4,4,4/3 s",
        .pit = 6,
        .after = "0,0,0,0,0,0/21/0,0,0,0,0,0/27 s",
        .result = Outcome::SecondWins,
    },
    {
        .rule = "RemainderNoneLeavesSeedsUnscored",
        .variant = "remainder=none",
        .before = "0,0,0,0,0,1/20/4,4,4,4,4,4/3 s",
        .pit = 6,
        .after = "0,0,0,0,0,0/21/4,4,4,4,4,4/3 s",
        .result = Outcome::FirstWins,
    },
    // 48 seeds; South reaches 25 by sowing into its store.
    {
        .rule = "MajorityEndsTheGameOnceAStoreHoldsMoreThanHalf",
        .variant = "majority=on",
        .before = "0,0,0,0,2,1/24/4,4,4,4,4,1/0 s",
        .pit = 6,
        .after = "0,0,0,0,0,0/27/0,0,0,0,0,0/21 s",
        .result = Outcome::FirstWins,
    },
    // Exactly half is not a majority.
    {
        .rule = "MajorityNeedsMoreThanHalf",
        .variant = "majority=on",
        .before = "0,0,0,0,2,1/23/4,4,4,4,4,2/0 s",
        .pit = 6,
        .after = "0,0,0,0,2,0/24/4,4,4,4,4,2/0 s",
        .result = Outcome::Ongoing,
    },
    {
        .rule = "MajorityWithRemainderNoneKeepsTheBoard",
        .variant = "majority=on remainder=none",
        .before = "0,0,0,0,2,1/24/4,4,4,4,4,1/0 s",
        .pit = 6,
        .after = "0,0,0,0,2,0/25/4,4,4,4,4,1/0 s",
        .result = Outcome::FirstWins,
    },
};

// How GoogleTest shows a row (CTest's list, a failure): the move and where it is played.
void PrintTo(const MoveCase& c, std::ostream* os) {
  *os << "pit " << c.pit << " in " << c.before << (*c.variant ? " (" : "") << c.variant << (*c.variant ? ")" : "");
}

class OneMove : public ::testing::TestWithParam<MoveCase> {};

TEST_P(OneMove, GivesThePositionAndTheOutcome) {
  const MoveCase& c = GetParam();
  const Variant v = V(c.variant);
  Position p = P(v, c.before);
  ASSERT_TRUE(is_legal(v, p, pit(c.pit))) << "pit " << c.pit << " in " << c.before;
  apply(v, p, pit(c.pit));
  EXPECT_EQ(to_notation(v, p), c.after);
  EXPECT_EQ(p.over, c.result != Outcome::Ongoing);
  EXPECT_EQ(outcome(v, p), c.result);
  EXPECT_EQ(legal_moves(v, p).size == 0, p.over) << "no legal move exactly when the game is over";
}

INSTANTIATE_TEST_SUITE_P(Rules, OneMove, ::testing::ValuesIn(kMoves),
                         [](const ::testing::TestParamInfo<MoveCase>& info) { return info.param.rule; });

TEST(Rules, CaptureEndsTheTurn) {
  Position p = P(kStandard, "1,0,4,4,4,4/0/4,4,4,4,7,4/0 s");
  apply(kStandard, p, pit(1));
  EXPECT_EQ(p.to_move, Side::North);
}

TEST(Rules, NoMoveEndingWaitsUntilThePlayerToMoveHasNoSeeds) {
  const Variant v = V("ending=no-move");
  // South empties its row but North is to move and has seeds: the game goes on.
  Position p = P(v, "0,0,0,0,0,2/20/4,4,4,4,4,4/2 s");
  apply(v, p, pit(6));
  EXPECT_FALSE(p.over);
  EXPECT_EQ(to_notation(v, p), "0,0,0,0,0,0/21/5,4,4,4,4,4/2 n");
  // North's move puts a seed back on South's side.
  apply(v, p, pit(6));
  EXPECT_EQ(to_notation(v, p), "1,1,1,0,0,0/21/5,4,4,4,4,0/3 s");
}

TEST(Rules, PieFirstMoveNeverEarnsAnExtraTurn) {
  const Variant v = V("pie=on");
  Position p = start_position(v);
  EXPECT_EQ(to_notation(v, p), "4,4,4,4,4,4/0/4,4,4,4,4,4/0 s pie=first");
  EXPECT_FALSE(is_legal(v, p, Move::swap()));
  apply(v, p, pit(3));  // would be an extra turn without the pie rule
  EXPECT_EQ(to_notation(v, p), "4,4,0,5,5,5/1/4,4,4,4,4,4/0 n pie=offer");
  EXPECT_TRUE(is_legal(v, p, Move::swap()));
  EXPECT_EQ(legal_moves(v, p).size, 7);
}

TEST(Rules, PieSwapExchangesPlayersAndLeavesTheBoard) {
  const Variant v = V("pie=on");
  Position p = after(v, start_position(v), pit(3));
  apply(v, p, Move::swap());
  EXPECT_EQ(to_notation(v, p), "4,4,0,5,5,5/1/4,4,4,4,4,4/0 n swapped");
  EXPECT_FALSE(is_legal(v, p, Move::swap()));
  // The first player, now North, moves next; swap is never legal again.
  apply(v, p, pit(1));
  EXPECT_FALSE(is_legal(v, p, Move::swap()));
}

TEST(Rules, PieDeclinedByAnOrdinaryMove) {
  const Variant v = V("pie=on");
  Position p = after(v, start_position(v), pit(1));
  apply(v, p, pit(3));  // North's pit 3: extra turn, no more swap
  EXPECT_EQ(p.to_move, Side::North);
  EXPECT_FALSE(is_legal(v, p, Move::swap()));
  EXPECT_FALSE(p.swapped);
}

TEST(Rules, ResultAfterASwapIsFromTheFirstPlayersView) {
  const Variant v = V("pie=on");
  // South's side wins 30-18, but after the swap South's side is the second player.
  const Position p = P(v, "0,0,0,0,0,0/30/0,0,0,0,0,0/18 n swapped");
  EXPECT_TRUE(p.over);
  EXPECT_EQ(outcome(v, p), Outcome::SecondWins);
  const Position q = P(v, "0,0,0,0,0,0/24/0,0,0,0,0,0/24 n swapped");
  EXPECT_EQ(outcome(v, q), Outcome::Draw);
}

TEST(Rules, OnePitBoard) {
  const Variant v = V("pits=1 seeds=3");
  // 3 seeds: store, North's pit, South's pit again (skipping North's store); the
  // last seed lands in the emptied pit facing 5: capture 6. North's row is empty.
  Position p = start_position(v);
  apply(v, p, pit(1));
  EXPECT_TRUE(p.over);
  EXPECT_EQ(to_notation(v, p), "0/6/0/0 n");
}

TEST(Notation, RoundTripsAndRejectsNonsense) {
  const Variant v = V("pits=4 pie=on");
  for (const char* text : {"1,2,3,4/5/6,7,8,9/0 s", "0,0,0,1/0/1,0,0,0/0 n", "4,4,4,4/0/4,4,4,4/0 s pie=first",
                           "4,4,0,5/1/5,4,4,4/0 n pie=offer", "4,4,0,5/1/5,4,4,4/0 n swapped"}) {
    Expected<Position> p = parse_notation(v, text);
    ASSERT_TRUE(p.ok()) << text << ": " << (p.ok() ? "" : p.error());
    EXPECT_EQ(to_notation(v, *p), text);
  }
  for (const char* text : {"", "1,2,3,4/5/6,7,8,9/0", "1,2,3/5/6,7,8,9/0 s", "1,2,3,4/5/6,7,8,9/0 x",
                           "1,2,3,4/5/6,7,8,x/0 s", "1,2,3,4/5/6,7,8,9/0 n pie=first",
                           "1,2,3,4/5/6,7,8,9/0 s pie=offer", "1,2,3,4/-1/6,7,8,9/0 s", "1,2,3,4/5/6,7,8,9/0 s junk"})
    EXPECT_FALSE(parse_notation(v, text).ok()) << text;
  EXPECT_FALSE(parse_notation(kStandard, "4,4,4,4,4,4/0/4,4,4,4,4,4/0 s swapped").ok());
}

TEST(Variants, TextRoundTripsWithAllKeys) {
  const Variant v = V("pits=7 seeds=5 capture=empty ending=no-move remainder=none majority=on pie=on");
  EXPECT_EQ(to_string(v), "pits=7 seeds=5 capture=empty ending=no-move remainder=none majority=on pie=on");
  EXPECT_EQ(V(to_string(v)), v);
  EXPECT_EQ(to_string(V("")), "pits=6 seeds=4 capture=standard ending=side-empty remainder=owner majority=off pie=off");
}

TEST(Variants, BadTokensAreErrorsWithTheReason) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c :
       {Case{"pits=0", "pits must be"}, Case{"pits=17", "pits must be"}, Case{"seeds=x", "seeds must be"},
        Case{"capture=all", "capture must be"}, Case{"ending=never", "ending must be"},
        Case{"remainder=x", "remainder must be"}, Case{"pie=yes", "pie must be"},
        Case{"majority=1", "majority must be"}, Case{"colour=red", "unknown variant key 'colour'"},
        Case{"pits=6 pits=6", "given twice"}, Case{"pits", "not key=value"}}) {
    Expected<Variant> v = parse_variant(c.text);
    ASSERT_FALSE(v.ok()) << c.text;
    EXPECT_NE(v.error().find(c.message), std::string::npos) << c.text << " -> " << v.error();
  }
}

TEST(Moves, ParseAndPrint) {
  EXPECT_EQ(to_string(*parse_move("swap")), "swap");
  EXPECT_EQ(to_string(*parse_move("12")), "12");
  for (const char* bad : {"", "0", "256", "-1", "3x", "Swap"}) EXPECT_FALSE(parse_move(bad).ok()) << bad;
  EXPECT_FALSE(is_legal(kStandard, start_position(kStandard), *parse_move("99")));
  EXPECT_FALSE(is_legal(kStandard, start_position(kStandard), pit(7)));
}

TEST(Render, DrawsBothRowsAndTheStores) {
  EXPECT_EQ(render(kStandard, P(kStandard, "1,2,3,4,5,6/7/8,9,10,11,12,13/14 s")),
            "       6  5  4  3  2  1\n"
            "   [  13 12 11 10  9  8 ]\n"
            " 14                        7\n"
            "   [   1  2  3  4  5  6 ]\n"
            "       1  2  3  4  5  6\n"
            "south to move\n");
}

TEST(Perft, Kalah64StandardCapture) {
  const std::uint64_t expected[] = {6, 35, 185, 942, 4690, 23233, 114430, 563055, 2763490};
  for (int d = 1; d <= 9; ++d) EXPECT_EQ(perft(kStandard, start_position(kStandard), d), expected[d - 1]) << d;
}

TEST(Perft, Kalah64EmptyCapture) {
  const Variant v = V("capture=empty");
  const std::uint64_t expected[] = {6, 35, 185, 942, 4685, 23169, 113959, 559885, 2743126};
  for (int d = 1; d <= 9; ++d) EXPECT_EQ(perft(v, start_position(v), d), expected[d - 1]) << d;
}

TEST(Perft, BulkCountingAgreesWithPlayingEveryLeaf) {
  for (const char* text : {"", "pie=on", "pits=4 seeds=3 ending=no-move majority=on", "pits=3 seeds=6 capture=empty"}) {
    const Variant v = V(text);
    EXPECT_EQ(perft(v, start_position(v), 7), perft_full(v, start_position(v), 7)) << text;
  }
}

TEST(StartPosition, NotationRoundTripsAndNamesEachSideFromItsOwnLeft) {
  const Variant v = kStandard;
  EXPECT_EQ(to_start_notation(v, start_position(v)), "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S");
  Expected<Position> p = parse_start(v, "1,2,3,4,5,6/7,8,9,10,11,12 13-14 N");
  ASSERT_TRUE(p.ok()) << p.error();
  // South's pit 1 is cell 0, North's pit 1 is cell m + 1.
  EXPECT_EQ(p->cells[0], 1);
  EXPECT_EQ(p->cells[5], 6);
  EXPECT_EQ(p->cells[6], 13);
  EXPECT_EQ(p->cells[7], 7);
  EXPECT_EQ(p->cells[13], 14);
  EXPECT_EQ(p->to_move, Side::North);
  EXPECT_EQ(p->pie, Pie::None);
  EXPECT_EQ(to_start_notation(v, *p), "1,2,3,4,5,6/7,8,9,10,11,12 13-14 N");
  EXPECT_EQ(seed_total(v, *p), 105);
  EXPECT_EQ(seeds_to_hold(v, *p), 9);  // 105 seeds need a 2 x 6 x 9 board
}

TEST(StartPosition, BadStartsAreRefusedWithTheReason) {
  const Variant v = kStandard;
  const std::pair<const char*, const char*> cases[] = {
      {"4,4,4,4,4,4/4,4,4,4,4,4 0-0", "expected '<South's pits>/<North's pits>"},
      {"4,4,4,4,4/4,4,4,4,4,4 0-0 S", "each side needs 6 pits (the variant's pits), not 5 and 6"},
      {"4,4,4,4,4,x/4,4,4,4,4,4 0-0 S", "the pits must be seed counts"},
      {"4,4,4,4,4,4/4,4,4,4,4,4 0+0 S", "expected '<South's pits>"},
      {"4,4,4,4,4,4/4,4,4,4,4,4 0-a S", "the stores must be two seed counts"},
      {"4,4,4,4,4,4/4,4,4,4,4,4 0-0 s", "the side to move must be 'S' or 'N'"},
      {"0,0,0,0,0,0/0,0,0,0,0,0 0-0 S", "it holds 0 seeds; a board of 6 pits takes 1 to 192"},
      {"99,99,0,0,0,0/0,0,0,0,0,1 0-0 S", "it holds 199 seeds; a board of 6 pits takes 1 to 192"},
      {"0,0,0,0,0,0/4,4,4,4,4,4 24-0 N", "the game is already over there"},
  };
  for (const auto& [text, why] : cases) {
    Expected<Position> p = parse_start(v, text);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_NE(p.error().find(why), std::string::npos) << text << ": " << p.error();
  }
  Variant pie = v;
  pie.pie = true;
  EXPECT_FALSE(parse_start(pie, "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S").ok());
  // With the no-move ending only the mover's empty row ends the game.
  Variant no_move = v;
  no_move.ending = Ending::NoMove;
  EXPECT_TRUE(parse_start(no_move, "0,0,0,0,0,0/4,4,4,4,4,4 0-0 N").ok());
  EXPECT_FALSE(parse_start(no_move, "0,0,0,0,0,0/4,4,4,4,4,4 0-0 S").ok());
}

TEST(StartPosition, MajorityCountsTheSeedsOfThisBoardNotOfTheStandardOne) {
  // 9 seeds in all: North's store holds 4, and a fifth seed ends the game under the majority rule,
  // although 5 is far from half of the standard board's 48.
  Variant v = kStandard;
  v.majority = true;
  Expected<Position> p = parse_start(v, "1,1,1,0,0,0/1,0,0,0,0,1 0-4 N");
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_FALSE(p->over);
  const Position next = after(v, *p, Move::at(6));  // its one seed into North's store
  EXPECT_TRUE(next.over);
  EXPECT_EQ(outcome(v, next), Outcome::SecondWins);
  v.majority = false;
  EXPECT_FALSE(after(v, *p, Move::at(6)).over);
}

}  // namespace
}  // namespace kalah
