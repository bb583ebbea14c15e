// `referee kgp-host` end to end: a KGP agent (tests/engines/kgp_agent.py, in the style of the course's
// Python client) plays `referee match` games against a bundled bot as a KEP engine, and each way it can
// fail is recorded as the forfeit it is.
#include <gtest/gtest.h>

#include <cstdlib>

#include "referee/record/record_json.h"
#include "tests/e2e_util.h"

namespace kalah {
namespace {

const std::string kAgent = KALAH_SOURCE_DIR "/tests/engines/kgp_agent.py";

// The records of `referee match` between the agent (run with `host_flags` and `agent_flags`) and kalah-greedy.
// The agent answers at once; its second of a move only matters on a loaded machine.
std::vector<GameRecord> match(const std::vector<std::string>& host_flags, const std::vector<std::string>& agent_flags,
                              int games) {
  std::vector<std::string> argv = {e2e::kReferee.string(),          "match",       "--engine",
                                   "cmd=" + e2e::kReferee.string(), "name=kgp-py", "arg=kgp-host"};
  for (const std::string& f : host_flags) argv.push_back("arg=" + f);
  for (const std::string& a : {std::string("--"), std::string("python3"), kAgent}) argv.push_back("arg=" + a);
  for (const std::string& f : agent_flags) argv.push_back("arg=" + f);
  for (const std::string& a : std::vector<std::string>{"--engine", "cmd=kalah-greedy", "--games", std::to_string(games),
                                                       "--movetime", "1000", "--variant", "pits=6 seeds=4 majority=on"})
    argv.push_back(a);
  system::TempFolder scratch{"kalah-e2e"};
  const e2e::RunResult r = e2e::run(argv, scratch.path(), std::chrono::milliseconds(120000));
  std::vector<GameRecord> records;
  for (const std::string& line : e2e::lines_starting(r.out, "{")) {
    Expected<GameRecord> g = record_from_json(line);
    EXPECT_TRUE(g.ok()) << line;
    if (g) records.push_back(*g);
  }
  EXPECT_EQ(records.size(), static_cast<std::size_t>(games)) << r.summary();
  return records;
}

TEST(KgpHostE2E, AKgpAgentPlaysBothSidesWithoutForfeits) {
  const std::vector<GameRecord> games = match({}, {}, 2);
  for (const GameRecord& g : games) {
    EXPECT_FALSE(g.forfeit.has_value()) << g.forfeit->engine << ": " << g.forfeit->detail;
    Position p = g.initial_position();
    for (Move m : g.moves) {
      ASSERT_TRUE(is_legal(g.variant, p, m));
      apply(g.variant, p, m);
    }
    EXPECT_TRUE(p.over);
  }
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].south, "kgp-py");
  EXPECT_EQ(games[1].north, "kgp-py");
}

// An agent that takes its server as an argument, as the course's Go client kgpc does (`:PORT`), is told it
// by `{kgp_port}` in its arguments.
TEST(KgpHostE2E, AnAgentGivenItsServerAsAnArgumentPlaysWithoutForfeits) {
  const std::vector<GameRecord> games = match({}, {"--server", ":{kgp_port}"}, 1);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_FALSE(games[0].forfeit.has_value()) << games[0].forfeit->engine << ": " << games[0].forfeit->detail;
  EXPECT_EQ(games[0].south, "kgp-py");
}

TEST(KgpHostE2E, NoMoveIsATimeForfeitOrARandomMove) {
  const std::vector<GameRecord> forfeit = match({}, {"--silent"}, 1);
  ASSERT_EQ(forfeit.size(), 1u);
  ASSERT_TRUE(forfeit[0].forfeit.has_value());
  EXPECT_EQ(forfeit[0].forfeit->engine, "kgp-py");
  EXPECT_EQ(forfeit[0].forfeit->reason, Termination::Time);
  EXPECT_NE(forfeit[0].forfeit->stderr_tail.find("yielded without a move"), std::string::npos)
      << forfeit[0].forfeit->stderr_tail;
  const std::vector<GameRecord> random = match({"--no-move", "random"}, {"--silent"}, 1);
  ASSERT_EQ(random.size(), 1u);
  EXPECT_FALSE(random[0].forfeit.has_value()) << random[0].forfeit->detail;
}

TEST(KgpHostE2E, GarbageIsAProtocolForfeitAndAChattyAgentDoesNotBlock) {
  const std::vector<GameRecord> garbage = match({}, {"--garbage"}, 1);
  ASSERT_EQ(garbage.size(), 1u);
  ASSERT_TRUE(garbage[0].forfeit.has_value());
  EXPECT_EQ(garbage[0].forfeit->reason, Termination::Protocol);
  EXPECT_NE(garbage[0].forfeit->detail.find("garbage"), std::string::npos) << garbage[0].forfeit->detail;
  // 64 KiB to stdout and to stderr per state, more than a pipe holds: both reach the arena's stderr relay.
  const std::vector<GameRecord> chatty = match({}, {"--chatty"}, 1);
  ASSERT_EQ(chatty.size(), 1u);
  EXPECT_FALSE(chatty[0].forfeit.has_value()) << chatty[0].forfeit->detail;
}

// The KEP `stop` (docs/PROTOCOL.md): an agent that searches until it is stopped answers `go depth 1000` as
// soon as the arena says `stop`, with its last move; the host used to end a turn only at its own time (60 s
// under `go depth`), long after `referee check`'s second for the answer.
TEST(KgpHostE2E, TheArenasStopEndsTheAgentsTurnWithItsLastMove) {
  system::TempFolder scratch{"kalah-e2e"};
  const e2e::RunResult r =
      e2e::run({e2e::kReferee.string(), "check", "--engine", "cmd=" + e2e::kReferee.string(), "name=host",
                "arg=kgp-host", "arg=--", "arg=python3", "arg=" + kAgent, "arg=--think", "--ping-ms", "2000"},
               scratch.path(), std::chrono::milliseconds(180000));
  const std::vector<std::string> stop = e2e::lines_starting(r.out, "PASS stop: go depth 1000, stop after 300 ms");
  EXPECT_EQ(stop.size(), 1u) << r.summary();
  EXPECT_EQ(e2e::lines_starting(r.out, "PASS quit").size(), 1u) << r.summary();
}

TEST(KgpHostE2E, EachGameHasAHostAndAnAgentOfItsOwn) {
  // protocol=kgp starts `referee kgp-host` afresh for every game: two games, two agents connected.
  system::TempFolder scratch{"kalah-e2e"};
  const e2e::fs::path starts = scratch.path() / "starts.txt";
  ::setenv("KGP_AGENT_STARTS", starts.c_str(), 1);
  const e2e::RunResult r = e2e::run(
      {e2e::kReferee.string(), "match", "--engine", "cmd=python3", "arg=" + kAgent, "name=kgp-py", "protocol=kgp",
       "--engine", "cmd=kalah-greedy", "--games", "2", "--movetime", "1000", "--variant", "pits=6 seeds=4 majority=on"},
      scratch.path(), std::chrono::milliseconds(120000));
  ::unsetenv("KGP_AGENT_STARTS");
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_EQ(e2e::lines_starting(r.out, "{").size(), 2u) << r.summary();
  const std::vector<std::string> pids = e2e::lines_starting(test::read_file(starts), "");
  ASSERT_EQ(pids.size(), 2u) << test::read_file(starts);
  EXPECT_NE(pids[0], pids[1]);
}

TEST(KgpHostE2E, AnArenaConfigPlaysAKgpAgentInARoundRobin) {
  system::TempFolder scratch{"kalah-e2e"};
  const std::string config = R"([tournament]
name = "kgp"
type = "round-robin"
rounds = 1
concurrency = 2
[variant]
majority = "on"
[time]
base_ms = 60000
inc_ms = 100
[[engine]]
name = "kgp-agent"
cmd = "python3"
args = [")" + kAgent + R"("]
protocol = "kgp"
[[engine]]
name = "greedy"
cmd = "kalah-greedy"
[[engine]]
name = "random"
cmd = "kalah-random"
)";
  test::write_file(scratch.path() / "kgp.toml", config);
  const e2e::RunResult r = e2e::run({e2e::kArena.string(), "run", (scratch.path() / "kgp.toml").string(), "--out",
                                     (scratch.path() / "results").string()},
                                    scratch.path(), std::chrono::milliseconds(120000));
  ASSERT_EQ(r.status.code, 0) << r.summary();
  const std::string journal = test::read_file(scratch.path() / "results" / "kgp" / "games.jsonl");
  int games = 0;
  for (const std::string& line : e2e::lines_starting(journal, "{")) {
    Expected<GameRecord> g = record_from_json(line);
    ASSERT_TRUE(g.ok()) << line;
    EXPECT_FALSE(g->forfeit.has_value()) << g->forfeit->engine << ": " << g->forfeit->detail;
    ++games;
  }
  EXPECT_EQ(games, 6);
}

}  // namespace
}  // namespace kalah
