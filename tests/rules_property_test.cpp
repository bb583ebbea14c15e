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
