// `arena serve`'s page in a real browser (docs/SERVE.md, "The page"): Debian's chromium, headless, driven by
// tests/browser/serve_page.js with the npm package playwright-core. The server is started over an
// empty results folder, then a real `arena run`; the page, opened at the tournament 360 pixels wide, shows the
// stream as live, the standings, the crosstable with numbers and a game in flight ply by ply; a finished game
// opens in report.html's viewer, and the games already in the journals are listed, each a link to it; an SPRT's
// page draws its gauge (the LLR over the pairs between its bounds).
// Skipped, with the reason, where chromium, node or playwright-core (npm ci --prefix tests/browser) is not installed.
// Every wait is bounded (60 s); nothing is timed.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "tests/browser_util.h"
#include "tests/config_builder.h"
#include "tests/e2e_util.h"
#include "tests/serve_util.h"
#include "tests/support/text_match.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;
using namespace serve_util;

using browser::missing_browser;

// tests/browser/serve_page.js opened at `url` until the page shows what `check` asks for; its state as JSON.
json::value open_page(const fs::path& scratch, const std::string& url, const std::string& check, const Server& server) {
  return browser::open_page(scratch, url, check, server.err());
}

// The server over an empty folder, then `arena run` of `config` into it, until the tournament `name` is listed.
struct Watched {
  Watched(const fs::path& scratch, const fs::path& results, const fs::path& config, const std::string& name)
      : server(scratch, {results.string(), "--listen", "127.0.0.1:0"}),
        arena({kArena.string(), "run", config.string()}, scratch / (name + ".out"), scratch / (name + ".err")) {
    for (const Clock::time_point deadline = Clock::now() + 60s; !listed && Clock::now() < deadline;) {
      listed = server.port() != 0 &&
               get(server.port(), "/api/tournaments").body.find("\"" + name + "\"") != std::string::npos;
      if (!listed) std::this_thread::sleep_for(50ms);
    }
  }
  ~Watched() {
    arena.signal(SIGINT);
    arena.wait(60s);
  }
  std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(server.port()) + path; }
  Server server;
  Child arena;
  bool listed = false;
};

TEST(ServeBrowser, ThePageShowsTheStandingsCrosstableAGameInFlightAndAFinishedGameInTheViewer) {
  system::TempFolder temp("serve-browser");
  if (const std::optional<std::string> missing = missing_browser(temp.path())) GTEST_SKIP() << *missing;
  const fs::path results = temp.path() / "results";
  fs::create_directories(results);
  const fs::path config = temp.path() / "shown.toml";
  write_file(config, test::TestConfig("shown")
                         .set("rounds", 20)
                         .set("concurrency", 2)
                         .set("seed", 9)
                         .output(results)
                         .time("depth = 1")
                         .engine("sleepy", kBadEngine, R"(args = ["--slow", "200"])")
                         .engine("greedy", kGreedy)
                         .text());
  Watched watched(temp.path(), results, config, "shown");
  ASSERT_TRUE(watched.listed) << "the tournament was not listed within 60 s: " << watched.server.err();
  // The index, then the tournament opened by a click on its link, watched until a ply arrives and the standings
  // change; its layout at 360 and 1280 pixels.
  const json::value watch = open_page(temp.path(), watched.url("/"), "watch", watched.server);
  ASSERT_TRUE(watch.is_object());
  const json::array& index = watch.at("index").at("cells").as_array();
  ASSERT_EQ(index.size(), 4u) << watch;
  EXPECT_EQ(index[0].as_string(), "shown") << watch;
  EXPECT_EQ(index[1].as_string(), "round-robin") << watch;
  EXPECT_NE(std::string(index[2].as_string()).find("(running)"), std::string::npos) << watch;
  const json::object& shown = watch.at("before").as_object();
  EXPECT_EQ(shown.at("status").as_string(), "live") << watch;
  EXPECT_GE(shown.at("standings").as_int64(), 1) << watch;
  EXPECT_NE(std::string(shown.at("flight").as_string()).find(" moved"), std::string::npos) << watch;
  // The crosstable: each engine's points / games against the other, the same numbers as the standings' games.
  EXPECT_FALSE(shown.at("crosstable").as_array().empty()) << watch;
  // Live: a ply arrived and the standings changed on the page, with no reload.
  const json::object& after = watch.at("after").as_object();
  EXPECT_GT(after.at("games").as_int64(), shown.at("games").as_int64()) << watch;
  EXPECT_NE(after.at("games_in_flight"), shown.at("games_in_flight")) << watch;
  // Readable on a phone and on a desktop: nothing wider than the screen, who leads first (the summary line
  // naming the leader, then the standings with the leader's row on the first screen, before the games).
  for (const char* width : {"360", "1280"}) {
    const json::object& l = watch.at("layout").at(width).as_object();
    EXPECT_EQ(l.at("width").as_int64(), std::stoi(width)) << watch;
    EXPECT_LE(l.at("page_width").as_int64(), std::stoi(width)) << width << ": " << watch;
    EXPECT_LT(l.at("summary_top").to_number<double>(), l.at("standings_top").to_number<double>()) << watch;
    EXPECT_LT(l.at("standings_top").to_number<double>(), l.at("flight_top").to_number<double>()) << watch;
    EXPECT_LT(l.at("flight_top").to_number<double>(), l.at("crosstable_top").to_number<double>()) << watch;
    EXPECT_LE(l.at("leader_row_bottom").to_number<double>(), l.at("screen_height").to_number<double>())
        << width << ": the leader's row is on the first screen: " << watch;
  }
  EXPECT_NE(std::string(after.at("summary").as_string()).find("leading: "), std::string::npos) << watch;
  // A finished game in report.html's viewer, served as a page of its own.
  const std::vector<std::string> lines = read_lines(results / "shown" / "games.jsonl");
  ASSERT_FALSE(lines.empty());
  const std::string id(json::parse(lines.front()).at("id").as_string());
  const json::value viewer =
      open_page(temp.path(), watched.url("/tournaments/shown/games/" + id + "#game-" + id), "viewer", watched.server);
  ASSERT_TRUE(viewer.is_object());
  EXPECT_NE(std::string(viewer.at("title").as_string()).find(id), std::string::npos) << viewer;
  EXPECT_GE(viewer.at("board").as_int64(), 14) << "6 pits a side and 2 stores: " << viewer;
  // The games already in the journals (GET .../games), the first of them first, each a link to the viewer.
  const json::value past = open_page(temp.path(), watched.url("/#shown"), "past", watched.server);
  ASSERT_TRUE(past.is_object());
  EXPECT_EQ(past.at("past_link").as_string(), "/tournaments/shown/games/" + id + "#game-" + id) << past;
  EXPECT_TRUE(std::string(past.at("past_text").as_string()).starts_with(id + ": ")) << past;
}

TEST(ServeBrowser, AnSprtShowsItsGaugeWithTheLlrBetweenItsBounds) {
  system::TempFolder temp("serve-browser-sprt");
  if (const std::optional<std::string> missing = missing_browser(temp.path())) GTEST_SKIP() << *missing;
  const fs::path results = temp.path() / "results";
  fs::create_directories(results);
  const fs::path config = temp.path() / "tested.toml";
  write_file(config, test::TestConfig("tested")
                         .set("concurrency", 2)
                         .set("seed", 5)
                         .output(results)
                         .time("depth = 1")
                         .table("openings", "random_plies = 2")
                         .table("sprt", "elo0 = 0\nelo1 = 50\nmax_pairs = 200")
                         .engine("sleepy", kBadEngine, R"(args = ["--slow", "20"])")
                         .engine("greedy", kGreedy)
                         .text());
  Watched watched(temp.path(), results, config, "tested");
  ASSERT_TRUE(watched.listed) << "the SPRT was not listed within 60 s: " << watched.server.err();
  const json::value shown = open_page(temp.path(), watched.url("/#tested"), "sprt", watched.server);
  ASSERT_TRUE(shown.is_object());
  // "sleepy vs greedy: LLR 0.57 in [-2.94, 2.94] after 2 pairs (4 games); running. ..." with the course drawn.
  const std::string text(shown.at("sprt").as_string());
  EXPECT_NE(text.find("sleepy vs greedy: LLR "), std::string::npos) << shown;
  EXPECT_NE(text.find(" in [-2.94, 2.94] after "), std::string::npos) << shown;
  EXPECT_GE(shown.at("sprt_points").as_int64(), 2) << shown;
  EXPECT_FALSE(shown.at("crosstable").as_array().empty()) << shown;
}

// The page's stream cut mid-game (every connection of a proxy between the browser and the server closed, as a
// network or proxy drops them): the browser's EventSource reconnects by itself with Last-Event-ID, and the
// server resumes after it. Every game in flight at the cut arrives ply by ply exactly once, none missing, part of
// it over each connection, and the page showed all its moves, the journal's, when it ended.
TEST(ServeBrowser, ThePageReconnectsAfterItsStreamIsCutAndShowsEveryPlyOnce) {
  system::TempFolder temp("serve-browser-reconnect");
  if (const std::optional<std::string> missing = missing_browser(temp.path())) GTEST_SKIP() << *missing;
  const fs::path results = temp.path() / "results";
  fs::create_directories(results);
  // Games of about two seconds played to their end: MCTS searches its whole 40 ms a move (legal moves only), so a
  // game in flight at the cut goes on after the reconnect. On the CPU clock: a machine doing something else must
  // not end the games at the cut with time forfeits (a game that ends there has no ply after it).
  const fs::path config = temp.path() / "cut.toml";
  write_file(config, test::TestConfig("cut")
                         .set("rounds", 20)
                         .set("concurrency", 2)
                         .set("seed", 7)
                         .output(results)
                         .time("movetime_ms = 40\nclock = \"cpu\"")
                         .engine("mcts", reachable(kMcts))
                         .engine("mcts2", reachable(kMcts))
                         .text());
  Watched watched(temp.path(), results, config, "cut");
  ASSERT_TRUE(watched.listed) << "the tournament was not listed within 60 s: " << watched.server.err();
  const json::value seen = open_page(temp.path(), watched.url("/#cut"), "reconnect", watched.server);
  ASSERT_TRUE(seen.is_object());
  EXPECT_GE(seen.at("opens").as_int64(), 2) << seen;
  EXPECT_EQ(seen.at("status").as_string(), "live") << seen;
  // The browser sent back the last id it had, one of this server's ("EPOCH-SEQ").
  const json::array& sent = seen.at("last_event_ids").as_array();
  ASSERT_FALSE(sent.empty()) << "no request with Last-Event-ID: " << seen;
  EXPECT_TRUE(test::full_match(std::string(sent.front().as_string()), "[0-9a-f]{16}-[0-9]+")) << seen;
  const json::array& games = seen.at("games").as_array();
  ASSERT_FALSE(games.empty()) << seen;
  // Games with plies over both connections: before the cut and, resumed, after it. (A game's count at the cut is
  // what the page had read when it decided to cut; plies already on their way then may still come over the first
  // connection, so that count says nothing about the connection of each later ply.)
  int spanning = 0;
  for (const json::value& game : games) {
    const json::array& moves = game.at("moves").as_array();
    const json::array& plies = game.at("plies").as_array();
    ASSERT_EQ(plies.size(), moves.size()) << "each ply once: " << game;
    std::set<std::int64_t> connections;
    for (std::size_t i = 0; i < plies.size(); ++i) {
      EXPECT_EQ(plies[i].at(0).as_int64(), static_cast<std::int64_t>(i)) << game;
      connections.insert(plies[i].at(1).as_int64());
    }
    if (connections.size() >= 2) ++spanning;
    // What the page showed of it, "ID: M1 M2 ...  (ENGINE moved...)": the journal's moves, each once.
    std::string shown(game.at("shown").is_string() ? game.at("shown").as_string() : "");
    std::string expected = std::string(game.at("id").as_string()) + ":";
    for (const json::value& move : moves) expected += " " + json::serialize(move);
    EXPECT_EQ(shown.substr(0, shown.find("  (")), expected) << game;
  }
  EXPECT_GE(spanning, 1) << "no game in flight at the cut went on after it: " << seen;
}

}  // namespace
}  // namespace kalah::e2e
