// tournament.pairs and tournament.rounds (docs/CONFIG.md): each kind's count under the key that says what it
// counts, the old `rounds` of a kind that counts pairs still read with a note naming the new key, and the same
// tournament written either way the same tournament (its fingerprint).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arena/config/config.h"

namespace kalah::arena {
namespace {

// A config of `kind` (a tournament.type, or "" for none) with `keys` as more lines of [tournament]: the keys
// start on line 3 when there is no type, on line 4 when there is.
std::string config_text(const std::string& kind, const std::string& keys) {
  std::string text = "[tournament]\nname = \"p\"\n";
  if (!kind.empty()) text += "type = \"" + kind + "\"\n";
  text += keys;
  if (kind == "adaptive") text += "budget_games = 20\n";
  if (kind == "staged") text += "stages = [{ variant = \"pits=4 seeds=3\" }]\n";
  return text + "[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n[[engine]]\nname = \"b\"\n" +
         "cmd = \"/bin/cat\"\n";
}

Expected<Config> parse(const std::string& kind, const std::string& keys) {
  return parse_config(config_text(kind, keys), "p.toml", ".");
}

// What a kind's note says its pairs count.
struct KindCase {
  const char* kind;
  const char* counts;
};

const KindCase kPairKinds[] = {{"", "game pairs per pairing"},
                               {"round-robin", "game pairs per pairing"},
                               {"gauntlet", "game pairs per pairing"},
                               {"knockout", "game pairs per match"},
                               {"staged", "game pairs per pairing"}};

// The line the keys start on (config_text).
int keys_line(const std::string& kind) { return kind.empty() ? 3 : 4; }

TEST(PairsKey, EveryKindThatCountsPairsReadsPairsWithoutANote) {
  for (const KindCase& k : kPairKinds) {
    SCOPED_TRACE(k.kind);
    const Expected<Config> c = parse(k.kind, "pairs = 3\n");
    ASSERT_TRUE(c.ok()) << c.error();
    EXPECT_EQ(c->tournament.rounds, 3);
    EXPECT_TRUE(c->warnings.empty()) << c->warnings.front();
  }
}

TEST(PairsKey, TheOldRoundsIsReadAsBeforeWithANoteNamingItsLineAndThePairsKey) {
  for (const KindCase& k : kPairKinds) {
    SCOPED_TRACE(k.kind);
    const Expected<Config> c = parse(k.kind, "rounds = 80\n");
    ASSERT_TRUE(c.ok()) << c.error();
    EXPECT_EQ(c->tournament.rounds, 80);
    EXPECT_EQ(c->warnings,
              std::vector<std::string>{"p.toml:" + std::to_string(keys_line(k.kind)) + ":1: tournament.rounds counts " +
                                       k.counts + " here: write pairs = 80 (rounds is read as before)"});
  }
}

TEST(PairsKey, BothKeysGivenIsAnErrorAtTheLaterOne) {
  for (const KindCase& k : kPairKinds) {
    SCOPED_TRACE(k.kind);
    const Expected<Config> c = parse(k.kind, "pairs = 2\nrounds = 2\n");
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error(), "p.toml:" + std::to_string(keys_line(k.kind) + 1) +
                             ":10: tournament.rounds and tournament.pairs both given: rounds is the old name of pairs "
                             "here (" +
                             k.counts + "); keep pairs only");
  }
  const Expected<Config> reversed = parse("gauntlet", "rounds = 2\npairs = 2\n");
  ASSERT_FALSE(reversed.ok());
  EXPECT_EQ(reversed.error().substr(0, 12), "p.toml:5:9: ") << reversed.error();
}

TEST(PairsKey, ASwissCountsRoundsAndRefusesPairsAtItsPlace) {
  const Expected<Config> swiss = parse("swiss", "rounds = 5\n");
  ASSERT_TRUE(swiss.ok()) << swiss.error();
  EXPECT_EQ(swiss->tournament.rounds, 5);
  EXPECT_TRUE(swiss->warnings.empty());
  const Expected<Config> pairs = parse("swiss", "pairs = 5\n");
  ASSERT_FALSE(pairs.ok());
  EXPECT_EQ(pairs.error(),
            "p.toml:4:9: tournament.pairs does not apply to a Swiss tournament, which plays one game pair per "
            "pairing: write rounds = N, the number of Swiss rounds");
}

TEST(PairsKey, AnAdaptiveTournamentRefusesBothKeysAtTheirPlace) {
  for (const char* key : {"pairs", "rounds"}) {
    const Expected<Config> c = parse("adaptive", std::string(key) + " = 2\n");
    ASSERT_FALSE(c.ok()) << key;
    EXPECT_EQ(c.error(), "p.toml:4:" + std::to_string(std::string(key).size() + 4) + ": tournament." + key +
                             " does not apply to type = \"adaptive\": its games are budget_games, paired round by "
                             "round where the order is still open");
  }
}

TEST(PairsKey, AStageReadsPairsAndItsOldRoundsWithANote) {
  const std::string stages =
      "type = \"staged\"\npairs = 2\nstages = [{ variant = \"pits=4 seeds=3\", pairs = 3 },\n"
      "  { variant = \"pits=5 seeds=3\", rounds = 4 }, { variant = \"pits=6 seeds=4\" }]\n";
  const std::string text = "[tournament]\nname = \"p\"\n" + stages +
                           "[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
                           "[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n";
  const Expected<Config> c = parse_config(text, "p.toml", ".");
  ASSERT_TRUE(c.ok()) << c.error();
  ASSERT_EQ(c->tournament.stages.size(), 3u);
  EXPECT_EQ(c->tournament.stages[0].rounds, 3);
  EXPECT_EQ(c->tournament.stages[1].rounds, 4);
  EXPECT_EQ(c->tournament.stages[2].rounds, 2) << "the tournament's pairs";
  EXPECT_EQ(c->warnings, std::vector<std::string>{"p.toml:6:33: tournament.stages[1].rounds counts game pairs per "
                                                  "pairing here: write pairs = 4 (rounds is read as before)"});

  const std::string both =
      "[tournament]\nname = \"p\"\ntype = \"staged\"\n"
      "stages = [{ variant = \"pits=4 seeds=3\", pairs = 3, rounds = 3 }]\n"
      "[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
      "[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n";
  const Expected<Config> bad = parse_config(both, "p.toml", ".");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(),
            "p.toml:4:61: tournament.stages[0].rounds and tournament.stages[0].pairs both given: rounds is the old "
            "name of pairs here (game pairs per pairing); keep pairs only");
}

TEST(PairsKey, TheSameTournamentWrittenWithRoundsOrPairsHasTheSameFingerprint) {
  for (const KindCase& k : kPairKinds) {
    SCOPED_TRACE(k.kind);
    const Expected<Config> old_key = parse(k.kind, "rounds = 7\n");
    const Expected<Config> new_key = parse(k.kind, "pairs = 7\n");
    ASSERT_TRUE(old_key.ok()) << old_key.error();
    ASSERT_TRUE(new_key.ok()) << new_key.error();
    EXPECT_EQ(fingerprint(*old_key), fingerprint(*new_key));
    EXPECT_NE(fingerprint(*new_key), fingerprint(*parse(k.kind, "pairs = 6\n")));
  }
}

}  // namespace
}  // namespace kalah::arena
