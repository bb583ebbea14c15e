// The seeds an engine is sent (issue 36, "W"): a bot that knows how seeds are made must not be able to tell from
// its `newgame` whom it plays. Before the seeds were keyed with the results folder's secret, every seed was
// game_seed(tournament seed, game id), and the id names both engines: the attack below found every game.
#include <sys/stat.h>

#include <map>
#include <set>
#include <string>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "referee/game/game.h"
#include "referee/game/seed_secret.h"
#include "tests/config_builder.h"
#include "tests/e2e_util.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;

const fs::path kInstant = KALAH_BINARY_DIR "/tests/engines/instant_engine";

class SeedSecretE2E : public ::testing::Test {
 protected:
  // A round robin of three instant engines, each writing the seeds it is sent to its own file; `shards`: the
  // same tournament as that many shards in one folder.
  void play(const fs::path& out, int shards = 0) {
    const fs::path engine = copy_executable(kInstant, tmp_.path(), "instant");
    test::TestConfig config("seeded");
    config.set("seed", 11).set("rounds", 2).set("concurrency", 2).output(out).set("report_every", 0);
    config.time("movetime_ms = 1000");
    for (const char* name : {"a", "b", "c"})
      config.engine(
          name, engine,
          "args = [\"--seeds-to\", " + test::toml_string((tmp_ / (std::string(name) + ".seeds")).string()) + "]");
    config.write(tmp_ / "seeded.toml");
    if (shards == 0) {
      const RunResult r = run({kArena.string(), "run", (tmp_ / "seeded.toml").string()}, tmp_.path());
      ASSERT_EQ(r.status.code, 0) << r.summary();
    }
    for (int i = 1; i <= shards; ++i) {
      const RunResult r = run({kArena.string(), "run", (tmp_ / "seeded.toml").string(), "--shard",
                               std::to_string(i) + "/" + std::to_string(shards)},
                              tmp_.path());
      ASSERT_EQ(r.status.code, 0) << r.summary();
    }
  }
  // Every game id of the journals under `folder` (a whole run's or its shards').
  static std::vector<std::string> game_ids(const fs::path& folder) {
    std::vector<std::string> ids;
    for (const auto& e : fs::recursive_directory_iterator(folder))
      if (e.path().filename() == "games.jsonl")
        for (const std::string& line : read_lines(e.path()))
          ids.push_back(json::value_to<std::string>(json::parse(line).at("id")));
    return ids;
  }
  // Every seed the engines were sent.
  std::multiset<std::uint32_t> sent() const {
    std::multiset<std::uint32_t> out;
    for (const char* name : {"a", "b", "c"})
      for (const std::string& line : read_lines(tmp_ / (std::string(name) + ".seeds")))
        out.insert(static_cast<std::uint32_t>(std::stoul(line)));
    return out;
  }

  system::TempFolder tmp_{"kalah-e2e"};
};

TEST_F(SeedSecretE2E, NoSeedAnEngineIsSentNamesItsGameAndThePublishedSecretGivesThemAll) {
  const fs::path out = tmp_ / "out";
  play(out);
  const fs::path results = out / "seeded";
  const std::vector<std::string> ids = game_ids(results);
  ASSERT_EQ(ids.size(), 12u);
  const std::multiset<std::uint32_t> seeds = sent();
  ASSERT_EQ(seeds.size(), 24u) << "each engine of each game is sent its seed";

  // The attack: the bot computes the public seed of every game the schedule can hold (the tournament's seed is
  // in the config and the reports) and looks its own seed up.
  std::map<std::uint32_t, std::string> public_seeds;
  for (const std::string& id : ids) public_seeds[game_seed(11, id)] = id;
  for (std::uint32_t s : seeds)
    EXPECT_EQ(public_seeds.count(s), 0u) << "seed " << s << " names game " << public_seeds[s];

  // The secret is the folder's own (no other user may read it) and gives every seed that was sent, both sides'.
  struct stat st {};
  ASSERT_EQ(::lstat((results / "seed-secret").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  std::string text = read_file(results / "seed-secret");
  ASSERT_FALSE(text.empty());
  text.pop_back();
  const Expected<SeedSecret> secret = SeedSecret::from_hex(text);
  ASSERT_TRUE(secret) << secret.error();
  std::multiset<std::uint32_t> derived;
  for (const std::string& id : ids) derived.insert({secret->seed_for(id), secret->seed_for(id)});
  EXPECT_EQ(derived, seeds);
}

TEST_F(SeedSecretE2E, ShardsInOneFolderShareTheSecretAndAFolderGivenItReplaysTheSeeds) {
  const fs::path one = tmp_ / "one";
  play(one);
  const std::multiset<std::uint32_t> first = sent();
  for (const char* name : {"a", "b", "c"}) fs::remove(tmp_ / (std::string(name) + ".seeds"));

  // Shards made their secret once, in the tournament's folder, and sent every game the seed one run with that
  // secret would send: copied into a new folder, the first run's secret makes the shards send its seeds.
  const fs::path split = tmp_ / "split";
  fs::create_directories(split / "seeded");
  fs::copy_file(one / "seeded" / "seed-secret", split / "seeded" / "seed-secret");
  play(split, 2);
  EXPECT_EQ(sent(), first);
  EXPECT_FALSE(fs::exists(split / "seeded" / "shards" / "1-of-2" / "seed-secret"));

  // A folder of its own makes a secret of its own: other seeds.
  for (const char* name : {"a", "b", "c"}) fs::remove(tmp_ / (std::string(name) + ".seeds"));
  play(tmp_ / "other");
  EXPECT_NE(sent(), first);
}

}  // namespace
}  // namespace kalah::e2e
