// The live stream end to end (docs/SERVE.md, "The live stream"): `arena serve` started first over an empty
// results folder, then a real `arena run`; a plain socket reads /api/tournaments/NAME/live and sees the plies of
// a game arrive, then that game's `game` event; it disconnects, reconnects with Last-Event-ID, and the plies of
// every finished game it heard of arrive once each across the two connections, matching the journal's moves.
// Every wait is bounded (60 s); nothing is timed.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "tests/config_builder.h"
#include "tests/e2e_util.h"
#include "tests/serve_util.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;
using namespace serve_util;

TEST(ServeLiveE2E, PliesOfARealRunArriveAndAReconnectMissesAndRepeatsNothing) {
  system::TempFolder temp("serve-live-e2e");
  const fs::path results = temp.path() / "results";
  fs::create_directories(results);
  // The server first, over a folder without the tournament yet (either may be started first).
  Server server(temp.path(), {results.string(), "--listen", "127.0.0.1:0"});
  ASSERT_NE(server.port(), 0) << server.err();
  // Games of a few seconds: one engine sleeps before each move, so that games are in flight when the client
  // looks. 40 games; the run is stopped when the test has seen what it needs.
  const fs::path config = temp.path() / "live.toml";
  write_file(config, test::TestConfig("streamed")
                         .set("rounds", 20)
                         .set("concurrency", 2)
                         .set("seed", 5)
                         .output(results)
                         .time("depth = 1")
                         .engine("sleepy", kBadEngine, R"(args = ["--slow", "20"])")
                         .engine("greedy", kGreedy)
                         .text());
  Child arena({kArena.string(), "run", config.string()}, temp.path() / "run.out", temp.path() / "run.err");
  const Clock::time_point deadline = Clock::now() + 60s;
  bool listed = false;
  while (!listed && Clock::now() < deadline) {
    listed = get(server.port(), "/api/tournaments").body.find("\"streamed\"") != std::string::npos;
    if (!listed) std::this_thread::sleep_for(50ms);
  }
  ASSERT_TRUE(listed) << "the tournament was not listed within 60 s: " << server.err();

  std::map<std::string, std::vector<json::value>> plies;  // by game, in the order received
  std::vector<json::value> games;                         // the `game` events' records
  std::string last_id;
  const auto take = [&](const SseEvent& e) {
    last_id = e.id;
    const json::value data = json::parse(e.data);
    if (e.kind == "ply") plies[std::string(data.at("game").as_string())].push_back(data);
    if (e.kind == "game") games.push_back(data);
  };
  {
    SseClient first(server.port(), "/api/tournaments/streamed/live");
    const std::optional<std::string> header = first.header(deadline);
    ASSERT_TRUE(header) << "no response within 60 s";
    EXPECT_TRUE(header->starts_with("HTTP/1.1 200")) << *header;
    EXPECT_NE(header->find("Content-Type: text/event-stream"), std::string::npos) << *header;
    // A ply of a game, then that game's record.
    std::optional<std::string> watched;
    bool finished = false;
    while (!finished) {
      const std::optional<SseEvent> e = first.next(deadline);
      ASSERT_TRUE(e) << "no ply then game event within 60 s; plies of " << plies.size() << " games, " << games.size()
                     << " games; " << server.err();
      take(*e);
      if (e->kind == "ply" && !watched) watched = std::string(json::parse(e->data).at("game").as_string());
      finished = e->kind == "game" && watched && json::parse(e->data).at("id").as_string() == *watched;
    }
  }
  ASSERT_FALSE(last_id.empty());
  const std::size_t games_first = games.size();
  {
    // Back with the last id seen: the stream resumes after it.
    SseClient second(server.port(), "/api/tournaments/streamed/live", last_id);
    ASSERT_TRUE(second.header(deadline)) << "no response within 60 s";
    while (games.size() < games_first + 2) {
      const std::optional<SseEvent> e = second.next(deadline);
      ASSERT_TRUE(e) << "no two more games within 60 s after the reconnect; " << server.err();
      take(*e);
    }
  }
  arena.signal(SIGINT);
  arena.wait(60s);

  // Every game whose plies were heard of: each ply once, in order, the journal's moves.
  int checked = 0;
  for (const json::value& record : games) {
    const auto heard = plies.find(std::string(record.at("id").as_string()));
    if (heard == plies.end()) continue;
    const json::array& moves = record.at("moves").as_array();
    ASSERT_EQ(heard->second.size(), moves.size()) << "game " << record.at("id") << ": plies heard of";
    for (std::size_t i = 0; i < moves.size(); ++i) {
      EXPECT_EQ(heard->second[i].at("ply").as_int64(), static_cast<std::int64_t>(i)) << record.at("id");
      EXPECT_EQ(heard->second[i].at("move"), moves[i]) << record.at("id") << " ply " << i;
      const std::string mover(heard->second[i].at("mover").as_string());
      EXPECT_TRUE(mover == record.at("south").as_string() || mover == record.at("north").as_string()) << mover;
    }
    ++checked;
  }
  EXPECT_GE(checked, 2) << "games whose plies were heard of from their first";

  // The ply events and the live files against their JSON Schemas (docs/schema/).
  const fs::path python = "/usr/bin/python3";
  if (run({python.string(), "-c", "import jsonschema"}, temp.path(), 30s).status.code != 0)
    GTEST_SKIP() << "python3-jsonschema is not installed (apt-get install python3-jsonschema)";
  std::string lines;
  for (const auto& [game, heard] : plies)
    for (const json::value& ply : heard) lines += json::serialize(ply) + "\n";
  write_file(temp.path() / "plies.jsonl", lines);
  const std::pair<const char*, fs::path> documents[] = {
      {"live-ply.schema.json", temp.path() / "plies.jsonl"},
      {"live-file.schema.json", results / "streamed" / "live" / "all-worker-0.jsonl"},
      {"live-file.schema.json", results / "streamed" / "live" / "all-worker-1.jsonl"}};
  for (const auto& [schema, file] : documents) {
    const RunResult checked_schema = run({python.string(), KALAH_SOURCE_DIR "/tools/check-schema.py", "--lines",
                                          std::string(KALAH_SOURCE_DIR "/docs/schema/") + schema, file.string()},
                                         temp.path(), 60s);
    EXPECT_EQ(checked_schema.status.code, 0) << file << ": " << checked_schema.summary();
  }
}

}  // namespace
}  // namespace kalah::e2e
