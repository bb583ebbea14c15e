// kalah-solver: the database index, the solver's own move generator, exact
// values against a plain minimax written here and against published values
// (Irving, Donkers and Uiterwijk, "Solving Kalah", ICGA Journal 2000), the
// database and its cache files, and the engine in-process and as a process.
//
// Every random generator is seeded; a failure prints the seed.
// Every random generator is seeded; a failure prints the seed. Past 400 lines: one file, so that the
// index, the generator and the databases share the minimax that checks them.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bots/alphabeta/alphabeta.h"
#include "bots/solver/book.h"
#include "bots/solver/engine.h"
#include "bots/solver/oracle.h"
#include "plain_minimax.h"
#include "referee/endgame/board.h"
#include "referee/endgame/database.h"
#include "referee/endgame/dispatch.h"
#include "referee/endgame/index.h"
#include "referee/solver/solver.h"
#include "referee/system/temp_folder.h"
#include "tests/child_process.h"
#include "tests/test_variants.h"

namespace kalah::solver {
namespace {

using namespace std::chrono_literals;

using test::V;

// ---- a plain minimax, as the reference ----------------------------------------

using test::PlainMinimax;

// ---- the database index --------------------------------------------------------

// All distributions of k seeds over n pits, generated independently of the index.
void distributions(int n, int k, std::vector<int>& cur, std::vector<std::vector<int>>& out) {
  if (static_cast<int>(cur.size()) == n - 1) {
    cur.push_back(k);
    out.push_back(cur);
    cur.pop_back();
    return;
  }
  for (int c = 0; c <= k; ++c) {
    cur.push_back(c);
    distributions(n, k - c, cur, out);
    cur.pop_back();
  }
}

TEST(SolverIndex, RankIsABijectionOntoItsLevel) {
  for (int n : {1, 2, 3, 4, 6, 8, 12}) {
    const int max_k = n <= 4 ? 10 : n <= 8 ? 6 : 4;
    const CompositionIndex index(n, max_k);
    for (int k = 0; k <= max_k; ++k) {
      std::vector<std::vector<int>> all;
      std::vector<int> cur;
      distributions(n, k, cur, all);
      ASSERT_EQ(all.size(), index.count(k)) << "n=" << n << " k=" << k;
      std::set<std::uint64_t> seen;
      for (const auto& d : all) {
        const std::uint64_t r = index.rank(d.data());
        EXPECT_GE(r, index.offset(k)) << "n=" << n << " k=" << k;
        EXPECT_LT(r, index.offset(k + 1)) << "n=" << n << " k=" << k;
        seen.insert(r);
      }
      EXPECT_EQ(seen.size(), all.size()) << "two distributions share a rank: n=" << n << " k=" << k;
    }
  }
}

TEST(SolverIndex, UnrankInvertsRank) {
  for (int n : {2, 5, 8, 12}) {
    const int max_k = n <= 5 ? 12 : 7;
    const CompositionIndex index(n, max_k);
    std::vector<int> c(n);
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const int total = index.unrank(i, c.data());
      int sum = 0;
      for (int x : c) sum += x;
      ASSERT_EQ(sum, total) << "n=" << n << " index " << i;
      ASSERT_EQ(index.rank(c.data()), i) << "n=" << n;
      ASSERT_TRUE(i >= index.offset(total) && i < index.offset(total + 1));
    }
  }
}

TEST(SolverIndex, RandomRoundTripsOnBigBoards) {
  const unsigned seed = 20240601;
  std::mt19937 rng(seed);
  const CompositionIndex index(12, 72);  // Kalah(6,6)
  ASSERT_TRUE(index.fits());
  std::vector<std::uint8_t> c(12), back(12);
  for (int t = 0; t < 20000; ++t) {
    const int k = std::uniform_int_distribution<int>(0, 72)(rng);
    std::fill(c.begin(), c.end(), 0);
    for (int s = 0; s < k; ++s) ++c[std::uniform_int_distribution<int>(0, 11)(rng)];
    const std::uint64_t r = index.rank(c.data());
    ASSERT_EQ(index.unrank(r, back.data()), k) << "seed " << seed;
    ASSERT_EQ(back, c) << "seed " << seed;
  }
}

TEST(SolverIndex, SizesMatchTheBinomials) {
  // C(k - 1 + n, n) distributions of fewer than k seeds over n pits.
  const CompositionIndex index(12, 48);
  EXPECT_EQ(index.offset(1), 1u);
  EXPECT_EQ(index.count(1), 12u);
  EXPECT_EQ(index.offset(17), 30421755u);       // C(28, 12): the database with up to 16 seeds
  EXPECT_EQ(index.offset(49), 1399358844975u);  // C(60, 12)
}

// ---- the solver's move generator against the rules library --------------------

template <int M>
void check_moves_against_rules(const Variant& v, std::mt19937& rng, unsigned seed) {
  const Rules rules = Rules::of(v);
  for (int game = 0; game < 40; ++game) {
    Position p = start_position(v);
    p.pie = Pie::None;
    while (!p.over) {
      const Board<M> b = from_position<M>(v, p);
      const int own_store = store(v, p, p.to_move), other_store = store(v, p, opponent(p.to_move));
      for (Move m : legal_moves(v, p)) {
        const Position q = after(v, p, m);
        Board<M> child;
        const MoveResult r = play(rules, b, m.pit - 1, child);
        ASSERT_EQ(r.over, q.over) << to_string(v) << " " << to_notation(v, p) << " move " << int(m.pit) << " seed "
                                  << seed;
        if (!q.over) {
          ASSERT_EQ(r.again, q.to_move == p.to_move) << to_notation(v, p) << " seed " << seed;
        }
        const int diff_after = store(v, q, p.to_move) - store(v, q, opponent(p.to_move));
        ASSERT_EQ(r.gain, diff_after - (own_store - other_store)) << to_notation(v, p) << " seed " << seed;
        if (!q.over) {
          const Board<M> expected = from_position<M>(v, q);
          ASSERT_EQ(child.pits, expected.pits) << to_notation(v, p) << " move " << int(m.pit) << " seed " << seed;
          ASSERT_EQ(child.seeds, expected.seeds);
          ASSERT_EQ(child.own_store, expected.own_store);
          ASSERT_EQ(child.other_store, expected.other_store);
        }
      }
      const MoveList moves = legal_moves(v, p);
      apply(v, p, moves.moves[std::uniform_int_distribution<int>(0, moves.size - 1)(rng)]);
    }
  }
}

TEST(SolverBoard, MovesMatchTheRulesLibraryInEveryVariant) {
  const unsigned seed = 7;
  std::mt19937 rng(seed);
  for (int pits : {1, 3, 6, 8, 10}) {
    for (int seeds : {1, 4, 12}) {
      if (2 * pits * seeds > 255) continue;
      for (const Variant& v : test::rule_combinations(pits, seeds)) {
        if (v.pie) continue;  // the pie rule lives above the board
        dispatch_pits(pits, [&]<int M>() { check_moves_against_rules<M>(v, rng, seed); });
        if (HasFatalFailure()) return;
      }
    }
  }
}

// ---- exact values --------------------------------------------------------------

int solve_start(const Variant& v, std::size_t hash_mb = 16, std::shared_ptr<const Database> db = nullptr) {
  ExactSolver solver(v, hash_mb);
  solver.set_database(std::move(db));
  const std::optional<int> value = solver.value(start_position(v));
  EXPECT_TRUE(value.has_value());
  return value.value_or(-999);
}

TEST(SolverValues, PublishedKalah4EmptyCapture) {
  // Irving, Donkers, Uiterwijk (2000): Kalah(4, 1..6) = +2, +6, +8, +2, +2, 0.
  const int published[] = {2, 6, 8, 2, 2, 0};
  for (int n = 1; n <= 6; ++n) {
    Variant v = V("pits=4 capture=empty");
    v.seeds = n;
    EXPECT_EQ(solve_start(v), published[n - 1]) << "Kalah(4," << n << ")";
  }
}

TEST(SolverValues, PublishedKalah43StandardCapture) { EXPECT_EQ(solve_start(V("pits=4 seeds=3")), 6); }

TEST(SolverValues, SameValuesWithADatabase) {
  const Variant v = V("pits=4 seeds=4 capture=empty");
  auto db = std::make_shared<Database>(DbKey::of(v), 14);
  db->build(2);
  EXPECT_EQ(solve_start(v, 16, db), 2);
  const Variant v5 = V("pits=4 seeds=5 capture=empty");
  EXPECT_EQ(solve_start(v5, 16, db), 2);
}

TEST(SolverValues, Kalah5EmptyCaptureFromTheDatabaseUp) {
  // Not in our copy of the paper's tables: regression values of this solver,
  // cross-checked by the runs without a database (first player: draw, draw, +8).
  const Variant v = V("pits=5 seeds=1 capture=empty");
  auto db = std::make_shared<Database>(DbKey::of(v), 12);
  db->build(2);
  const int expected[] = {0, 0, 8};
  for (int n = 1; n <= 3; ++n) {
    Variant vn = v;
    vn.seeds = n;
    EXPECT_EQ(solve_start(vn, 16, db), expected[n - 1]) << "Kalah(5," << n << ")";
    EXPECT_EQ(solve_start(vn, 16, nullptr), expected[n - 1]) << "Kalah(5," << n << ") without database";
  }
}

TEST(SolverValues, TinyBoardsEqualPlainMinimaxInEveryVariant) {
  for (int pits = 1; pits <= 3; ++pits)
    for (int seeds = 1; seeds <= 3; ++seeds) {
      if (pits == 3 && seeds == 3) continue;  // the plain minimax takes too long; see below
      for (const Variant& v : test::rule_combinations(pits, seeds)) {
        PlainMinimax reference(v);
        const Position start = start_position(v);
        ExactSolver solver(v, 4);
        const std::optional<int> value = solver.value(start);
        ASSERT_TRUE(value.has_value());
        ASSERT_EQ(*value, reference.margin(start)) << to_string(v);
        // Every first move too, and the best move is one of the best.
        const auto moves = solver.move_values(start);
        ASSERT_TRUE(moves.has_value());
        for (const MoveValue& mv : *moves)
          ASSERT_EQ(mv.margin, reference.move_margin(start, mv.move)) << to_string(v) << " move " << to_string(mv.move);
        const std::optional<MoveValue> best = solver.best_move(start);
        ASSERT_TRUE(best.has_value());
        EXPECT_EQ(best->margin, *value) << to_string(v);
        EXPECT_EQ(reference.move_margin(start, best->move), *value) << to_string(v);
      }
    }
}

TEST(SolverValues, Kalah33EqualsPlainMinimaxInTheMainVariants) {
  for (const char* text : {"pits=3 seeds=3", "pits=3 seeds=3 capture=empty", "pits=3 seeds=3 pie=on",
                           "pits=3 seeds=3 majority=on ending=no-move remainder=none"}) {
    const Variant v = V(text);
    PlainMinimax reference(v);
    EXPECT_EQ(solve_start(v, 4), reference.margin(start_position(v))) << text;
  }
}

TEST(SolverValues, RandomMidgamePositionsEqualPlainMinimax) {
  const unsigned seed = 99;
  std::mt19937 rng(seed);
  for (const char* text : {"pits=3 seeds=3", "pits=3 seeds=3 capture=empty ending=no-move",
                           "pits=3 seeds=3 remainder=none majority=on", "pits=3 seeds=3 pie=on", "pits=2 seeds=5"}) {
    const Variant v = V(text);
    PlainMinimax reference(v);
    ExactSolver solver(v, 8);
    for (int t = 0; t < 40; ++t) {
      Position p = start_position(v);
      const int plies = std::uniform_int_distribution<int>(0, 14)(rng);
      for (int i = 0; i < plies && !p.over; ++i) {
        const MoveList moves = legal_moves(v, p);
        apply(v, p, moves.moves[std::uniform_int_distribution<int>(0, moves.size - 1)(rng)]);
      }
      const std::optional<int> value = solver.value(p);
      ASSERT_TRUE(value.has_value());
      ASSERT_EQ(*value, reference.margin(p)) << text << " " << to_notation(v, p) << " seed " << seed;
    }
  }
}

TEST(SolverValues, StopFlagAbandonsTheSearch) {
  ExactSolver solver(V("pits=6 seeds=6"), 16);
  std::atomic<bool> stop{true};
  SolveLimits limits;
  limits.stop = &stop;
  EXPECT_FALSE(solver.value(start_position(solver.variant()), limits).has_value());
  limits.stop = nullptr;
  limits.deadline = std::chrono::steady_clock::now() + 20ms;
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(solver.best_move(start_position(solver.variant()), limits).has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
}

// ---- the database --------------------------------------------------------------

// A position with the given pits (mover's pits first), South to move.
Position position_of(const Variant& v, const std::vector<std::uint8_t>& pits) {
  Position p;
  for (int i = 0; i < v.pits; ++i) {
    p.cells[i] = pits[i];
    p.cells[v.pits + 1 + i] = pits[v.pits + i];
  }
  int in_pits = 0;
  for (std::uint8_t c : pits) in_pits += c;
  // The rest in the stores, so that the majority rule (not used with a
  // database) would not matter and the seed count matches the variant.
  const int rest = v.total_seeds() - in_pits;
  p.cells[v.pits] = static_cast<Position::Cell>(rest / 2);
  p.cells[2 * v.pits + 1] = static_cast<Position::Cell>(rest - rest / 2);
  const Expected<Position> parsed = parse_notation(v, to_notation(v, p));  // sets `over` as the rules do
  EXPECT_TRUE(parsed.ok());
  return *parsed;
}

TEST(SolverDatabase, ValuesEqualPlainSearchForRandomPositions) {
  const unsigned seed = 4242;
  std::mt19937 rng(seed);
  for (const char* text :
       {"pits=3 seeds=4", "pits=3 seeds=4 capture=empty", "pits=3 seeds=4 ending=no-move",
        "pits=3 seeds=4 remainder=none", "pits=4 seeds=3 capture=empty ending=no-move remainder=none"}) {
    const Variant v = V(text);
    const int K = 12;
    Database db(DbKey::of(v), K);
    db.build(2);
    ASSERT_EQ(db.ready(), K);
    PlainMinimax reference(v);
    std::vector<std::uint8_t> pits(2 * v.pits);
    for (int t = 0; t < 300; ++t) {
      const int k = std::uniform_int_distribution<int>(1, K)(rng);
      std::fill(pits.begin(), pits.end(), 0);
      for (int s = 0; s < k; ++s) ++pits[std::uniform_int_distribution<int>(0, 2 * v.pits - 1)(rng)];
      const Position p = position_of(v, pits);
      if (p.over) continue;
      const int now = store(v, p, Side::South) - store(v, p, Side::North);
      ASSERT_EQ(db.value(db.index().rank(pits.data())), reference.margin(p) - now)
          << text << " " << to_notation(v, p) << " seed " << seed;
    }
  }
}

TEST(SolverDatabase, LevelsForMemory) {
  EXPECT_EQ(levels_for_memory(6, 30421755, 126), 16);  // C(28, 12) bytes: exactly 0..16
  EXPECT_EQ(levels_for_memory(6, 30421755 - 1, 126), 15);
  EXPECT_EQ(levels_for_memory(6, std::uint64_t(512) << 20, 126), 21);
  EXPECT_EQ(levels_for_memory(6, 0, 126), -1);
}

TEST(SolverDatabase, CacheRoundTripAndCorruptFilesAreRebuilt) {
  system::TempFolder dir{"kalah-solver-test"};
  const Variant v = V("pits=4 seeds=3 capture=empty");
  Database built(DbKey::of(v), 12);
  built.load_or_build(dir.path(), 2);
  ASSERT_TRUE(built.stats().saved);
  const std::filesystem::path file = built.file_in(dir.path());
  ASSERT_TRUE(std::filesystem::exists(file));
  const std::uint64_t n = built.index().size();
  auto same_values = [&](const Database& other) {
    for (std::uint64_t i = 0; i < n; ++i)
      if (other.value(i) != built.value(i)) return false;
    return true;
  };

  Database loaded(DbKey::of(v), 12);
  ASSERT_TRUE(loaded.load(file)) << loaded.stats().note;
  EXPECT_EQ(loaded.ready(), 12);
  EXPECT_TRUE(same_values(loaded));
  // Read and checked by several threads: the same values.
  Database threaded(DbKey::of(v), 12);
  ASSERT_TRUE(threaded.load(file, 3)) << threaded.stats().note;
  EXPECT_EQ(threaded.ready(), 12);
  EXPECT_TRUE(same_values(threaded));

  // A smaller target reads a prefix of the file; a bigger one extends it.
  Database prefix(DbKey::of(v), 8);
  ASSERT_TRUE(prefix.load(file));
  EXPECT_EQ(prefix.ready(), 8);
  Database bigger(DbKey::of(v), 14);
  bigger.load_or_build(dir.path(), 1);
  EXPECT_EQ(bigger.stats().loaded_levels, 12);
  EXPECT_EQ(bigger.ready(), 14);
  EXPECT_TRUE(same_values(bigger));

  // Another variant's file is not this one.
  Database other(DbKey::of(V("pits=4 seeds=3")), 12);
  std::filesystem::copy_file(file, other.file_in(dir.path()));
  EXPECT_FALSE(other.load(other.file_in(dir.path())));

  // One flipped byte in the values: the checksum catches it, and a rebuild replaces the file.
  const auto size = std::filesystem::file_size(file);
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(size - 100));
    char c = 0;
    f.read(&c, 1);
    c = static_cast<char>(c ^ 0x5a);
    f.seekp(static_cast<std::streamoff>(size - 100));
    f.write(&c, 1);
  }
  Database corrupt(DbKey::of(v), 14);
  EXPECT_FALSE(corrupt.load(file));
  EXPECT_NE(corrupt.stats().note.find("checksum"), std::string::npos) << corrupt.stats().note;
  EXPECT_EQ(corrupt.ready(), -1);
  Database corrupt_threaded(DbKey::of(v), 14);
  EXPECT_FALSE(corrupt_threaded.load(file, 2));
  EXPECT_NE(corrupt_threaded.stats().note.find("checksum"), std::string::npos) << corrupt_threaded.stats().note;
  EXPECT_EQ(corrupt_threaded.ready(), -1);
  Database rebuilt(DbKey::of(v), 14);
  rebuilt.load_or_build(dir.path(), 2);
  EXPECT_EQ(rebuilt.stats().loaded_levels, -1);
  EXPECT_TRUE(rebuilt.stats().saved);
  EXPECT_TRUE(same_values(rebuilt));

  // A truncated file.
  std::filesystem::resize_file(file, size / 2);
  Database truncated(DbKey::of(v), 14);
  EXPECT_FALSE(truncated.load(file, 2));
  EXPECT_NE(truncated.stats().note.find("truncated"), std::string::npos) << truncated.stats().note;
  truncated.load_or_build(dir.path(), 2);
  EXPECT_TRUE(same_values(truncated));
  Database again(DbKey::of(v), 14);
  EXPECT_TRUE(again.load(file));  // the rebuild replaced it

  // Garbage.
  { std::ofstream(file, std::ios::binary | std::ios::trunc) << "not a database"; }
  Database garbage(DbKey::of(v), 14);
  EXPECT_FALSE(garbage.load(file));
}

TEST(SolverDatabase, CacheFileThroughALinkIsRefusedAndReplaced) {
  system::TempFolder dir{"kalah-solver-test"};
  const Variant v = V("pits=4 seeds=3 capture=empty");
  Database built(DbKey::of(v), 10);
  built.build(1);
  // A valid database elsewhere, and a symbolic link to it where the cache file belongs.
  const std::filesystem::path elsewhere = dir.path() / "elsewhere.bin";
  ASSERT_TRUE(built.save(elsewhere));
  const std::filesystem::path cache = dir.path() / "cache";
  std::filesystem::create_directories(cache);
  const std::filesystem::path file = built.file_in(cache);
  std::filesystem::create_symlink(elsewhere, file);
  const auto target_size = std::filesystem::file_size(elsewhere);

  Database linked(DbKey::of(v), 10);
  EXPECT_FALSE(linked.load(file));
  EXPECT_NE(linked.stats().note.find("symbolic link"), std::string::npos) << linked.stats().note;
  EXPECT_EQ(linked.ready(), -1);
  // load_or_build builds it and saves a regular file in the link's place; the link's target is untouched.
  linked.load_or_build(cache, 1);
  EXPECT_EQ(linked.stats().loaded_levels, -1);
  EXPECT_TRUE(linked.stats().saved);
  EXPECT_FALSE(std::filesystem::is_symlink(file));
  EXPECT_EQ(std::filesystem::file_size(elsewhere), target_size);
  Database again(DbKey::of(v), 10);
  EXPECT_TRUE(again.load(file)) << again.stats().note;
}

// ---- the database as alpha-beta's oracle -----------------------------------------

TEST(SolverOracle, KnowsExactlyThePositionsTheDatabaseCovers) {
  const unsigned seed = 515;
  std::mt19937 rng(seed);
  const Variant v = V("pits=4 seeds=3");
  const int K = 8;
  auto db = std::make_shared<Database>(DbKey::of(v), K);
  db->build(2);
  DatabaseOracle oracle(v, db);
  ASSERT_EQ(oracle.levels(), K);
  PlainMinimax reference(v);
  int known = 0;
  for (int game = 0; game < 60; ++game) {
    Position p = start_position(v);
    while (!p.over) {
      const int in_pits = v.total_seeds() - store(v, p, Side::South) - store(v, p, Side::North);
      const std::optional<int> m = oracle.final_margin(p);
      ASSERT_EQ(m.has_value(), in_pits <= K) << to_notation(v, p) << " seed " << seed;
      if (m) {
        ++known;
        ASSERT_EQ(*m, reference.margin(p)) << to_notation(v, p) << " seed " << seed;
      }
      const MoveList moves = legal_moves(v, p);
      apply(v, p, moves.moves[std::uniform_int_distribution<int>(0, moves.size - 1)(rng)]);
    }
  }
  EXPECT_GT(known, 100);
  // Another variant's database, or the pie decision, is not known.
  EXPECT_EQ(DatabaseOracle(V("pits=4 seeds=3 capture=empty"), db).levels(), -1);
  Position pie = start_position(V("pits=4 seeds=3 pie=on"));
  EXPECT_FALSE(DatabaseOracle(V("pits=4 seeds=3 pie=on"), db).final_margin(pie).has_value());
}

TEST(SolverOracle, AlphaBetaWithAFullDatabaseIsExactAtDepthOne) {
  const Variant v = V("pits=3 seeds=3 capture=empty");
  auto db = std::make_shared<Database>(DbKey::of(v), v.total_seeds());
  db->build(2);
  DatabaseOracle oracle(v, db);
  alphabeta::Search search(v, alphabeta::Settings{});
  search.set_oracle(&oracle);
  PlainMinimax reference(v);
  const Position start = start_position(v);
  alphabeta::Limits limits;
  limits.depth = 1;
  const alphabeta::Result r = search.run(start, limits);
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.score, alphabeta::Search::margin_score(reference.margin(start)));
  EXPECT_EQ(reference.move_margin(start, r.best), reference.margin(start));
}

// ---- balanced opening books ------------------------------------------------------

TEST(SolverBook, DistinctOpeningsAreDistinctRunningPositions) {
  const Variant v = V("pits=4 seeds=3");
  const auto lines = distinct_openings(v, 3);
  std::set<std::string> positions;
  for (const auto& line : lines) {
    ASSERT_EQ(line.size(), 3u);
    Position p = start_position(v);
    for (Move m : line) {
      ASSERT_TRUE(is_legal(v, p, m));
      apply(v, p, m);
    }
    EXPECT_FALSE(p.over);
    EXPECT_TRUE(positions.insert(to_notation(v, p)).second) << to_notation(v, p);
  }
  // Every running 3-ply position is there: walk the tree independently.
  std::set<std::string> all;
  std::function<void(const Position&, int)> walk = [&](const Position& p, int left) {
    if (left == 0) return void(all.insert(to_notation(v, p)));
    for (Move m : legal_moves(v, p))
      if (Position c = after(v, p, m); !c.over) walk(c, left - 1);
  };
  walk(start_position(v), 3);
  EXPECT_EQ(positions, all);
}

TEST(SolverBook, KeptLinesHaveTheirExactMarginAndAreReproducible) {
  const Variant v = V("pits=3 seeds=3 capture=empty");
  PlainMinimax reference(v);
  BookOptions o;
  o.plies = 3;
  o.count = 6;
  o.max_margin = 2;
  o.seed = 9;
  auto make = [&] {
    ExactSolver solver(v, 8);
    BookStats stats;
    auto book = make_book(solver, o, stats);
    EXPECT_EQ(stats.skipped, 0u);
    EXPECT_GE(stats.solved, book.size());
    return book;
  };
  const std::vector<BookLine> book = make();
  ASSERT_EQ(book.size(), 6u);
  for (const BookLine& line : book) {
    Position p = start_position(v);
    for (Move m : line.moves) apply(v, p, m);
    const int south = p.to_move == Side::South ? reference.margin(p) : -reference.margin(p);
    EXPECT_EQ(line.south_margin, south);
    EXPECT_LE(std::abs(south), 2);
  }
  const std::vector<BookLine> again = make();
  ASSERT_EQ(again.size(), book.size());
  for (size_t i = 0; i < book.size(); ++i) EXPECT_EQ(again[i].moves, book[i].moves);
}

// ---- the engine, in-process ----------------------------------------------------

Move ask(SolverBot& bot, const Variant& v, const Position& p, const std::vector<Move>& history, const kep::Go& go,
         std::vector<kep::Info>* infos = nullptr) {
  std::atomic<bool> stop{false};
  bot::SearchContext c{v, p, history, go, stop, [&](const kep::Info& i) {
                         if (infos) infos->push_back(i);
                       }};
  return bot.choose(c);
}

TEST(SolverEngine, AlwaysReturnsALegalMove) {
  const unsigned seed = 31337;
  std::mt19937 rng(seed);
  system::TempFolder dir{"kalah-solver-test"};
  EngineOptions options;
  options.hash_mb = 8;
  options.db_memory_mb = 1;
  options.cache_dir = dir.path();
  SolverBot bot(options);
  for (const char* text :
       {"pits=6 seeds=4", "pits=6 seeds=4 pie=on", "pits=4 seeds=3 capture=empty majority=on",
        "pits=2 seeds=1 ending=no-move remainder=none", "pits=1 seeds=1 pie=on", "pits=16 seeds=16"}) {
    const Variant v = V(text);
    bot.new_game(v);
    for (int game = 0; game < 3; ++game) {
      Position p = start_position(v);
      std::vector<Move> history;
      int ply = 0;
      while (!p.over) {
        kep::Go go;
        if (ply % 3 == 0)
          go.depth = 3;
        else if (ply % 3 == 1)
          go.nodes = 500;
        else
          go.movetime = 5;
        const Move m = ask(bot, v, p, history, go);
        ASSERT_TRUE(is_legal(v, p, m)) << text << " " << to_notation(v, p) << " " << to_string(m) << " seed " << seed;
        // Half the moves are the engine's, half random, for variety.
        const MoveList moves = legal_moves(v, p);
        const Move played = ply % 2 ? m : moves.moves[std::uniform_int_distribution<int>(0, moves.size - 1)(rng)];
        apply(v, p, played);
        history.push_back(played);
        ++ply;
      }
    }
  }
}

TEST(SolverEngine, PlaysTheExactMoveWhenItCanProveIt) {
  EngineOptions options;
  options.hash_mb = 8;
  options.db_memory_mb = 0;
  options.cache_dir.clear();
  SolverBot bot(options);
  const Variant v = V("pits=4 seeds=3 capture=empty");
  bot.new_game(v);
  kep::Go go;
  go.movetime = 2000;
  std::vector<kep::Info> infos;
  const Move m = ask(bot, v, start_position(v), {}, go, &infos);
  EXPECT_EQ(m, Move::at(2));  // the only move that keeps +8
  bool proved = false;
  for (const kep::Info& i : infos) proved = proved || i.text.find("exact margin 8") != std::string::npos;
  EXPECT_TRUE(proved);
}

TEST(SolverEngine, DatabaseIsBuiltInTheBackgroundAndCached) {
  system::TempFolder dir{"kalah-solver-test"};
  EngineOptions options;
  options.hash_mb = 4;
  options.db_memory_mb = 1;  // m = 3: every level up to the 18 seeds in play fits in 1 MB
  options.cache_dir = dir.path();
  SolverBot bot(options);
  const Variant v = V("pits=3 seeds=3");
  bot.new_game(v);
  bot.wait_for_database();
  EXPECT_TRUE(std::filesystem::exists(dir.path() / ("kalah-db-" + DbKey::of(v).name() + ".bin")));
}

// ---- the executable ------------------------------------------------------------

const std::string kSolver = KALAH_BINARY_DIR "/bots/kalah-solver";

using Child = kalah::test_support::ChildProcess;

TEST(SolverExecutable, AnswersStopPromptly) {
  system::TempFolder dir{"kalah-solver-test"};
  Child engine({kSolver, "--cache-dir", dir.path().string(), "--db-mb", "64"});
  ASSERT_TRUE(engine.started());
  engine.send("kep");
  ASSERT_TRUE(engine.wait_for("kepok", 5000ms));
  // Kalah(6,6) from the start: far out of reach of the exact search.
  engine.send("newgame pits=6 seeds=6 capture=standard ending=side-empty remainder=owner majority=off pie=off");
  engine.send("position startpos moves 3");
  engine.send("isready");
  ASSERT_TRUE(engine.wait_for("readyok", 5000ms));
  engine.send("go movetime 60000");
  std::this_thread::sleep_for(300ms);
  const auto t0 = std::chrono::steady_clock::now();
  engine.send("stop");
  const std::optional<std::string> best = engine.wait_for("bestmove", 5000ms);
  const auto took = std::chrono::steady_clock::now() - t0;
  ASSERT_TRUE(best.has_value());
  EXPECT_LT(took, 1s) << "bestmove came " << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
                      << " ms after stop";
  const Variant v = V("pits=6 seeds=6");
  const Position p = after(v, start_position(v), Move::at(3));
  const Expected<Move> m = parse_move(best->substr(9));
  ASSERT_TRUE(m.ok()) << *best;
  EXPECT_TRUE(is_legal(v, p, *m)) << *best;

  // A clock: the answer comes well within the share of it the engine may use.
  engine.send("go stime 3000 ntime 3000 sinc 0 ninc 0");
  const auto t1 = std::chrono::steady_clock::now();
  ASSERT_TRUE(engine.wait_for("bestmove", 5000ms));
  EXPECT_LT(std::chrono::steady_clock::now() - t1, 1s);
  engine.send("quit");
  EXPECT_EQ(engine.wait_exit(), 0);
}

TEST(SolverExecutable, SolvePrintsTheMarginAndBadArgumentsExitWith2) {
  system::TempFolder dir{"kalah-solver-test"};
  {
    Child solve({kSolver, "solve", "--variant", "pits=4 seeds=3 capture=empty", "--cache-dir", dir.path().string()});
    ASSERT_TRUE(solve.started());
    EXPECT_EQ(solve.read_line(30000ms).value_or(""), "+8");
    EXPECT_EQ(solve.read_line(5000ms).value_or(""), "best moves: 2");
    EXPECT_EQ(solve.wait_exit(), 0);
  }
  // The cache file damaged: every value of its upper half reads 0. `solve` finds it by the checksums, rebuilds
  // the database and prints the right value.
  {
    const std::filesystem::path file = dir.path() / "kalah-db-p4-empty-side-empty-owner.bin";
    const auto size = std::filesystem::file_size(file);
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size / 2));
    const std::string zeros(size - size / 2, '\x80');
    f.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
  }
  {
    Child solve({kSolver, "solve", "--variant", "pits=4 seeds=3 capture=empty", "--cache-dir", dir.path().string()});
    ASSERT_TRUE(solve.started());
    EXPECT_EQ(solve.read_line(60000ms).value_or(""), "+8");
    EXPECT_EQ(solve.read_line(5000ms).value_or(""), "best moves: 2");
    const std::string note = solve.wait_for("database note:", 5000ms).value_or("");
    EXPECT_NE(note.find("corrupt (checksum of level"), std::string::npos) << note;
    EXPECT_EQ(solve.wait_exit(), 0);
  }
  {
    Child bad({kSolver, "solve", "--variant", "pits=4 colour=blue"});
    EXPECT_EQ(bad.wait_exit(), 2);
  }
  {
    Child bad({kSolver, "--no-such-flag"});
    EXPECT_EQ(bad.wait_exit(), 2);
  }
  {
    Child bad({kSolver, "solve", "--threads", "zero"});
    EXPECT_EQ(bad.wait_exit(), 2);
  }
}

// `solve` has a database default of its own (800 MB, more than the engine's 512 MB); --db-mb, after `solve` or
// before it, still decides. Kalah(4,3) has 24 seeds: 1 MB holds the levels up to 16 seeds, the default every
// level a search can reach (23).
TEST(SolverExecutable, SolveDatabaseMemoryComesFromItsFlagWhereverGiven) {
  const auto database_line = [](std::vector<std::string> args) {
    Child solve(args);
    EXPECT_TRUE(solve.started());
    const std::string line = solve.wait_for("database:", 60000ms).value_or("");
    EXPECT_EQ(solve.wait_exit(), 0);
    return line.substr(0, line.find(','));
  };
  const std::string v = "pits=4 seeds=3 capture=empty";
  EXPECT_EQ(database_line({kSolver, "solve", "--variant", v, "--no-cache"}), "database: 23 seeds");
  EXPECT_EQ(database_line({kSolver, "solve", "--variant", v, "--no-cache", "--db-mb", "1"}), "database: 16 seeds");
  EXPECT_EQ(database_line({kSolver, "--db-mb", "1", "solve", "--variant", v, "--no-cache"}), "database: 16 seeds");
}

}  // namespace
}  // namespace kalah::solver
