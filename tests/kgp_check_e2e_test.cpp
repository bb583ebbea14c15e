// `referee check` on KGP agents end to end (docs/KGP.md, "Checking a KGP agent"): the agent of
// tests/engines/kgp_agent.py, well behaved and in each of its ways to misbehave, each failure with the
// forfeit reason a game through `referee kgp-host` would record and what the agent did.
#include <gtest/gtest.h>

#include <future>

#include "tests/e2e_util.h"

namespace kalah {
namespace {

const std::string kAgent = KALAH_SOURCE_DIR "/tests/engines/kgp_agent.py";

struct Checked {
  e2e::RunResult run;
  // The line of a check ("PASS ping: ..."), or empty.
  std::string line(const std::string& verdict, const std::string& check) const {
    const std::vector<std::string> found = e2e::lines_starting(run.out, verdict + " " + check);
    return found.empty() ? std::string() : found.front();
  }
  int count(const std::string& prefix) const { return static_cast<int>(e2e::lines_starting(run.out, prefix).size()); }
};

// `referee check` of the agent run with `flag` (none when empty), and `more` words of --engine. The states
// last long enough for a Python agent on a busy machine (`movetime`, and `stop_after` for anytime and ping).
Checked check(const std::string& flag, const std::vector<std::string>& more = {}, const char* movetime = "500",
              const char* stop_after = "300") {
  std::vector<std::string> argv = {e2e::kReferee.string(), "check",      "--engine",    "cmd=python3",
                                   "arg=" + kAgent,        "name=pykgp", "protocol=kgp"};
  if (!flag.empty()) argv.push_back("arg=" + flag);
  argv.insert(argv.end(), more.begin(), more.end());
  // Short deadlines for the pings and a small clock, so that the failures come quickly.
  for (const char* o : {"--ping-ms", "800", "--tc", "2+0.02", "--movetime", movetime, "--stop-after-ms", stop_after})
    argv.push_back(o);
  system::TempFolder scratch{"kalah-e2e"};
  return Checked{e2e::run(argv, scratch.path(), std::chrono::milliseconds(120000))};
}

TEST(KgpCheckE2E, AnAgentThatThinksUntilStopPassesEveryKgpCheck) {
  const Checked c = check("--think");
  EXPECT_EQ(c.run.status.code, 0) << c.run.summary();
  EXPECT_NE(c.run.out.find("protocol kgp"), std::string::npos) << c.run.out;
  EXPECT_NE(c.line("PASS",
                   "handshake: 'pykgp-style greedy' by Kalah Arena tests; `kgp 1 0 0` answered with `mode "
                   "freeplay`"),
            "")
      << c.run.out;
  // Every position of Kalah(6,4) and Kalah(4,3) answered; the pie variant is skipped with the reason.
  EXPECT_GE(c.count("PASS move kalah(6,4) "), 5) << c.run.out;
  EXPECT_GE(c.count("PASS move kalah(4,3) "), 3) << c.run.out;
  EXPECT_NE(c.line("SKIP", "move kalah(6,4) pie: KGP has no swap move"), "") << c.run.out;
  EXPECT_EQ(c.count("FAIL"), 0) << c.run.out;
  // Two moves, the first legal pit and then its choice, and no yield: the last counts at the stop.
  const std::string anytime = c.line("PASS", "anytime: 2 moves (");
  EXPECT_NE(anytime.find("until the stop after 300 ms: the last"), std::string::npos) << c.run.out;
  EXPECT_NE(c.line("PASS", "ping: pong "), "") << c.run.out;
  EXPECT_NE(c.line("PASS", "ping").find("while it thought"), std::string::npos) << c.run.out;
  EXPECT_NE(c.line("PASS", "clock: a game against itself"), "") << c.run.out;
  EXPECT_NE(c.line("PASS", "goodbye: exited with code 0"), "") << c.run.out;
  EXPECT_NE(c.run.out.find(" 0 failed, 1 skipped: ready for a tournament"), std::string::npos) << c.run.out;
}

TEST(KgpCheckE2E, AnAgentThatAnswersAtOnceRevisesNothingAndIsPingedBetweenStates) {
  // The ping is due a third into a state of 3 s: long after the agent has answered it.
  const Checked c = check("", {}, "500", "3000");
  EXPECT_EQ(c.run.status.code, 0) << c.run.summary();
  EXPECT_NE(c.line("PASS", "anytime: 2 moves (").find("then yield after"), std::string::npos) << c.run.out;
  EXPECT_NE(c.line("PASS", "ping").find("between states"), std::string::npos) << c.run.out;
}

// The course's Go client kgpc takes its server as its first argument (`kgpc :PORT AGENT...`, a TCP address
// without a host being this machine) and reads no KGP_HOST or KGP_PORT: `{kgp_port}` in an agent's arguments
// names its server's port, in the referee's own checks and in the game through `referee kgp-host`.
TEST(KgpCheckE2E, AnAgentThatTakesItsServerAsAnArgumentPassesEveryKgpCheck) {
  const Checked c = check("", {"arg=--server", "arg=:{kgp_port}"});
  EXPECT_EQ(c.run.status.code, 0) << c.run.summary();
  EXPECT_EQ(c.count("FAIL"), 0) << c.run.out;
  EXPECT_NE(c.line("PASS", "handshake: 'pykgp-style greedy'"), "") << c.run.out;
  EXPECT_NE(c.line("PASS", "clock: a game against itself"), "") << c.run.out;
}

TEST(KgpCheckE2E, AMisspeltOrMisplacedServerPlaceholderIsAUsageError) {
  system::TempFolder scratch{"kalah-e2e"};
  const e2e::RunResult misspelt = e2e::run({e2e::kReferee.string(), "check", "--engine", "cmd=python3", "arg=" + kAgent,
                                            "arg=--server", "arg=:{kgp_prt}", "protocol=kgp"},
                                           scratch.path());
  EXPECT_EQ(misspelt.status.code, 2) << misspelt.summary();
  EXPECT_NE(misspelt.err.find("arg=:{kgp_prt}: '{kgp_prt}' is no placeholder"), std::string::npos)
      << misspelt.summary();
  const e2e::RunResult kep = e2e::run(
      {e2e::kReferee.string(), "check", "--engine", "cmd=python3", "arg=" + kAgent, "arg=:{kgp_port}"}, scratch.path());
  EXPECT_EQ(kep.status.code, 2) << kep.summary();
  EXPECT_NE(kep.err.find("name the server of a KGP agent (protocol=kgp)"), std::string::npos) << kep.summary();
}

TEST(KgpCheckE2E, NoPongFailsThePingCheckWithoutAForfeit) {
  const Checked c = check("--no-pong");
  EXPECT_EQ(c.run.status.code, 1) << c.run.summary();
  EXPECT_NE(c.line("FAIL", "ping: no pong within 800 ms of a ping sent"), "") << c.run.out;
  EXPECT_NE(c.line("FAIL", "ping").find("while it thought"), std::string::npos) << c.run.out;
  EXPECT_EQ(c.count("FAIL"), 1) << c.run.out;
  EXPECT_NE(c.run.out.find("the referee would not forfeit it for these"), std::string::npos) << c.run.out;
}

TEST(KgpCheckE2E, GarbageIsAProtocolFailureOfEveryMove) {
  const Checked c = check("--garbage");
  EXPECT_EQ(c.run.status.code, 1) << c.run.summary();
  EXPECT_NE(c.line("FAIL", "move kalah(6,4) start: protocol: garbage"), "") << c.run.out;
  EXPECT_NE(c.line("FAIL", "move kalah(6,4) start").find("move <<not kgp"), std::string::npos) << c.run.out;
  // The agent is started again after each failure, as after a forfeit, and fails the same way.
  EXPECT_EQ(c.count("PASS move"), 0) << c.run.out;
  EXPECT_NE(c.line("FAIL", "clock: protocol:"), "") << c.run.out;
  EXPECT_NE(c.run.out.find("it would lose games by forfeit (protocol)"), std::string::npos) << c.run.out;
}

TEST(KgpCheckE2E, NoMoveIsATimeFailureUnlessKgpNoMoveIsRandom) {
  // The three checks at once: each waits out its deadlines and restarts its agent after every failed position.
  auto mute_run = std::async(std::launch::async, [] { return check("--mute", {}, "100"); });
  auto silent_run = std::async(std::launch::async, [] { return check("--silent", {}, "100"); });
  auto random_run = std::async(std::launch::async, [] { return check("--mute", {"kgp_no_move=random"}, "100"); });
  const Checked mute = mute_run.get();
  EXPECT_EQ(mute.run.status.code, 1) << mute.run.summary();
  EXPECT_NE(mute.line("FAIL", "move kalah(6,4) start: time: no move before the stop after 100 ms"), "") << mute.run.out;
  EXPECT_NE(mute.line("FAIL", "anytime: time: no move before the stop after 300 ms"), "") << mute.run.out;
  // Yielding without a move is the same failure.
  const Checked silent = silent_run.get();
  EXPECT_NE(silent.line("FAIL", "move kalah(6,4) start: time: yielded without a move"), "") << silent.run.out;
  // With kgp_no_move = "random" a game gets a random move: still a failure, but no forfeit.
  const Checked random = random_run.get();
  EXPECT_EQ(random.run.status.code, 1) << random.run.summary();
  const std::string line = random.line("FAIL", "move kalah(6,4) start: no move before the stop");
  EXPECT_NE(line.find("kgp_no_move = \"random\": a game gets a random move"), std::string::npos) << random.run.out;
  EXPECT_NE(random.line("PASS", "clock"), "") << random.run.out;
}

TEST(KgpCheckE2E, AnAgentThatNeverConnectsFailsTheHandshake) {
  system::TempFolder scratch{"kalah-e2e"};
  const e2e::RunResult r =
      e2e::run({e2e::kReferee.string(), "check", "--engine", "cmd=python3", "arg=-c", "arg=import sys; sys.exit(3)",
                "name=gone", "protocol=kgp", "--startup-ms", "20000"},
               scratch.path());
  EXPECT_EQ(r.status.code, 1) << r.summary();
  // Reported as soon as it ends, with how it ended (before, a loaded machine could reach the startup deadline
  // before the exit was seen, and the reason lost how it ended).
  EXPECT_NE(r.out.find("FAIL handshake: startup: exited before it connected to KGP_HOST:KGP_PORT (it exited "
                       "with code 3)"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace kalah
