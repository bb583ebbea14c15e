// End-to-end tests of repeated games (docs/FORMATS.md, repeated_games): engines that play alike every
// time replay their games from one start, and `arena run` counts the copies, says so before the run,
// under the standings on the terminal, in standings.md, report.html and standings.json. With a book of
// openings the same tournament repeats nothing.
//
// kalah-alphabeta at a fixed depth is deterministic: it clears its table for every game and breaks no tie
// at random, so each game of a pairing with the same colours is the first one again.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "tests/config_builder.h"
#include "tests/e2e_util.h"

namespace kalah {
namespace {

using e2e::fs::path;

const path kAlphaBeta = KALAH_BINARY_DIR "/bots/kalah-alphabeta";
const path kBook = KALAH_SOURCE_DIR "/configs/ladder-book.txt";

// Three alpha-beta engines at depth 2, two rounds: 3 pairings x 2 rounds x 2 colours = 12 games. Of the two
// games of a pairing with the same colours the second repeats the first: 6 repeats.
constexpr int kGames = 12;
constexpr int kRepeats = 6;
constexpr const char* kRepeatLine = "6 of 12 games repeat an earlier game move for move";
constexpr const char* kWarning =
    "each pairing plays 2 games per colour (pairs = 2) from one start without openings: engines that play alike "
    "every time repeat their games move for move";

class RepeatedGames : public ::testing::Test {
 protected:
  // Runs the tournament, with `openings` as the lines of its [openings] table (empty: none).
  e2e::RunResult run(const std::string& openings) {
    test::TestConfig config("repeats");
    config.set("pairs", 2).set("concurrency", 2).output(results()).time("depth = 2");
    if (!openings.empty()) config.table("openings", openings);
    for (const char* name : {"ab-a", "ab-b", "ab-c"}) config.engine(name, kAlphaBeta);
    config.write(dir_ / "repeats.toml");
    return e2e::run({e2e::kArena.string(), "run", (dir_ / "repeats.toml").string()}, dir_.path(),
                    std::chrono::milliseconds(120000));
  }

  path results() const { return dir_ / "results"; }
  path report(const char* file) const { return results() / "repeats" / file; }

  boost::json::object standings() const {
    return boost::json::parse(e2e::read_file(report("standings.json"))).as_object();
  }

  system::TempFolder dir_{"kalah-e2e"};
};

TEST_F(RepeatedGames, DeterministicEnginesWithoutOpeningsRepeatTheirGamesAndEveryReportSaysHowMany) {
  const e2e::RunResult r = run("");
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.err.find(kWarning), std::string::npos) << r.summary();
  EXPECT_NE(r.out.find("note: " + std::string(kRepeatLine)), std::string::npos) << r.summary();

  const boost::json::object s = standings();
  EXPECT_EQ(s.at("games").as_int64(), kGames);
  EXPECT_EQ(s.at("repeated_games").as_int64(), kRepeats);
  EXPECT_NE(e2e::read_file(report("standings.md")).find(kRepeatLine), std::string::npos);
  EXPECT_NE(e2e::read_file(report("report.html")).find(kRepeatLine), std::string::npos);
}

TEST_F(RepeatedGames, TheSameTournamentFromABookRepeatsNothing) {
  const e2e::RunResult r = run("file = " + test::toml_string(kBook.string()));
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_EQ(r.err.find("repeat their games"), std::string::npos) << r.summary();
  EXPECT_EQ(r.out.find("repeat an earlier game"), std::string::npos) << r.summary();

  const boost::json::object s = standings();
  EXPECT_EQ(s.at("games").as_int64(), kGames);
  EXPECT_EQ(s.at("repeated_games").as_int64(), 0);
  EXPECT_EQ(e2e::read_file(report("standings.md")).find("repeat an earlier game"), std::string::npos);
  EXPECT_EQ(e2e::read_file(report("report.html")).find("repeat an earlier game"), std::string::npos);
}

}  // namespace
}  // namespace kalah
