// The analysis of a season's ladder, end to end (docs/SEASON.md, "Analysis of the ladder"): `arena serve --season`
// plays alice's revision on the ladder (Kalah(4,3), whose endgame database holds every position), analyses its games
// behind the ladder into the season's private DIR/analysis, and alice's own page (GET /api/submissions/alice with her
// token) names the move that lost a game she lost: checked here against the journal and analysis.jsonl by the rules
// alone. bob's token does not open her page; the public pages and DIR/results hold no analysis; a server stopped with
// kill -9 and started again shows the same and analyses no game twice. With pseudonyms the same works under hers,
// and no file names her.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include <boost/json.hpp>

#include "referee/rules/position.h"
#include "tests/browser_util.h"
#include "tests/e2e_util.h"
#include "tests/season_util.h"
#include "tests/serve_util.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;
using namespace serve_util;
using namespace season_util;

class AnalysisE2E : public SeasonE2E {
 protected:
  // A small season: two gate games, Kalah(4,3) (a database of 64 MB holds all of it), 100 ms a position.
  void small_season(bool pseudonyms) {
    server_.reset();
    edit("games = 20, min_score = 0.3", "games = 2, min_score = 0");
    edit("ladder_analysis = false", "ladder_analysis = true");
    edit("pits = 6\nseeds = 4", "pits = 4\nseeds = 3");
    edit("[submissions]", "[analysis]\nbudget_ms = 100\ndb_mb = 64\n\n[submissions]");
    if (pseudonyms) edit("pseudonyms = false", "pseudonyms = true");
    start();
  }
  json::object page(const std::string& author, const std::string& token) {
    const Response r =
        request(server_->port(), "/api/submissions/" + author, http::verb::get, {{"Authorization", "Bearer " + token}});
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body).as_object();
  }
  // alice's analysis once it shows a lost game with the move that lost it (bounded: the ladder plays a game in well
  // under a second here, and the analysis of a Kalah(4,3) game is a few database reads).
  json::object lost_game() {
    for (int i = 0; i < 1500; ++i) {
      const json::object analysis = page("alice", tokens_["alice"]).at("analysis").as_object();
      for (const json::value& g : analysis.at("shown").as_array())
        if (!g.at("losing_move").is_null()) return g.as_object();
      std::this_thread::sleep_for(200ms);
    }
    return {};
  }
  // The line of `file` for game `id` (the first), parsed.
  static json::object line_of(const fs::path& file, const std::string& id) {
    for (const std::string& line : read_lines(file))
      if (line.find("\"id\":\"" + id + "\"") != std::string::npos) return json::parse(line).as_object();
    return {};
  }
};

Move move_of(const json::value& v) { return v.is_string() ? Move::swap() : Move::at(static_cast<int>(v.as_int64())); }

// The move that lost game `id` by the rules alone, from the journal's record and its analysis line: the first ply
// outside the opening of the player who lost that turned a value >= 0 into one < 0, 1-based; 0 for none.
int losing_ply_by_the_rules(const json::object& game, const json::object& analysis) {
  Variant v;
  v.pits = 4;
  v.seeds = 3;
  Position p = start_position(v);
  const std::string loser = game.at("result") == "1-0" ? "north" : game.at("result") == "0-1" ? "south" : "";
  const json::array& moves = game.at("moves").as_array();
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const std::string mover = player_to_move(p) == Seat::First ? "south" : "north";
    const json::value &value = analysis.at("value").as_array()[i], &loss = analysis.at("loss").as_array()[i];
    if (i >= game.at("opening").as_array().size() && mover == loser && value.is_int64() && loss.is_int64() &&
        value.as_int64() >= 0 && value.as_int64() - loss.as_int64() < 0)
      return static_cast<int>(i) + 1;
    apply(v, p, move_of(moves[i]));
  }
  return 0;
}

TEST_F(AnalysisE2E, TheAuthorsPageNamesTheMoveThatLostHerGameAndNobodyElseSeesIt) {
  small_season(false);
  ASSERT_EQ(upload(server_->port(), bearer(tokens_["alice"]), "ada.c", source("configs/contest/submissions/ada/ada.c"))
                .status,
            201);
  ASSERT_EQ(finished(server_->port(), tokens_["alice"], "alice", 1).at("status"), "entered");
  const json::object lost = lost_game();
  ASSERT_FALSE(lost.empty()) << read_file(dir() / "season.log");
  const std::string id(lost.at("id").as_string());
  EXPECT_EQ(lost.at("engine"), "alice-r1");
  EXPECT_EQ(lost.at("outcome"), "lost");

  // The same move, found from the files by the rules alone.
  const json::object game = line_of(dir() / "results" / "ladder" / "games.jsonl", id);
  const json::object analysis = line_of(dir() / "analysis" / "analysis.jsonl", id);
  ASSERT_FALSE(game.empty());
  ASSERT_FALSE(analysis.empty()) << id;
  EXPECT_EQ(game.at(std::string(lost.at("side").as_string())), "alice-r1");
  const json::object& move = lost.at("losing_move").as_object();
  const int ply = losing_ply_by_the_rules(game, analysis);
  ASSERT_GT(ply, 0);
  EXPECT_EQ(move.at("ply"), ply);
  const auto at = static_cast<std::size_t>(ply - 1);
  EXPECT_EQ(move.at("move"), game.at("moves").as_array()[at]);
  const std::int64_t before = analysis.at("value").as_array()[at].as_int64();
  EXPECT_EQ(move.at("value_before"), before);
  EXPECT_EQ(move.at("value_after"), before - analysis.at("loss").as_array()[at].as_int64());
  // The best moves keep the value before; the database holds every position, so every move's value is proved, and
  // the best of them is the value before (perfect play).
  EXPECT_EQ(move.at("unproved").as_array().size(), 0u);
  const json::object values = line_of(dir() / "analysis" / "losing.jsonl", id);
  ASSERT_FALSE(values.empty());
  EXPECT_EQ(values.at("ply"), ply);
  json::array best;
  std::int64_t most = -1000;
  for (const json::value& mv : values.at("moves").as_array()) most = std::max(most, mv.as_array()[1].as_int64());
  for (const json::value& mv : values.at("moves").as_array())
    if (mv.as_array()[1].as_int64() == before) best.push_back(mv.as_array()[0]);
  EXPECT_EQ(most, before);
  EXPECT_EQ(move.at("best"), best);
  EXPECT_FALSE(best.empty());
  EXPECT_EQ(std::find(best.begin(), best.end(), move.at("move")), best.end());

  // Her page in a real browser (when there is one) says the move and links the game to the viewer at that ply.
  if (!browser::missing_browser(temp_.path())) {
    const std::string url =
        "http://127.0.0.1:" + std::to_string(server_->port()) + "/author.html#author=alice&token=" + tokens_["alice"];
    const json::value shown = browser::open_page(temp_.path(), url, "author", server_->err());
    ASSERT_TRUE(shown.is_object());
    const std::string rows = json::serialize(shown.at("analysis")), links = json::serialize(shown.at("analysis_links"));
    EXPECT_NE(rows.find("ply " + std::to_string(ply) + ": pit "), std::string::npos) << rows;
    EXPECT_NE(links.find("#game-" + id + "/" + std::to_string(ply)), std::string::npos) << links;
  }

  // bob's token does not open her page, and his own shows nothing of hers.
  const Response other =
      request(server_->port(), "/api/submissions/alice", http::verb::get, {{"Authorization", bearer(tokens_["bob"])}});
  EXPECT_EQ(other.status, 404) << other.body;
  EXPECT_EQ(other.body.find(id), std::string::npos);
  const json::object bobs = page("bob", tokens_["bob"]);
  EXPECT_EQ(bobs.at("analysis").at("games"), 0);
  EXPECT_EQ(json::serialize(bobs).find(id), std::string::npos);
  // The public pages show no analysis of the ladder: the game's JSON has none, no file of DIR/results holds one.
  const Response public_game = get(server_->port(), "/api/tournaments/ladder/games/" + id);
  EXPECT_EQ(public_game.status, 200);
  EXPECT_EQ(public_game.body.find("\"analysis\""), std::string::npos) << public_game.body;
  for (const auto& e : fs::recursive_directory_iterator(dir() / "results"))
    EXPECT_NE(e.path().filename(), "analysis.jsonl") << e.path();
  EXPECT_NE(read_file(dir() / "season.log").find("analysis: endgame database p4-"), std::string::npos)
      << read_file(dir() / "season.log");

  // kill -9 and a restart: the page shows the same move, and no game is analysed twice.
  server_->kill_now();
  start();
  json::object again;
  for (int i = 0; i < 600 && again.empty(); ++i) {
    const json::object now = page("alice", tokens_["alice"]);
    for (const json::value& g : now.at("analysis").at("shown").as_array())
      if (g.at("id").as_string() == id) again = g.as_object();
    if (again.empty()) std::this_thread::sleep_for(200ms);
  }
  EXPECT_EQ(again.at("losing_move"), lost.at("losing_move"));
  std::set<std::string> ids;
  for (const std::string& line : read_lines(dir() / "analysis" / "analysis.jsonl"))
    EXPECT_TRUE(ids.insert(std::string(json::parse(line).at("id").as_string())).second) << line;
}

TEST_F(AnalysisE2E, WithPseudonymsHerPageShowsHerGamesUnderHersAndNoFileNamesHer) {
  small_season(true);
  ASSERT_EQ(upload(server_->port(), bearer(tokens_["alice"]), "ada.c", source("configs/contest/submissions/ada/ada.c"))
                .status,
            201);
  ASSERT_EQ(finished(server_->port(), tokens_["alice"], "alice", 1).at("status"), "entered");
  const json::object lost = lost_game();
  ASSERT_FALSE(lost.empty()) << read_file(dir() / "season.log");
  const std::string pseudonym(page("alice", tokens_["alice"]).at("pseudonym").as_string());
  EXPECT_EQ(lost.at("engine"), json::value(pseudonym + "-r1"));
  for (const char* folder : {"results", "analysis"}) {
    for (const auto& e : fs::recursive_directory_iterator(dir() / folder)) {
      if (!e.is_regular_file()) continue;
      EXPECT_EQ(read_file(e.path()).find("alice"), std::string::npos) << e.path();
    }
  }
}

}  // namespace
}  // namespace kalah::e2e
