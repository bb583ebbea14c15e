// Seeded random games over every combination of rule keys: invariants that must
// hold in every position. A failure prints the variant and the seed.
#include <random>

#include <gtest/gtest.h>

#include "referee/rules/position.h"
#include "tests/test_variants.h"

namespace kalah {
namespace {

int board_total(const Variant& v, const Position& p) {
  int sum = 0;
  for (int i = 0; i < v.cells(); ++i) sum += p.cells[i];
  return sum;
}

void check_random_games(const Variant& v, std::uint64_t seed, int games) {
  std::mt19937_64 rng(seed);
  SCOPED_TRACE("variant '" + to_string(v) + "' seed " + std::to_string(seed));
  for (int g = 0; g < games; ++g) {
    Position p = start_position(v);
    int ply = 0;
    // Every move puts at least one seed into a store or moves seeds towards the
    // opponent; a generous bound catches a game that never ends.
    const int max_plies = 20 * v.total_seeds() + 100;
    while (!p.over) {
      ASSERT_LT(ply, max_plies) << to_notation(v, p);
      const MoveList moves = legal_moves(v, p);
      ASSERT_GT(moves.size, 0) << "no legal move but not over: " << to_notation(v, p);
      ASSERT_EQ(moves.size, legal_move_count(v, p));
      // The swap is legal exactly on North's first turn of a pie game.
      ASSERT_EQ(moves.contains(Move::swap()), v.pie && ply == 1) << to_notation(v, p);
      const Move m = moves.moves[std::uniform_int_distribution<int>(0, moves.size - 1)(rng)];
      ASSERT_TRUE(is_legal(v, p, m));
      apply(v, p, m);
      ++ply;
      ASSERT_EQ(board_total(v, p), v.total_seeds()) << "seeds not conserved: " << to_notation(v, p);
      Expected<Position> again = parse_notation(v, to_notation(v, p));
      ASSERT_TRUE(again.ok()) << again.error();
      ASSERT_EQ(*again, p) << "notation does not round-trip: " << to_notation(v, p);
    }
    ASSERT_EQ(legal_moves(v, p).size, 0);
    ASSERT_NE(outcome(v, p), Outcome::Ongoing);
    if (v.remainder == Remainder::Owner) {
      ASSERT_EQ(store(v, p, Side::South) + store(v, p, Side::North), v.total_seeds()) << to_notation(v, p);
    }
  }
}

TEST(RulesProperty, RandomGamesKeepEveryInvariantInAllVariants) {
  std::uint64_t seed = 20261202;
  for (int pits : {1, 2, 3, 6, 7, 16})
    for (int seeds : {1, 3, 4, 6, 16})
      for (const Variant& v : test::rule_combinations(pits, seeds)) check_random_games(v, seed++, 40);
}

TEST(RulesProperty, ManyGamesOfStandardKalah) {
  check_random_games(Variant{}, 7, 5000);
  Variant v;
  v.pie = true;
  v.capture = Capture::Empty;
  check_random_games(v, 8, 5000);
}

}  // namespace
}  // namespace kalah

namespace kalah {
namespace {

// The player to move, told apart from the side to move. Kalah(6,4) with the pie rule:
//   South (first player) plays pit 1: 0 5 5 5 5 4 — no extra turn on the first move.
//   North (second player) swaps: the second player now owns South's pits, and the first player,
//   now sitting North, is to move.
//   A move that ends in the mover's store keeps the same player to move.
TEST(Rules, PlayerToMoveFollowsThePieSwapAndExtraTurns) {
  Variant v;
  v.pie = true;
  Position p = start_position(v);
  EXPECT_EQ(player_to_move(p), Seat::First);
  EXPECT_EQ(side_of(Seat::First, p), Side::South);
  apply(v, p, Move::at(1));
  EXPECT_EQ(p.to_move, Side::North);
  EXPECT_EQ(player_to_move(p), Seat::Second);
  apply(v, p, Move::swap());
  ASSERT_TRUE(p.swapped);
  EXPECT_EQ(side_of(Seat::First, p), Side::North);
  EXPECT_EQ(side_of(Seat::Second, p), Side::South);
  EXPECT_EQ(player_to_move(p), Seat::First);
  EXPECT_EQ(side_of(player_to_move(p), p), p.to_move);
  // North's pit 3 holds 4 seeds: the last lands in North's store, an extra turn.
  const Seat before = player_to_move(p);
  ASSERT_EQ(p.cells[v.pits + 3], 4) << render(v, p);
  apply(v, p, Move::at(3));
  EXPECT_EQ(player_to_move(p), before) << render(v, p);
}

// Over random games of every rule combination the side of the player to move is the side to move.
TEST(Rules, PlayerToMoveSitsOnTheSideToMove) {
  for (const Variant& v : test::rule_combinations(4, 3)) {
    std::mt19937_64 rng(7);
    for (int g = 0; g < 20; ++g) {
      Position p = start_position(v);
      while (!p.over) {
        ASSERT_EQ(side_of(player_to_move(p), p), p.to_move) << to_notation(v, p);
        const MoveList moves = legal_moves(v, p);
        apply(v, p, moves.moves[std::uniform_int_distribution<int>(0, moves.size - 1)(rng)]);
      }
    }
  }
}

}  // namespace
}  // namespace kalah
