// Adaptive pairing end to end (docs/SCHEDULE.md, "Adaptive"), with the real `arena` executable and fast,
// deterministic bundled bots (fresh processes for every game): the run plays its budget to the game, round
// by round, each engine at most once a round, and ranks with rank intervals; a run cut off after any game
// (its journal truncated there, as a kill leaves it) resumes to exactly the games and standings of the run
// that was never interrupted; one worker plays the games two do; `arena plan` shows round 1 and sharding is
// refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "tests/config_builder.h"
#include "tests/e2e_util.h"
#include "tests/support/journal_games.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;

const fs::path kAlphaBeta = KALAH_BINARY_DIR "/bots/kalah-alphabeta";

std::string config_text(const fs::path& output, int budget, int concurrency = 2) {
  test::TestConfig config("t");
  config.tournament("type = \"adaptive\"\nbudget_games = " + std::to_string(budget))
      .set("concurrency", concurrency)
      .set("seed", 5)
      .output(output)
      .set("report_every", 0);
  config.time("depth = 6").table("openings", "random_plies = 2");
  config.engine("alphabeta1", kAlphaBeta, "args = [\"--depth\", \"1\"]\nrestart = \"always\"");
  config.engine("greedy", kGreedy, "restart = \"always\"");
  config.engine("random7", kRandom, "args = [\"--seed\", \"7\"]\nrestart = \"always\"");
  config.engine("random9", kRandom, "args = [\"--seed\", \"9\"]\nrestart = \"always\"");
  return config.text();
}

class AdaptiveE2E : public ArenaRunTest {};

TEST_F(AdaptiveE2E, PlaysItsBudgetRoundByRound) {
  const fs::path out = tmp_.path() / "out";
  const fs::path config = write_config(config_text(out, 12), "adaptive.toml");
  const RunResult r = arena({"run", config.string()});
  ASSERT_EQ(r.status.code, 0) << r.summary();
  const std::vector<JournalGame> games = journal_of(out / "t");
  ASSERT_EQ(games.size(), 12u) << r.out;
  std::map<int, std::set<std::string>> playing;
  std::map<int, int> per_round;
  int round = 1;
  for (const JournalGame& g : games) {
    EXPECT_GE(g.round, round) << "a game of round " << g.round << " after one of round " << round;
    round = g.round;
    ++per_round[g.round];
    playing[g.round].insert(g.south);
    playing[g.round].insert(g.north);
    EXPECT_TRUE(std::regex_match(g.id, std::regex("r" + std::to_string(g.round) + R"(-\dv\d-p0-g[01])"))) << g.id;
  }
  // Round 1 pairs all four engines; each engine plays at most one pair a round.
  EXPECT_EQ(per_round[1], 4);
  for (const auto& [number, count] : per_round) EXPECT_EQ(static_cast<int>(playing[number].size()), count) << number;
  EXPECT_NE(r.out.find("adaptive pairing: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("12 of at most 12 games; ended: budget"), std::string::npos) << r.out;
  // Ranked by Elo, with rank intervals, as every kind.
  const json::value standings = json::parse(read_file(out / "t" / "standings.json"));
  for (const json::value& e : standings.at("engines").as_array()) {
    EXPECT_LE(e.at("rank_low").as_int64(), e.at("rank").as_int64());
    EXPECT_GE(e.at("rank_high").as_int64(), e.at("rank").as_int64());
  }
  EXPECT_NE(read_file(out / "t" / "tournament.json").find("\"adaptive\""), std::string::npos);
}

TEST_F(AdaptiveE2E, CutOffMidRoundResumesToTheSameTournament) {
  const fs::path one = tmp_.path() / "one", cut = tmp_.path() / "cut";
  const RunResult straight = arena({"run", write_config(config_text(one, 14), "one.toml").string()});
  ASSERT_EQ(straight.status.code, 0) << straight.summary();
  // The same seeds to the engines: cut/ gets one/'s seed secret (docs/PROTOCOL.md, "Seeds").
  fs::create_directories(cut / "t");
  fs::copy_file(one / "t" / "seed-secret", cut / "t" / "seed-secret");
  const fs::path cut_config = write_config(config_text(cut, 14), "cut.toml");
  const RunResult first = arena({"run", cut_config.string()});
  ASSERT_EQ(first.status.code, 0) << first.summary();
  // 5 games: round 1 (4 games) and one game of round 2.
  ASSERT_EQ(read_lines(cut / "t" / "games.jsonl").size(), 14u);
  cut_journal(cut / "t", 5);

  const RunResult resumed = arena({"run", cut_config.string()});
  ASSERT_EQ(resumed.status.code, 0) << resumed.summary();
  EXPECT_NE(resumed.out.find("(5 done)"), std::string::npos) << resumed.out;
  EXPECT_EQ(games_by_id(cut / "t"), games_by_id(one / "t"));
  // The same standings: each engine's rank, interval and points.
  EXPECT_EQ(ranks_of(cut / "t"), ranks_of(one / "t"));
}

TEST_F(AdaptiveE2E, OneWorkerPlaysTheSameGamesAsTwo) {
  const fs::path two = tmp_.path() / "two", one = tmp_.path() / "one";
  const RunResult first = arena({"run", write_config(config_text(two, 10, 2), "two.toml").string()});
  ASSERT_EQ(first.status.code, 0) << first.summary();
  fs::create_directories(one / "t");
  fs::copy_file(two / "t" / "seed-secret", one / "t" / "seed-secret");
  const RunResult second = arena({"run", write_config(config_text(one, 10, 1), "one.toml").string()});
  ASSERT_EQ(second.status.code, 0) << second.summary();
  EXPECT_EQ(games_by_id(one / "t"), games_by_id(two / "t"));
  EXPECT_EQ(games_by_id(one / "t").size(), 10u);
}

TEST_F(AdaptiveE2E, PlanShowsRoundOneAndShardingIsRefused) {
  const fs::path config = write_config(config_text(tmp_.path() / "out", 12), "adaptive.toml");
  const RunResult plan = arena({"plan", config.string(), "--shards", "1"});
  ASSERT_EQ(plan.status.code, 0) << plan.summary();
  EXPECT_NE(plan.out.find("t: adaptive 4 engines, at most 12 games, paired round by round (not shardable)"),
            std::string::npos)
      << plan.out;
  EXPECT_EQ(std::count(plan.out.begin(), plan.out.end(), '\n'), 4) << plan.out;  // two lines, two pairs
  const RunResult shard = arena({"run", config.string(), "--shard", "1/2"});
  EXPECT_EQ(shard.status.code, 2) << shard.summary();
  EXPECT_NE(shard.err.find("an adaptive tournament cannot be sharded"), std::string::npos) << shard.err;
}

}  // namespace
}  // namespace kalah::e2e
