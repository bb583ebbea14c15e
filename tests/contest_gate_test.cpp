// The sanity gate of a contest (docs/CONTEST.md, "The sanity gate"): [submissions] gate read and checked
// with file:line:column messages, and, end to end through the real `arena`, a bot that cannot beat random
// kept out with its reason and figures while a good bot enters with its own.
#include <sys/stat.h>

#include <map>
#include <string>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "arena/config/config.h"
#include "arena/config/entries.h"
#include "e2e_util.h"
#include "referee/engine/sandbox.h"

namespace kalah::arena {
namespace {

namespace json = boost::json;
using namespace e2e;

// A contest without sandboxes (the config alone is tested here), its gate on line 10.
std::string gate_config(const std::string& gate, const std::string& variant = "") {
  return "[tournament]\nname = \"t\"\nsandbox = \"none\"\n[time]\nbase_ms = 1000\n" + variant +
         "[submissions]\ndir = \"subs\"\nbuild_sandbox = \"none\"\n" + gate + "\n";
}

class GateConfig : public ::testing::Test {
 protected:
  void SetUp() override { fs::create_directories(tmp_ / "subs"); }
  Expected<Config> parse(const std::string& text) const { return parse_config(text, "t.toml", tmp_.path(), tmp_.path()); }
  TempDir tmp_;
};

struct BadGate {
  const char* what;
  const char* gate;
  const char* message;
};

const BadGate kBadGates[] = {
    {"not a table", "gate = \"strict\"", "t.toml:9:8: submissions.gate must be a table ({ ... }), not a string"},
    {"unknown key", "gate = { opponent = \"/bin/cat\", min_score = 0.75, min_scor = 1 }",
     "t.toml:9:51: unknown key \"min_scor\" in submissions.gate; known keys: opponent, games, min_score, suite, "
     "min_perfect"},
    {"empty", "gate = {}",
     "t.toml:9:8: submissions.gate needs games against an opponent (opponent, games, min_score), a suite of "
     "positions (suite, min_perfect), or both"},
    {"odd games", "gate = { opponent = \"/bin/cat\", games = 7, min_score = 0.75 }",
     "t.toml:9:41: submissions.gate.games must be even, so that the bot plays as many games with each colour, not 7"},
    {"too few games", "gate = { opponent = \"/bin/cat\", games = 0, min_score = 0.75 }",
     "t.toml:9:41: submissions.gate.games must be from 2 to 10000, not 0"},
    {"games as text", "gate = { opponent = \"/bin/cat\", games = \"20\", min_score = 0.75 }",
     "t.toml:9:41: submissions.gate.games must be an integer, not a string"},
    {"score above one", "gate = { opponent = \"/bin/cat\", min_score = 75 }",
     "t.toml:9:45: submissions.gate.min_score must be a share from 0 to 1 (0.75 for 75%), not 75"},
    {"score as text", "gate = { opponent = \"/bin/cat\", min_score = \"75%\" }",
     "t.toml:9:45: submissions.gate.min_score must be a number, not a string"},
    {"no score", "gate = { opponent = \"/bin/cat\", games = 20 }",
     "t.toml:9:21: submissions.gate.opponent needs min_score, the share of the points the bot must score against it "
     "(min_score = 0.75)"},
    {"games without an opponent", "gate = { games = 20, min_score = 0.5 }",
     "t.toml:9:18: submissions.gate.games needs submissions.gate.opponent, the bot to play against"},
    {"an opponent that is not there", "gate = { opponent = \"./no-such-bot\", min_score = 0.5 }",
     "t.toml:9:21: submissions.gate.opponent \"./no-such-bot\" not found"},
    {"no positions", "gate = { suite = 0, min_perfect = 0.5 }",
     "t.toml:9:18: submissions.gate.suite must be from 1 to 3000, not 0"},
    {"suite without a share", "gate = { suite = 30 }",
     "t.toml:9:18: submissions.gate.suite needs min_perfect, the share of the positions the bot must answer with a "
     "perfect move (min_perfect = 0.5)"},
    {"negative share", "gate = { suite = 30, min_perfect = -0.1 }",
     "t.toml:9:36: submissions.gate.min_perfect must be a share from 0 to 1 (0.75 for 75%), not -0.1"},
    {"share without a suite", "gate = { min_perfect = 0.5 }",
     "t.toml:9:24: submissions.gate.min_perfect needs submissions.gate.suite, the number of positions"},
};

TEST_F(GateConfig, EveryMistakeNamesItsPlace) {
  for (const BadGate& c : kBadGates) {
    const Expected<Config> parsed = parse(gate_config(c.gate));
    ASSERT_FALSE(parsed) << c.what;
    EXPECT_EQ(parsed.error().substr(0, std::string(c.message).size()), c.message) << c.what;
  }
}

TEST_F(GateConfig, ASuiteNeedsAVariantTheSolverTakes) {
  const Expected<Config> parsed =
      parse(gate_config("gate = { suite = 30, min_perfect = 0.5 }", "[variant]\npits = 16\nseeds = 16\n"));
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error(),
            "t.toml:12:18: submissions.gate.suite: the exact solver labels the positions, and it takes at most 255 "
            "seeds, not pits=16 seeds=16 capture=standard ending=side-empty remainder=owner majority=off "
            "pie=off");
}

TEST_F(GateConfig, BothPartsAsAnInlineTableOrATable) {
  const Expected<Config> inline_table =
      parse(gate_config("gate = { opponent = \"/bin/cat\", games = 4, min_score = 0.75, suite = 6, min_perfect = 0.5 }"));
  ASSERT_TRUE(inline_table) << inline_table.error();
  ASSERT_TRUE(inline_table->submissions->gate);
  const arena::GateConfig& g = *inline_table->submissions->gate;
  EXPECT_EQ(g.opponent, "/bin/cat");
  EXPECT_EQ(g.opponent_cmd, fs::path("/bin/cat"));
  EXPECT_EQ(g.games, 4);
  EXPECT_EQ(g.min_score, 0.75);
  EXPECT_EQ(g.suite, 6);
  EXPECT_EQ(g.min_perfect, 0.5);
  EXPECT_EQ(gate_key(*inline_table),
            "opponent=/bin/cat games=4 min_score=0.75 suite=6 min_perfect=0.5 variant=pits=6 seeds=4 capture=standard ending=side-empty "
            "remainder=owner majority=off pie=off time=" +
                inline_table->time.describe() + " seed=1");

  const Expected<Config> table = parse(gate_config("[submissions.gate]\nsuite = 9\nmin_perfect = 1"));
  ASSERT_TRUE(table) << table.error();
  EXPECT_FALSE(table->submissions->gate->plays_games());
  EXPECT_TRUE(table->submissions->gate->runs_suite());
  EXPECT_EQ(table->submissions->gate->min_perfect, 1.0);

  const Expected<Config> games = parse(gate_config("gate = { opponent = \"/bin/cat\", min_score = 0 }"));
  ASSERT_TRUE(games) << games.error();
  EXPECT_EQ(games->submissions->gate->games, 20) << "the default";
  EXPECT_FALSE(games->submissions->gate->runs_suite());
  const EngineSpec opponent = gate_opponent(*games);
  EXPECT_EQ(opponent.name, "/bin/cat (gate opponent)");
  EXPECT_EQ(opponent.sandbox, SandboxMode::None) << "as [tournament] says";

  const Expected<Config> none = parse(gate_config(""));
  ASSERT_TRUE(none) << none.error();
  EXPECT_FALSE(none->submissions->gate);
}

}  // namespace
}  // namespace kalah::arena
