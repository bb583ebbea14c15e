// A contest ranked by points end to end (docs/RANKING.md): a small round robin with the real `arena`
// executable and deterministic engines, two of them identical, so that they are bound to tie on points
// and on every tie-break and share a rank. The ranking must be in the terminal table and in every
// report, and `arena report DIR` must compute the same one again from the results folder alone.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include <boost/json.hpp>

#include "tests/config_builder.h"
#include "tests/e2e_util.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;

const fs::path kAlphaBeta = KALAH_BINARY_DIR "/bots/kalah-alphabeta";

// Alpha-beta searching `depth` plies, a fresh process every game.
std::string at_depth(int depth) {
  return "args = [\"--depth\", \"" + std::to_string(depth) + "\"]\nrestart = \"always\"";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(RankingE2E, PointsWithTieBreaksInEveryReportAndAgainFromTheFolder) {
  system::TempFolder dir{"kalah-e2e"};
  const fs::path config = dir.path() / "contest.toml";
  test::TestConfig("contest")
      .set("concurrency", 2)
      .output(dir.path())
      .set("report_every", 0)
      .time("depth = 4")
      .table("ranking",
             "by = \"points\"\ntiebreaks = [\"head-to-head\", \"sonneborn-berger\", \"buchholz\", \"wins\", "
             "\"seed-difference\"]\npoints = { win = 3, draw = 1, loss = 0 }\ncuts = [1, 2]")
      .engine("strong", kAlphaBeta, at_depth(4))
      .engine("twin1", kAlphaBeta, at_depth(2))
      .engine("twin2", kAlphaBeta, at_depth(2))
      .engine("weak", kAlphaBeta, at_depth(1))
      .write(config);
  const RunResult run = e2e::run({kArena.string(), "run", config.string()}, dir.path());
  ASSERT_EQ(run.status.code, 0) << run.summary();
  const fs::path results = dir.path() / "contest";

  // The terminal: the ranking's columns, and the twins' tie on the line below the table.
  EXPECT_TRUE(contains(run.out,
                       "Rank  Engine  Points  head-to-head  sonneborn-berger  buchholz    wins  "
                       "seed-difference     W-D-L  Games      Elo      +-"))
      << run.out;
  EXPECT_TRUE(contains(run.out, "twin1 and twin2 tied on ")) << run.out;
  EXPECT_TRUE(contains(run.out, "no declared tie-break separates them, they share rank")) << run.out;

  // standings.json: the machine-readable ranking.
  const std::string standings = read_file(results / "standings.json");
  const json::object root = json::parse(standings).as_object();
  ASSERT_TRUE(root.contains("ranking")) << standings;
  const json::object& ranking = root.at("ranking").as_object();
  EXPECT_EQ(ranking.at("by").as_string(), "points");
  EXPECT_EQ(ranking.at("tiebreaks").as_array().size(), 5u);
  EXPECT_EQ(ranking.at("points").as_object().at("win").to_number<double>(), 3.0);
  const json::array& rows = ranking.at("rows").as_array();
  ASSERT_EQ(rows.size(), 4u);
  std::string twin_rank;
  int games = 0;
  for (const json::value& v : rows) {
    const json::object& row = v.as_object();
    const int wins = static_cast<int>(row.at("wins").as_int64()), draws = static_cast<int>(row.at("draws").as_int64());
    EXPECT_EQ(row.at("points").to_number<double>(), 3.0 * wins + draws) << json::serialize(row);
    EXPECT_EQ(row.at("games").as_int64(), 6);
    games += static_cast<int>(row.at("games").as_int64());
    const std::string name(row.at("name").as_string());
    if (name == "twin1" || name == "twin2") {
      EXPECT_TRUE(row.at("shared").as_bool());
      const std::string rank(row.at("rank_text").as_string());
      EXPECT_EQ(rank.back(), '=');
      if (!twin_rank.empty()) {
        EXPECT_EQ(rank, twin_rank);
      }
      twin_rank = rank;
    }
  }
  EXPECT_EQ(games, 24);  // 12 games, two engines each
  bool twins_shared = false;
  for (const json::value& v : ranking.at("ties").as_array()) {
    const json::object& tie = v.as_object();
    if (tie.at("decided_by").is_null() && tie.at("engines").as_array().size() == 2 &&
        tie.at("engines").as_array()[0].as_string() == "twin1")
      twins_shared = true;
  }
  EXPECT_TRUE(twins_shared) << standings;
  // Against docs/schema/standings.schema.json, with Debian's python3-jsonschema; skipped without it.
  const std::string python = "/usr/bin/python3";
  if (e2e::run({python, "-c", "import jsonschema"}, dir.path()).status.code == 0) {
    const RunResult checked =
        e2e::run({python, KALAH_SOURCE_DIR "/tools/check-schema.py",
                  KALAH_SOURCE_DIR "/docs/schema/standings.schema.json", (results / "standings.json").string()},
                 dir.path());
    EXPECT_EQ(checked.status.code, 0) << checked.summary();
  } else {
    std::printf("python3-jsonschema is not installed: standings.json not checked against its schema\n");
  }

  // standings.md, standings.csv, report.html.
  const std::string md = read_file(results / "standings.md");
  EXPECT_TRUE(contains(md, "## Ranking\n")) << md;
  EXPECT_TRUE(contains(md,
                       "| Rank | Engine | Points | head-to-head | sonneborn-berger | buchholz | wins | "
                       "seed-difference | W-D-L | Games | Elo | ± |"))
      << md;
  EXPECT_TRUE(contains(md, "| " + twin_rank + " | twin1 | ")) << md;
  EXPECT_TRUE(contains(md, "- twin1 and twin2 tied on ")) << md;
  EXPECT_TRUE(contains(md, "## Rating list\n")) << md;
  const std::string csv = read_file(results / "standings.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "rank,shared,name,points,tiebreak_head_to_head,tiebreak_sonneborn_berger,tiebreak_buchholz,"
            "tiebreak_wins,tiebreak_seed_difference,wins,draws,losses,games,elo,ci95,status,reason,rank_low,"
            "rank_high,tie_group,top_1,top_2")
      << csv;
  EXPECT_TRUE(contains(read_file(results / "report.html"), "<h2>Ranking</h2>"));
  EXPECT_TRUE(contains(read_file(results / "tournament.json"), "\"ranking.by\": \"points\""));
  EXPECT_TRUE(contains(read_file(results / "tournament.json"), "\"ranking.cuts\": \"1,2\""));

  // How sure the ranking is (docs/RANKING.md): every engine's interval holds both ranks printed for it, the
  // twins' shared 2nd place makes the top 2 a cut already open (0), and every report shows them.
  std::map<std::string, int> row_rank;
  for (const json::value& v : rows) {
    const json::object& row = v.as_object();
    row_rank[std::string(row.at("name").as_string())] = static_cast<int>(row.at("rank").as_int64());
  }
  for (const json::value& v : root.at("engines").as_array()) {
    const json::object& e = v.as_object();
    const std::string name(e.at("name").as_string());
    const std::int64_t low = e.at("rank_low").as_int64(), high = e.at("rank_high").as_int64();
    EXPECT_LE(low, e.at("rank").as_int64()) << name;
    EXPECT_GE(high, e.at("rank").as_int64()) << name;
    EXPECT_LE(low, row_rank[name]) << name;
    EXPECT_GE(high, row_rank[name]) << name;
    EXPECT_TRUE(e.at("top").as_object().contains("2")) << name;
  }
  const json::object& fragility = root.at("fragility").as_object();
  EXPECT_EQ(fragility.at("first_bound").as_string(), "exact");
  EXPECT_EQ(fragility.at("cuts").as_object().at("2").as_int64(), 0) << standings;
  EXPECT_EQ(root.at("rank_intervals").as_object().at("order").as_string(), "points");
  EXPECT_TRUE(contains(md, "## How sure the order is\n")) << md;
  EXPECT_TRUE(contains(read_file(results / "report.html"), "aria-label=\"95% rank intervals\""));

  // The same ranking from the results folder alone.
  const RunResult again = e2e::run({kArena.string(), "report", results.string()}, dir.path());
  ASSERT_EQ(again.status.code, 0) << again.summary();
  EXPECT_EQ(read_file(results / "standings.json"), standings);
  EXPECT_TRUE(contains(again.out, "twin1 and twin2 tied on ")) << again.out;

  // [ranking] is not in the fingerprint: the same tournament resumed under the default rules plays no game
  // and ranks by Elo again.
  std::string text = read_file(config);
  text.replace(text.find("[ranking]"), text.find("[[engine]]") - text.find("[ranking]"), "");
  write_file(config, text);
  const RunResult by_elo = e2e::run({kArena.string(), "run", config.string()}, dir.path());
  ASSERT_EQ(by_elo.status.code, 0) << by_elo.summary();
  EXPECT_TRUE(contains(by_elo.out, "12 games (12 done)")) << by_elo.out;
  EXPECT_FALSE(contains(read_file(results / "standings.json"), "\"ranking\"")) << read_file(results / "standings.json");
  EXPECT_TRUE(contains(read_file(results / "tournament.json"), "\"ranking.by\": \"elo\""));
  EXPECT_FALSE(contains(by_elo.out, "tied on")) << by_elo.out;
}

}  // namespace
}  // namespace kalah::e2e
