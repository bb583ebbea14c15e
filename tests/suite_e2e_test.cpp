// End-to-end tests of `referee suite`: the real executable grading the bundled bots on one seeded set of
// solver-labelled positions (random < greedy < alphabeta by perfect share, the solver perfect), the same
// seed giving the same labels file, the cache read on a second run and a damaged one labelled again, the
// exit code against --min-perfect, usage errors (exit 2), and misbehaving engines, whose failures are
// results with their reasons while the suite goes on (the engine restarted after a crash, nothing left
// running).
//
// The suite is Kalah(6,3) with 30 positions and a small endgame database, in a cache folder of the tests'
// own (XDG_CACHE_HOME), so that labelling takes seconds. Timings are not what is tested: the bots' move
// time is short where the ranking does not depend on it, and generous for the solver, which answers as
// soon as it has proved its move.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include "tests/e2e_util.h"

namespace kalah {
namespace {

namespace json = boost::json;
using e2e::fs::path;

const std::string kBots = KALAH_BINARY_DIR "/bots/";
const path kEngines = KALAH_BINARY_DIR "/tests/engines";
const std::string kLabelsName = "kalah-suite-p6-s3-standard-side-empty-owner-majority-off-pie-off-seed5-n30.labels";

class SuiteE2e : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new system::TempFolder("kalah-e2e");
    // The endgame database and the labels go to a cache of the tests' own, not the user's; the solver bot
    // run by the suite finds the same database there.
    ::setenv("XDG_CACHE_HOME", (dir_->path() / "xdg").c_str(), 1);
  }
  static void TearDownTestSuite() {
    ::unsetenv("XDG_CACHE_HOME");
    delete dir_;
    dir_ = nullptr;
  }

  static path cache() { return dir_->path() / "xdg" / "kalah-arena"; }
  static path scratch() { return dir_->path(); }

  // `referee suite` on the tests' set with `engine` (the words of --engine) and more options.
  static e2e::RunResult suite(const std::vector<std::string>& engine, const std::vector<std::string>& more = {}) {
    std::vector<std::string> argv = {e2e::kReferee.string(), "suite"};
    // The tests' set, 50 ms a move: each unless the test gives its own.
    const std::pair<const char*, const char*> defaults[] = {
        {"--variant", "pits=6 seeds=3"}, {"--positions", "30"},  {"--seed", "5"}, {"--db-mb", "16"},
        {"--label-ms", "10000"},         {"--movetime-ms", "50"}};
    for (const auto& [option, value] : defaults)
      if (std::find(more.begin(), more.end(), option) == more.end()) argv.insert(argv.end(), {option, value});
    argv.push_back("--engine");
    argv.insert(argv.end(), engine.begin(), engine.end());
    argv.insert(argv.end(), more.begin(), more.end());
    return e2e::run(argv, scratch(), std::chrono::seconds(180));
  }

  static json::object read_json(const path& file) {
    std::error_code ec;
    const json::value v = json::parse(e2e::read_file(file), ec);
    EXPECT_FALSE(ec) << file;
    return ec || !v.is_object() ? json::object() : v.as_object();
  }

  // A share of the "all" row: "perfect_share" or "kept_share".
  static double share_of(const json::object& report, const char* which = "perfect_share") {
    for (const json::value& p : report.at("phases").as_array())
      if (p.as_object().at("phase").as_string() == "all") return p.as_object().at(which).to_number<double>();
    ADD_FAILURE() << "no \"all\" row";
    return -1;
  }

  // The grades of an output: from the table's head to the line before the time the engine took.
  static std::string table_of(const std::string& out) {
    const std::size_t from = out.find("\nphase ");
    const std::size_t to = out.find("\nperfect: ");
    EXPECT_TRUE(from != std::string::npos && to != std::string::npos && from < to) << out;
    return from < to && to != std::string::npos ? out.substr(from, to - from) : out;
  }

  static system::TempFolder* dir_;
};

system::TempFolder* SuiteE2e::dir_ = nullptr;

// The ladder of the bundled bots (their Elo order in configs/ladder.toml): each rung grades below the one
// above. MCTS plays for the result, not the margin: it keeps every proven result here, which greedy does not,
// while its share of margin-perfect moves is no better than greedy's on this set (docs/SOLVER.md).
TEST_F(SuiteE2e, TheBundledLadderGradesInOrderAndTheSolverIsPerfect) {
  double perfect[4] = {}, kept[4] = {};
  const char* bots[4] = {"kalah-random", "kalah-greedy", "kalah-mcts", "kalah-alphabeta"};
  for (int i = 0; i < 4; ++i) {
    const path out = scratch() / (std::string(bots[i]) + ".json");
    // On the CPU clock: a bot thinks for the CPU time it is given, so a machine busy with other work cannot
    // reorder the ladder (on the wall clock a loaded machine once left MCTS below greedy).
    const e2e::RunResult r = suite({"cmd=" + kBots + bots[i]}, {"--clock", "cpu", "--json", out.string()});
    ASSERT_EQ(r.status.code, 0) << r.summary();
    EXPECT_NE(r.out.find("suite: 30 positions of pits=6 seeds=3 capture=standard"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(early 10, middle 10, late 10)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" ms), on the CPU clock\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("blunder: loss >= 4"), std::string::npos) << r.out;
    EXPECT_TRUE(e2e::lines_starting(r.out, "FAIL").empty()) << r.out;
    const json::object report = read_json(out);
    ASSERT_FALSE(report.empty());
    EXPECT_EQ(report.at("positions").as_int64(), 30);
    EXPECT_EQ(report.at("results").as_array().size(), 30u);
    EXPECT_EQ(report.at("blunder_loss").as_int64(), 4);
    EXPECT_EQ(report.at("clock").as_string(), "cpu");
    perfect[i] = share_of(report);
    kept[i] = share_of(report, "kept_share");
  }
  EXPECT_LT(perfect[0], perfect[1]) << "random against greedy";
  EXPECT_LT(kept[0], kept[1]) << "random against greedy";
  EXPECT_LT(kept[1], kept[2]) << "greedy against mcts";
  EXPECT_LT(perfect[2], perfect[3]) << "mcts against alphabeta";
  EXPECT_LT(perfect[1], perfect[3]) << "greedy against alphabeta";

  // The solver, with a database of the same size, proves its moves well within a second each on a quiet
  // machine; it answers as soon as it has proved its move, so a generous movetime costs nothing there and
  // keeps a busy machine from leaving it a position unproved.
  const path out = scratch() / "solver.json";
  const e2e::RunResult r = suite({"cmd=" + kBots + "kalah-solver", "option.DbMemoryMB=16"},
                                 {"--movetime-ms", "30000", "--min-perfect", "1", "--json", out.string()});
  EXPECT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.out.find("all            30    30 (100.0%)    30 (100.0%)       0.00         0       0"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(", at least --min-perfect 100.0%"), std::string::npos) << r.out;
  // It reports its proofs as scores: they follow the exact values.
  EXPECT_NE(r.out.find("scores: Spearman rank correlation of the engine's score with the exact value: +"),
            std::string::npos)
      << r.out;
  const json::object report = read_json(out);
  ASSERT_FALSE(report.empty());
  EXPECT_EQ(share_of(report), 1.0);
  EXPECT_EQ(report.at("passed").as_bool(), true);
  EXPECT_EQ(report.at("scores").as_object().at("method").as_string(), "spearman");
}

TEST_F(SuiteE2e, TheSameSeedGivesTheSameLabelsFileWhichASecondRunReads) {
  // Labelled (or read) into the tests' cache, then labelled afresh into another folder.
  const e2e::RunResult first = suite({"cmd=" + kBots + "kalah-greedy"});
  ASSERT_EQ(first.status.code, 0) << first.summary();
  const path other = scratch() / "other-cache";
  e2e::fs::create_directories(other);
  const e2e::RunResult fresh = suite({"cmd=" + kBots + "kalah-greedy"}, {"--cache-dir", other.string()});
  ASSERT_EQ(fresh.status.code, 0) << fresh.summary();
  EXPECT_NE(fresh.out.find("labels: 30 positions labelled by the exact solver in"), std::string::npos) << fresh.out;
  EXPECT_NE(fresh.out.find("saved to " + (other / kLabelsName).string()), std::string::npos) << fresh.out;
  const std::string labels = e2e::read_file(cache() / kLabelsName);
  EXPECT_FALSE(labels.empty());
  EXPECT_EQ(e2e::read_file(other / kLabelsName), labels);
  // Greedy with the same seed answers the same positions the same way.
  EXPECT_EQ(table_of(first.out), table_of(fresh.out));

  // The second run in that folder reads the labels.
  const e2e::RunResult second = suite({"cmd=" + kBots + "kalah-greedy"}, {"--cache-dir", other.string()});
  ASSERT_EQ(second.status.code, 0) << second.summary();
  EXPECT_NE(second.out.find("labels: read from " + (other / kLabelsName).string()), std::string::npos) << second.out;
}

TEST_F(SuiteE2e, ADamagedLabelsFileIsLabelledAgain) {
  const path folder = scratch() / "damaged-cache";
  e2e::fs::create_directories(folder);
  const e2e::RunResult first = suite({"cmd=" + kBots + "kalah-random"}, {"--cache-dir", folder.string()});
  ASSERT_EQ(first.status.code, 0) << first.summary();
  const std::string labels = e2e::read_file(folder / kLabelsName);
  ASSERT_FALSE(labels.empty()) << first.out;
  std::string damaged = labels;
  damaged[damaged.size() / 2] = damaged[damaged.size() / 2] == '1' ? '2' : '1';
  e2e::write_file(folder / kLabelsName, damaged);
  const e2e::RunResult again = suite({"cmd=" + kBots + "kalah-random"}, {"--cache-dir", folder.string()});
  ASSERT_EQ(again.status.code, 0) << again.summary();
  EXPECT_NE(again.out.find("note: " + (folder / kLabelsName).string() +
                           " is unusable (the checksum does not match (a damaged file)): labelled again"),
            std::string::npos)
      << again.out;
  EXPECT_EQ(e2e::read_file(folder / kLabelsName), labels);
  // Cut short: the same.
  e2e::write_file(folder / kLabelsName, labels.substr(0, labels.size() / 3));
  const e2e::RunResult cut = suite({"cmd=" + kBots + "kalah-random"}, {"--cache-dir", folder.string()});
  ASSERT_EQ(cut.status.code, 0) << cut.summary();
  EXPECT_NE(cut.out.find("is unusable (the file does not end with a whole line): labelled again"), std::string::npos)
      << cut.out;
  EXPECT_EQ(e2e::read_file(folder / kLabelsName), labels);
  // Both graded the same as the first run.
  EXPECT_EQ(table_of(again.out), table_of(first.out));
  EXPECT_EQ(table_of(cut.out), table_of(first.out));
}

TEST_F(SuiteE2e, TheExitCodeComparesThePerfectShareWithMinPerfect) {
  const path out = scratch() / "greedy-gate.json";
  const e2e::RunResult below =
      suite({"cmd=" + kBots + "kalah-greedy"}, {"--min-perfect", "0.95", "--json", out.string()});
  EXPECT_EQ(below.status.code, 1) << below.summary();
  EXPECT_NE(below.out.find(", below --min-perfect 95.0%"), std::string::npos) << below.out;
  const json::object report = read_json(out);
  ASSERT_FALSE(report.empty());
  EXPECT_EQ(report.at("passed").as_bool(), false);
  EXPECT_EQ(report.at("min_perfect").to_number<double>(), 0.95);
  const e2e::RunResult above = suite({"cmd=" + kBots + "kalah-greedy"}, {"--min-perfect", "0.05"});
  EXPECT_EQ(above.status.code, 0) << above.summary();
  EXPECT_NE(above.out.find(", at least --min-perfect 5.0%"), std::string::npos) << above.out;
}

TEST_F(SuiteE2e, UsageErrorsExitWith2) {
  const std::vector<std::vector<std::string>> cases = {
      {"cmd=" + kBots + "kalah-greedy", "--min-perfect", "1.5"},
      {"cmd=" + kBots + "kalah-greedy", "--positions", "2"},
      {"cmd=" + kBots + "kalah-greedy", "--variant", "pits=6 seeds=4 colour=blue"},
      {"cmd=" + kBots + "kalah-greedy", "--engine", "cmd=" + kBots + "kalah-random"},
      {"cmd=no-such-engine-anywhere"},
      {"cmd=" + kBots + "kalah-greedy", "protocol=mankalah"},
      {"cmd=" + kBots + "kalah-greedy", "option.NoSuchOption=3"},
  };
  for (const std::vector<std::string>& words : cases) {
    const e2e::RunResult r = suite(words);
    EXPECT_EQ(r.status.code, 2) << r.summary();
    EXPECT_FALSE(r.err.empty()) << r.summary();
  }
  std::vector<std::string> argv = {e2e::kReferee.string(), "suite", "--positions", "30"};
  EXPECT_EQ(e2e::run(argv, scratch()).status.code, 2) << "no --engine";
}

// Every referee command that takes an engine finds a bundled bot by its name, as the arena does: its own
// build's bots/ folder, wherever it is run from.
TEST_F(SuiteE2e, ABundledBotIsFoundByItsNameAsTheArenaFindsIt) {
  const e2e::RunResult r = suite({"cmd=kalah-greedy"}, {"--min-perfect", "0.05"});
  EXPECT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.out.find(", at least --min-perfect 5.0%"), std::string::npos) << r.out;
  const e2e::RunResult missing = suite({"cmd=kalah-nosuch"});
  EXPECT_EQ(missing.status.code, 2) << missing.summary();
  EXPECT_NE(missing.err.find("engine 'kalah-nosuch': 'kalah-nosuch' not found in PATH (nor " KALAH_BINARY_DIR
                             "/bots/kalah-nosuch, " KALAH_BINARY_DIR "/kalah-nosuch)"),
            std::string::npos)
      << missing.err;
}

// ---- misbehaving engines ---------------------------------------------------------------------------------

TEST_F(SuiteE2e, ACrashingEngineFailsPositionsWithTheReasonAndIsRestartedForTheNext) {
  const std::string marker = e2e::unique_marker();
  const path engine = e2e::copy_executable(kEngines / "bad_engine", scratch(), marker + "bad");
  const path out = scratch() / "crash.json";
  // It aborts on the second go of every process, and always answers pit 1 otherwise (an illegal move where
  // pit 1 is empty, after which it is restarted too).
  const e2e::RunResult r = suite({"cmd=" + engine.string(), "arg=--crash-on-go", "arg=2", "name=crasher"},
                                 {"--json", out.string(), "--min-perfect", "0.5"});
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_GE(e2e::lines_starting(r.out, "FAIL #").size(), 10u) << r.out;
  EXPECT_NE(r.out.find(" early: crash: killed by signal 6 (SIGABRT) (while thinking) (startpos moves "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(", below --min-perfect 50.0%"), std::string::npos) << r.out;
  const json::object report = read_json(out);
  ASSERT_FALSE(report.empty());
  int crashes = 0, answered = 0;
  for (const json::value& v : report.at("results").as_array()) {
    const json::object& p = v.as_object();
    if (p.at("failure").is_null()) {
      ++answered;
      EXPECT_EQ(p.at("move").as_string(), "1");
      EXPECT_FALSE(p.at("loss").is_null());
      continue;
    }
    const json::object& f = p.at("failure").as_object();
    EXPECT_TRUE(f.at("reason").as_string() == "crash" || f.at("reason").as_string() == "illegal") << v;
    crashes += f.at("reason").as_string() == "crash";
    EXPECT_TRUE(p.at("loss").is_null());
  }
  // Every other position reaches a fresh process's second go; the first go of each process is answered
  // (legally where pit 1 holds seeds).
  EXPECT_GE(crashes, 10) << r.out;
  EXPECT_GE(answered, 1) << r.out;
  EXPECT_TRUE(e2e::wait_until_gone(marker).empty()) << e2e::describe(e2e::find_processes(marker));
}

TEST_F(SuiteE2e, IllegalMovesTimeoutsAndAnEngineThatCannotStartAreFailuresNotErrors) {
  const path illegal = scratch() / "illegal.json";
  const e2e::RunResult r = suite({"cmd=" + (kEngines / "bad_engine").string(), "arg=--illegal"},
                                 {"--json", illegal.string(), "--positions", "3"});
  EXPECT_EQ(r.status.code, 0) << r.summary();
  EXPECT_EQ(e2e::lines_starting(r.out, "FAIL").size(), 3u) << r.out;
  EXPECT_NE(r.out.find("FAIL #1 early: illegal: bestmove 99 (legal: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("all             3     0   (0.0%)     0   (0.0%)       0.00         0       3"),
            std::string::npos)
      << r.out;

  const e2e::RunResult slow = suite({"cmd=" + (kEngines / "bad_engine").string(), "arg=--hang-on-go", "arg=1"},
                                    {"--positions", "3", "--margin", "20"});
  EXPECT_EQ(slow.status.code, 0) << slow.summary();
  EXPECT_EQ(e2e::lines_starting(slow.out, "FAIL").size(), 3u) << slow.out;
  EXPECT_NE(slow.out.find("FAIL #3 late: time: "), std::string::npos) << slow.out;

  const e2e::RunResult dead = suite({"cmd=" + (kEngines / "bad_engine").string(), "arg=--crash-at-start"},
                                    {"--positions", "6", "--min-perfect", "0.5"});
  EXPECT_EQ(dead.status.code, 1) << dead.summary();
  EXPECT_EQ(e2e::lines_starting(dead.out, "FAIL").size(), 6u) << dead.out;
  EXPECT_NE(dead.out.find("FAIL #1 early: startup: on newgame: "), std::string::npos) << dead.out;
  EXPECT_NE(dead.out.find("FAIL #3 middle: startup: not sent: the engine could not be made ready for the last 2 "
                          "positions"),
            std::string::npos)
      << dead.out;
}

}  // namespace
}  // namespace kalah
