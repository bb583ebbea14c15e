// A staged tournament's parts on their own (docs/CONFIG.md, "Staged"): the drop rule and the final order on
// hand-built results, and its keys read strictly, every mistake at its file:line:column.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arena/config/config.h"
#include "arena/formats/staged/stage_rule.h"
#include "arena/formats/staged/staged_play.h"
#include "referee/system/temp_folder.h"

namespace kalah::staged {
namespace {

namespace fs = std::filesystem;

// One finished game: `result` from South's view.
GameRecord game(const std::string& south, const std::string& north, Outcome result) {
  GameRecord g;
  g.south = south;
  g.north = north;
  g.result = result;
  return g;
}

constexpr Outcome kSouth = Outcome::FirstWins, kNorth = Outcome::SecondWins, kDraw = Outcome::Draw;

TEST(StageRule, MoreLossesThanWinsLeavesAndADrawCountsForNeither) {
  // a: 2 wins 0 losses; b: 1 win 1 loss 1 draw (stays: not more losses than wins); c: 0 wins 2 losses 1 draw.
  const std::vector<GameRecord> games = {game("a", "b", kSouth), game("c", "a", kNorth), game("b", "c", kSouth),
                                         game("b", "c", kDraw)};
  const std::vector<EngineTally> t = tally_stage({"a", "b", "c"}, games);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ((std::vector<int>{t[0].wins, t[0].draws, t[0].losses}), (std::vector<int>{2, 0, 0}));
  EXPECT_EQ((std::vector<int>{t[1].wins, t[1].draws, t[1].losses}), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ((std::vector<int>{t[2].wins, t[2].draws, t[2].losses}), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(dropped(t), std::vector<std::string>{"c"});
}

TEST(StageRule, OnlyDrawsDropNobodyAndAGameOfAnotherEngineIsNotCounted) {
  const std::vector<EngineTally> t =
      tally_stage({"a", "b"}, {game("a", "b", kDraw), game("b", "a", kDraw), game("a", "gone", kNorth)});
  EXPECT_EQ(t[0].draws, 2);
  EXPECT_EQ(t[0].losses, 0) << "the game against an engine not in the stage is not counted";
  EXPECT_TRUE(dropped(t).empty());
}

TEST(StageRule, AllButOneCanLeaveButNeverAll) {
  // A 3-engine round robin that one engine wins every game of: the other two split their game.
  const std::vector<EngineTally> t =
      tally_stage({"a", "b", "c"}, {game("a", "b", kSouth), game("a", "c", kSouth), game("b", "c", kSouth),
                                    game("c", "b", kSouth), game("b", "a", kNorth), game("c", "a", kNorth)});
  EXPECT_EQ(dropped(t), (std::vector<std::string>{"b", "c"}));
}

TEST(StageRule, TheFinalOrderIsTheStageReachedThenItsPointsThenTheStagesBefore) {
  // Stage 1: a, b, c, d; c and d leave. Stage 2: a and b, equal there; a was better in stage 1.
  StageTallies one{{{"a", 3, 0, 0}, {"b", 2, 0, 1}, {"c", 1, 0, 2}, {"d", 0, 0, 3}}};
  StageTallies two{{{"a", 1, 0, 1}, {"b", 1, 0, 1}}};
  const std::vector<Placing> order = final_order({one, two});
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(order[0], (Placing{1, "a", 2, 2}));
  EXPECT_EQ(order[1], (Placing{2, "b", 2, 2}));
  EXPECT_EQ(order[2], (Placing{3, "c", 1, 2}));
  EXPECT_EQ(order[3], (Placing{4, "d", 1, 0}));
}

TEST(StageRule, EnginesEqualInEveryStageShareAPlaceInTheirFirstOrder) {
  StageTallies one{{{"x", 1, 1, 0}, {"y", 0, 2, 0}, {"z", 0, 1, 1}}};
  StageTallies two{{{"x", 0, 2, 0}, {"y", 0, 2, 0}}};
  // x and y are equal in stage 2 but x scored more in stage 1.
  EXPECT_EQ(final_order({one, two})[0].name, "x");
  StageTallies same{{{"p", 0, 2, 0}, {"q", 0, 2, 0}, {"r", 0, 0, 2}}};
  const std::vector<Placing> tied = final_order({same});
  EXPECT_EQ(tied[0], (Placing{1, "p", 1, 2}));
  EXPECT_EQ(tied[1], (Placing{1, "q", 1, 2}));
  EXPECT_EQ(tied[2], (Placing{3, "r", 1, 0}));
}

class StagedConfig : public ::testing::Test {
 protected:
  // `variant`: the lines of [variant].
  Expected<arena::Config> parse(const std::string& tournament, const std::string& variant = "pie = true") const {
    const std::string text = "[tournament]\nname = \"s\"\n" + tournament + "\n[variant]\n" + variant +
                             "\n[time]\ndepth = 1\n\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n\n"
                             "[[engine]]\nname = \"b\"\ncmd = \"/bin/true\"\n";
    return arena::parse_config(text, "s.toml", temp_.path(), temp_.path());
  }
  system::TempFolder temp_{"kalah-staged"};
};

TEST_F(StagedConfig, StagesPutTheirKeysOverTheVariantTableAndTakeTheTournamentsRounds) {
  const Expected<arena::Config> c = parse(
      "type = \"staged\"\nrounds = 3\nstages = [{ variant = \"pits=4 seeds=3\" }, { variant = \"pits=5\", rounds = 1 "
      "}]");
  ASSERT_TRUE(c) << c.error();
  ASSERT_EQ(c->tournament.stages.size(), 2u);
  EXPECT_EQ(to_string(c->tournament.stages[0].variant),
            "pits=4 seeds=3 capture=standard ending=side-empty remainder=owner majority=off pie=on");
  EXPECT_EQ(c->tournament.stages[0].rounds, 3);
  EXPECT_EQ(c->tournament.stages[1].variant.pits, 5);
  EXPECT_EQ(c->tournament.stages[1].variant.seeds, 4) << "seeds from [variant], the standard 4";
  EXPECT_EQ(c->tournament.stages[1].rounds, 1);
  // Stage 2's round robin: its board, its rounds, its seed and its folder under the staged one.
  const arena::Config two = stage_config(*c, 2, {"b", "a"});
  EXPECT_EQ(two.variant.pits, 5);
  EXPECT_EQ(two.tournament.rounds, 1);
  EXPECT_EQ(two.tournament.seed, c->tournament.seed + 1);
  EXPECT_FALSE(two.tournament.staged());
  EXPECT_EQ(two.results_dir(), c->results_dir() / "stage-2");
  EXPECT_EQ(two.engines.size(), 2u);
}

TEST_F(StagedConfig, MistakesAreRefusedAtTheirPlace) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"type = \"staged\"", "s.toml:3:8: type = \"staged\" needs tournament.stages"},
      {"stages = [{ variant = \"pits=4\" }]", "s.toml:3:10: tournament.stages only applies to type = \"staged\""},
      {"type = \"staged\"\nstages = []", "s.toml:4:10: tournament.stages must name at least one stage"},
      {"type = \"staged\"\nstages = [\"pits=4\"]", "s.toml:4:11: tournament.stages[0] must be a table"},
      {"type = \"staged\"\nstages = [{ variant = \"pits=4 stones=3\" }]",
       "s.toml:4:23: tournament.stages[0].variant: "},
      {"type = \"staged\"\nstages = [{ variant = \"pits=4\", round = 2 }]", "s.toml:4:33: "},
      {"type = \"staged\"\nstages = [{ rounds = 2 }]", "s.toml:4:11: missing key \"variant\" in tournament.stages[0]"},
  };
  for (const auto& [tournament, message] : cases) {
    const Expected<arena::Config> c = parse(tournament);
    ASSERT_FALSE(c) << tournament;
    EXPECT_EQ(c.error().rfind(message, 0), 0u) << tournament << "\n" << c.error();
  }
}

TEST_F(StagedConfig, WhatIsOfOneBoardIsRefused) {
  const Expected<arena::Config> start =
      parse("type = \"staged\"\nstages = [{ variant = \"pits=4\" }]", "start = \"4,4,4,4,4,4/4,4,4,4,4,4 0-0 N\"");
  ASSERT_FALSE(start);
  EXPECT_NE(start.error().find("variant.start does not apply to a staged tournament"), std::string::npos)
      << start.error();
  const Expected<arena::Config> pgn =
      parse("type = \"staged\"\nstages = [{ variant = \"pits=4\" }]\npgnout = \"x.pgn\"");
  ASSERT_FALSE(pgn);
  EXPECT_EQ(pgn.error().rfind("s.toml:5:10: tournament.pgnout does not apply", 0), 0u) << pgn.error();
}

}  // namespace
}  // namespace kalah::staged
