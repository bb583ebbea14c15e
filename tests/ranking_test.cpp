// Ranking by a contest's rules (arena/rating/ranking.h, docs/RANKING.md): drawn-up game sets whose
// points and tie-break values were worked out by hand.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "arena/config/description.h"
#include "arena/rating/ranking.h"
#include "arena/rating/standings.h"
#include "arena/report/form_report.h"
#include "arena/report/ranking_report.h"
#include "arena/report/reporters.h"
#include "arena/report/reports.h"
#include "arena/report/text_util.h"
#include "referee/record/record_json.h"
#include "referee/system/temp_folder.h"
#include "tests/support/text_match.h"

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

// The tournament's description as tournament.json's settings `s` give it.
arena::TournamentDescription described(const std::map<std::string, std::string>& s) {
  Expected<arena::TournamentDescription> d = arena::description_from_settings(s);
  EXPECT_TRUE(d) << d.error();
  return d ? *d : arena::TournamentDescription{};
}

RankingRules points_rules(std::vector<TieBreak> tiebreaks, PointsRule points = {}) {
  return {.by = RankBy::Points, .tiebreaks = std::move(tiebreaks), .points = points, .cuts = {}};
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

// Ordered by Elo (a season's ladder), a withdrawn entrant (a superseded revision) keeps its games, for its opponents
// and in its row, but is listed after the active ones, unranked, with its status; a disqualified one likewise.
TEST(Ranking, AnOrderByEloListsWithdrawnEntrantsLastAndUnranked) {
  // w beats everyone and would lead the fit.
  std::vector<GameRecord> games = {game("w", "a", "1-0"), game("a", "w", "0-1"), game("w", "b", "1-0"),
                                   game("a", "b", "1-0"), game("b", "a", "0-1"), game("d", "b", "1-0")};
  for (std::size_t i = 0; i < games.size(); ++i) games[i].id = "g" + std::to_string(i);
  StandingsBuilder builder({"a", "b", "w", "d"});
  builder.set_ranking({{},
                       {{"w", {EntryStatus::Withdrawn, "superseded by w2", false}},
                        {"d", {EntryStatus::Disqualified, "copied code", false}}}});
  for (const GameRecord& g : games) builder.add(g);
  const Standings s = builder.standings();
  EXPECT_FALSE(s.ranking);
  std::vector<std::string> rows;
  for (const EngineStanding& e : s.engines)
    rows.push_back(e.name + " " + std::to_string(e.rank) + " " + to_string(e.status));
  EXPECT_EQ(rows, (std::vector<std::string>{"a 1 active", "b 2 active", "w 0 withdrawn", "d 0 disqualified"}));
  EXPECT_EQ(s.engines[2].games, 3);  // its games stay
  EXPECT_EQ(s.games, 6);
  // Without statuses the same games rank w first.
  StandingsBuilder plain({"a", "b", "w", "d"});
  for (const GameRecord& g : games) plain.add(g);
  EXPECT_EQ(plain.standings().engines.front().name, "w");
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

// ---- A Swiss or knockout tournament's own order in every table (docs/SCHEDULE.md)

// A game of a Swiss or knockout tournament, by its id.
GameRecord played(const std::string& id, const std::string& south, const std::string& north,
                  const std::string& result) {
  GameRecord g = game(south, north, result);
  g.id = id;
  return g;
}

// The engines as one table lists them, best first: "name rank points".
using Listing = std::vector<std::string>;
std::string listed(const std::string& name, const std::string& rank, double points) {
  return name + " " + rank + " " + report::fixed(points, 1);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> split(const std::string& text, const std::string& by) {
  std::vector<std::string> parts;
  for (std::size_t from = 0;;) {
    const std::size_t at = text.find(by, from);
    parts.push_back(text.substr(from, at - from));
    if (at == std::string::npos) return parts;
    from = at + by.size();
  }
}

// The terminal table: "Rank  Engine  Elo  +-  Games  Points ...", one engine a line ("-" for the Elo of one
// without games).
Listing terminal_listing(const std::string& table) {
  Listing out;
  const std::vector<std::string> lines = lines_of(table);
  for (std::size_t i = 1; i < lines.size() && test::search(lines[i], "^ *[0-9]+=? +\\S+ +([-+]?[0-9]|- )"); ++i) {
    std::istringstream words(lines[i]);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    out.push_back(listed(w[1], w[0], std::stod(w[5])));
  }
  return out;
}

// standings.md's rating list (after the form's own section) and the crosstable's column heads.
Listing markdown_listing(const std::string& md, std::vector<std::string>& crosstable_columns) {
  Listing out;
  const std::vector<std::string> lines = lines_of(md.substr(md.find("| Rank | Engine | Elo |")));
  for (std::size_t i = 2; i < lines.size() && lines[i].starts_with("| "); ++i) {
    const std::vector<std::string> cells = split(lines[i].substr(2, lines[i].size() - 4), " | ");
    out.push_back(listed(cells[1], cells[0], std::stod(cells[5])));
  }
  const std::string cross = md.substr(md.find("## Crosstable"));
  const std::string head = lines_of(cross.substr(cross.find("|  |")))[0];
  crosstable_columns = split(head.substr(5, head.size() - 7), " | ");
  return out;
}

// standings.csv: a shared rank is the same number on several rows.
Listing csv_listing(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::map<std::string, int> holders;
  const std::vector<std::string> lines = lines_of(csv);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    rows.push_back(split(lines[i], ","));
    ++holders[rows.back()[0]];
  }
  Listing out;
  for (const std::vector<std::string>& cells : rows)
    out.push_back(listed(cells[1], cells[0] + (holders[cells[0]] > 1 ? "=" : ""), std::stod(cells[5])));
  return out;
}

// standings.json's engines (rank, "=" when shared), and its crosstable's rows.
Listing json_listing(const std::string& text, std::vector<std::string>& crosstable_rows) {
  Listing out;
  const boost::json::object root = boost::json::parse(text).as_object();
  for (const boost::json::value& v : root.at("engines").as_array()) {
    const boost::json::object& e = v.as_object();
    const bool shared = e.at("rank_shared").as_bool();
    out.push_back(listed(std::string(e.at("name").as_string()),
                         std::to_string(e.at("rank").as_int64()) + (shared ? "=" : ""),
                         e.at("points").to_number<double>()));
  }
  crosstable_rows.clear();
  for (const boost::json::value& v : root.at("crosstable").as_array())
    crosstable_rows.emplace_back(v.as_object().at("name").as_string());
  return out;
}

// report.html's standings table (each name a link to the engine's page).
Listing html_listing(const std::string& html) {
  Listing out;
  const std::size_t from = html.find("<tbody>", html.find("<h2>Standings</h2>"));
  const std::string body = html.substr(from, html.find("</tbody>", from) - from);
  for (const std::string& row : split(body, "<tr>")) {
    std::vector<std::string> cells;
    for (const test::Groups& cell : test::search_all(row, "<td[^>]*>(.*?)</td>"))
      cells.push_back(test::replace(cell[1], "<[^>]*>", ""));
    if (cells.size() > 5) out.push_back(listed(cells[1], cells[0], std::stod(cells[2])));
  }
  return out;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The reports of a results folder holding `games`, as `arena report DIR` writes them from the journal and
// tournament.json's settings.
struct FolderReports {
  std::string md, json, csv, html, terminal;
};
FolderReports write_folder(const std::string& tag, const std::vector<GameRecord>& games,
                           const std::vector<std::string>& names, const std::map<std::string, std::string>& settings) {
  namespace fs = std::filesystem;
  const system::TempFolder temp("kalah-form-order-" + tag);
  const fs::path& dir = temp.path();
  {
    std::ofstream out(dir / "games.jsonl");
    for (const GameRecord& g : games) out << to_json_line(g) << "\n";
  }
  const Expected<report::ReportSummary> written = report::write_reports(dir, {.journals = {{dir / "games.jsonl", tag}},
                                                                              .engine_names = names,
                                                                              .event = tag,
                                                                              .notes = {},
                                                                              .description = described(settings),
                                                                              .publish = false,
                                                                              .anchor = {}});
  EXPECT_TRUE(written) << written.error();
  if (!written) return {};
  FolderReports out{read_text(dir / "standings.md"), read_text(dir / "standings.json"),
                    read_text(dir / "standings.csv"), read_text(dir / "report.html"),
                    report::format_standings_table(written->standings)};
  return out;
}

// Every table of the reports lists `expected`, and the crosstables follow it.
void expect_every_table(const FolderReports& r, const Listing& expected) {
  std::vector<std::string> names;
  for (const std::string& line : expected) names.push_back(line.substr(0, line.find(' ')));
  std::vector<std::string> columns, rows;
  EXPECT_EQ(terminal_listing(r.terminal), expected) << r.terminal;
  EXPECT_EQ(markdown_listing(r.md, columns), expected) << r.md;
  EXPECT_EQ(columns, names) << r.md;
  EXPECT_EQ(csv_listing(r.csv), expected) << r.csv;
  EXPECT_EQ(json_listing(r.json, rows), expected) << r.json;
  EXPECT_EQ(rows, names) << r.json;
  EXPECT_EQ(html_listing(r.html), expected);
}

// The five engines of the Swiss and knockout examples, seeded in this order.
const std::vector<std::string> kFive = {"a", "b", "c", "d", "e"};

// A game pair of a round: `first` is South in its first game, `second` in its second; each result is from
// that game's South side.
struct PairPlayed {
  int round;
  std::string first, second;
  std::string first_result, second_result;
};

// Both games of each pair, named as the scheduler names them (engine numbers from kFive):
// "r1-0v2-p0-g0", then "r1-2v0-p0-g1".
std::vector<GameRecord> pairs_played(std::initializer_list<PairPlayed> pairs) {
  auto seed = [](const std::string& name) { return std::find(kFive.begin(), kFive.end(), name) - kFive.begin(); };
  std::vector<GameRecord> games;
  for (const PairPlayed& p : pairs) {
    const auto id = [&](const std::string& south, const std::string& north, int game) {
      return "r" + std::to_string(p.round) + "-" + std::to_string(seed(south)) + "v" + std::to_string(seed(north)) +
             "-p0-g" + std::to_string(game);
    };
    games.push_back(played(id(p.first, p.second, 0), p.first, p.second, p.first_result));
    games.push_back(played(id(p.second, p.first, 1), p.second, p.first, p.second_result));
  }
  return games;
}

// Five engines, three Swiss rounds (seeds a to e); every game's result is from South's side:
//   round 1: a 1-1 c (two draws), b 1-1 d (two draws), e has the bye
//   round 2: e 1-1 a (two draws), c 0-2 b, d has the bye
//   round 3: b 0-2 a, d 0-2 e, c has the bye
// Swiss points (a bye is 1): a 4, e 3 + 1 = 4, b 3, c 1 + 1 = 2, d 1 + 1 = 2. Buchholz: a 9 (c 2, e 4, b 3),
// e 6 (a 4, d 2), c 7 and d 7 (seed: c first). So a e b c d; the Elo fit, blind to the byes, has e a b d c.
std::vector<GameRecord> swiss_games() {
  return pairs_played({{1, "a", "c", "1/2", "1/2"},
                       {1, "b", "d", "1/2", "1/2"},
                       {2, "e", "a", "1/2", "1/2"},
                       {2, "c", "b", "0-1", "1-0"},
                       {3, "b", "a", "0-1", "1-0"},
                       {3, "d", "e", "0-1", "1-0"}});
}

TEST(FormOrder, EveryTableListsTheSwissStandingsWithTheByesPoints) {
  const std::vector<GameRecord> games = swiss_games();
  const Standings by_elo = compute_standings(games, kFive);
  std::string elo_order;
  for (const EngineStanding& e : by_elo.engines) elo_order += e.name;
  ASSERT_EQ(elo_order, "eabdc") << "the fit's order differs from the Swiss one here, or the test shows nothing";

  const std::map<std::string, std::string> settings = {{"type", "swiss"}, {"rounds", "3"}};
  const FolderReports r = write_folder("swiss", games, kFive, settings);
  const Listing expected = {listed("a", "1", 4), listed("e", "2", 4), listed("b", "3", 3), listed("c", "4", 2),
                            listed("d", "5", 2)};
  expect_every_table(r, expected);
  // The Swiss table itself says the same, and how a bye counts, once per report.
  EXPECT_NE(r.md.find("| 2 | e | 4.0 | 6.0 | 2 | 1 |"), std::string::npos) << r.md;
  const boost::json::object root = boost::json::parse(r.json).as_object();
  Listing swiss_table;
  for (const boost::json::value& v : root.at("swiss").at("standings").as_array())
    swiss_table.push_back(listed(std::string(v.at("name").as_string()), std::to_string(v.at("rank").as_int64()),
                                 v.at("points").to_number<double>()));
  EXPECT_EQ(swiss_table, expected);
  EXPECT_EQ(root.at("order").at("by").as_string(), "swiss");
  EXPECT_EQ(root.at("engines").at(1).at("bye_points").to_number<double>(), 1.0);
  EXPECT_EQ(root.at("engines").at(1).at("score_pct").to_number<double>(), 75.0) << "the games' score, bye left out";
  for (const std::string* text : {&r.md, &r.html, &r.terminal})
    EXPECT_NE(text->find("Points include 1.0 points for each bye"), std::string::npos) << *text;

  // The live standings (the run's builder, set up as the flow does) follow the same order.
  StandingsBuilder live(kFive);
  live.set_form(report::form_ranker(described(settings), kFive));
  for (const GameRecord& g : games) live.add(g);
  EXPECT_EQ(terminal_listing(report::format_standings_table(live.standings())), expected);
}

// Five engines in a bracket of eight, one game pair a match: a, b and c have byes in the first round,
// where d beats e 1.5-0.5; a beats d and b beats c 2-0 in the semi-finals; a beats b 2-0 in the final.
// c, a semi-finalist, lost its only pair 0-2 and rates below e, which lost in the first round.
std::vector<GameRecord> knockout_games() {
  return pairs_played({{1, "d", "e", "1/2", "0-1"},
                       {2, "a", "d", "1-0", "0-1"},
                       {2, "b", "c", "1-0", "0-1"},
                       {3, "a", "b", "1-0", "0-1"}});
}

TEST(FormOrder, EveryTableListsTheKnockoutByTheRoundReached) {
  const std::vector<GameRecord> games = knockout_games();
  const Standings by_elo = compute_standings(games, kFive);
  std::map<std::string, double> elo;
  for (const EngineStanding& e : by_elo.engines) elo[e.name] = e.elo;
  ASSERT_LT(elo["c"], elo["e"])
      << "the semi-finalist rates below the first-round loser here, or the test shows nothing";

  const std::map<std::string, std::string> settings = {{"type", "knockout"}, {"rounds", "1"}, {"tiebreak_pairs", "0"}};
  const FolderReports r = write_folder("knockout", games, kFive, settings);
  // Champion, finalist, the semi-finals' losers sharing 3 (by seed), the first round's loser.
  expect_every_table(r, {listed("a", "1", 4), listed("b", "2", 2), listed("c", "3=", 0), listed("d", "3=", 1.5),
                         listed("e", "5", 0.5)});
  EXPECT_EQ(boost::json::parse(r.json).at("order").at("by").as_string(), "knockout");
}

TEST(FormOrder, AKnockoutInProgressRanksTheEnginesStillInAboveThoseOut) {
  // The first round and one semi-final played: a is in the final; b and c (byes, no game yet) are still in
  // their semi-final; d lost its semi-final, e its first-round match.
  std::vector<GameRecord> games = knockout_games();
  games.resize(4);
  StandingsBuilder builder(kFive);
  builder.set_form(
      report::form_ranker(described({{"type", "knockout"}, {"rounds", "1"}, {"tiebreak_pairs", "0"}}), kFive));
  for (const GameRecord& g : games) builder.add(g);
  EXPECT_EQ(terminal_listing(report::format_standings_table(builder.standings())),
            (Listing{listed("a", "1", 2), listed("b", "2=", 0), listed("c", "2=", 0), listed("d", "4", 1.5),
                     listed("e", "5", 0.5)}));
}

TEST(RankingReports, EveryFormatShowsTheRankingTheTiesTheUnrankedAndTheVoided) {
  arena::TournamentDescription description;
  description.ranking = points_rules({TieBreak::SonnebornBerger});
  description.entries["v"] = {EntryStatus::Disqualified, "copied code", false, std::nullopt};
  description.entries["w"].status = EntryStatus::Withdrawn;
  StandingsBuilder builder({"a", "b", "v", "w"});
  builder.set_ranking(description.ranking_setup());
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
    builder.set_ranking(
        {{.by = by, .tiebreaks = {}, .points = {}, .cuts = {}}, {{"v", {EntryStatus::Disqualified, "", true}}}});
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
