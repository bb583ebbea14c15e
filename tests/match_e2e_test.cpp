// End-to-end tests of `referee match`: the real executable against the misbehaving test engine
// (tests/engines/bad_engine) and the bundled bots.
//
// Each misbehaviour test plays the bad engine as South in game 1 and makes it misbehave on its
// first `go` (or, for the mid-game crash, its second, after the legal opening move `1`): the bad
// engine does not track the board, so its later moves could be illegal and hide the misbehaviour.
// Each checks the forfeit in the JSON line, that `referee` exited 0 in bounded time, and that no
// process of the test (found by a marker in the engines' file names) is left, alive or zombie.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_to.hpp>

#include "referee/record/record_json.h"
#include "referee/rules/position.h"
#include "tests/e2e_util.h"

namespace kalah {
namespace {

namespace json = boost::json;
using e2e::fs::path;

// Generous: a misbehaviour costs at most a few deadlines of a fraction of a second each, but the
// machine may be busy with other builds.
constexpr auto kMatchLimit = std::chrono::seconds(20);

// One test's world: a temporary directory, marked copies of the engines, the JSON output file.
class MatchFixture : public ::testing::Test {
 protected:
  MatchFixture()
      : marker_(e2e::unique_marker()),
        bad_(e2e::copy_executable(e2e::kBadEngine, dir_.path(), marker_ + "b")),
        greedy_(e2e::copy_executable(e2e::kGreedy, dir_.path(), marker_ + "g")),
        random_(e2e::copy_executable(e2e::kRandom, dir_.path(), marker_ + "r")),
        out_(dir_ / "games.jsonl") {}

  ~MatchFixture() override {
    // Whatever happened, leave nothing running for the next test.
    for (const e2e::ProcessInfo& p : e2e::find_processes(marker_)) ::kill(p.pid, SIGKILL);
  }

  // `referee match` with the bad engine (given `bad_args`) first and greedy second.
  e2e::RunResult match_bad(const std::vector<std::string>& bad_args, int games = 1,
                           const std::vector<std::string>& extra = {"--tc", "0.2+0"}) {
    std::vector<std::string> engine = {"cmd=" + bad_.string(), "name=bad"};
    for (const std::string& a : bad_args) engine.push_back("arg=" + a);
    return match(engine, {"cmd=" + greedy_.string(), "name=greedy"}, games, extra);
  }

  e2e::RunResult match(const std::vector<std::string>& first, const std::vector<std::string>& second, int games,
                       const std::vector<std::string>& extra) {
    std::vector<std::string> argv = {e2e::kReferee.string(), "match", "--engine"};
    argv.insert(argv.end(), first.begin(), first.end());
    argv.push_back("--engine");
    argv.insert(argv.end(), second.begin(), second.end());
    for (const std::string& a : {std::string("--games"), std::to_string(games), std::string("--out"), out_.string()})
      argv.push_back(a);
    argv.insert(argv.end(), extra.begin(), extra.end());
    return e2e::run(argv, dir_.path(), std::chrono::duration_cast<std::chrono::milliseconds>(kMatchLimit) * 2);
  }

  std::vector<json::object> games() const {
    std::vector<json::object> result;
    for (const std::string& line : e2e::read_lines(out_)) {
      json::value v = json::parse(line);
      EXPECT_TRUE(v.is_object()) << line;
      if (v.is_object()) result.push_back(v.get_object());
    }
    return result;
  }

  // The referee exited 0 within the bound and left no process of this test behind.
  void expect_clean_exit(const e2e::RunResult& r) {
    EXPECT_EQ(r.status.code, 0) << r.summary();
    EXPECT_FALSE(r.status.timed_out) << r.summary();
    EXPECT_LT(r.seconds, std::chrono::duration<double>(kMatchLimit).count()) << r.summary();
    const std::vector<e2e::ProcessInfo> left = e2e::wait_until_gone(marker_);
    EXPECT_TRUE(left.empty()) << "processes left behind:\n" << e2e::describe(left);
  }

  // Game `index` was lost by `engine` with `reason`; returns the forfeit detail.
  std::string expect_forfeit(const std::vector<json::object>& g, size_t index, const std::string& engine,
                             const std::string& reason) {
    if (g.size() <= index) {
      ADD_FAILURE() << "expected at least " << index + 1 << " games, got " << g.size();
      return {};
    }
    const json::object& game = g[index];
    EXPECT_EQ(json::value_to<std::string>(game.at("termination")), reason) << json::serialize(game);
    const json::value& forfeit = game.at("forfeit");
    if (!forfeit.is_object()) {
      ADD_FAILURE() << "no forfeit in " << json::serialize(game);
      return {};
    }
    EXPECT_EQ(json::value_to<std::string>(forfeit.at("engine")), engine) << json::serialize(game);
    EXPECT_EQ(json::value_to<std::string>(forfeit.at("reason")), reason) << json::serialize(game);
    // The loser's opponent wins: "1-0" if South (the first engine in game 1) did not forfeit.
    const bool south_lost = json::value_to<std::string>(game.at("south")) == engine;
    EXPECT_EQ(json::value_to<std::string>(game.at("result")), south_lost ? "0-1" : "1-0") << json::serialize(game);
    // The line is a valid journal line for the strict reader too.
    const Expected<GameRecord> record = record_from_json(json::serialize(game));
    EXPECT_TRUE(static_cast<bool>(record)) << (record ? std::string() : record.error());
    return json::value_to<std::string>(forfeit.at("detail"));
  }

  system::TempFolder dir_{"kalah-e2e"};
  std::string marker_;
  path bad_;
  path greedy_;
  path random_;
  path out_;
};

// The leak checks below are only worth something if the scan sees what it looks for.
TEST_F(MatchFixture, ProcessScanFindsLiveAndZombieEnginesByTheirMarker) {
  // At end of input this engine sleeps forever instead of exiting.
  e2e::Child engine({bad_.string(), "--ignore-sigterm"}, dir_ / "scan.out", dir_ / "scan.err");
  const auto give_up = e2e::Clock::now() + std::chrono::seconds(20);
  std::vector<e2e::ProcessInfo> seen;
  while (seen.empty() && e2e::Clock::now() < give_up) {
    seen = e2e::find_processes(marker_);
    if (seen.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(seen.size(), 1u) << e2e::describe(seen);
  EXPECT_EQ(seen[0].pid, engine.pid());
  EXPECT_NE(seen[0].state, 'Z');

  // Killed but not yet reaped: a zombie, still found by its name.
  engine.signal(SIGKILL);
  std::vector<e2e::ProcessInfo> zombie;
  while (e2e::Clock::now() < give_up) {
    zombie = e2e::find_processes(marker_);
    if (zombie.size() == 1 && zombie[0].state == 'Z') break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(zombie.size(), 1u) << e2e::describe(zombie);
  EXPECT_EQ(zombie[0].state, 'Z');

  EXPECT_EQ(engine.wait(std::chrono::seconds(20)).signal, SIGKILL);
  EXPECT_TRUE(e2e::wait_until_gone(marker_).empty());
}

TEST_F(MatchFixture, CrashAtStartIsAStartupForfeit) {
  const e2e::RunResult r = match_bad({"--crash-at-start"});
  expect_clean_exit(r);
  const auto g = games();
  ASSERT_EQ(g.size(), 1u) << r.summary();
  const std::string detail = expect_forfeit(g, 0, "bad", "startup");
  EXPECT_NE(detail.find("code 3"), std::string::npos) << detail;
  // Why it died is in the detail: the last lines of its stderr.
  EXPECT_NE(detail.find("; its stderr ends: \"bad_engine: started | Traceback (most recent call last): |   File "
                        "\"bot.py\", line 3, in <module> | ModuleNotFoundError: No module named 'numpy'\""),
            std::string::npos)
      << detail;
  EXPECT_TRUE(g[0].at("moves").as_array().empty());
}

TEST_F(MatchFixture, CrashMidGameIsACrashForfeitNamingTheSignalAndTheEngineIsRestarted) {
  // Game 1: bad is South, plays 1 (legal at the start), then aborts on its second go. Game 2: bad
  // (restarted) is North and aborts on its second go again; greedy's replies keep bad's first
  // move, North's pit 1, legal.
  // A long clock: greedy moves here too and must not lose on time on a busy machine.
  const e2e::RunResult r = match_bad({"--crash-on-go", "2"}, 2, {"--tc", "30+0"});
  expect_clean_exit(r);
  const auto g = games();
  ASSERT_EQ(g.size(), 2u) << r.summary();
  for (size_t i = 0; i < 2; ++i) {
    const std::string detail = expect_forfeit(g, i, "bad", "crash");
    EXPECT_NE(detail.find("signal 6"), std::string::npos) << detail;
    EXPECT_NE(detail.find("SIGABRT"), std::string::npos) << detail;
  }
  EXPECT_EQ(json::value_to<std::string>(g[0].at("south")), "bad");
  EXPECT_EQ(json::value_to<std::string>(g[1].at("south")), "greedy");
  ASSERT_FALSE(g[0].at("moves").as_array().empty());
  EXPECT_EQ(g[0].at("moves").as_array()[0].as_int64(), 1);  // a mid-game crash: bad had moved
}

TEST_F(MatchFixture, HangAfterGoIsATimeForfeit) {
  const e2e::RunResult r = match_bad({"--hang-on-go", "1"});
  expect_clean_exit(r);
  const auto g = games();
  ASSERT_EQ(g.size(), 1u) << r.summary();
  const std::string detail = expect_forfeit(g, 0, "bad", "time");
  EXPECT_NE(detail.find("within"), std::string::npos) << detail;  // names the deadline
}

TEST_F(MatchFixture, AlwaysTooSlowIsATimeForfeitEvenForALegalMove) {
  // 200 ms on the clock plus the 50 ms margin; the answer (the legal `1`) comes after 1.5 s.
  const e2e::RunResult r = match_bad({"--slow", "1500"});
  expect_clean_exit(r);
  const auto g = games();
  ASSERT_EQ(g.size(), 1u) << r.summary();
  const std::string detail = expect_forfeit(g, 0, "bad", "time");
  EXPECT_NE(detail.find("within"), std::string::npos) << detail;  // names the deadline
}

TEST_F(MatchFixture, IllegalMoveIsAnIllegalForfeitWithTheLegalSet) {
  const e2e::RunResult r = match_bad({"--illegal"});
  expect_clean_exit(r);
  const auto g = games();
  ASSERT_EQ(g.size(), 1u) << r.summary();
  const std::string detail = expect_forfeit(g, 0, "bad", "illegal");
  EXPECT_NE(detail.find("99"), std::string::npos) << detail;
  EXPECT_NE(detail.find("1 2 3 4 5 6"), std::string::npos) << detail;
}

TEST_F(MatchFixture, GarbageLineIsAProtocolForfeit) {
  const e2e::RunResult r = match_bad({"--garbage"});
  expect_clean_exit(r);
  const auto g = games();
  ASSERT_EQ(g.size(), 1u) << r.summary();
  const std::string detail = expect_forfeit(g, 0, "bad", "protocol");
  EXPECT_NE(detail.find("hello world"), std::string::npos) << detail;
}

TEST_F(MatchFixture, AStaleBestmoveIsAProtocolForfeitNotTheAnswerToTheNextGo) {
  const e2e::RunResult r = match_bad({"--stale-bestmove"});
  expect_clean_exit(r);
  const auto g = games();
  ASSERT_EQ(g.size(), 1u) << r.summary();
  const std::string detail = expect_forfeit(g, 0, "bad", "protocol");
  EXPECT_NE(detail.find("bestmove before it was asked (a stale answer): bestmove 1"), std::string::npos) << detail;
}

TEST_F(MatchFixture, EndlessLineIsAProtocolForfeitWithTheLineCut) {
  // A generous clock: the line limit, not the clock, must end this game.
  const e2e::RunResult r = match_bad({"--endless-line"}, 1, {"--tc", "10+0"});
  expect_clean_exit(r);
  const auto g = games();
  ASSERT_EQ(g.size(), 1u) << r.summary();
  const std::string detail = expect_forfeit(g, 0, "bad", "protocol");
  EXPECT_NE(detail.find("xxxx"), std::string::npos) << detail;
  EXPECT_LT(detail.size(), 300u) << "the line must be cut to 200 characters";
}

TEST_F(MatchFixture, ClosedStdoutWhileRunningIsACrashForfeit) {
  const e2e::RunResult r = match_bad({"--close-stdout"});
  expect_clean_exit(r);
  const auto g = games();
  ASSERT_EQ(g.size(), 1u) << r.summary();
  const std::string detail = expect_forfeit(g, 0, "bad", "crash");
  EXPECT_NE(detail.find("closed its output"), std::string::npos) << detail;
}

TEST_F(MatchFixture, ClosedStdinWhileRunningIsACrashForfeitThatSaysSo) {
  const e2e::RunResult r = match_bad({"--close-stdin"});
  expect_clean_exit(r);
  const auto g = games();
  ASSERT_EQ(g.size(), 1u) << r.summary();
  const std::string detail = expect_forfeit(g, 0, "bad", "crash");
  EXPECT_NE(detail.find("closed its input (stdin) but kept running"), std::string::npos) << detail;
}

TEST_F(MatchFixture, EngineIgnoringSigtermIsATimeForfeitAndIsKilled) {
  const e2e::RunResult r = match_bad({"--ignore-sigterm", "--hang-on-go", "1"});
  expect_clean_exit(r);
  const auto g = games();
  ASSERT_EQ(g.size(), 1u) << r.summary();
  const std::string detail = expect_forfeit(g, 0, "bad", "time");
  EXPECT_NE(detail.find("within"), std::string::npos) << detail;  // names the deadline
}

TEST_F(MatchFixture, GrandchildHoldingThePipesDoesNotHangTheGameAndIsKilled) {
  // The engine dies, but a grandchild keeps the pipe open: no end of file ever comes.
  const e2e::RunResult r = match_bad({"--grandchild", "--crash-on-go", "1"});
  expect_clean_exit(r);
  const auto g = games();
  ASSERT_EQ(g.size(), 1u) << r.summary();
  const std::string detail = expect_forfeit(g, 0, "bad", "crash");
  EXPECT_NE(detail.find("SIGABRT"), std::string::npos) << detail;
}

TEST_F(MatchFixture, GrandchildOfAHungEngineIsKilledToo) {
  const e2e::RunResult r = match_bad({"--grandchild", "--hang-on-go", "1"});
  expect_clean_exit(r);
  const auto g = games();
  ASSERT_EQ(g.size(), 1u) << r.summary();
  const std::string detail = expect_forfeit(g, 0, "bad", "time");
  EXPECT_NE(detail.find("within"), std::string::npos) << detail;  // names the deadline
}

TEST_F(MatchFixture, MissingEngineExecutableIsAnOperatorError) {
  const path missing = dir_ / "no-such-engine";
  const e2e::RunResult r = match({"cmd=" + missing.string(), "name=ghost"}, {"cmd=" + greedy_.string()}, 1, {});
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find(missing.string()), std::string::npos) << r.summary();
  EXPECT_TRUE(e2e::read_lines(out_).empty());
  EXPECT_TRUE(e2e::wait_until_gone(marker_).empty());
}

TEST_F(MatchFixture, AnOptionTheEngineDoesNotTakeStopsTheMatchBeforeItsFirstGame) {
  // Both bots declare `Seed` (a spin of 0..2147483647) and nothing else.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"option.Sed=7", "option 'Sed' is not one the engine declares (did you mean 'Seed'?)"},
      {"option.Hash=16", "option 'Hash' is not one the engine declares"},
      {"option.Seed=-1", "option 'Seed': -1 is outside the declared range [0, 2147483647]"},
      {"option.Seed=seven", "option 'Seed' is a spin (an integer); 'seven' is not one"},
  };
  for (const auto& [option, says] : cases) {
    const e2e::RunResult r =
        match({"cmd=" + random_.string(), "name=random"}, {"cmd=" + greedy_.string(), "name=greedy", option}, 2, {});
    EXPECT_EQ(r.status.code, 2) << option << "\n" << r.summary();
    EXPECT_NE(r.err.find("engine 'greedy': " + says), std::string::npos) << option << "\n" << r.summary();
    EXPECT_NE(r.err.find("it declares Seed spin 1 [0, 2147483647]"), std::string::npos) << r.summary();
    EXPECT_TRUE(e2e::read_lines(out_).empty()) << option;
  }
  EXPECT_TRUE(e2e::wait_until_gone(marker_).empty());
  // Given as declared, the option is taken and the games are played.
  const e2e::RunResult r = match({"cmd=" + random_.string(), "name=random", "option.Seed=3"},
                                 {"cmd=" + greedy_.string(), "name=greedy", "option.Seed=7"}, 2, {"--tc", "1+0"});
  expect_clean_exit(r);
  EXPECT_EQ(games().size(), 2u);
}

TEST_F(MatchFixture, BadTimeControlIsAnOperatorError) {
  for (const std::string tc : {"abc", "0+0", "1+x", "-1+0"}) {
    const e2e::RunResult r =
        match({"cmd=" + random_.string(), "name=random"}, {"cmd=" + greedy_.string()}, 1, {"--tc", tc});
    EXPECT_EQ(r.status.code, 2) << "--tc '" << tc << "'\n" << r.summary();
    EXPECT_FALSE(r.err.empty()) << "--tc '" << tc << "'";
  }
  EXPECT_TRUE(e2e::read_lines(out_).empty());
  EXPECT_TRUE(e2e::wait_until_gone(marker_).empty());
}

// A delay in --tc reaches the engine that announced `feature delay` (the bundled greedy) with every `go`, and
// not the one that did not (the test engine): docs/PROTOCOL.md, "Clocks".
TEST_F(MatchFixture, ADelayIsToldOnlyToAnEngineThatAnnouncedIt) {
  const path log = dir_ / "comm.log";
  const e2e::RunResult r = match({"cmd=" + bad_.string(), "name=plain"}, {"cmd=" + greedy_.string(), "name=greedy"}, 1,
                                 {"--tc", "5+0.1d0.5", "--log", log.string()});
  expect_clean_exit(r);
  int greedy_gos = 0, plain_gos = 0;
  for (const std::string& line : e2e::read_lines(log)) {
    if (line.find("> go ") == std::string::npos) continue;
    const bool told = line.find(" delay 500") != std::string::npos;
    if (line.find(" greedy > go ") != std::string::npos) {
      ++greedy_gos;
      EXPECT_TRUE(told) << line;
    } else if (line.find(" plain > go ") != std::string::npos) {
      ++plain_gos;
      EXPECT_FALSE(told) << line;
    }
  }
  EXPECT_GT(greedy_gos, 0) << r.summary();
  EXPECT_GT(plain_gos, 0) << r.summary();
}

TEST_F(MatchFixture, NormalMatchWritesOneCompleteRecordPerGameThatReplaysToItsResult) {
  const e2e::RunResult r =
      match({"cmd=" + greedy_.string(), "name=greedy"}, {"cmd=" + random_.string(), "name=random", "option.Seed=7"}, 4,
            {"--tc", "10+0.1", "--openings-plies", "2", "--seed", "5"});
  expect_clean_exit(r);
  const auto g = games();
  ASSERT_EQ(g.size(), 4u) << r.summary();
  std::set<std::string> ids;
  for (size_t i = 0; i < g.size(); ++i) {
    const json::object& game = g[i];
    SCOPED_TRACE("game " + std::to_string(i + 1) + ": " + json::serialize(game));
    for (const char* field : {"id", "round", "south", "north", "variant", "opening", "moves", "result", "stores",
                              "termination", "forfeit", "times_ms"})
      EXPECT_TRUE(game.contains(field)) << "missing field " << field;
    ids.insert(json::value_to<std::string>(game.at("id")));
    EXPECT_EQ(game.at("round").as_int64(), static_cast<std::int64_t>(i / 2 + 1));
    // Colours alternate, the first engine South in game 1.
    EXPECT_EQ(json::value_to<std::string>(game.at("south")), i % 2 == 0 ? "greedy" : "random");
    EXPECT_EQ(json::value_to<std::string>(game.at("north")), i % 2 == 0 ? "random" : "greedy");
    EXPECT_TRUE(game.at("forfeit").is_null());

    const Expected<GameRecord> parsed = record_from_json(json::serialize(game));
    ASSERT_TRUE(static_cast<bool>(parsed)) << parsed.error();
    const GameRecord& rec = *parsed;
    EXPECT_EQ(rec.opening.size(), 2u);
    ASSERT_GE(rec.moves.size(), rec.opening.size());
    EXPECT_TRUE(std::equal(rec.opening.begin(), rec.opening.end(), rec.moves.begin()));
    EXPECT_EQ(rec.move_info.size(), rec.moves.size() - rec.opening.size());
    // Both games of a pair share the opening.
    if (i % 2 == 1) {
      EXPECT_EQ(game.at("opening"), g[i - 1].at("opening"));
    }

    // Replay with the rules library: every move legal, and the end agrees with the record.
    Position p = start_position(rec.variant);
    for (size_t m = 0; m < rec.moves.size(); ++m) {
      ASSERT_TRUE(is_legal(rec.variant, p, rec.moves[m]))
          << "move " << m << " (" << to_string(rec.moves[m]) << ") is illegal in " << to_notation(rec.variant, p);
      apply(rec.variant, p, rec.moves[m]);
    }
    EXPECT_TRUE(p.over) << to_notation(rec.variant, p);
    EXPECT_EQ(std::string(to_string(outcome(rec.variant, p))), std::string(to_string(rec.result)));
    EXPECT_EQ(store(rec.variant, p, Side::South), rec.store_south);
    EXPECT_EQ(store(rec.variant, p, Side::North), rec.store_north);
    EXPECT_EQ(rec.termination, Termination::Normal);
  }
  EXPECT_EQ(ids.size(), 4u) << "game ids must be unique";
  // The one-line score at the end names both engines.
  EXPECT_NE(r.out.find("greedy vs random"), std::string::npos) << r.summary();
}

}  // namespace
}  // namespace kalah
