// Certified books (bots/solver/certify.h): start positions with seeds moved, the certificate in each
// line, and `book --check` re-certifying a book with the exact search.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "bots/solver/book.h"
#include "bots/solver/certify.h"
#include "plain_minimax.h"
#include "tests/test_variants.h"

namespace kalah::solver {
namespace {

using test::V;

int side_total(const Variant& v, const Position& p, Side s) {
  const int first = s == Side::South ? 0 : v.pits + 1;
  int total = 0;
  for (int i = 0; i < v.pits; ++i) total += p.cells[first + i];
  return total;
}

// The seeds away from their pit, over both sides (each pit starts with v.seeds).
int moved_seeds(const Variant& v, const Position& p) {
  int moved = 0;
  for (int i = 0; i < v.pits; ++i) {
    moved += std::max(0, p.cells[i] - v.seeds);
    moved += std::max(0, p.cells[v.pits + 1 + i] - v.seeds);
  }
  return moved;
}

TEST(SolverBookStarts, MovedSeedStartsKeepEachSidesSeedsAndAreDistinct) {
  const Variant v = V("pits=4 seeds=3 capture=empty");
  // One seed moved: 4 pits to take it from times 3 to put it in, on either side.
  EXPECT_EQ(moved_seed_starts(v, 1).size(), 24u);
  for (int moved = 1; moved <= 3; ++moved) {
    std::set<std::string> seen;
    for (const Position& p : moved_seed_starts(v, moved)) {
      EXPECT_EQ(side_total(v, p, Side::South), v.pits * v.seeds);
      EXPECT_EQ(side_total(v, p, Side::North), v.pits * v.seeds);
      EXPECT_EQ(moved_seeds(v, p), moved) << to_start_notation(v, p);
      EXPECT_EQ(p.to_move, Side::South);
      EXPECT_FALSE(p.over);
      EXPECT_TRUE(seen.insert(to_start_notation(v, p)).second) << to_start_notation(v, p);
    }
  }
}

TEST(SolverBookStarts, DrawStartsAreExactDrawsAndTheirBookRecertifies) {
  const Variant v = V("pits=3 seeds=3");
  ExactSolver solver(v, 8);
  BookOptions o;
  o.starts = 2;
  o.count = 1000;
  o.max_margin = 0;
  BookStats stats;
  const std::vector<BookLine> book = make_book(solver, o, stats);
  ASSERT_FALSE(book.empty());
  EXPECT_EQ(stats.solved, moved_seed_starts(v, 2).size());
  std::string text = "# a comment line\n\n";
  test::PlainMinimax minimax(v);
  for (const BookLine& line : book) {
    ASSERT_TRUE(line.start.has_value());
    EXPECT_EQ(line.south_margin, 0);
    EXPECT_EQ(minimax.margin(*line.start), 0) << to_start_notation(v, *line.start);
    text += book_line_text(v, line) + "\n";
  }
  ExactSolver checker(v, 8);
  const auto checked = check_book(checker, text, "book.txt", std::nullopt);
  ASSERT_TRUE(checked) << checked.error();
  ASSERT_EQ(checked->size(), book.size());
  for (const CheckedLine& c : *checked) EXPECT_TRUE(c.ok()) << c.text;
  EXPECT_EQ(checked->front().line_number, 3);
}

TEST(SolverBookCheck, AWrongClaimFailsAndBadLinesAreErrorsWithTheirPlace) {
  const Variant v = V("pits=4 seeds=3 capture=empty");
  ExactSolver solver(v, 8);
  BookLine line;
  line.moves = {Move::at(3), Move::at(2), Move::at(3)};
  line.south_margin = 0;
  const std::string good = book_line_text(v, line);
  // The certificate names the position reached and its value for the side to move.
  EXPECT_NE(good.find("# South 0; certificate: solve --position \"4,4,0,4/1/4,0,0,5/2 s\" gives 0"), std::string::npos)
      << good;
  const auto ok = check_book(solver, good + "\n", "b.txt", std::nullopt);
  ASSERT_TRUE(ok) << ok.error();
  ASSERT_EQ(ok->size(), 1u);
  EXPECT_TRUE(ok->front().ok());

  const auto wrong = check_book(solver, "3 2 3  # South +2\n", "b.txt", std::nullopt);
  ASSERT_TRUE(wrong) << wrong.error();
  ASSERT_EQ(wrong->size(), 1u);
  EXPECT_FALSE(wrong->front().ok());
  EXPECT_EQ(wrong->front().claimed, 2);
  EXPECT_EQ(wrong->front().got, 0);

  const auto illegal = check_book(solver, "# x\n3 9 3  # South 0\n", "b.txt", std::nullopt);
  ASSERT_FALSE(illegal);
  EXPECT_EQ(illegal.error(), "b.txt:2:3: '9' is not a legal move");
  const auto unclaimed = check_book(solver, "3 2 3\n", "b.txt", std::nullopt);
  ASSERT_FALSE(unclaimed);
  EXPECT_EQ(unclaimed.error().rfind("b.txt:1:6: no certified value", 0), 0u) << unclaimed.error();
  const auto bad_start = check_book(solver, "3,3/3,3 0-0  # South 0\n", "b.txt", std::nullopt);
  ASSERT_FALSE(bad_start);
  EXPECT_EQ(bad_start.error().rfind("b.txt:1:1: ", 0), 0u) << bad_start.error();
}

}  // namespace
}  // namespace kalah::solver
