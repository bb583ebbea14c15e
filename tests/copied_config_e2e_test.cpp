// A bundled config copied out of the repository plays as it does inside it: its bots, the Python one
// too (kalah-python-random), are found by name beside the arena (docs/CONFIG.md, "Paths"), and its book
// beside the copy. Run from the copy's folder, outside the checkout, so that no path relative to the
// repository can be what makes it work.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "tests/e2e_util.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;

// One cycle of the round robin of configs/quick.toml's five engines (5 rounds of 2 pairs): every pairing
// once, 8 games for each engine.
constexpr int kGames = 20;

TEST(CopiedConfig, QuickTomlCopiedIntoAnotherFolderPlaysWithoutForfeits) {
  system::TempFolder dir{"kalah-e2e"};
  const fs::path mine = dir / "mine";
  fs::create_directories(mine);
  for (const char* file : {"quick.toml", "draw-book.txt"})
    fs::copy_file(fs::path(KALAH_SOURCE_DIR) / "configs" / file, mine / file);

  e2e::RunResult r;
  {
    e2e::Child arena({e2e::kArena.string(), "run", "quick.toml", "--max-games", std::to_string(kGames)},
                     dir / "run.out", dir / "run.err", mine);
    r.status = arena.wait(std::chrono::milliseconds(120000));
  }
  r.out = e2e::read_file(dir / "run.out");
  r.err = e2e::read_file(dir / "run.err");
  ASSERT_EQ(r.status.code, 0) << r.summary();

  const boost::json::object standings =
      boost::json::parse(e2e::read_file(mine / "results" / "quick" / "standings.json")).as_object();
  EXPECT_EQ(standings.at("games").as_int64(), kGames);
  bool python_played = false;
  for (const boost::json::value& v : standings.at("engines").as_array()) {
    const boost::json::object& e = v.as_object();
    EXPECT_EQ(e.at("forfeits").as_int64(), 0) << e.at("name").as_string() << "\n" << r.summary();
    python_played = python_played || (e.at("name") == "python-random" && e.at("games").as_int64() > 0);
  }
  EXPECT_TRUE(python_played) << r.summary();
  for (const std::string& line : e2e::read_lines(mine / "results" / "quick" / "games.jsonl"))
    EXPECT_NE(line.find("\"forfeit\":null"), std::string::npos) << line;
}

}  // namespace
}  // namespace kalah
