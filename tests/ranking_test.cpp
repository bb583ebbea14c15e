// Ranking by a contest's rules (arena/rating/ranking.h, docs/RANKING.md): drawn-up game sets whose
// points and tie-break values were worked out by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>
#include <boost/json/serialize.hpp>

#include "arena/rating/ranking.h"
#include "arena/rating/standings.h"
#include "arena/report/ranking_report.h"
#include "arena/report/reporters.h"

namespace kalah::rating {
namespace {

// A finished game: `result` "1-0" (South won), "0-1" or "1/2"; the stores as the board holds them.
GameRecord game(const std::string& south, const std::string& north, const std::string& result, int store_south = 24,
                int store_north = 24) {
  GameRecord g;
  g.id = south + "-" + north;
  g.south = south;
  g.north = north;
  g.variant = kalah::Variant{};
  g.result = result == "1-0" ? Outcome::FirstWins : result == "0-1" ? Outcome::SecondWins : Outcome::Draw;
  g.store_south = store_south;
  g.store_north = store_north;
  return g;
}

RankingRules points_rules(std::vector<TieBreak> tiebreaks, PointsRule points = {}) {
  return {.by = RankBy::Points, .tiebreaks = std::move(tiebreaks), .points = points};
}

Ranking rank(const std::vector<GameRecord>& games, const RankingRules& rules, const Entries& entries = {}) {
  RankingTally tally(rules, entries);
  for (const GameRecord& g : games) tally.add(g);
  std::vector<std::string> names;
  for (const GameRecord& g : games)
    for (const std::string& name : {g.south, g.north})
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  return tally.ranking(names);
}

std::vector<std::string> order(const Ranking& r) {
  std::vector<std::string> out;
  for (const RankingRow& row : r.rows) out.push_back(row.name + " " + row.rank_text());
  return out;
}

const RankingRow& row(const Ranking& r, const std::string& name) {
  for (const RankingRow& x : r.rows)
    if (x.name == name) return x;
  throw std::runtime_error("no row " + name);
}

// A round robin of five, one game per pairing; totals d 2.5, a 2, b 2, c 2, e 1.5.
//        a    b    c    d    e
//   a    ·    1    1    0    0
//   b    0    ·   1/2   1   1/2
//   c    0   1/2   ·   1/2   1
//   d    1    0   1/2   ·    1
//   e    1   1/2   0    0    ·
std::vector<GameRecord> five() {
  return {game("a", "b", "1-0"), game("a", "c", "1-0"), game("b", "c", "1/2"), game("a", "d", "0-1"),
          game("a", "e", "0-1"), game("b", "d", "1-0"), game("b", "e", "1/2"), game("c", "d", "1/2"),
          game("c", "e", "1-0"), game("d", "e", "1-0")};
}

TEST(Ranking, ThreeWayTieBrokenByHeadToHeadThenSonnebornBerger) {
  const Ranking r = rank(five(), points_rules({TieBreak::HeadToHead, TieBreak::SonnebornBerger}));
  EXPECT_EQ(order(r), (std::vector<std::string>{"d 1", "a 2", "b 3", "c 4", "e 5"}));
  // Head-to-head among a, b and c: a beat both (2), b and c drew each other (1/2 each). Sonneborn-Berger
  // splits b and c: b 0*2 + 1/2*2 + 1*2.5 + 1/2*1.5 = 4.25, c 0*2 + 1/2*2 + 1/2*2.5 + 1*1.5 = 3.75.
  ASSERT_EQ(r.ties.size(), 2u);
  EXPECT_EQ(r.ties[0].describe(), "a, b and c tied on 2 points: head-to-head 2 vs 0.5 vs 0.5");
  EXPECT_EQ(r.ties[1].describe(),
            "b and c tied on 2 points (level on head-to-head 0.5): sonneborn-berger 4.25 vs 3.75");
  EXPECT_EQ(row(r, "a").tiebreaks[0], 2.0);
  EXPECT_EQ(row(r, "b").tiebreaks[0], 0.5);
  EXPECT_FALSE(row(r, "d").tiebreaks[0]);  // not tied: head-to-head was never applied to d
  EXPECT_EQ(row(r, "a").tiebreaks[1], 4.0);
  EXPECT_EQ(row(r, "b").tiebreaks[1], 4.25);
  EXPECT_EQ(row(r, "c").tiebreaks[1], 3.75);
  EXPECT_EQ(row(r, "d").tiebreaks[1], 4.5);  // 1*2 + 0 + 1/2*2 + 1*1.5
  EXPECT_EQ(row(r, "e").tiebreaks[1], 3.0);  // 1*2 + 1/2*2
  EXPECT_EQ(row(r, "b").points, 2.0);
  EXPECT_EQ(row(r, "b").wins, 1);
  EXPECT_EQ(row(r, "b").draws, 2);
  EXPECT_EQ(row(r, "b").losses, 1);
}

TEST(Ranking, BuchholzCannotSplitARoundRobinTieSoTheNextTieBreakDoes) {
  // Everyone met everyone once: each tied engine's opponents scored 10 - 2 = 8 in all.
  const Ranking r = rank(five(), points_rules({TieBreak::Buchholz, TieBreak::SonnebornBerger}));
  EXPECT_EQ(order(r), (std::vector<std::string>{"d 1", "b 2", "a 3", "c 4", "e 5"}));
  ASSERT_EQ(r.ties.size(), 1u);
  EXPECT_EQ(r.ties[0].describe(),
            "b, a and c tied on 2 points (level on buchholz 8): sonneborn-berger 4.25 vs 4 vs 3.75");
  EXPECT_EQ(row(r, "d").tiebreaks[0], 7.5);
  EXPECT_EQ(row(r, "e").tiebreaks[0], 8.5);
}

TEST(Ranking, ATieNothingSeparatesSharesItsRank) {
  const std::vector<GameRecord> games = {game("a", "b", "1-0"), game("b", "a", "1-0"), game("a", "c", "1-0"),
                                         game("c", "b", "0-1")};
  const Ranking r = rank(games, points_rules({TieBreak::HeadToHead, TieBreak::Wins}));
  EXPECT_EQ(order(r), (std::vector<std::string>{"a 1=", "b 1=", "c 3"}));
  ASSERT_EQ(r.ties.size(), 1u);
  EXPECT_EQ(r.ties[0].describe(),
            "a and b tied on 2 points (level on head-to-head 1, wins 2): no declared tie-break separates them, they "
            "share rank 1");
  EXPECT_TRUE(r.rows[0].shared);
  EXPECT_FALSE(r.rows[2].shared);
}

TEST(Ranking, WithoutTieBreaksATieIsShared) {
  const Ranking r = rank({game("a", "b", "1/2")}, points_rules({}));
  EXPECT_EQ(order(r), (std::vector<std::string>{"a 1=", "b 1="}));
  ASSERT_EQ(r.ties.size(), 1u);
  EXPECT_EQ(r.ties[0].describe(),
            "a and b tied on 0.5 points: no declared tie-break separates them, they share rank 1");
}

TEST(Ranking, ThreeOneZeroPointsWinsByForfeitAndSeedDifference) {
  GameRecord forfeit = game("z", "x", "1-0", 10, 12);  // x crashed while 2 seeds ahead: the stores as recorded
  forfeit.termination = Termination::Crash;
  forfeit.forfeit = Forfeit{"x", Termination::Crash, "exited with code 3"};
  const std::vector<GameRecord> games = {game("x", "y", "1-0", 30, 18), game("y", "z", "1/2"), forfeit};
  const Ranking r = rank(games, points_rules({TieBreak::Wins, TieBreak::SeedDifference}, {3, 1, 0}));
  EXPECT_EQ(order(r), (std::vector<std::string>{"z 1", "x 2", "y 3"}));
  EXPECT_EQ(row(r, "z").points, 4.0);  // a draw and a win by forfeit
  EXPECT_EQ(row(r, "x").points, 3.0);
  EXPECT_EQ(row(r, "y").points, 1.0);
  EXPECT_EQ(row(r, "z").tiebreaks[0], 1.0);  // the forfeit counts as a win
  EXPECT_EQ(row(r, "z").tiebreaks[1], -2.0);
  EXPECT_EQ(row(r, "x").tiebreaks[1], 14.0);  // +12 and +2
  EXPECT_EQ(row(r, "y").tiebreaks[1], -12.0);
  EXPECT_TRUE(r.ties.empty());
}

TEST(Ranking, ThreeOneZeroChangesTheOrder) {
  // p: two draws (1 point, 2 under 3/1/0); q: a win and a loss (1 point, 3 under 3/1/0).
  const std::vector<GameRecord> games = {game("p", "r", "1/2"), game("s", "p", "1/2"), game("q", "r", "1-0"),
                                         game("s", "q", "1-0")};
  EXPECT_EQ(order(rank(games, points_rules({}, {3, 1, 0})))[0], "s 1");
  const Ranking r = rank(games, points_rules({}, {3, 1, 0}));
  EXPECT_EQ(row(r, "q").rank, 2);
  EXPECT_EQ(row(r, "p").rank, 3);
  EXPECT_EQ(row(r, "q").points, 3.0);
  EXPECT_EQ(row(r, "p").points, 2.0);
}

TEST(Ranking, SeedDifferenceFollowsThePieSwap) {
  GameRecord swapped = game("p", "q", "1-0", 10, 38);  // p swapped to North and owns the North store
  swapped.swapped = true;
  const Ranking r = rank({swapped}, points_rules({TieBreak::SeedDifference}));
  EXPECT_EQ(row(r, "p").tiebreaks[0], 28.0);
  EXPECT_EQ(row(r, "q").tiebreaks[0], -28.0);
}

TEST(Ranking, HeadToHeadIsSkippedWhenNotAllTiedEnginesMet) {
  // A gauntlet: b and c each played g twice and never each other.
  const std::vector<GameRecord> games = {game("g", "b", "0-1"), game("b", "g", "0-1"), game("g", "c", "1/2"),
                                         game("c", "g", "1/2")};
  const Ranking r = rank(games, points_rules({TieBreak::HeadToHead, TieBreak::Wins}));
  EXPECT_EQ(order(r), (std::vector<std::string>{"g 1", "b 2", "c 3"}));
  ASSERT_EQ(r.ties.size(), 1u);
  EXPECT_EQ(r.ties[0].describe(),
            "b and c tied on 1 point (head-to-head not applied: not all of them met): wins 1 vs 0");
  EXPECT_FALSE(row(r, "b").tiebreaks[0]);
}

TEST(Ranking, VoidedGamesCountForNothingAndExcludedEntrantsComeLastUnranked) {
  const std::vector<GameRecord> games = {game("a", "v", "1-0"), game("v", "b", "1-0"), game("a", "b", "1/2"),
                                         game("w", "a", "1-0"), game("b", "w", "0-1")};
  const Entries entries = {{"v", {EntryStatus::Disqualified, "copied code", true}},
                           {"w", {EntryStatus::Withdrawn, "left the course", false}}};
  const Ranking r = rank(games, points_rules({TieBreak::SonnebornBerger}), entries);
  EXPECT_EQ(r.voided, 2);
  // Counted: a-b draw, w beat a and b. w has the most points but is withdrawn: its games count for
  // its opponents, it is not ranked.
  EXPECT_EQ(order(r), (std::vector<std::string>{"a 1=", "b 1=", "w -", "v -"}));
  EXPECT_EQ(row(r, "a").points, 0.5);
  EXPECT_EQ(row(r, "a").games, 2);
  EXPECT_EQ(row(r, "v").games, 0);
  EXPECT_EQ(row(r, "w").points, 2.0);
  EXPECT_EQ(row(r, "v").status, EntryStatus::Disqualified);
  EXPECT_EQ(row(r, "v").reason, "copied code");
  // a: 1/2 * 0.5 (b) + 0 * 2 (w) = 0.25, and b the same.
  EXPECT_EQ(row(r, "a").tiebreaks[0], 0.25);
  ASSERT_EQ(r.ties.size(), 1u);
  EXPECT_EQ(r.ties[0].describe(),
            "a and b tied on 0.5 points (level on sonneborn-berger 0.25): no declared tie-break separates them, they "
            "share rank 1");
}

TEST(Ranking, SettingsRoundTrip) {
  const RankingRules rules = points_rules({TieBreak::SeedDifference, TieBreak::HeadToHead}, {3, 1, 0});
  std::map<std::string, std::string> settings = ranking_settings(rules);
  EXPECT_EQ(settings.at("ranking.by"), "points");
  EXPECT_EQ(settings.at("ranking.tiebreaks"), "seed-difference,head-to-head");
  EXPECT_EQ(settings.at("ranking.points"), "win=3 draw=1 loss=0");
  settings["entry.my.bot.status"] = "disqualified";
  settings["entry.my.bot.reason"] = "hung the machine";
  settings["entry.my.bot.games"] = "void";
  const Expected<RankingSetup> back = ranking_from_settings(settings);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->rules, rules);
  ASSERT_EQ(back->entries.count("my.bot"), 1u);
  EXPECT_EQ(back->entries.at("my.bot").status, EntryStatus::Disqualified);
  EXPECT_EQ(back->entries.at("my.bot").reason, "hung the machine");
  EXPECT_TRUE(back->entries.at("my.bot").games_void);
}

TEST(Ranking, ThePointsRuleRoundTripsExactly) {
  const RankingRules rules = points_rules({}, {2.0 / 3.0, 1.0 / 3.0, -0.125});
  const Expected<RankingSetup> back = ranking_from_settings(ranking_settings(rules));
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->rules.points, rules.points);
}

TEST(Ranking, NoSettingsMeanByElo) {
  const Expected<RankingSetup> setup = ranking_from_settings({{"type", "round-robin"}});
  ASSERT_TRUE(setup);
  EXPECT_EQ(setup->rules, RankingRules{});
}

TEST(Ranking, BadSettingsAreNamed) {
  auto error = [](std::map<std::string, std::string> s) { return ranking_from_settings(s).error(); };
  EXPECT_EQ(error({{"ranking.by", "rating"}}), "ranking.by: 'rating' is not \"points\" or \"elo\"");
  EXPECT_EQ(error({{"ranking.tiebreaks", "wins,median"}}),
            "ranking.tiebreaks: unknown tie-break 'median' (known: head-to-head, sonneborn-berger, buchholz, wins, "
            "seed-difference)");
  EXPECT_EQ(error({{"ranking.tiebreaks", "wins,wins"}}), "ranking.tiebreaks: 'wins' is listed twice");
  EXPECT_EQ(error({{"ranking.points", "win=3 tie=1"}}), "ranking.points: 'win=3 tie=1' is not \"win=W draw=D loss=L\"");
  EXPECT_EQ(error({{"ranking.points", "win=0 draw=1 loss=0"}}),
            "ranking.points: 'win=0 draw=1 loss=0': a win must be worth more than a loss, and a draw between the two "
            "(loss <= draw <= win)");
  EXPECT_EQ(error({{"entry.x.games", "gone"}}), "entry.x.games: 'gone' is not \"kept\" or \"void\"");
}

TEST(Ranking, StandingsCarryTheRankingWithElo) {
  StandingsBuilder builder({"a", "b", "c", "d", "e"});
  builder.set_ranking({points_rules({TieBreak::HeadToHead}), {}});
  for (const GameRecord& g : five()) builder.add(g);
  const Standings s = builder.standings();
  ASSERT_TRUE(s.ranking);
  EXPECT_EQ(s.ranking->rows.front().name, "d");
  EXPECT_EQ(builder.points(3), 2.5);  // the progress line's leader: d
  for (const RankingRow& r : s.ranking->rows)
    for (const EngineStanding& e : s.engines)
      if (e.name == r.name) {
        EXPECT_EQ(r.elo, e.elo);
      }
  StandingsBuilder by_elo({"a", "b"});
  by_elo.set_ranking({});
  by_elo.add(game("a", "b", "1-0"));
  EXPECT_FALSE(by_elo.standings().ranking);
}

TEST(Ranking, EveryTableFollowsTheRankingNotASecondEloOrder) {
  // a beat c four times; b beat a once. Points: a 4, b 1, c 0; the Elo fit puts b above a (it never lost).
  std::vector<GameRecord> games = {game("a", "c", "1-0"), game("c", "a", "0-1"), game("a", "c", "1-0"),
                                   game("c", "a", "0-1"), game("b", "a", "1-0")};
  for (std::size_t i = 0; i < games.size(); ++i) games[i].id = "g" + std::to_string(i);
  StandingsBuilder by_elo({"a", "b", "c"});
  for (const GameRecord& g : games) by_elo.add(g);
  const Standings elo = by_elo.standings();
  ASSERT_EQ(elo.engines.size(), 3u);
  ASSERT_EQ(elo.engines[0].name, "b") << "the fit's order differs from the points' here, or the test shows nothing";

  StandingsBuilder builder({"a", "b", "c"});
  builder.set_ranking({points_rules({}), {}});
  for (const GameRecord& g : games) builder.add(g);
  const Standings s = builder.standings();
  ASSERT_TRUE(s.ranking);
  EXPECT_EQ(order(*s.ranking), (std::vector<std::string>{"a 1", "b 2", "c 3"}));
  std::vector<std::string> rating_list;
  for (const EngineStanding& e : s.engines) rating_list.push_back(e.name + " " + std::to_string(e.rank));
  EXPECT_EQ(rating_list, (std::vector<std::string>{"a 1", "b 2", "c 3"}));
  // Elo stays a column: b's is still above a's, and "next" is the next engine of the ranking.
  EXPECT_GT(s.engines[1].elo, s.engines[0].elo);
  ASSERT_TRUE(s.engines[0].diff_next);
  EXPECT_DOUBLE_EQ(*s.engines[0].diff_next, s.engines[0].elo - s.engines[1].elo);
  // The crosstable's rows and columns too: a's row, c's column holds a's 4 wins.
  EXPECT_EQ(s.crosstable[0][2].wins, 4);
  EXPECT_EQ(s.crosstable[1][0].wins, 1);
}

TEST(RankingReports, EveryFormatShowsTheRankingTheTiesTheUnrankedAndTheVoided) {
  std::map<std::string, std::string> settings = ranking_settings(points_rules({TieBreak::SonnebornBerger}));
  settings["entry.v.status"] = "disqualified";
  settings["entry.v.reason"] = "copied code";
  settings["entry.v.games"] = "void";
  settings["entry.w.status"] = "withdrawn";
  const Expected<RankingSetup> setup = ranking_from_settings(settings);
  ASSERT_TRUE(setup) << setup.error();
  StandingsBuilder builder({"a", "b", "v", "w"});
  builder.set_ranking(*setup);
  for (const GameRecord& g : {game("a", "v", "1-0"), game("v", "b", "1-0"), game("a", "b", "1/2"),
                              game("w", "a", "1-0"), game("b", "w", "0-1")})
    builder.add(g);
  const Standings s = builder.standings();
  ASSERT_TRUE(s.ranking);
  const std::vector<std::string> notes = {
      "a and b tied on 0.5 points (level on sonneborn-berger 0.25): no declared tie-break separates them, they "
      "share rank 1",
      "w is withdrawn: not ranked", "v is disqualified (copied code): not ranked",
      "2 games voided: they count for nothing (an entrant's games are void)"};
  EXPECT_EQ(report::ranking_notes(*s.ranking), notes);

  const std::string table = report::format_standings_table(s);
  EXPECT_EQ(table.substr(0, table.find('\n')),
            "Rank  Engine  Points  sonneborn-berger     W-D-L  Games      Elo      +-");
  EXPECT_NE(table.find("\n  1=  a          0.5              0.25     0-1-1      2"), std::string::npos) << table;
  EXPECT_NE(table.find("\n   -  v            0                 0     0-0-0      0"), std::string::npos) << table;
  EXPECT_NE(table.find("\nw is withdrawn: not ranked\n"), std::string::npos) << table;

  const std::string md = report::standings_markdown(s, "t");
  EXPECT_NE(md.find("| Rank | Engine | Points | sonneborn-berger | W-D-L | Games | Elo | ± |\n"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| - | w | 2 | 1 | 2-0-0 | 2 |"), std::string::npos) << md;
  EXPECT_NE(md.find("- v is disqualified (copied code): not ranked\n"), std::string::npos) << md;
  EXPECT_LT(md.find("## Ranking"), md.find("## Rating list"));

  const std::string csv = report::standings_csv(s);
  EXPECT_NE(csv.find("\n1,1,a,0.5,0.25,0,1,1,2,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",disqualified,copied code\n"), std::string::npos) << csv;

  const std::string json = boost::json::serialize(report::ranking_json(*s.ranking));
  EXPECT_NE(json.find("\"voided_games\":2"), std::string::npos) << json;
  EXPECT_NE(json.find("\"rank\":null,\"rank_text\":\"-\""), std::string::npos) << json;
  EXPECT_NE(report::standings_json(s, "t").find("\"ranking\""), std::string::npos);
  EXPECT_NE(report::report_html(s, {}, "t").find("<li>v is disqualified (copied code): not ranked</li>"),
            std::string::npos);
}

TEST(Ranking, VoidedGamesAreLeftOutOfTheEloStandingsToo) {
  for (const RankBy by : {RankBy::Elo, RankBy::Points}) {
    StandingsBuilder builder({"a", "b", "v"});
    builder.set_ranking({{.by = by, .tiebreaks = {}, .points = {}}, {{"v", {EntryStatus::Disqualified, "", true}}}});
    for (const GameRecord& g : {game("a", "v", "0-1"), game("v", "b", "1-0"), game("a", "b", "1-0")}) builder.add(g);
    const Standings s = builder.standings();
    EXPECT_EQ(s.games, 1);
    EXPECT_EQ(s.voided, 2);
    EXPECT_EQ(builder.games(), 3);
    for (const EngineStanding& e : s.engines) EXPECT_EQ(e.games, e.name == "v" ? 0 : 1) << e.name;
    const std::string json = report::standings_json(s, "t");
    EXPECT_NE(json.find("\"voided_games\": 2"), std::string::npos) << json;
  }
}

TEST(RankingReports, ByEloTheReportsHaveNoRanking) {
  StandingsBuilder builder({"a", "b"});
  builder.set_ranking({});
  builder.add(game("a", "b", "1-0"));
  const Standings s = builder.standings();
  EXPECT_EQ(report::standings_json(s, "t").find("\"ranking\""), std::string::npos);
  EXPECT_EQ(report::standings_markdown(s, "t").find("## Ranking"), std::string::npos);
  EXPECT_EQ(report::standings_csv(s).rfind("rank,name,elo,", 0), 0u);
}

}  // namespace
}  // namespace kalah::rating
