// How a KGP agent reaches the server the arena runs for it (docs/KGP.md, "KGP agents in the arena"): over a
// WebSocket with kgp_transport = "websocket" (tests/engines/kgp_ws_agent.py speaks nothing else), in
// `referee check`, `referee match` and an arena round robin; a TCP-only agent given a WebSocket fails its
// start with the reason; and an agent is given the engine's own start-up deadline to connect, not a fixed one.
#include <gtest/gtest.h>

#include "referee/record/record_json.h"
#include "tests/e2e_util.h"

namespace kalah {
namespace {

const std::string kWsAgent = KALAH_SOURCE_DIR "/tests/engines/kgp_ws_agent.py";
const std::string kTcpAgent = KALAH_SOURCE_DIR "/tests/engines/kgp_agent.py";

// The records of one `referee match` between the agent (`engine`: the words of its --engine) and kalah-greedy.
std::vector<GameRecord> match_records(const std::vector<std::string>& engine, const std::vector<std::string>& more,
                                      e2e::RunResult& run) {
  std::vector<std::string> argv = {e2e::kReferee.string(), "match", "--engine"};
  argv.insert(argv.end(), engine.begin(), engine.end());
  for (const char* a : {"--engine", "cmd=kalah-greedy", "--games", "1", "--movetime", "1000", "--variant",
                        "pits=6 seeds=4 majority=on"})
    argv.push_back(a);
  argv.insert(argv.end(), more.begin(), more.end());
  system::TempFolder scratch{"kalah-e2e"};
  run = e2e::run(argv, scratch.path(), std::chrono::milliseconds(180000));
  std::vector<GameRecord> records;
  for (const std::string& line : e2e::lines_starting(run.out, "{")) {
    Expected<GameRecord> g = record_from_json(line);
    EXPECT_TRUE(g.ok()) << line;
    if (g) records.push_back(*g);
  }
  return records;
}

// Every move of `g` legal, from its start to its end.
void expect_played_by_the_rules(const GameRecord& g) {
  Position p = g.initial_position();
  for (Move m : g.moves) {
    ASSERT_TRUE(is_legal(g.variant, p, m));
    apply(g.variant, p, m);
  }
  EXPECT_TRUE(p.over);
}

TEST(KgpTransportE2E, AWebSocketOnlyAgentPassesEveryKgpCheck) {
  system::TempFolder scratch{"kalah-e2e"};
  const e2e::RunResult r =
      e2e::run({e2e::kReferee.string(), "check", "--engine", "cmd=python3", "arg=" + kWsAgent, "name=ws",
                "protocol=kgp", "kgp_transport=websocket", "--ping-ms", "2000", "--tc", "2+0.02", "--movetime", "500"},
               scratch.path(), std::chrono::milliseconds(180000));
  EXPECT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.out.find("PASS handshake: 'websocket greedy'"), std::string::npos) << r.out;
  EXPECT_EQ(e2e::lines_starting(r.out, "FAIL").size(), 0u) << r.out;
  EXPECT_GE(e2e::lines_starting(r.out, "PASS move kalah(6,4) ").size(), 5u) << r.out;
  // The game under the clock goes through `referee kgp-host --websocket`.
  EXPECT_EQ(e2e::lines_starting(r.out, "PASS clock: a game against itself").size(), 1u) << r.out;
}

// The agent finds its server by `{kgp_url}` in its arguments (as the Go client kgpc takes it) as well as by
// KGP_HOST (the Python and Java clients' way).
TEST(KgpTransportE2E, AWebSocketOnlyAgentPlaysAMatchGivenItsUrlAsAnArgument) {
  e2e::RunResult run;
  const std::vector<GameRecord> games =
      match_records({"cmd=python3", "arg=" + kWsAgent, "arg=--server", "arg={kgp_url}", "name=ws", "protocol=kgp",
                     "kgp_transport=websocket"},
                    {}, run);
  ASSERT_EQ(games.size(), 1u) << run.summary();
  EXPECT_FALSE(games[0].forfeit.has_value()) << games[0].forfeit->engine << ": " << games[0].forfeit->detail;
  expect_played_by_the_rules(games[0]);
}

TEST(KgpTransportE2E, AWebSocketOnlyAgentPlaysARoundRobinWithoutForfeits) {
  system::TempFolder scratch{"kalah-e2e"};
  test::write_file(scratch.path() / "ws.toml", R"([tournament]
name = "ws"
type = "round-robin"
rounds = 1
concurrency = 2
[variant]
majority = "on"
[time]
base_ms = 60000
inc_ms = 100
[[engine]]
name = "ws-agent"
cmd = "python3"
args = [")" + kWsAgent + R"("]
protocol = "kgp"
kgp_transport = "websocket"
[[engine]]
name = "greedy"
cmd = "kalah-greedy"
[[engine]]
name = "random"
cmd = "kalah-random"
)");
  const e2e::RunResult r = e2e::run({e2e::kArena.string(), "run", (scratch.path() / "ws.toml").string(), "--out",
                                     (scratch.path() / "results").string()},
                                    scratch.path(), std::chrono::milliseconds(180000));
  ASSERT_EQ(r.status.code, 0) << r.summary();
  int games = 0;
  for (const std::string& line : e2e::lines_starting(test::read_file(scratch.path() / "results/ws/games.jsonl"), "{")) {
    Expected<GameRecord> g = record_from_json(line);
    ASSERT_TRUE(g.ok()) << line;
    EXPECT_FALSE(g->forfeit.has_value()) << g->forfeit->engine << ": " << g->forfeit->detail;
    expect_played_by_the_rules(*g);
    ++games;
  }
  EXPECT_EQ(games, 6);
}

// A TCP-only agent told a WebSocket server's port connects over TCP and waits for the greeting, which a
// WebSocket server only sends after the upgrade: its start fails, saying so, in the checks and in a game.
TEST(KgpTransportE2E, ATcpOnlyAgentServedOverAWebSocketFailsItsStartWithTheReason) {
  const std::string reason = "as a WebSocket client within";
  const std::string advice = "an agent that speaks KGP over plain TCP needs kgp_transport = \"tcp\"";
  system::TempFolder scratch{"kalah-e2e"};
  const e2e::RunResult checked =
      e2e::run({e2e::kReferee.string(), "check", "--engine", "cmd=python3", "arg=" + kTcpAgent, "arg=--server",
                "arg=:{kgp_port}", "name=tcp", "protocol=kgp", "kgp_transport=websocket", "--startup-ms", "3000"},
               scratch.path(), std::chrono::milliseconds(120000));
  EXPECT_EQ(checked.status.code, 1) << checked.summary();
  const std::vector<std::string> handshake = e2e::lines_starting(checked.out, "FAIL handshake: startup: ");
  ASSERT_EQ(handshake.size(), 1u) << checked.out;
  EXPECT_NE(handshake[0].find(reason), std::string::npos) << handshake[0];
  EXPECT_NE(handshake[0].find("it sent no WebSocket upgrade request"), std::string::npos) << handshake[0];
  EXPECT_NE(handshake[0].find(advice), std::string::npos) << handshake[0];

  e2e::RunResult run;
  const std::vector<GameRecord> games =
      match_records({"cmd=python3", "arg=" + kTcpAgent, "arg=--server", "arg=:{kgp_port}", "name=tcp", "protocol=kgp",
                     "kgp_transport=websocket"},
                    {"--startup-ms", "3000"}, run);
  ASSERT_EQ(games.size(), 1u) << run.summary();
  ASSERT_TRUE(games[0].forfeit.has_value()) << run.summary();
  EXPECT_EQ(games[0].forfeit->engine, "tcp");
  EXPECT_EQ(games[0].forfeit->reason, Termination::Startup);
  EXPECT_NE(games[0].forfeit->detail.find(reason), std::string::npos) << games[0].forfeit->detail;
  EXPECT_NE(games[0].forfeit->detail.find(advice), std::string::npos) << games[0].forfeit->detail;
}

TEST(KgpTransportE2E, KgpTransportIsAKgpAgentsKeyAndKgpUrlAWebSocketsPlaceholder) {
  system::TempFolder scratch{"kalah-e2e"};
  const e2e::RunResult kep = e2e::run(
      {e2e::kReferee.string(), "check", "--engine", "cmd=python3", "arg=" + kWsAgent, "kgp_transport=websocket"},
      scratch.path());
  EXPECT_EQ(kep.status.code, 2) << kep.summary();
  EXPECT_NE(kep.err.find("kgp_transport applies to protocol=kgp only"), std::string::npos) << kep.summary();
  const e2e::RunResult tcp = e2e::run(
      {e2e::kReferee.string(), "check", "--engine", "cmd=python3", "arg=" + kWsAgent, "arg={kgp_url}", "protocol=kgp"},
      scratch.path());
  EXPECT_EQ(tcp.status.code, 2) << tcp.summary();
  EXPECT_NE(tcp.err.find("{kgp_url} is the URL of a server over a WebSocket"), std::string::npos) << tcp.summary();
}

// `referee kgp-host` once gave every agent 4 s to connect, whatever the engine's start-up deadline: an agent
// that starts in more than 4 s now plays within a deadline of 60 s, and one that starts later than its
// deadline is a start-up forfeit saying that it did not connect (not only that the host gave no kepok).
TEST(KgpTransportE2E, AnAgentIsGivenTheEnginesStartupDeadlineToConnect) {
  e2e::RunResult slow_run;
  const std::vector<GameRecord> slow =
      match_records({"cmd=python3", "arg=" + kTcpAgent, "arg=--sleep-ms", "arg=4500", "name=slow", "protocol=kgp"},
                    {"--startup-ms", "60000"}, slow_run);
  ASSERT_EQ(slow.size(), 1u) << slow_run.summary();
  EXPECT_FALSE(slow[0].forfeit.has_value()) << slow[0].forfeit->engine << ": " << slow[0].forfeit->detail;

  e2e::RunResult late_run;
  const std::vector<GameRecord> late =
      match_records({"cmd=python3", "arg=" + kTcpAgent, "arg=--sleep-ms", "arg=4500", "name=late", "protocol=kgp"},
                    {"--startup-ms", "2000"}, late_run);
  ASSERT_EQ(late.size(), 1u) << late_run.summary();
  ASSERT_TRUE(late[0].forfeit.has_value()) << late_run.summary();
  EXPECT_EQ(late[0].forfeit->reason, Termination::Startup) << late[0].forfeit->detail;
  // The host's own reason (2000 ms less the 400 ms it keeps for its answer), unless the machine was so busy
  // that the arena's deadline came first.
  const std::string& detail = late[0].forfeit->detail;
  if (detail.find("kgp-host") != std::string::npos) {
    EXPECT_NE(detail.find("did not connect to KGP_HOST:KGP_PORT within 1600 ms"), std::string::npos) << detail;
  }
}

}  // namespace
}  // namespace kalah
