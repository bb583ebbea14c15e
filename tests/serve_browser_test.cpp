// `arena serve`'s page in a real browser (docs/SERVE.md, "The page"): Debian's chromium, headless, driven over
// the DevTools protocol by tests/browser/serve_page.js on Node's own WebSocket. The server is started over an
// empty results folder, then a real `arena run`; the page, opened at the tournament 360 pixels wide, shows the
// stream as live, the standings, and a game in flight ply by ply. Skipped, with the reason, where chromium or a
// node with --experimental-websocket is not installed. Every wait is bounded (60 s); nothing is timed.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "tests/config_builder.h"
#include "tests/e2e_util.h"
#include "tests/serve_util.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;
using namespace serve_util;

TEST(ServeBrowser, ThePageShowsTheStandingsAndAGameInFlight) {
  system::TempFolder temp("serve-browser");
  const fs::path chromium = "/usr/bin/chromium", node = "/usr/bin/node";
  if (!fs::exists(chromium)) GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
  if (!fs::exists(node) ||
      run({node.string(), "--experimental-websocket", "-e", "if (typeof WebSocket !== 'function') process.exit(1)"},
          temp.path(), 30s)
              .status.code != 0)
    GTEST_SKIP() << "no node with --experimental-websocket (Node 20.10 or later; apt-get install nodejs)";
  const fs::path results = temp.path() / "results";
  fs::create_directories(results);
  Server server(temp.path(), {results.string(), "--listen", "127.0.0.1:0"});
  ASSERT_NE(server.port(), 0) << server.err();
  const fs::path config = temp.path() / "shown.toml";
  write_file(config, test::TestConfig("shown")
                         .set("rounds", 20)
                         .set("concurrency", 2)
                         .set("seed", 9)
                         .output(results)
                         .time("depth = 1")
                         .engine("sleepy", kBadEngine, R"(args = ["--slow", "50"])")
                         .engine("greedy", kGreedy)
                         .text());
  Child arena({kArena.string(), "run", config.string()}, temp.path() / "run.out", temp.path() / "run.err");
  bool listed = false;
  for (const Clock::time_point deadline = Clock::now() + 60s; !listed && Clock::now() < deadline;) {
    listed = get(server.port(), "/api/tournaments").body.find("\"shown\"") != std::string::npos;
    if (!listed) std::this_thread::sleep_for(50ms);
  }
  ASSERT_TRUE(listed) << "the tournament was not listed within 60 s: " << server.err();
  const RunResult page = run(
      {node.string(), "--experimental-websocket", KALAH_SOURCE_DIR "/tests/browser/serve_page.js", chromium.string(),
       (temp.path() / "profile").string(), "http://127.0.0.1:" + std::to_string(server.port()) + "/#shown"},
      temp.path(), 120s);
  arena.signal(SIGINT);
  arena.wait(60s);
  ASSERT_EQ(page.status.code, 0) << page.summary() << server.err();
  const json::value shown = json::parse(page.out);
  EXPECT_EQ(shown.at("status").as_string(), "live") << page.out;
  EXPECT_GE(shown.at("standings").as_int64(), 1) << page.out;
  EXPECT_NE(std::string(shown.at("flight").as_string()).find(" moved"), std::string::npos) << page.out;
}

}  // namespace
}  // namespace kalah::e2e
