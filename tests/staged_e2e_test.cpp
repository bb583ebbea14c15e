// A staged tournament end to end (docs/CONFIG.md, "Staged"): `arena run` of type = "staged" with the bundled bots
// over two small boards, the weak bot leaving after stage 1; `arena verify` passing on the folder and failing on a
// tampered stage or record; a run killed (SIGKILL) in the middle of a stage and resumed without a game played twice.
#include <gtest/gtest.h>

#include <csignal>
#include <map>
#include <set>

#include <boost/json.hpp>

#include "referee/record/record_json.h"
#include "tests/e2e_util.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace std::chrono_literals;

const fs::path kAlphabeta = KALAH_BINARY_DIR "/bots/kalah-alphabeta";

class StagedE2E : public ::testing::Test {
 protected:
  // Two stages, Kalah(4,3) with two pairs per pairing, then Kalah(5,3) with one, over `engines` ({name, command}).
  fs::path write_config(const std::string& time, const std::vector<std::pair<std::string, fs::path>>& engines) const {
    const fs::path file = dir_.path() / "staged.toml";
    std::ofstream out(file);
    out << "[tournament]\nname = \"st\"\ntype = \"staged\"\nconcurrency = 2\nseed = 7\noutput = \""
        << (dir_.path() / "results").string()
        << "\"\nstages = [\n  { variant = \"pits=4 seeds=3\", rounds = 2 },\n  { variant = \"pits=5 seeds=3\" },\n]\n\n"
           "[openings]\nrandom_plies = 2\n\n[time]\n"
        << time << "\n";
    for (const auto& [name, cmd] : engines)
      out << "\n[[engine]]\nname = \"" << name << "\"\ncmd = \"" << cmd.string() << "\"\n";
    // The games' seeds come from the folder's secret, made at random by a first run: a fixed one plays the same
    // games on every run of the test, as a copied secret replays a tournament (docs/PROTOCOL.md, "Seeds").
    fs::create_directories(results());
    std::ofstream(results() / "seed-secret") << std::string(64, 'a') << "\n";
    fs::permissions(results() / "seed-secret", fs::perms::owner_read | fs::perms::owner_write);
    return file;
  }
  e2e::RunResult arena(const std::vector<std::string>& args) const {
    std::vector<std::string> argv{e2e::kArena.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return e2e::run(argv, dir_.path(), 180s);
  }
  fs::path results() const { return dir_.path() / "results" / "st"; }
  json::object record() const { return json::parse(e2e::read_file(results() / "staged.json")).as_object(); }

  std::vector<GameRecord> games(int stage) const {
    std::vector<GameRecord> out;
    for (const std::string& line : e2e::read_lines(results() / ("stage-" + std::to_string(stage)) / "games.jsonl"))
      if (Expected<GameRecord> g = record_from_json(line)) out.push_back(*g);
    return out;
  }

  system::TempFolder dir_{"kalah-staged-e2e"};
};

std::vector<std::string> names(const json::value& list) {
  std::vector<std::string> out;
  for (const json::value& v : list.as_array()) out.emplace_back(v.as_string());
  return out;
}

// Two alpha-beta engines of one depth split their colour-swapped pairs (each game of a pair is the other mirrored)
// and beat the others, who leave: random and greedy lose more than they win.
TEST_F(StagedE2E, TheWeakBotsLeaveAfterStageOneAndVerifyChecksTheStagesAndTheRecord) {
  const fs::path config = write_config(
      "depth = 2", {{"random", e2e::kRandom}, {"greedy", e2e::kGreedy}, {"ab", kAlphabeta}, {"ab-twin", kAlphabeta}});
  const e2e::RunResult played = arena({"run", config.string()});
  ASSERT_EQ(played.status.code, 0) << played.summary();
  const json::object r = record();
  EXPECT_TRUE(r.at("finished").as_bool()) << r;
  const json::array& stages = r.at("stages").as_array();
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_EQ(names(stages[0].at("engines")), (std::vector<std::string>{"random", "greedy", "ab", "ab-twin"}));
  EXPECT_EQ(stages[0].at("played").as_int64(), 24) << "6 pairings x 2 pairs x 2 games";
  EXPECT_EQ(names(stages[0].at("dropped")), (std::vector<std::string>{"random", "greedy"})) << r;
  EXPECT_EQ(names(stages[1].at("engines")), (std::vector<std::string>{"ab", "ab-twin"}));
  EXPECT_EQ(stages[1].at("played").as_int64(), 2);
  EXPECT_EQ(std::string(stages[1].at("variant").as_string()).substr(0, 14), "pits=5 seeds=3");
  const json::array& ranking = r.at("ranking").as_array();
  ASSERT_EQ(ranking.size(), 4u);
  EXPECT_EQ(ranking[0].at("stage").as_int64(), 2);
  EXPECT_EQ(ranking[1].at("stage").as_int64(), 2);
  EXPECT_EQ(ranking[3].at("name").as_string(), "random");
  EXPECT_EQ(ranking[3].at("stage").as_int64(), 1);
  for (const GameRecord& g : games(2)) EXPECT_TRUE(g.south.starts_with("ab") && g.north.starts_with("ab")) << g.id;
  EXPECT_TRUE(fs::exists(results() / "staged.md"));
  EXPECT_TRUE(fs::exists(results() / "stage-2" / "report.html"));

  // Finished: the same command plays nothing again.
  const std::string stage1 = e2e::read_file(results() / "stage-1" / "games.jsonl");
  const e2e::RunResult again = arena({"run", config.string()});
  ASSERT_EQ(again.status.code, 0) << again.summary();
  EXPECT_EQ(e2e::read_file(results() / "stage-1" / "games.jsonl"), stage1);
  EXPECT_EQ(games(2).size(), 2u);
  // The folder keeps what it declared: other stages under the same name are refused before any game.
  std::string declared = e2e::read_file(config);
  declared.replace(declared.find("rounds = 2 }"), 12, "rounds = 3 }");
  std::ofstream(config) << declared;
  const e2e::RunResult other = arena({"run", config.string()});
  EXPECT_EQ(other.status.code, 2) << other.summary();
  EXPECT_NE(other.err.find("was started as another staged tournament (its stages differ)"), std::string::npos)
      << other.err;

  const e2e::RunResult verified = arena({"verify", results().string()});
  EXPECT_EQ(verified.status.code, 0) << verified.summary();
  EXPECT_NE(verified.out.find("arena verify: OK — staged, 2 of 2 stages played (finished), 26 games"),
            std::string::npos)
      << verified.out;

  // Archived whole (every stage's folder and the record), and the archive verified the same way.
  const fs::path archive = dir_.path() / "st.tar.gz";
  const e2e::RunResult archived = arena({"archive", results().string(), "-o", archive.string()});
  ASSERT_EQ(archived.status.code, 0) << archived.summary();
  const e2e::RunResult unpacked = arena({"verify", archive.string()});
  EXPECT_EQ(unpacked.status.code, 0) << unpacked.summary();
  EXPECT_NE(unpacked.out.find("arena verify: OK — staged, 2 of 2 stages"), std::string::npos) << unpacked.out;

  // A record that says another thing than the journals: refused.
  const std::string text = e2e::read_file(results() / "staged.json");
  std::string lie = text;
  const std::size_t at = lie.find("\"dropped\": [");
  ASSERT_NE(at, std::string::npos) << text;
  lie.replace(lie.find("\"random\"", at), 8, "\"greedy\"");
  std::ofstream(results() / "staged.json") << lie;
  const e2e::RunResult lied = arena({"verify", results().string()});
  EXPECT_EQ(lied.status.code, 1) << lied.summary();
  EXPECT_NE(lied.out.find("staged.json is not what the stages' journals give"), std::string::npos) << lied.out;
  std::ofstream(results() / "staged.json") << text;

  // A stage's game changed: its own verification fails, and says which stage.
  std::string journal = e2e::read_file(results() / "stage-2" / "games.jsonl");
  const std::size_t result = journal.find("\"result\":\"");
  ASSERT_NE(result, std::string::npos);
  const std::size_t value = result + 10;
  journal.replace(value, journal.find('"', value) - value, journal.compare(value, 3, "1-0") == 0 ? "0-1" : "1-0");
  std::ofstream(results() / "stage-2" / "games.jsonl") << journal;
  const e2e::RunResult tampered = arena({"verify", results().string()});
  EXPECT_EQ(tampered.status.code, 1) << tampered.summary();
  EXPECT_NE(tampered.out.find("arena verify: FAILED — stage-2: "), std::string::npos) << tampered.out;
}

TEST_F(StagedE2E, AKillMidStageResumesThatStageAndPlaysNoGameTwice) {
  // kalah-mcts thinks for its whole movetime: the run is still in stage 1 when two games are in its journal.
  const fs::path config =
      write_config("movetime_ms = 20", {{"random", e2e::kRandom}, {"greedy", e2e::kGreedy}, {"mcts", e2e::kMcts}});
  const fs::path stage1 = results() / "stage-1" / "games.jsonl";
  {
    e2e::Child child({e2e::kArena.string(), "run", config.string()}, dir_.path() / "bg.out", dir_.path() / "bg.err");
    const auto give_up = e2e::Clock::now() + 120s;
    while ((!fs::exists(stage1) || e2e::read_lines(stage1).size() < 2) && e2e::Clock::now() < give_up) {
      ASSERT_FALSE(child.poll()) << "arena ended before it could be killed\n" << e2e::read_file(dir_.path() / "bg.err");
      std::this_thread::sleep_for(10ms);
    }
    child.signal(SIGKILL);
    EXPECT_EQ(child.wait(30s).signal, SIGKILL);
  }
  const std::vector<GameRecord> partial = games(1);
  ASSERT_GE(partial.size(), 2u);
  ASSERT_LT(partial.size(), 12u) << "killed in the middle of stage 1";
  EXPECT_FALSE(fs::exists(results() / "stage-2"));

  const e2e::RunResult resumed = arena({"run", config.string()});
  ASSERT_EQ(resumed.status.code, 0) << resumed.summary();
  EXPECT_NE(resumed.out.find("stage 1 of 2"), std::string::npos) << resumed.out;
  EXPECT_NE(resumed.out.find("(resuming at "), std::string::npos) << "stage 1 resumed\n" << resumed.out;
  const std::vector<GameRecord> full = games(1);
  ASSERT_EQ(full.size(), 12u);
  std::set<std::string> ids;
  for (const GameRecord& g : full) EXPECT_TRUE(ids.insert(g.id).second) << "played twice: " << g.id;
  for (std::size_t i = 0; i < partial.size(); ++i) {
    EXPECT_EQ(full[i].id, partial[i].id);
    EXPECT_EQ(full[i].started_at, partial[i].started_at) << "kept as it was, not replayed: " << partial[i].id;
  }
  EXPECT_TRUE(record().at("finished").as_bool());
  const e2e::RunResult verified = arena({"verify", results().string()});
  EXPECT_EQ(verified.status.code, 0) << verified.summary();
}

// Alpha-beta at depth 3 against random: random leaves after stage 1, and with one engine left there is no stage 2.
TEST_F(StagedE2E, AStageThatLeavesOneEngineEndsTheTournament) {
  const fs::path config = write_config("depth = 3", {{"random", e2e::kRandom}, {"alphabeta", kAlphabeta}});
  // A stage's secret is written anew (0600), not copied: a copy would take these wider mode bits with it.
  fs::permissions(results() / "seed-secret", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  const e2e::RunResult played = arena({"run", config.string()});
  ASSERT_EQ(played.status.code, 0) << played.summary();
  EXPECT_NE(played.out.find("finished after stage 1 of 2"), std::string::npos) << played.out;
  EXPECT_EQ(fs::status(results() / "stage-1" / "seed-secret").permissions(),
            fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(e2e::read_file(results() / "stage-1" / "seed-secret"), e2e::read_file(results() / "seed-secret"));
  const json::object r = record();
  EXPECT_TRUE(r.at("finished").as_bool());
  EXPECT_EQ(names(r.at("stages").as_array()[0].at("dropped")), std::vector<std::string>{"random"});
  EXPECT_FALSE(r.at("stages").as_array()[1].as_object().contains("engines")) << "stage 2 not reached";
  EXPECT_FALSE(fs::exists(results() / "stage-2"));
  EXPECT_EQ(r.at("ranking").as_array()[0].at("name").as_string(), "alphabeta");
  const e2e::RunResult verified = arena({"verify", results().string()});
  EXPECT_EQ(verified.status.code, 0) << verified.summary();

  // Reproducible: the same config and seed secret in a new folder play the same games to the same record.
  const std::string first = e2e::read_file(results() / "staged.json");
  const std::vector<GameRecord> first_games = games(1);
  fs::rename(results(), dir_.path() / "first");
  write_config("depth = 3", {{"random", e2e::kRandom}, {"alphabeta", kAlphabeta}});
  ASSERT_EQ(arena({"run", config.string()}).status.code, 0);
  EXPECT_EQ(e2e::read_file(results() / "staged.json"), first);
  // By id: two workers finish games in either order.
  std::map<std::string, std::vector<Move>> first_moves, again;
  for (const GameRecord& g : first_games) first_moves[g.id] = g.moves;
  for (const GameRecord& g : games(1)) again[g.id] = g.moves;
  EXPECT_EQ(again, first_moves);
}

}  // namespace
}  // namespace kalah
