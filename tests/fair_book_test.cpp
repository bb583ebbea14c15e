// Fair openings (issue 41 part 5): the certified draw books shipped in configs/ re-certify with the exact
// solver (a sample of each, chosen by a fixed rule), `kalah-solver book --check` refuses a line whose
// certificate is wrong, and the reports say "every opening is a proven draw" only when every line of the book
// carries a draw certificate for the tournament's variant.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "arena/config/openings.h"
#include "arena/flow/tournament_meta.h"
#include "bots/solver/certify.h"
#include "referee/endgame/database.h"
#include "referee/rules/certificate.h"
#include "referee/system/temp_folder.h"
#include "tests/child_process.h"
#include "tests/test_variants.h"

namespace kalah {
namespace {

using namespace std::chrono_literals;
using test::V;

const std::filesystem::path kConfigs = KALAH_SOURCE_DIR "/configs";

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The variant a book's certificate header names.
Variant book_variant(const std::string& text) {
  for (const std::string& line : lines_of(text))
    if (const std::optional<std::string> named = certificate_variant(line)) {
      const Expected<Variant> v = parse_variant(*named);
      if (v) return *v;
    }
  ADD_FAILURE() << "no certificate header";
  return Variant{};
}

// The seeds left in the pits at the position a line's certificate names: the fewer, the faster the solve.
int seeds_in_pits(const Variant& v, const std::string& line) {
  const std::optional<BookClaim> claim = parse_claim(line.substr(line.find('#')));
  if (!claim || !claim->position) return 1 << 20;
  const Expected<Position> p = parse_notation(v, *claim->position);
  if (!p) return 1 << 20;
  int seeds = 0;
  for (int i = 0; i < v.pits; ++i) seeds += p->cells[i] + p->cells[v.pits + 1 + i];
  return seeds;
}

struct ShippedBook {
  const char* file;
  const char* variant;
};
const ShippedBook kShipped[] = {{"draw-book.txt", "pits=6 seeds=4 capture=standard"},
                                {"draw-book-empty.txt", "pits=6 seeds=4 capture=empty"}};

TEST(ShippedDrawBooks, EveryLineIsACertifiedDrawOfItsVariantAndTheLinesAreDistinct) {
  for (const ShippedBook& b : kShipped) {
    SCOPED_TRACE(b.file);
    const std::string text = read_text(kConfigs / b.file);
    const Variant v = book_variant(text);
    EXPECT_EQ(to_string(v), to_string(V(b.variant)));
    const auto book = arena::parse_book(text, b.file, v, start_position(v));
    ASSERT_TRUE(book) << book.error();
    EXPECT_GE(book->size(), 100u);
    for (std::size_t i = 0; i < book->size(); ++i) {
      EXPECT_TRUE((*book)[i].proven_draw) << "line " << i + 1 << " of the book's openings";
      for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE((*book)[i] == (*book)[j]) << i << " repeats " << j;
    }
  }
}

// The bundled configs of standard Kalah(6,4) play a book whose every line carries a draw certificate (ladder.toml
// keeps its 800-line balanced book: its 800 pairs would replay a shorter book's games).
TEST(ShippedDrawBooks, TheBundledKalah64ConfigsPlayOnlyProvenDraws) {
  const Variant v = V("pits=6 seeds=4");
  for (const char* name : {"quick.toml", "gauntlet.toml", "swiss.toml", "knockout.toml", "contest.toml",
                           "adaptive.toml", "final.toml", "contest/contest.toml", "contest/gated.toml"}) {
    SCOPED_TRACE(name);
    const std::filesystem::path config = kConfigs / name;
    const std::string text = read_text(config);
    // Standard Kalah(6,4): the default variant, or said so.
    EXPECT_EQ(text.find("capture = \"empty\""), std::string::npos);
    EXPECT_TRUE(text.find("\npits = ") == std::string::npos || text.find("\npits = 6") != std::string::npos);
    EXPECT_TRUE(text.find("\nseeds = ") == std::string::npos || text.find("\nseeds = 4") != std::string::npos);
    std::string file;
    for (const std::string& line : lines_of(text))
      if (line.rfind("file = \"", 0) == 0) file = line.substr(8, line.find('"', 8) - 8);
    ASSERT_FALSE(file.empty());
    arena::OpeningsConfig o;
    o.file = config.parent_path() / file;
    const auto book = arena::parse_book(read_text(o.file), o.file.string(), v, start_position(v));
    ASSERT_TRUE(book) << book.error();
    o.book = *book;
    EXPECT_NE(arena::describe_openings(o).find("; every opening is a proven draw"), std::string::npos)
        << arena::describe_openings(o);
  }
}

// The sample: the three lines whose positions hold the fewest seeds (ties: the earlier line), so that the
// exact search proves each in well under a second with a small endgame database. `kalah-solver book --check`
// re-proves a whole book (docs/SOLVER.md gives the command and its time).
TEST(ShippedDrawBooks, ASampleOfEachRecertifiesWithTheExactSolver) {
  for (const ShippedBook& b : kShipped) {
    SCOPED_TRACE(b.file);
    const std::string text = read_text(kConfigs / b.file);
    const Variant v = book_variant(text);
    std::vector<std::pair<int, std::string>> lines;
    std::string header;
    for (const std::string& line : lines_of(text)) {
      if (certificate_variant(line)) header = line;
      if (!line.empty() && line[0] != '#') lines.emplace_back(seeds_in_pits(v, line), line);
    }
    std::stable_sort(lines.begin(), lines.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    ASSERT_GE(lines.size(), 3u);
    std::string sample = header + "\n";
    for (int i = 0; i < 3; ++i) sample += lines[i].second + "\n";
    auto db = std::make_shared<endgame::Database>(endgame::DbKey::of(v), 14);
    db->load_or_build({}, 2);
    solver::ExactSolver solver(v, 64);
    solver.set_database(db);
    const auto checked = solver::check_book(solver, sample, b.file, std::nullopt);
    ASSERT_TRUE(checked) << checked.error();
    ASSERT_EQ(checked->size(), 3u);
    for (const solver::CheckedLine& line : *checked) {
      EXPECT_TRUE(line.ok()) << line.text;
      EXPECT_EQ(line.claimed, 0) << line.text;
    }
  }
}

const std::string kSolver = KALAH_BINARY_DIR "/bots/kalah-solver";
const std::string kBooks = KALAH_SOURCE_DIR "/tests/data/books";

// tests/data/books/wrong-certificates.txt: Kalah(4,3), empty capture; line 2 is right, line 3 claims +2 for a
// drawn position, line 4's certificate names a position the line does not reach.
TEST(BookCheck, ALineWithAWrongCertificateFailsTheCheck) {
  system::TempFolder dir{"kalah-fair-book-test"};
  test_support::ChildProcess check({kSolver, "book", "--variant", "pits=4 seeds=3 capture=empty", "--check",
                                    kBooks + "/wrong-certificates.txt", "--cache-dir", dir.path().string()});
  ASSERT_TRUE(check.started());
  std::vector<std::string> out;
  for (int i = 0; i < 4; ++i) out.push_back(check.read_line(30000ms).value_or(""));
  EXPECT_EQ(out[0], "ok line 2: claims South 0, exact 0");
  EXPECT_EQ(out[1], "FAIL line 3: claims South +2, exact 0");
  EXPECT_EQ(out[2],
            "FAIL line 4: claims South 0, exact 0; the certificate names 4,4,4,4/0/3,3,3,3/0 s (gives 0), the line "
            "reaches 4,4,0,4/1/4,0,0,5/2 s");
  EXPECT_EQ(out[3], "3 lines checked, 1 certified, 2 not");
  EXPECT_EQ(check.wait_exit(), 1);
}

TEST(BookCheck, CertificatesForAnotherVariantAreAnError) {
  system::TempFolder dir{"kalah-fair-book-test"};
  test_support::ChildProcess check({kSolver, "book", "--variant", "pits=4 seeds=3", "--check",
                                    kBooks + "/wrong-certificates.txt", "--cache-dir", dir.path().string()});
  ASSERT_TRUE(check.started());
  EXPECT_EQ(check.wait_exit(), 2);
}

// A book of Kalah(4,3), empty capture: each line's moves and the South margin its certificate claims (the claims
// need not be true here: the report reads the certificates, `book --check` proves them), after the certificate
// header of `header` when given.
std::string certified_book(const Variant& v, const std::vector<std::pair<std::vector<int>, int>>& lines,
                           std::optional<Variant> header) {
  std::string text = "# a book\n" + (header ? certificate_header(*header) + "\n" : std::string());
  for (const auto& [moves, south] : lines) {
    Position p = start_position(v);
    std::string line;
    for (int pit : moves) {
      apply(v, p, Move::at(pit));
      line += std::to_string(pit) + " ";
    }
    text += line + " " + claim_comment(v, p, south) + "\n";
  }
  return text;
}

std::string describe(const std::string& text, const Variant& v) {
  arena::OpeningsConfig o;
  o.file = "book.txt";
  auto book = arena::parse_book(text, "book.txt", v, start_position(v));
  EXPECT_TRUE(book) << book.error();
  if (book) o.book = *book;
  return arena::describe_openings(o);
}

TEST(ProvenDrawOpenings, TheReportSaysSoOnlyWhenEveryLineCarriesADrawCertificateForTheVariant) {
  const Variant v = V("pits=4 seeds=3 capture=empty");
  EXPECT_EQ(describe(certified_book(v, {{{3, 2, 3}, 0}, {{3, 2}, 0}}, v), v),
            "book book.txt (2 lines, in order); every opening is a proven draw (each line carries the solver's "
            "certificate of an exact draw)");
  // A line that claims a win by 2: the reports count the draws.
  EXPECT_EQ(describe(certified_book(v, {{{3, 2, 3}, 0}, {{3, 2}, 0}, {{3}, 2}}, v), v),
            "book book.txt (3 lines, in order); 2 of the 3 openings are proven draws (solver certificates)");
  // No header, another variant's header: the certificates prove nothing about this tournament.
  EXPECT_EQ(describe(certified_book(v, {{{3, 2, 3}, 0}}, std::nullopt), v), "book book.txt (1 line, in order)");
  EXPECT_EQ(describe(certified_book(v, {{{3, 2, 3}, 0}}, V("pits=4 seeds=3")), v), "book book.txt (1 line, in order)");
  // A claim without its certificate; a certificate of another position than the line reaches.
  const std::string header = certificate_header(v) + "\n";
  EXPECT_EQ(describe(header + "3 2 3  # South 0\n", v), "book book.txt (1 line, in order)");
  EXPECT_EQ(describe(header + "3 2  " + claim_comment(v, after(v, start_position(v), Move::at(3)), 0) + "\n", v),
            "book book.txt (1 line, in order)");
}

}  // namespace
}  // namespace kalah
