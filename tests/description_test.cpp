// The typed tournament description and its one text pair (arena/config/description.h): the settings of
// tournament.json, key by key, as fixed texts.
#include <gtest/gtest.h>

#include "arena/config/description.h"

namespace kalah::arena {
namespace {

using Settings = std::map<std::string, std::string>;

// A contest round robin as a run writes it, with an engine whose name holds dots and one that has its own clock.
const Settings kRoundRobin = {
    {"type", "round-robin"},
    {"rounds", "2"},
    {"variant", "pits=6 seeds=4 capture=standard ending=side-empty remainder=owner majority=off pie=off"},
    {"variant.start", "4,4,4,4,4,4,0/4,4,4,4,4,4,0 S"},
    {"adjudicate", "draw after 40 plies"},
    {"openings", "none: every game from the start position"},
    {"time", "1000+10 ms"},
    {"time.pgn", "1+0.01"},
    {"seed", "18446744073709551615"},
    {"rating.anchor", "my.bot"},
    {"rating.anchor_elo", "1500.5"},
    {"ranking.by", "points"},
    {"ranking.tiebreaks", "head-to-head,wins"},
    {"ranking.points", "win=3 draw=1 loss=0"},
    {"engine.my.bot.command", "./my.bot --fast"},
    {"engine.my.bot.options", "Depth=3"},
    {"engine.my.bot.time", "2000+20 ms"},
    {"engine.my.bot.time.pgn", "2+0.02"},
    {"engine.my.bot.executable", "/bots/my.bot"},
    {"engine.my.bot.sha256", "ab12"},
    {"engine.my.bot.files", "file a.py"},
    {"engine.my.bot.files_sha256", "cd34"},
    {"engine.my.bot.dir", "tree bots"},
    {"engine.my.bot.dir_sha256", "ef56"},
    {"engine.random.command", "kalah-random"},
    {"contest", "submissions; withdrawn games kept, disqualified games void"},
    {"entry.my.bot.gate", "passed"},
    {"entry.random.status", "disqualified"},
    {"entry.random.reason", "copied code"},
    {"entry.random.games", "void"},
    {"contest.not_entered.late", "late (did not build)"},
    {"run.arena_version", "v1.2"},
    {"run.machine", "8 cores"},
    {"run.concurrency", "2"},
    {"run.engine.my.bot.id", "MyBot 1"},
    {"run.engine.my.bot.limits", ""},
    {"run.engine.random.limits", "sandbox=bwrap"},
};

TEST(Description, ReadsEveryKeyOfARoundRobinIntoItsMember) {
  const Expected<TournamentDescription> d = description_from_settings(kRoundRobin);
  ASSERT_TRUE(d) << d.error();
  EXPECT_EQ(d->type, TournamentType::RoundRobin);
  EXPECT_FALSE(d->sprt_match);
  EXPECT_EQ(d->rounds, 2);
  EXPECT_EQ(d->seed, 18446744073709551615ull);
  EXPECT_EQ(d->start, "4,4,4,4,4,4,0/4,4,4,4,4,4,0 S");
  EXPECT_EQ(d->time_pgn, "1+0.01");
  ASSERT_TRUE(d->anchor);
  EXPECT_EQ(d->anchor->engine, "my.bot");
  EXPECT_EQ(d->anchor->elo, 1500.5);
  ASSERT_TRUE(d->ranking);
  EXPECT_EQ(d->ranking->by, rating::RankBy::Points);
  EXPECT_EQ(d->ranking->tiebreaks, (std::vector{rating::TieBreak::HeadToHead, rating::TieBreak::Wins}));
  EXPECT_EQ(d->ranking->points.win, 3);
  ASSERT_EQ(d->engines.size(), 2u);
  const EngineDescription& mine = d->engine("my.bot");
  EXPECT_EQ(mine.command, "./my.bot --fast");
  EXPECT_EQ(mine.time, "2000+20 ms");
  EXPECT_EQ(mine.time_pgn, "2+0.02");
  EXPECT_EQ(mine.digests.dir_sha256, "ef56");
  EXPECT_EQ(mine.id, "MyBot 1");
  EXPECT_EQ(mine.limits, "") << "recorded empty, not missing";
  EXPECT_FALSE(d->engine("random").options);
  EXPECT_FALSE(d->engine("nobody").command);
  EXPECT_EQ(d->entries.at("my.bot").gate, "passed");
  EXPECT_FALSE(d->entries.at("my.bot").status);
  EXPECT_EQ(d->entries.at("random").status, EntryStatus::Disqualified);
  EXPECT_EQ(d->entries.at("random").games_kept, false);
  EXPECT_EQ(d->not_entered, (Settings{{"late", "late (did not build)"}}));
  EXPECT_EQ(d->concurrency, "2");
  EXPECT_TRUE(d->extra.empty());

  const rating::RankingSetup setup = d->ranking_setup();
  EXPECT_EQ(setup.rules, *d->ranking);
  ASSERT_EQ(setup.entries.size(), 1u) << "a gate alone is no standing";
  EXPECT_TRUE(setup.entries.at("random").games_void);
  EXPECT_EQ(setup.entries.at("random").reason, "copied code");
}

TEST(Description, RoundTripsToTheSameText) {
  const Expected<TournamentDescription> d = description_from_settings(kRoundRobin);
  ASSERT_TRUE(d) << d.error();
  EXPECT_EQ(to_settings(*d), kRoundRobin);
}

TEST(Description, WritesAGitSprtAsFixedText) {
  TournamentDescription d;
  d.sprt_match = true;
  d.sprt_summary = "H0: nElo <= 0, H1: nElo >= 5";
  d.sprt =
      SprtDescription{{.elo0 = 0, .elo1 = 2.5, .alpha = 0.05, .beta = 0.1, .model = stats::Model::Normalized}, 20000};
  d.git = GitDescription{"/src/bot", "make", "./bot", {"main", "aaaa", 12.3456}, {"HEAD", "bbbb", 0}};
  d.engines["base"].bench = 123456;
  const Settings expected = {
      {"type", "sprt"},
      {"sprt", "H0: nElo <= 0, H1: nElo >= 5"},
      {"sprt.elo0", "0"},
      {"sprt.elo1", "2.5"},
      {"sprt.alpha", "0.05"},
      {"sprt.beta", "0.1"},
      {"sprt.model", "normalized"},
      {"sprt.max_pairs", "20000"},
      {"git.repo", "/src/bot"},
      {"git.build", "make"},
      {"git.run", "./bot"},
      {"git.base.ref", "main"},
      {"git.base.commit", "aaaa"},
      {"git.base.build_seconds", "12.346"},
      {"git.test.ref", "HEAD"},
      {"git.test.commit", "bbbb"},
      {"git.test.build_seconds", "0.000"},
      {"engine.base.bench", "123456"},
  };
  EXPECT_EQ(to_settings(d), expected);
  const Expected<TournamentDescription> back = description_from_settings(expected);
  ASSERT_TRUE(back) << back.error();
  EXPECT_TRUE(back->sprt_match);
  EXPECT_FALSE(back->type);
  EXPECT_EQ(back->sprt, d.sprt);
  EXPECT_EQ(back->git->base.build_seconds, 12.346);
  EXPECT_EQ(back->engine("base").bench, 123456);
  EXPECT_EQ(to_settings(*back), expected);
}

TEST(Description, KeepsKeysItDoesNotKnow) {
  const Settings settings = {{"type", "knockout"},    {"rounds", "1"},     {"tiebreak_pairs", "3"},
                             {"future.key", "x"},     {"run.future", "y"}, {"engine.a.colour", "blue"},
                             {"entry.a.mood", "calm"}};
  const Expected<TournamentDescription> d = description_from_settings(settings);
  ASSERT_TRUE(d) << d.error();
  EXPECT_EQ(d->tiebreak_pairs, 3);
  EXPECT_TRUE(d->plays_by_rounds());
  EXPECT_EQ(
      d->extra,
      (Settings{{"future.key", "x"}, {"run.future", "y"}, {"engine.a.colour", "blue"}, {"entry.a.mood", "calm"}}));
  EXPECT_EQ(to_settings(*d), settings);
}

TEST(Description, RefusesAMalformedValueNamingItsKey) {
  auto error = [](Settings s) {
    const Expected<TournamentDescription> d = description_from_settings(s);
    return d ? std::string("(read)") : d.error();
  };
  EXPECT_EQ(error({{"rounds", "two"}}), "rounds: 'two' is not a whole number");
  EXPECT_EQ(error({{"type", "league"}}), "type: 'league' is not a tournament type");
  EXPECT_EQ(error({{"seed", "-1"}}), "seed: '-1' is not a seed");
  EXPECT_EQ(error({{"entry.x.status", "gone"}}), "entry.x.status: 'gone' is not \"withdrawn\" or \"disqualified\"");
  EXPECT_EQ(error({{"entry.x.games", "lost"}}), "entry.x.games: 'lost' is not \"kept\" or \"void\"");
  EXPECT_EQ(error({{"engine.x.bench", "many"}}), "engine.x.bench: 'many' is not a count of nodes");
  EXPECT_EQ(error({{"ranking.by", "luck"}}), "ranking.by: 'luck' is not \"points\" or \"elo\"");
  EXPECT_EQ(error({{"ranking.tiebreaks", "wins,coin"}}),
            "ranking.tiebreaks: unknown tie-break 'coin' (known: " + rating::tiebreak_names() + ")");
  EXPECT_EQ(error({{"ranking.tiebreaks", "wins,wins"}}), "ranking.tiebreaks: 'wins' is listed twice");
  EXPECT_EQ(error({{"ranking.points", "win=3 tie=1"}}), "ranking.points: 'win=3 tie=1' is not \"win=W draw=D loss=L\"");
  EXPECT_EQ(error({{"ranking.points", "win=1 draw=2"}}),
            "ranking.points: 'win=1 draw=2': a win must be worth more than a loss, and a draw between the two "
            "(loss <= draw <= win)");
  EXPECT_EQ(error({{"rating.anchor", "a"}}),
            "rating.anchor_elo is missing (the other rating.anchor settings are there)");
  EXPECT_EQ(error({{"rating.anchor", "a"}, {"rating.anchor_elo", "high"}}),
            "rating.anchor_elo: 'high' is not a number");
  Settings sprt = {{"sprt.elo0", "0"},    {"sprt.elo1", "5"},      {"sprt.alpha", "0.05"},
                   {"sprt.beta", "0.05"}, {"sprt.model", "bayes"}, {"sprt.max_pairs", "10"}};
  EXPECT_EQ(error(sprt), "sprt.model: 'bayes' is not \"logistic\" or \"normalized\"");
  sprt.erase("sprt.beta");
  EXPECT_EQ(error(sprt), "sprt.beta is missing (the other sprt.elo0 settings are there)");
}

TEST(Description, ThePointsRuleRoundTripsExactly) {
  TournamentDescription d;
  d.ranking = rating::RankingRules{
      .by = rating::RankBy::Points, .tiebreaks = {}, .points = {2.0 / 3.0, 1.0 / 3.0, -0.125}, .cuts = {}};
  const Expected<TournamentDescription> back = description_from_settings(to_settings(d));
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->ranking, d.ranking);
}

TEST(Description, ReadsAnOlderFileWithoutRankingByElo) {
  const Expected<TournamentDescription> d = description_from_settings({{"type", "gauntlet"}});
  ASSERT_TRUE(d) << d.error();
  EXPECT_FALSE(d->ranking);
  EXPECT_EQ(d->ranking_setup().rules, rating::RankingRules{});
  EXPECT_EQ(to_settings(*d), (Settings{{"type", "gauntlet"}}));
}

}  // namespace
}  // namespace kalah::arena
