// Scale-out end to end (docs/SCALE.md), with the real `arena` executable and deterministic bots:
// a tournament played as shards and merged equals the same tournament played in one run, game for
// game; a second run on a locked results folder is refused at once; bad shard arguments touch
// nothing. The Slurm tests submit through a real (one-node) Slurm started by tools/slurm-local.sh
// and are skipped, saying why, where none answers.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "tests/config_builder.h"
#include "tests/e2e_util.h"
#include "tests/slurm_util.h"
#include "tests/support/text_match.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;

const fs::path kAlphaBeta = KALAH_BINARY_DIR "/bots/kalah-alphabeta";

// Four deterministic engines at a fixed depth, each game with new processes: the same game id
// gives the same game wherever and whenever it is played.
std::string deterministic_config(const fs::path& output, const std::string& name = "det", int rounds = 2) {
  return test::TestConfig(name)
      .set("rounds", rounds)
      .set("concurrency", 2)
      .set("seed", 5)
      .output(output)
      .time("depth = 3")
      .table("openings", "random_plies = 2")
      .engine("random", kRandom, "restart = \"always\"")
      .engine("random7", kRandom, "args = [\"--seed\", \"7\"]\nrestart = \"always\"")
      .engine("greedy", kGreedy, "restart = \"always\"")
      .engine("alphabeta", kAlphaBeta, "restart = \"always\"")
      .text();
}

// Gives the results folder `to` (made if missing) the seed secret of `from`, so that its games are sent the
// same seeds (docs/PROTOCOL.md, "Seeds"): how a user reproduces a run elsewhere.
void share_seed_secret(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  fs::copy_file(from / "seed-secret", to / "seed-secret");
}

// Bots whose play depends on their generator, kept running between games (restart on a crash only, the
// default), at the concurrency given: the games are the same only because each game's seed comes with
// its newgame (docs/PROTOCOL.md, "Seeds"), whatever the process played before.
std::string seeded_config(const fs::path& output, int concurrency) {
  return test::TestConfig("seeded")
      .set("rounds", 2)
      .set("concurrency", concurrency)
      .set("seed", 11)
      .output(output)
      .time("nodes = 200")
      .table("openings", "random_plies = 2")
      .engine("random", kRandom)
      .engine("random7", kRandom, "args = [\"--seed\", \"7\"]")
      .engine("greedy", kGreedy)
      .engine("mcts", kMcts)
      .text();
}

// Every game of a results folder (its own journal and its shards'), by id: moves and result.
std::map<std::string, std::string> games_of(const fs::path& dir) {
  std::map<std::string, std::string> out;
  std::vector<fs::path> journals;
  if (fs::exists(dir / "games.jsonl")) journals.push_back(dir / "games.jsonl");
  if (fs::exists(dir / "shards"))
    for (const auto& e : fs::directory_iterator(dir / "shards")) journals.push_back(e.path() / "games.jsonl");
  for (const fs::path& j : journals)
    for (const std::string& line : read_lines(j)) {
      const json::object o = json::parse(line).as_object();
      out[std::string(o.at("id").as_string())] = json::serialize(o.at("moves")) + " " + json::serialize(o.at("result"));
    }
  return out;
}

// The standings without the measured think times: engine -> elo, points, W-D-L, rank.
std::map<std::string, std::string> standings_of(const fs::path& dir) {
  std::map<std::string, std::string> out;
  const json::value v = json::parse(read_file(dir / "standings.json"));
  for (const json::value& e : v.at("engines").as_array()) {
    const json::object& o = e.as_object();
    out[std::string(o.at("name").as_string())] = json::serialize(o.at("rank")) + " " + json::serialize(o.at("elo")) +
                                                 " " + json::serialize(o.at("points")) + " " +
                                                 json::serialize(o.at("wins")) + "-" + json::serialize(o.at("draws")) +
                                                 "-" + json::serialize(o.at("losses"));
  }
  return out;
}

// An SPRT between two deterministic bots of clearly different strength, `test` the stronger unless
// `swapped`.
std::string sprt_config(const fs::path& output, bool swapped = false) {
  const fs::path base = swapped ? kGreedy : kRandom, test = swapped ? kRandom : kGreedy;
  return test::TestConfig("sp")
      .set("seed", 3)
      .output(output)
      .time("depth = 2")
      .table("openings", "random_plies = 2")
      .table("sprt", "elo0 = 0\nelo1 = 20\nalpha = 0.05\nbeta = 0.05")
      .engine("base", base)
      .engine("test", test)
      .text();
}

// sprt.json of a results folder.
json::object sprt_json_of(const fs::path& dir) { return json::parse(read_file(dir / "sprt.json")).as_object(); }

// Waits until none of `jobs` is pending or running any more.
bool wait_for_jobs(const std::string& jobs, std::chrono::seconds limit) {
  const Clock::time_point end = Clock::now() + limit;
  while (Clock::now() < end) {
    const std::string cmd = "test -z \"$(squeue -h -j " + jobs + " 2>/dev/null)\"";
    if (std::system(cmd.c_str()) == 0) return true;
    std::this_thread::sleep_for(500ms);
  }
  return false;
}

class ScaleE2E : public ::testing::Test {
 protected:
  RunResult arena(std::vector<std::string> args, std::chrono::milliseconds limit = std::chrono::milliseconds(120000)) {
    args.insert(args.begin(), kArena.string());
    return run(args, tmp_.path(), limit);
  }

  // `arena slurm CONFIG --shards 4 --submit` on one CPU per task, then waits for the array and the
  // merge job to leave the queue.
  ::testing::AssertionResult submit_and_wait(const fs::path& config, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"slurm", config.string(), "--shards", "4", "--cpus-per-task", "1", "--submit"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult submitted = arena(args);
    if (submitted.status.code != 0) return ::testing::AssertionFailure() << submitted.summary();
    const std::optional<test::Groups> ids =
        test::search_groups(submitted.out, R"(submitted: array job (\d+) \(4 shards\), merge job (\d+))");
    if (!ids) return ::testing::AssertionFailure() << "no job ids in: " << submitted.out;
    if (!wait_for_jobs((*ids)[1] + "," + (*ids)[2], 240s))
      return ::testing::AssertionFailure() << "the jobs did not finish in 4 minutes";
    return ::testing::AssertionSuccess();
  }

  fs::path write_config(const std::string& text, const std::string& file = "t.toml") {
    const fs::path path = tmp_.path() / file;
    write_file(path, text);
    return path;
  }

  system::TempFolder tmp_{"kalah-e2e"};
};

TEST_F(ScaleE2E, ShardsMergedEqualOneRunGameForGame) {
  const fs::path one = tmp_.path() / "one", split = tmp_.path() / "split";
  const fs::path config_one = write_config(deterministic_config(one), "one.toml");
  const fs::path config_split = write_config(deterministic_config(split), "split.toml");

  const RunResult whole = arena({"run", config_one.string()});
  ASSERT_EQ(whole.status.code, 0) << whole.summary();
  share_seed_secret(one / "det", split / "det");

  const RunResult plan = arena({"plan", config_split.string(), "--shards", "3"});
  ASSERT_EQ(plan.status.code, 0) << plan.summary();
  EXPECT_NE(plan.out.find("24 games in 12 colour-swapped pairs, as 3 shards"), std::string::npos) << plan.out;
  EXPECT_TRUE(test::search(plan.out, R"(1/3\s+4\s+8\s+r1-)")) << plan.out;

  // Shards 3 and 1 finish; the merge says shard 2 has not run, then merges all three.
  for (const char* shard : {"3/3", "1/3"}) {
    const RunResult r = arena({"run", config_split.string(), "--shard", shard});
    ASSERT_EQ(r.status.code, 0) << r.summary();
    EXPECT_NE(r.out.find("merge them with: arena report"), std::string::npos) << r.out;
  }
  EXPECT_FALSE(fs::exists(split / "det" / "standings.json")) << "shard tasks write only their journals";
  RunResult merged = arena({"report", (split / "det").string()});
  ASSERT_EQ(merged.status.code, 0) << merged.summary();
  EXPECT_NE(merged.out.find("merged 16 games from 2 of 3 shards"), std::string::npos) << merged.out;
  EXPECT_NE(merged.out.find("note: shard 2/3 has no journal"), std::string::npos) << merged.out;

  const RunResult second = arena({"run", config_split.string(), "--shard", "2/3"});
  ASSERT_EQ(second.status.code, 0) << second.summary();
  merged = arena({"merge", (split / "det").string()});
  ASSERT_EQ(merged.status.code, 0) << merged.summary();
  EXPECT_NE(merged.out.find("merged 24 games from 3 of 3 shards"), std::string::npos) << merged.out;
  EXPECT_EQ(merged.out.find("has no journal"), std::string::npos) << merged.out;

  EXPECT_EQ(games_of(split / "det"), games_of(one / "det"));
  EXPECT_EQ(games_of(one / "det").size(), 24u);
  EXPECT_EQ(standings_of(split / "det"), standings_of(one / "det"));
  for (const char* file : {"standings.md", "standings.csv", "games.pgn", "report.html"})
    EXPECT_TRUE(fs::exists(split / "det" / file)) << file;

  // A resumed shard has nothing left to play.
  const RunResult again = arena({"run", config_split.string(), "--shard", "2/3"});
  ASSERT_EQ(again.status.code, 0) << again.summary();
  EXPECT_NE(again.out.find("(8 done)"), std::string::npos) << again.out;
}

TEST_F(ScaleE2E, BadShardArgumentsAndEmptyMergesExitTwoTouchingNothing) {
  const fs::path out = tmp_.path() / "out";
  const fs::path config = write_config(deterministic_config(out));
  for (const char* shard : {"5/4", "0/4", "a/b", "13/13"}) {
    const RunResult r = arena({"run", config.string(), "--shard", shard});
    EXPECT_EQ(r.status.code, 2) << shard << "\n" << r.summary();
    EXPECT_NE(r.err.find("shard"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(out)) << "no results folder was created";
  const RunResult too_many = arena({"plan", config.string(), "--shards", "13"});
  EXPECT_EQ(too_many.status.code, 2);
  EXPECT_NE(too_many.err.find("13 shards but the tournament has only 12 colour-swapped game pairs"), std::string::npos)
      << too_many.err;

  fs::create_directories(tmp_.path() / "empty");
  const RunResult empty = arena({"report", (tmp_.path() / "empty").string()});
  EXPECT_EQ(empty.status.code, 2);
  EXPECT_NE(empty.err.find("no journal in this directory"), std::string::npos) << empty.err;
  const RunResult missing = arena({"merge", (tmp_.path() / "nowhere").string()});
  EXPECT_EQ(missing.status.code, 2);

  // --submit without sbatch on PATH: refused before anything is written.
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", "/nonexistent", 1);
  const RunResult no_sbatch = arena({"slurm", config.string(), "--shards", "2", "--submit"});
  ::setenv("PATH", path.c_str(), 1);
  EXPECT_EQ(no_sbatch.status.code, 2) << no_sbatch.summary();
  EXPECT_NE(no_sbatch.err.find("sbatch"), std::string::npos) << no_sbatch.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(ScaleE2E, SeededBotsPlayTheSameGamesAtAnyConcurrencyShardedOrNot) {
  const fs::path one = tmp_.path() / "one", two = tmp_.path() / "two", split = tmp_.path() / "split";
  ASSERT_EQ(arena({"run", write_config(seeded_config(one, 1), "one.toml").string()}).status.code, 0);
  // The seeds are keyed with the results folder's secret (docs/PROTOCOL.md, "Seeds"): the other folders are
  // given the first one's, as a user who reproduces a run does.
  for (const fs::path& folder : {two, split}) share_seed_secret(one / "seeded", folder / "seeded");
  ASSERT_EQ(arena({"run", write_config(seeded_config(two, 2), "two.toml").string()}).status.code, 0);
  const fs::path config_split = write_config(seeded_config(split, 2), "split.toml");
  for (const char* shard : {"2/2", "1/2"})
    ASSERT_EQ(arena({"run", config_split.string(), "--shard", shard}).status.code, 0) << shard;
  const std::map<std::string, std::string> games = games_of(one / "seeded");
  EXPECT_EQ(games.size(), 24u);
  EXPECT_EQ(games_of(two / "seeded"), games);
  EXPECT_EQ(games_of(split / "seeded"), games);
  // The random bots really are random: not every game of a pairing is the same.
  std::set<std::string> distinct;
  for (const auto& [id, moves] : games) distinct.insert(moves);
  EXPECT_GT(distinct.size(), 12u);
}

TEST_F(ScaleE2E, AFolderHoldsAnUnshardedRunOrShardsNeverBoth) {
  const fs::path out = tmp_.path() / "out";
  const fs::path config = write_config(deterministic_config(out));
  // An unsharded run stopped after 6 games: sharding into its folder would replay them.
  const RunResult part = arena({"run", config.string(), "--max-games", "6"});
  ASSERT_EQ(part.status.code, 0) << part.summary();
  const std::map<std::string, std::string> before = games_of(out / "det");
  ASSERT_EQ(before.size(), 6u);
  for (const std::vector<std::string>& extra : {std::vector<std::string>{}, {"--fresh"}}) {
    std::vector<std::string> args = {"run", config.string(), "--shard", "1/3"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult shard = arena(args);
    EXPECT_EQ(shard.status.code, 2) << shard.summary();
    EXPECT_NE(shard.err.find("this folder holds an unsharded run of the tournament (games.jsonl): shard 1-of-3 "
                             "would play its games again"),
              std::string::npos)
        << shard.err;
  }
  EXPECT_FALSE(fs::exists(out / "det" / "shards")) << "nothing was played";
  EXPECT_EQ(games_of(out / "det"), before);
  // And the other way round: shards in a folder, then an unsharded run there.
  const fs::path other = tmp_.path() / "other";
  const fs::path split = write_config(deterministic_config(other), "split.toml");
  ASSERT_EQ(arena({"run", split.string(), "--shard", "2/3"}).status.code, 0);
  const RunResult whole = arena({"run", split.string()});
  EXPECT_EQ(whole.status.code, 2) << whole.summary();
  EXPECT_NE(whole.err.find("this folder holds shards of the tournament (shards/2-of-3/)"), std::string::npos)
      << whole.err;
  EXPECT_FALSE(fs::exists(other / "det" / "games.jsonl"));
}

TEST_F(ScaleE2E, ASecondRunOnTheSameResultsIsRefusedAndAKilledOneLeavesNoLock) {
  const fs::path out = tmp_.path() / "out";
  // Slow games: mcts thinks for its whole movetime.
  const std::string config_text = test::TestConfig("busy")
                                      .set("rounds", 20)
                                      .output(out)
                                      .time("movetime_ms = 50")
                                      .engine("a", kMcts)
                                      .engine("b", kMcts)
                                      .text();
  const fs::path config = write_config(config_text);
  Child first({kArena.string(), "run", config.string()}, tmp_.path() / "first.out", tmp_.path() / "first.err");
  const fs::path lock = out / "busy" / "arena.lock";
  for (int i = 0; i < 500 && read_file(lock).empty(); ++i) std::this_thread::sleep_for(10ms);
  ASSERT_FALSE(read_file(lock).empty()) << "the first run took the lock";

  const RunResult second = arena({"run", config.string()}, 20s);
  EXPECT_EQ(second.status.code, 2) << second.summary();
  EXPECT_NE(second.err.find((out / "busy").string() + " is in use by pid " + std::to_string(first.pid()) + " on host "),
            std::string::npos)
      << second.err;
  EXPECT_LT(second.seconds, 5.0) << "refused at once, not after waiting";

  first.signal(SIGKILL);
  first.wait(5s);
  const std::size_t journaled = read_lines(out / "busy" / "games.jsonl").size();
  // The kernel dropped the dead run's lock: the next run resumes (and is interrupted at once here).
  Child third({kArena.string(), "run", config.string()}, tmp_.path() / "third.out", tmp_.path() / "third.err");
  for (int i = 0; i < 500 && read_file(tmp_.path() / "third.out").find("done)") == std::string::npos; ++i)
    std::this_thread::sleep_for(10ms);
  third.signal(SIGINT);
  const ExitStatus status = third.wait(20s);
  EXPECT_EQ(status.code, 130) << read_file(tmp_.path() / "third.err");
  EXPECT_NE(read_file(tmp_.path() / "third.out").find("(" + std::to_string(journaled) + " done)"), std::string::npos)
      << read_file(tmp_.path() / "third.out");
  std::set<std::string> ids;
  for (const std::string& line : read_lines(out / "busy" / "games.jsonl"))
    EXPECT_TRUE(ids.insert(std::string(json::parse(line).at("id").as_string())).second) << "a game twice: " << line;
}

TEST_F(ScaleE2E, SprtShardsRunTogetherStopTogetherAndTheMergeGatesOnTheDecision) {
  for (const bool swapped : {false, true}) {
    const fs::path out = tmp_.path() / (swapped ? "h0" : "h1");
    const fs::path config = write_config(sprt_config(out, swapped), swapped ? "h0.toml" : "h1.toml");
    std::vector<std::unique_ptr<Child>> shards;
    for (int i = 1; i <= 3; ++i)
      shards.push_back(std::make_unique<Child>(
          std::vector<std::string>{kArena.string(), "run", config.string(), "--shard", std::to_string(i) + "/3"},
          tmp_.path() / ("shard" + std::to_string(i) + ".out"), tmp_.path() / ("shard" + std::to_string(i) + ".err")));
    for (int i = 1; i <= 3; ++i) {
      const ExitStatus status = shards[static_cast<std::size_t>(i - 1)]->wait(120s);
      const std::string printed = read_file(tmp_.path() / ("shard" + std::to_string(i) + ".out"));
      EXPECT_EQ(status.code, 0) << "a decision is not a failed task\n"
                                << printed << read_file(tmp_.path() / ("shard" + std::to_string(i) + ".err"));
      EXPECT_NE(printed.find(swapped ? "says: H0 accepted" : "says: H1 accepted"), std::string::npos) << printed;
    }
    // Every shard played: the test ran on their pairs together.
    for (int i = 1; i <= 3; ++i)
      EXPECT_GE(read_lines(out / "sp" / "shards" / (std::to_string(i) + "-of-3") / "games.jsonl").size(), 2u) << i;

    const RunResult merged = arena({"report", (out / "sp").string()});
    EXPECT_EQ(merged.status.code, swapped ? 1 : 0) << merged.summary();
    const json::object sprt = sprt_json_of(out / "sp");
    EXPECT_EQ(sprt.at("decision").as_string(), swapped ? "H0" : "H1");
    EXPECT_TRUE(sprt.at("finished").as_bool());
    // The decision is the test over every finished pair in the journals: recomputed, the same.
    std::size_t games = 0;
    for (int i = 1; i <= 3; ++i)
      games += read_lines(out / "sp" / "shards" / (std::to_string(i) + "-of-3") / "games.jsonl").size();
    EXPECT_EQ(static_cast<std::size_t>(sprt.at("games").as_int64()), games);
    const RunResult again = arena({"report", (out / "sp").string()});
    EXPECT_EQ(again.status.code, merged.status.code);
    EXPECT_EQ(read_file(out / "sp" / "sprt.json"),
              json::serialize(sprt).empty() ? "" : read_file(out / "sp" / "sprt.json"));
  }
}

// ---- a real Slurm

TEST_F(ScaleE2E, SlurmArrayOfFourShardsAndItsMergeEqualOneRun) {
  if (const std::string why = slurm_unavailable(); !why.empty()) GTEST_SKIP() << "Slurm: " << why;
  const fs::path one = tmp_.path() / "one", split = tmp_.path() / "split";
  const fs::path config_one = write_config(deterministic_config(one), "one.toml");
  const fs::path config_split = write_config(deterministic_config(split), "split.toml");
  const RunResult whole = arena({"run", config_one.string()});
  ASSERT_EQ(whole.status.code, 0) << whole.summary();
  share_seed_secret(one / "det", split / "det");

  ASSERT_TRUE(submit_and_wait(config_split, {"--time", "10"}));
  const fs::path results = split / "det";
  const std::string merge_log = read_file(results / "slurm" / "merge.out");
  EXPECT_NE(merge_log.find("merged 24 games from 4 of 4 shards"), std::string::npos) << merge_log;
  for (int i = 1; i <= 4; ++i)
    EXPECT_TRUE(fs::exists(results / "shards" / (std::to_string(i) + "-of-4") / "games.jsonl")) << i;
  EXPECT_EQ(games_of(results), games_of(one / "det"));
  EXPECT_EQ(standings_of(results), standings_of(one / "det"));
}

TEST_F(ScaleE2E, SlurmSprtArrayOfFourTasksReachesADecision) {
  if (const std::string why = slurm_unavailable(); !why.empty()) GTEST_SKIP() << "Slurm: " << why;
  const fs::path out = tmp_.path() / "out";
  const fs::path config = write_config(sprt_config(out));
  ASSERT_TRUE(submit_and_wait(config));
  const fs::path results = out / "sp";
  for (int i = 1; i <= 4; ++i) {
    const std::string log = read_file(results / "slurm" / ("shard-" + std::to_string(i) + "-of-4.out"));
    EXPECT_NE(log.find("says: H1 accepted"), std::string::npos) << "task " << i << ":\n" << log;
  }
  const std::string merge_log = read_file(results / "slurm" / "merge.out");
  EXPECT_NE(merge_log.find("H1 accepted"), std::string::npos) << merge_log;
  EXPECT_EQ(sprt_json_of(results).at("decision").as_string(), "H1");
}

}  // namespace
}  // namespace kalah::e2e
