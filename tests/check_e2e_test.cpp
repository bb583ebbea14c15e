// End-to-end tests of `referee check`: the real executable against the bundled bots (every check passes,
// exit 0), against each misbehaviour of tests/engines/bad_engine (exit 1, the FAIL line of the check it
// breaks, naming the forfeit reason a tournament would record, and no process left behind), against the
// sandbox probes and instant_engine, which speak the protocol correctly (pass), a Manchester agent (the
// checks that apply pass, the others are skipped), --json, and usage errors (exit 2).
//
// Timings are not what is tested here: the margin is generous wherever a correct engine must pass, so a
// busy machine does not fail it; the misbehaving engines miss their deadlines by far.
#include <gtest/gtest.h>

#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include "tests/e2e_util.h"

namespace kalah {
namespace {

namespace json = boost::json;
using e2e::fs::path;

const path kEngines = KALAH_BINARY_DIR "/tests/engines";
const std::string kMargin = "1000";  // for engines that must pass

e2e::RunResult check(const std::vector<std::string>& args, const path& scratch) {
  std::vector<std::string> argv = {e2e::kReferee.string(), "check"};
  argv.insert(argv.end(), args.begin(), args.end());
  return e2e::run(argv, scratch, std::chrono::seconds(120));
}

using e2e::lines_starting;

// ---- engines that speak the protocol correctly -----------------------------------------------------

struct GoodEngine {
  std::string name;
  std::vector<std::string> engine;  // the words of --engine
  bool positions = false;           // it announces `feature positions`: games from other starts are checked
  bool bench = false;               // it announces `feature bench`: its bench is checked
};

class CheckPasses : public ::testing::TestWithParam<GoodEngine> {};

TEST_P(CheckPasses, EveryCheckPassesAndTheExitCodeIsZero) {
  system::TempFolder dir{"kalah-e2e"};
  std::vector<std::string> args = {"--margin", kMargin, "--quit-ms", kMargin, "--engine"};
  args.insert(args.end(), GetParam().engine.begin(), GetParam().engine.end());
  args.push_back("name=" + GetParam().name);
  const e2e::RunResult r = check(args, dir.path());
  EXPECT_EQ(r.status.code, 0) << r.summary();
  EXPECT_TRUE(lines_starting(r.out, "FAIL").empty()) << r.summary();
  // Every KEP check ran: the handshake, the options, isready, three newgames, the positions, the clock game,
  // stop and quit.
  for (const char* check :
       {"PASS handshake", "PASS options", "PASS isready", "PASS newgame kalah(6,4):", "PASS newgame kalah(6,4) pie:",
        "PASS newgame kalah(4,3):", "PASS move kalah(6,4) extra-turn:", "PASS move kalah(6,4) pie pie-offer:",
        "PASS move kalah(6,4) pie after-swap:", "PASS move kalah(6,4) one-legal-move:", "PASS move kalah(6,4) endgame:",
        "PASS clock:", "PASS stop:", "PASS quit:"})
    EXPECT_EQ(lines_starting(r.out, check).size(), 1u) << check << "\n" << r.summary();
  EXPECT_EQ(lines_starting(r.out, GetParam().name + ": ").size(), 1u) << r.summary();
  EXPECT_EQ(lines_starting(r.out, "PASS move kalah(6,4) from-start:").size(), GetParam().positions ? 2u : 0u)
      << r.summary();
  EXPECT_EQ(lines_starting(r.out, "SKIP move kalah(6,4) from-start: no 'feature positions'").size(),
            GetParam().positions ? 0u : 1u)
      << r.summary();
  EXPECT_EQ(lines_starting(r.out, "PASS bench: bench nodes ").size(), GetParam().bench ? 1u : 0u) << r.summary();
  EXPECT_EQ(lines_starting(r.out, "SKIP bench: no 'feature bench'").size(), GetParam().bench ? 0u : 1u) << r.summary();
  const int skipped = !GetParam().positions + !GetParam().bench;
  EXPECT_NE(r.out.find(" 0 failed, " + std::to_string(skipped) + " skipped: ready for a tournament"), std::string::npos)
      << r.summary();
}

const std::string kBots = KALAH_BINARY_DIR "/bots/";

INSTANTIATE_TEST_SUITE_P(
    Engines, CheckPasses,
    ::testing::Values(
        GoodEngine{"random", {"cmd=" + kBots + "kalah-random"}, true, true},
        GoodEngine{"greedy", {"cmd=" + kBots + "kalah-greedy"}, true, true},
        GoodEngine{"alphabeta", {"cmd=" + kBots + "kalah-alphabeta"}, true, true},
        GoodEngine{"mcts", {"cmd=" + kBots + "kalah-mcts"}, true, true},
        GoodEngine{"solver", {"cmd=" + kBots + "kalah-solver"}, true, true},
        GoodEngine{"pyrandom", {"cmd=/usr/bin/python3", "arg=" KALAH_SOURCE_DIR "/bots/python/random_bot.py"}, true},
        GoodEngine{
            "pyexample", {"cmd=/usr/bin/python3", "arg=" KALAH_SOURCE_DIR "/bots/python/example_bot.py"}, true, true},
        GoodEngine{"instant", {"cmd=" + (kEngines / "instant_engine").string()}},
        // The sandbox probes that only look around, then speak KEP as instant_engine does.
        GoodEngine{"affinity", {"cmd=" + (kEngines / "hostile_engine").string(), "arg=affinity"}},
        GoodEngine{"reader", {"cmd=" + (kEngines / "hostile_engine").string(), "arg=read", "arg=/etc/hostname"}},
        GoodEngine{"connect", {"cmd=" + (kEngines / "hostile_engine").string(), "arg=connect", "arg=9"}},
        GoodEngine{"stderr", {"cmd=" + (kEngines / "hostile_engine").string(), "arg=stderr", "arg=1"}}),
    [](const ::testing::TestParamInfo<GoodEngine>& info) {
      std::string name = info.param.name;
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

// ---- engines that break the protocol ------------------------------------------------------------

struct Misbehaviour {
  std::string name;
  std::vector<std::string> flags;         // bad_engine's arguments
  std::vector<std::string> fail_texts;    // each in a FAIL line ("move kalah(6,4) start: crash: ")
  std::string forfeit;                    // the forfeit reason named in the summary; empty: none
  std::vector<std::string> options = {};  // more options of referee check
};
void PrintTo(const Misbehaviour& m, std::ostream* os) { *os << m.name; }
void PrintTo(const GoodEngine& e, std::ostream* os) { *os << e.name; }

// True when a line of `text` starts with "FAIL " and holds `part`.
bool fails_with(const std::string& text, const std::string& part) {
  for (const std::string& line : lines_starting(text, "FAIL "))
    if (line.find(part) != std::string::npos) return true;
  return false;
}

class CheckFails : public ::testing::TestWithParam<Misbehaviour> {};

TEST_P(CheckFails, TheBrokenCheckFailsWithItsForfeitReasonAndNothingIsLeftRunning) {
  const Misbehaviour& m = GetParam();
  system::TempFolder dir{"kalah-e2e"};
  const std::string marker = e2e::unique_marker();
  const path bad = e2e::copy_executable(e2e::kBadEngine, dir.path(), marker + "b");
  std::vector<std::string> args = m.options;
  args.insert(args.end(), {"--engine", "cmd=" + bad.string(), "name=bad"});
  for (const std::string& flag : m.flags) args.push_back("arg=" + flag);
  const e2e::RunResult r = check(args, dir.path());
  EXPECT_EQ(r.status.code, 1) << r.summary();
  for (const std::string& part : m.fail_texts) EXPECT_TRUE(fails_with(r.out, part)) << part << "\n" << r.summary();
  const std::vector<std::string> summary = lines_starting(r.out, "bad: ");
  ASSERT_EQ(summary.size(), 1u) << r.summary();
  if (m.forfeit.empty())
    EXPECT_NE(summary[0].find("the referee would not forfeit"), std::string::npos) << summary[0];
  else
    EXPECT_NE(summary[0].find(m.forfeit, summary[0].find("lose games by forfeit (")), std::string::npos) << summary[0];
  EXPECT_TRUE(e2e::wait_until_gone(marker).empty()) << e2e::describe(e2e::find_processes(marker));
}

INSTANTIATE_TEST_SUITE_P(
    BadEngine, CheckFails,
    ::testing::Values(
        Misbehaviour{"crash_at_start",
                     {"--crash-at-start"},
                     {"handshake: startup: ", "ModuleNotFoundError: No module named 'numpy'\""},
                     "startup"},
        Misbehaviour{"crash_on_go", {"--crash-on-go", "1"}, {"move kalah(6,4) start: crash: "}, "crash"},
        // It ignores stop too: its search never ends.
        Misbehaviour{"hang_on_go",
                     {"--hang-on-go", "1"},
                     {"move kalah(6,4) start: time: ", "stop: time: no bestmove within 1000 ms after stop"},
                     "time"},
        Misbehaviour{"slow", {"--slow", "1000"}, {"move kalah(6,4) start: time: "}, "time", {"--margin", "200"}},
        Misbehaviour{"illegal", {"--illegal"}, {"move kalah(6,4) start: illegal: bestmove 99"}, "illegal"},
        Misbehaviour{"garbage", {"--garbage"}, {"move kalah(6,4) start: protocol: expected bestmove"}, "protocol"},
        Misbehaviour{
            "endless_line", {"--endless-line"}, {"move kalah(6,4) start: protocol: line too long"}, "protocol"},
        Misbehaviour{"close_stdout", {"--close-stdout"}, {"isready: crash: closed its output"}, "crash"},
        Misbehaviour{"close_stdin", {"--close-stdin"}, {"isready: crash: closed its input"}, "crash"},
        // Which request takes the unasked bestmove depends on when it arrives: one of them fails.
        Misbehaviour{"stale_bestmove", {"--stale-bestmove"}, {"protocol: bestmove before it was asked"}, "protocol"},
        // Board-less: pit 1 is fine at the start, not where the only legal move is another pit.
        Misbehaviour{"boardless", {}, {"move kalah(6,4) one-legal-move: illegal: bestmove 1"}, "illegal"},
        // Quitting late is not a forfeit, but the referee kills it; the positions still fail (board-less).
        Misbehaviour{"ignore_quit", {"--ignore-quit"}, {"quit: still running 200 ms after quit"}, "illegal"},
        Misbehaviour{"ignore_sigterm", {"--ignore-sigterm"}, {"quit: still running"}, "illegal"},
        // It announces start positions but keeps no board: North's pit 1 is empty in the first start.
        Misbehaviour{"positions_without_a_board",
                     {"--positions"},
                     {"move kalah(6,4) from-start: illegal: bestmove 1 (legal: 2 4 6) (position "
                      "6,0,6,0,6,0/0,6,0,6,0,6 1-1 N)"},
                     "illegal"},
        // A bench is no game: its failures are not forfeits (the summary names the board-less engine's illegal
        // moves), and the engine is killed, so the checks after it start a fresh one.
        Misbehaviour{"bench_hang",
                     {"--bench-hang"},
                     {"bench: protocol: no 'bench nodes <count>' within 300 ms (`arena sprt --bench` refuses"},
                     "illegal",
                     {"--bench-ms", "300"}},
        Misbehaviour{
            "bench_garbage",
            {"--bench-reply", "bench nodes many"},
            {"bench: protocol: bench: 'nodes' needs a non-negative whole number, got 'many': bench nodes many"},
            "illegal"},
        Misbehaviour{"bench_banner",
                     {"--bench-reply", "benchmark done"},
                     {"bench: protocol: expected 'bench nodes <count>', got: benchmark done"},
                     "illegal"},
        Misbehaviour{"bench_unstable",
                     {"--bench-nodes", "5,6"},
                     {"bench: two benches gave 5 and then 6 nodes: the count must be the same every time"},
                     "illegal"}),
    [](const ::testing::TestParamInfo<Misbehaviour>& info) { return info.param.name; });

TEST(Check, AFailedBenchLeavesTheChecksAfterItToAFreshEngine) {
  system::TempFolder dir{"kalah-e2e"};
  const e2e::RunResult r = check(
      {"--bench-ms", "300", "--engine", "cmd=" + (kEngines / "bad_engine").string(), "name=bad", "arg=--bench-hang"},
      dir.path());
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_EQ(lines_starting(r.out, "FAIL bench: ").size(), 1u) << r.summary();
  EXPECT_EQ(lines_starting(r.out, "PASS newgame kalah(6,4): ").size(), 1u) << r.summary();
  EXPECT_EQ(lines_starting(r.out, "PASS move kalah(6,4) start: ").size(), 1u) << r.summary();
}

TEST(Check, AnEngineThatAnswersBenchAlikeTwicePasses) {
  system::TempFolder dir{"kalah-e2e"};
  const e2e::RunResult r =
      check({"--engine", "cmd=" + (kEngines / "bad_engine").string(), "name=bad", "arg=--bench-nodes", "arg=123456"},
            dir.path());
  const std::vector<std::string> lines = lines_starting(r.out, "PASS bench: ");
  ASSERT_EQ(lines.size(), 1u) << r.summary();
  EXPECT_EQ(lines[0].rfind("PASS bench: bench nodes 123456 twice, after ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find("(deadline 60000 ms)"), std::string::npos) << lines[0];
}

// ---- the rest ----------------------------------------------------------------------------------------

TEST(Check, AManchesterAgentPassesWhatAppliesAndTheRestIsSkipped) {
  system::TempFolder dir{"kalah-e2e"};
  // The agent is a Python program started for every game: its start-up counts towards its first move.
  const e2e::RunResult r =
      check({"--movetime", "1000", "--margin", kMargin, "--engine", "cmd=/usr/bin/python3",
             "arg=" KALAH_SOURCE_DIR "/tests/engines/mankalah_agent.py", "protocol=mankalah", "name=agent"},
            dir.path());
  EXPECT_EQ(r.status.code, 0) << r.summary();
  for (const char* line :
       {"SKIP handshake: the Manchester protocol has none", "SKIP bench:", "SKIP stop:", "SKIP quit:",
        "PASS move kalah(7,7) pie start:", "PASS move kalah(7,7) pie pie-offer:", "PASS clock:"})
    EXPECT_EQ(lines_starting(r.out, line).size(), 1u) << line << "\n" << r.summary();
  EXPECT_TRUE(lines_starting(r.out, "FAIL").empty()) << r.summary();
}

TEST(Check, JsonGivesOneObjectPerEngineWithEveryCheck) {
  system::TempFolder dir{"kalah-e2e"};
  const e2e::RunResult r = check({"--json", "--margin", kMargin, "--engine", "cmd=" + kBots + "kalah-greedy",
                                  "--engine", "cmd=" + e2e::kBadEngine.string(), "name=bad", "arg=--illegal"},
                                 dir.path());
  EXPECT_EQ(r.status.code, 1) << r.summary();
  std::istringstream lines(r.out);
  std::vector<json::object> objects;
  for (std::string line; std::getline(lines, line);) objects.push_back(json::parse(line).as_object());
  ASSERT_EQ(objects.size(), 2u) << r.out;
  EXPECT_EQ(objects[0].at("engine").as_string(), "kalah-greedy");
  EXPECT_EQ(objects[0].at("failed").as_int64(), 0);
  EXPECT_GE(objects[0].at("checks").as_array().size(), 20u);
  EXPECT_EQ(objects[1].at("engine").as_string(), "bad");
  EXPECT_GT(objects[1].at("failed").as_int64(), 0);
  EXPECT_EQ(objects[1].at("forfeits").as_array(), json::array{"illegal"});
  bool named = false;
  for (const json::value& c : objects[1].at("checks").as_array())
    named = named || (c.at("result") == "fail" && c.at("forfeit") == "illegal");
  EXPECT_TRUE(named) << r.out;
}

TEST(Check, AnOptionTheEngineDoesNotDeclareFailsTheOptionsCheck) {
  system::TempFolder dir{"kalah-e2e"};
  const e2e::RunResult r =
      check({"--margin", kMargin, "--engine", "cmd=" + kBots + "kalah-alphabeta", "option.Dept=2"}, dir.path());
  EXPECT_EQ(r.status.code, 1) << r.summary();
  const std::vector<std::string> failed = lines_starting(r.out, "FAIL options:");
  ASSERT_EQ(failed.size(), 1u) << r.summary();
  EXPECT_NE(failed[0].find("option 'Dept' is not one the engine declares (did you mean 'Depth'?)"), std::string::npos)
      << failed[0];
}

TEST(Check, UsageErrorsExitWithTwo) {
  system::TempFolder dir{"kalah-e2e"};
  const std::string random = "cmd=" + kBots + "kalah-random";
  const std::vector<std::vector<std::string>> cases = {
      {},
      {"--engine", "name=x"},
      {"--engine", random, "colour=blue"},
      {"--engine", "cmd=/nonexistent/engine"},
      {"--engine", random, "protocol=uci"},
      {"--engine", random, "--tc", "fast"},
      {"--engine", random, "--movetime", "0"},
      {"--engine", random, "name=a", "--engine", random, "name=a"},
  };
  for (const std::vector<std::string>& args : cases) {
    const e2e::RunResult r = check(args, dir.path());
    std::string words;
    for (const std::string& a : args) words += a + " ";
    EXPECT_EQ(r.status.code, 2) << words << "\n" << r.summary();
    EXPECT_TRUE(lines_starting(r.out, "PASS").empty()) << words;
  }
}

}  // namespace
}  // namespace kalah
