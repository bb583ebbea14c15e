// A sharded run shown as one tournament, end to end (docs/SERVE.md, "Tournaments and their names"; docs/SCALE.md):
// `arena serve` started first over an empty results folder, then two real `arena run --shard I/2` writing into
// one shared folder, as the tasks of a Slurm array on a shared file system do. The live stream carries the plies
// of both shards' games as they are played, each game's plies once, in order, then its `game` event; when both
// shards are done the server lists one tournament with every game, its standings are what `arena report` merges,
// and every game of every shard is found by its id. Every wait is bounded (120 s); nothing is timed.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
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

constexpr int kShards = 2;
constexpr std::size_t kShardCount = kShards;

// Three engines, one of them searching for the whole of its 40 ms a move (MCTS, legal moves to the end), so that
// both shards have games in flight while the stream is read: 3 pairings x 2 rounds x 2 colours = 12 games, 6 a
// shard, 4 of them with the slow engine (about a second each).
std::string sharded_config(const fs::path& results) {
  return test::TestConfig("sharded")
      .set("rounds", 2)
      .set("concurrency", 1)
      .set("seed", 5)
      .output(results)
      .time("movetime_ms = 40")
      .table("openings", "random_plies = 2")
      .engine("mcts", reachable(kMcts))
      .engine("greedy", reachable(kGreedy))
      .engine("random", reachable(kRandom))
      .text();
}

fs::path shard_folder(const fs::path& dir, int shard) {
  return dir / "shards" / (std::to_string(shard) + "-of-" + std::to_string(kShards));
}

// What the stream said: each game's plies in the order received, the `game` events, the last standings.
struct Heard {
  std::map<std::string, std::vector<json::value>> plies;
  std::vector<std::string> games;
  std::optional<json::value> standings;

  void take(const SseEvent& e) {
    const json::value data = json::parse(e.data);
    if (e.kind == "ply") plies[std::string(data.at("game").as_string())].push_back(data);
    if (e.kind == "game") games.emplace_back(data.at("id").as_string());
    if (e.kind == "standings") standings = data;
  }
  std::int64_t standings_games() const { return standings ? standings->at("games").as_int64() : -1; }
};

TEST(ServeShardsE2E, AShardedRunIsStreamedListedAndServedAsOneTournament) {
  system::TempFolder temp("serve-shards-e2e");
  const fs::path results = temp.path() / "results", dir = results / "sharded";
  fs::create_directories(results);
  Server server(temp.path(), {results.string(), "--listen", "127.0.0.1:0"});
  ASSERT_NE(server.port(), 0) << server.err();
  const fs::path config = temp.path() / "sharded.toml";
  write_file(config, sharded_config(results));
  std::vector<std::unique_ptr<Child>> shards;
  for (int i = 1; i <= kShards; ++i) {
    const std::string n = std::to_string(i);
    shards.push_back(std::make_unique<Child>(
        std::vector<std::string>{kArena.string(), "run", config.string(), "--shard", n + "/" + std::to_string(kShards)},
        temp.path() / ("shard" + n + ".out"), temp.path() / ("shard" + n + ".err")));
  }
  const Clock::time_point deadline = Clock::now() + 120s;
  bool listed = false;
  while (!listed && Clock::now() < deadline) {
    listed = get(server.port(), "/api/tournaments").body.find("\"sharded\"") != std::string::npos;
    if (!listed) std::this_thread::sleep_for(20ms);
  }
  ASSERT_TRUE(listed) << "the sharded run was not listed within 120 s: " << server.err();

  // The stream, until both shards are done and the standings sent count every game of their journals.
  Heard heard;
  SseClient client(server.port(), "/api/tournaments/sharded/live");
  ASSERT_TRUE(client.header(deadline)) << "no response within 120 s";
  std::vector<std::optional<ExitStatus>> ended(kShardCount);
  for (;;) {
    for (std::size_t i = 0; i < kShardCount; ++i)
      if (!ended[i]) ended[i] = shards[i]->poll();
    const bool done = std::all_of(ended.begin(), ended.end(), [](const auto& e) { return e.has_value(); });
    std::size_t journaled = 0;
    for (int i = 1; done && i <= kShards; ++i) journaled += read_lines(shard_folder(dir, i) / "games.jsonl").size();
    if (done && heard.standings_games() == static_cast<std::int64_t>(journaled)) break;
    const std::optional<SseEvent> e = client.next(std::min(deadline, Clock::now() + 1s));
    if (e) heard.take(*e);
    ASSERT_LT(Clock::now(), deadline) << "the stream did not reach the shards' end within 120 s; it has "
                                      << heard.standings_games() << " games; " << server.err();
  }
  for (std::size_t i = 0; i < kShardCount; ++i)
    EXPECT_EQ(ended[i]->code, 0) << read_file(temp.path() / ("shard" + std::to_string(i + 1) + ".err"));

  // Each shard's games: every one found by its id, exactly its journal line; those whose plies the stream carried
  // from their first, each ply once and in order, the journal's moves, then their `game` event once.
  std::set<std::string> game_events;
  for (const std::string& id : heard.games) EXPECT_TRUE(game_events.insert(id).second) << "game " << id << " twice";
  std::size_t total = 0;
  for (int i = 1; i <= kShards; ++i) {
    int streamed = 0;
    for (const std::string& line : read_lines(shard_folder(dir, i) / "games.jsonl")) {
      ++total;
      const json::value record = json::parse(line);
      const std::string id(record.at("id").as_string());
      const Response game = get(server.port(), "/api/tournaments/sharded/games/" + id);
      EXPECT_EQ(game.status, 200) << id;
      EXPECT_EQ(game.body, line + "\n") << id;
      const auto plies = heard.plies.find(id);
      if (plies == heard.plies.end() || plies->second.front().at("ply").as_int64() != 0) continue;
      const json::array& moves = record.at("moves").as_array();
      std::string indices;
      for (const json::value& ply : plies->second) indices += " " + json::serialize(ply.at("ply"));
      ASSERT_EQ(plies->second.size(), moves.size())
          << "shard " << i << ", game " << id << ": the plies streamed:" << indices;
      for (std::size_t p = 0; p < moves.size(); ++p) {
        EXPECT_EQ(plies->second[p].at("ply").as_int64(), static_cast<std::int64_t>(p)) << id;
        EXPECT_EQ(plies->second[p].at("move"), moves[p]) << id << " ply " << p;
      }
      EXPECT_TRUE(game_events.contains(id)) << "no `game` event for " << id;
      ++streamed;
    }
    std::string heard_of;
    for (const auto& [id, plies] : heard.plies) heard_of += " " + id + ":" + std::to_string(plies.size());
    EXPECT_GE(streamed, 1) << "no game of shard " << i << " streamed from its first ply; plies heard of" << heard_of
                           << "; the shard's journal:\n"
                           << read_file(shard_folder(dir, i) / "games.jsonl").substr(0, 3000);
  }
  EXPECT_EQ(total, 12u);

  // One tournament in the list, with every game of both shards planned and played.
  const json::value list = json::parse(get(server.port(), "/api/tournaments").body);
  const json::array& tournaments = list.at("tournaments").as_array();
  ASSERT_EQ(tournaments.size(), 1u) << list;
  EXPECT_EQ(tournaments[0].at("name").as_string(), "sharded") << list;
  EXPECT_EQ(tournaments[0].at("games").as_int64(), 12) << list;
  EXPECT_EQ(tournaments[0].at("planned"), json::value(12)) << list;
  EXPECT_EQ(tournaments[0].at("running"), json::value(false)) << list;

  // The standings served are what `arena report` writes when it merges the shards, byte for byte; the stream's
  // last standings are the same document.
  const Response standings = get(server.port(), "/api/tournaments/sharded/standings");
  ASSERT_EQ(standings.status, 200) << standings.body;
  const RunResult merged = run({kArena.string(), "report", dir.string()}, temp.path(), 120s);
  ASSERT_EQ(merged.status.code, 0) << merged.summary();
  EXPECT_NE(merged.out.find("merged 12 games from 2 of 2 shards"), std::string::npos) << merged.out;
  EXPECT_EQ(standings.body, read_file(dir / "standings.json"));
  EXPECT_EQ(json::parse(standings.body), *heard.standings);
}

}  // namespace
}  // namespace kalah::e2e
