// The live stream end to end (docs/SERVE.md, "The live stream"): `arena serve` started first over an empty
// results folder, then a real `arena run`; a plain socket reads /api/tournaments/NAME/live and sees the plies of
// a game arrive, then that game's `game` event; it disconnects, reconnects with Last-Event-ID, and the plies of
// every finished game it heard of arrive once each across the two connections, matching the journal's moves.
// Every wait is bounded (60 s); nothing is timed.
#include <gtest/gtest.h>

#include <poll.h>
#include <sys/socket.h>

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

struct SseEvent {
  std::string id, kind, data;
};

// A client of an SSE stream over a plain socket: the request by hand, the response's header checked, then
// the events one by one, each read before a deadline.
class SseClient {
 public:
  SseClient(unsigned short port, const std::string& target, const std::string& last_event_id = "")
      : socket_(connect_to(io_, port)) {
    std::string request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n";
    if (!last_event_id.empty()) request += "Last-Event-ID: " + last_event_id + "\r\n";
    asio::write(socket_, asio::buffer(request + "\r\n"));
  }

  // The response's header (status line included), or none before the deadline.
  std::optional<std::string> header(Clock::time_point deadline) {
    while (buffer_.find("\r\n\r\n") == std::string::npos)
      if (!fill(deadline)) return std::nullopt;
    const std::size_t end = buffer_.find("\r\n\r\n") + 4;
    std::string text = buffer_.substr(0, end);
    buffer_.erase(0, end);
    return text;
  }

  // The next event (comments and the retry field passed over), or none before the deadline or at the end.
  std::optional<SseEvent> next(Clock::time_point deadline) {
    for (;;) {
      const std::size_t end = buffer_.find("\n\n");
      if (end == std::string::npos) {
        if (!fill(deadline)) return std::nullopt;
        continue;
      }
      const std::string block = buffer_.substr(0, end);
      buffer_.erase(0, end + 2);
      SseEvent event;
      for (const std::string& line : lines_of(block)) {
        if (line.starts_with("id: ")) event.id = line.substr(4);
        if (line.starts_with("event: ")) event.kind = line.substr(7);
        if (line.starts_with("data: ")) event.data = line.substr(6);
      }
      if (!event.kind.empty()) return event;
    }
  }

 private:
  static std::vector<std::string> lines_of(const std::string& block) {
    std::vector<std::string> lines;
    for (std::size_t at = 0; at <= block.size();) {
      const std::size_t end = std::min(block.find('\n', at), block.size());
      lines.push_back(block.substr(at, end - at));
      at = end + 1;
    }
    return lines;
  }
  // Reads what arrived, waiting until the deadline; false at the deadline or the end of the stream.
  bool fill(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{socket_.native_handle(), POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000))) <= 0) return Clock::now() < deadline;
    char chunk[16384];
    const ssize_t n = ::recv(socket_.native_handle(), chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }

  asio::io_context io_;
  tcp::socket socket_;
  std::string buffer_;
};

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
