// Start positions end to end (docs/RULES.md, "Start positions"): the real arena plays the bundled bots
// from a [variant] start and from a book of positions; the journal and the PGN carry each game's start;
// an engine that does not announce `feature positions` is refused before anything is played; and the
// referee's perft/replay/match take --start.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "referee/record/record_json.h"
#include "tests/config_builder.h"
#include "tests/e2e_util.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;

const fs::path kInstant = KALAH_BINARY_DIR "/tests/engines/instant_engine";

// The game lines `referee match` printed.
std::vector<GameRecord> records(const std::string& out) {
  std::vector<GameRecord> games;
  for (std::size_t begin = 0; begin < out.size();) {
    const std::size_t end = out.find('\n', begin);
    Expected<GameRecord> g = record_from_json(std::string_view(out).substr(begin, end - begin));
    EXPECT_TRUE(g.ok()) << g.error();
    if (g) games.push_back(*g);
    begin = end == std::string::npos ? out.size() : end + 1;
  }
  return games;
}

class StartPositions : public ::testing::Test {
 protected:
  fs::path write_config(const std::string& variant, const std::string& openings, const fs::path& second) {
    test::TestConfig config("sp");
    config.set("rounds", 2).set("concurrency", 2).set("report_every", 0).output(dir_ / "results");
    config.table("variant", variant).time("base_ms = 2000\ninc_ms = 20");
    if (!openings.empty()) config.table("openings", openings);
    return config.engine("greedy", e2e::kGreedy).engine("other", second).write(dir_ / "sp.toml");
  }

  e2e::RunResult arena(const fs::path& config) {
    return e2e::run({e2e::kArena.string(), "run", config.string(), "--fresh"}, dir_.path());
  }

  std::vector<GameRecord> games() {
    std::vector<GameRecord> out;
    for (const std::string& line : e2e::read_lines(dir_ / "results" / "sp" / "games.jsonl")) {
      Expected<GameRecord> r = record_from_json(line);
      EXPECT_TRUE(r.ok()) << r.error();
      if (r) out.push_back(*r);
    }
    return out;
  }

  system::TempFolder dir_{"kalah-e2e"};
};

TEST_F(StartPositions, EveryGameStartsFromTheVariantStartAndTheRecordsSaySo) {
  // 5 seeds a pit on South, 3 on North: 48 seeds, so `seeds` (omitted) is 4 for the engines.
  const std::string start = "5,5,5,5,5,5/3,3,3,3,3,3 0-0 S";
  const fs::path config = write_config("start = \"" + start + "\"", "random_plies = 2", e2e::kRandom);
  const e2e::RunResult r = arena(config);
  ASSERT_EQ(r.status.code, 0) << r.summary();
  const std::vector<GameRecord> all = games();
  ASSERT_EQ(all.size(), 4u);
  const Variant v = all.front().variant;
  EXPECT_EQ(v.seeds, 4);
  for (const GameRecord& g : all) {
    ASSERT_TRUE(g.start.has_value()) << g.id;
    EXPECT_EQ(to_start_notation(v, *g.start), start);
    EXPECT_FALSE(g.forfeit.has_value()) << g.id << ": " << g.forfeit->detail;
    // The moves replay from the start to the recorded stores; every seed of the start is accounted for.
    Position p = g.initial_position();
    for (Move m : g.moves) {
      ASSERT_TRUE(is_legal(v, p, m)) << g.id;
      apply(v, p, m);
    }
    EXPECT_TRUE(p.over) << g.id;
    EXPECT_EQ(g.store_south + g.store_north, 48) << g.id;
  }
  const std::string pgn = e2e::read_file(dir_ / "results" / "sp" / "games.pgn");
  EXPECT_NE(pgn.find("[KalahStart \"" + start + "\"]"), std::string::npos) << pgn.substr(0, 800);
  EXPECT_EQ(pgn.find("[FEN"), std::string::npos);
  EXPECT_EQ(pgn.find("[SetUp"), std::string::npos);
  const std::string md = e2e::read_file(dir_ / "results" / "sp" / "standings.md");
  EXPECT_NE(md.find("**Start position**: " + start), std::string::npos) << md;
}

TEST_F(StartPositions, ABookOfPositionsGivesEachPairItsOwnStart) {
  e2e::write_file(dir_ / "book.txt",
                  "# uneven boards, one with North to move and moves after it\n"
                  "3,5,0,2,6,1/4,4,4,0,2,9 0-0 S\n"
                  "6,0,6,0,6,0/0,6,0,6,0,6 1-1 N 2\n");
  const fs::path config = write_config("pits = 6", "file = \"book.txt\"", e2e::kRandom);
  const e2e::RunResult r = arena(config);
  ASSERT_EQ(r.status.code, 0) << r.summary();
  std::map<std::string, int> starts;
  for (const GameRecord& g : games()) {
    ASSERT_TRUE(g.start.has_value()) << g.id;
    ++starts[to_start_notation(g.variant, *g.start)];
    if (g.start->to_move == Side::North) {
      ASSERT_FALSE(g.opening.empty());
      EXPECT_EQ(g.opening.front(), Move::at(2));
    }
  }
  const std::map<std::string, int> expected{{"3,5,0,2,6,1/4,4,4,0,2,9 0-0 S", 2}, {"6,0,6,0,6,0/0,6,0,6,0,6 1-1 N", 2}};
  EXPECT_EQ(starts, expected);
}

TEST_F(StartPositions, AnEngineWithoutFeaturePositionsIsRefusedBeforeAnyGame) {
  const fs::path config = write_config("start = \"4,4,4,4,4,4/4,4,4,4,4,5 0-0 S\"", "", kInstant);
  const e2e::RunResult r = arena(config);
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("engine 'other' cannot play from a start position: it did not announce 'feature positions'"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "results" / "sp" / "games.jsonl"));
}

TEST_F(StartPositions, RefereePerftReplayAndMatchTakeAStart) {
  const std::string start = "3,0,5/4,4,1 2-1 N";
  e2e::RunResult perft =
      e2e::run({e2e::kReferee.string(), "perft", "--variant", "pits=3", "--start", start, "--depth", "3"}, dir_.path());
  ASSERT_EQ(perft.status.code, 0) << perft.summary();
  // North to move: pits 1 and 2 pass the turn, pit 3 (1 seed) ends in North's store for another move.
  EXPECT_EQ(perft.out, "1 3\n2 7\n3 18\n");

  e2e::RunResult replay = e2e::run(
      {e2e::kReferee.string(), "replay", "--variant", "pits=3", "--start", start, "--moves", "3"}, dir_.path());
  ASSERT_EQ(replay.status.code, 0) << replay.summary();
  EXPECT_EQ(replay.out,
            "{\"board\":[3,0,5,2,4,4,0,2],\"to_move\":\"north\",\"over\":false,\"stores\":[2,2],\"result\":null}\n");

  e2e::RunResult bad =
      e2e::run({e2e::kReferee.string(), "perft", "--variant", "pits=3", "--start", "0,0,0/1,1,1 3-3 S"}, dir_.path());
  EXPECT_EQ(bad.status.code, 2) << bad.summary();
  EXPECT_NE(bad.err.find("--start: bad start position '0,0,0/1,1,1 3-3 S': the game is already over there"),
            std::string::npos)
      << bad.err;

  e2e::RunResult match = e2e::run(
      {e2e::kReferee.string(), "match", "--engine", "cmd=" + e2e::kGreedy.string(), "--engine",
       "cmd=" + e2e::kRandom.string(), "--variant", "pits=3", "--start", start, "--games", "2", "--tc", "2+0.02"},
      dir_.path());
  ASSERT_EQ(match.status.code, 0) << match.summary();
  std::set<std::string> starts;
  const std::vector<GameRecord> games = records(match.out);
  for (const GameRecord& g : games) {
    EXPECT_FALSE(g.forfeit.has_value());
    ASSERT_TRUE(g.start.has_value());
    starts.insert(to_start_notation(g.variant, *g.start));
  }
  EXPECT_EQ(games.size(), 2u);
  EXPECT_EQ(starts, std::set<std::string>{start});
}

TEST_F(StartPositions, EveryBundledBotPlaysFromABoardWithMoreSeedsThanTheStandardOne) {
  // 43 seeds on 2 x 4 pits of a seeds=2 variant (standard: 16): the bots size their tables from the
  // position, not from the variant's seeds.
  const std::string start = "1,9,0,3/2,12,5,1 4-6 N";
  for (const char* bot : {"kalah-random", "kalah-greedy", "kalah-alphabeta", "kalah-mcts", "kalah-solver"}) {
    SCOPED_TRACE(bot);
    const fs::path cmd = fs::path(KALAH_BINARY_DIR) / "bots" / bot;
    e2e::RunResult match = e2e::run(
        {e2e::kReferee.string(), "match", "--engine", "cmd=" + cmd.string(), "--engine", "cmd=" + e2e::kRandom.string(),
         "--variant", "pits=4 seeds=2", "--start", start, "--games", "2", "--tc", "2+0.02"},
        dir_.path());
    ASSERT_EQ(match.status.code, 0) << match.summary();
    const std::vector<GameRecord> games = records(match.out);
    for (const GameRecord& g : games) {
      EXPECT_FALSE(g.forfeit.has_value()) << g.forfeit->detail;
      EXPECT_EQ(g.store_south + g.store_north, 43);
    }
    EXPECT_EQ(games.size(), 2u);
  }
}

}  // namespace
}  // namespace kalah
