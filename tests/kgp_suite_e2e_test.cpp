// `referee suite` grading KGP agents end to end (docs/KGP.md, "Grading a KGP agent"): tests/engines/kgp_agent.py
// by its moves in freeplay, by its evals in the eval mode (a move and a score each position), and an agent
// that never moves, whose every position fails with its reason. A small suite (Kalah(4,3), 6 positions) in a
// cache of the tests' own, so that labelling takes a moment.
#include <gtest/gtest.h>

#include <cstdlib>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include "tests/e2e_util.h"

namespace kalah {
namespace {

namespace json = boost::json;

const std::string kAgent = KALAH_SOURCE_DIR "/tests/engines/kgp_agent.py";
const std::string kWsAgent = KALAH_SOURCE_DIR "/tests/engines/kgp_ws_agent.py";

class KgpSuiteE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new system::TempFolder("kalah-e2e");
    ::setenv("XDG_CACHE_HOME", (dir_->path() / "xdg").c_str(), 1);
  }
  static void TearDownTestSuite() {
    ::unsetenv("XDG_CACHE_HOME");
    delete dir_;
    dir_ = nullptr;
  }

  struct Graded {
    e2e::RunResult run;
    json::object report;
  };

  // `referee suite` of the agent run with `flag` (none when empty), each state lasting `movetime` ms at
  // most (an agent that answers yields long before, even on a busy machine); `more` words of --engine.
  static Graded suite(const std::string& flag, const char* movetime = "2000", const std::string& agent = kAgent,
                      const std::vector<std::string>& more = {}) {
    const e2e::fs::path report = dir_->path() / ("suite" + flag + std::to_string(more.size()) + ".json");
    std::vector<std::string> argv = {e2e::kReferee.string(), "suite",       "--variant",   "pits=4 seeds=3",
                                     "--positions",          "6",           "--db-mb",     "16",
                                     "--movetime-ms",        movetime,      "--verbose",   "--json",
                                     report.string(),        "--engine",    "cmd=python3", "arg=" + agent,
                                     "name=pykgp",           "protocol=kgp"};
    if (!flag.empty()) argv.push_back("arg=" + flag);
    argv.insert(argv.end(), more.begin(), more.end());
    Graded g{e2e::run(argv, dir_->path(), std::chrono::seconds(180)), {}};
    std::error_code ec;
    const json::value v = json::parse(e2e::read_file(report), ec);
    if (!ec && v.is_object()) g.report = v.as_object();
    return g;
  }

  // How many results have a move, and how many a score.
  static std::pair<int, int> moves_and_scores(const json::object& report) {
    int moves = 0, scores = 0;
    for (const json::value& r : report.at("results").as_array()) {
      moves += !r.as_object().at("move").is_null();
      scores += !r.as_object().at("score").is_null();
    }
    return {moves, scores};
  }

  static inline system::TempFolder* dir_ = nullptr;
};

TEST_F(KgpSuiteE2E, AFreeplayAgentIsGradedByItsMoves) {
  const Graded g = suite("");
  ASSERT_EQ(g.run.status.code, 0) << g.run.summary();
  EXPECT_NE(g.run.out.find("KGP agent 'pykgp'"), std::string::npos) << g.run.out;
  EXPECT_NE(g.run.out.find("mode freeplay: each move is its last"), std::string::npos) << g.run.out;
  ASSERT_FALSE(g.report.empty()) << g.run.out;
  EXPECT_EQ(moves_and_scores(g.report), std::make_pair(6, 0)) << g.run.out;
}

// An agent that reaches its server only over a WebSocket (kgp_transport = "websocket") is graded the same way.
TEST_F(KgpSuiteE2E, AWebSocketOnlyAgentIsGradedOverAWebSocket) {
  const Graded g = suite("", "2000", kWsAgent, {"kgp_transport=websocket"});
  ASSERT_EQ(g.run.status.code, 0) << g.run.summary();
  EXPECT_NE(g.run.out.find("mode freeplay: each move is its last"), std::string::npos) << g.run.out;
  ASSERT_FALSE(g.report.empty()) << g.run.out;
  EXPECT_EQ(moves_and_scores(g.report), std::make_pair(6, 0)) << g.run.out;
}

TEST_F(KgpSuiteE2E, AnEvalAgentIsGradedByTheMovesItsEvalsChooseAndScoredByThem) {
  const Graded g = suite("--eval");
  ASSERT_EQ(g.run.status.code, 0) << g.run.summary();
  EXPECT_NE(g.run.out.find("mode eval: each move is the one whose board the agent values best"), std::string::npos)
      << g.run.out;
  ASSERT_FALSE(g.report.empty()) << g.run.out;
  EXPECT_EQ(moves_and_scores(g.report), std::make_pair(6, 6)) << g.run.out;
  EXPECT_EQ(g.report.at("scores").as_object().at("scored").to_number<int>(), 6) << g.run.out;
  // The eval is the agent's material count: a real, a multiple of a quarter.
  for (const json::value& r : g.report.at("results").as_array()) {
    const double score = r.as_object().at("score").to_number<double>();
    EXPECT_EQ(score * 4, static_cast<double>(static_cast<long long>(score * 4))) << score;
  }
}

TEST_F(KgpSuiteE2E, AnAgentThatNeverMovesFailsEveryPositionWithItsReason) {
  const Graded g = suite("--mute", "200");
  EXPECT_EQ(g.run.status.code, 0) << g.run.summary();  // no --min-perfect
  EXPECT_EQ(static_cast<int>(e2e::lines_starting(g.run.out, "FAIL #").size()), 6) << g.run.out;
  EXPECT_NE(g.run.out.find(": time: no move before the stop after 200 ms"), std::string::npos) << g.run.out;
  ASSERT_FALSE(g.report.empty()) << g.run.out;
  EXPECT_EQ(moves_and_scores(g.report), std::make_pair(0, 0)) << g.run.out;
}

}  // namespace
}  // namespace kalah
