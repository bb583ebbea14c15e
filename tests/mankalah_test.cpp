// The Manchester Kalah adapter against a real agent (tests/engines/mankalah_agent.py)
// and a real KEP bot: games finish without forfeits, with and without a pie swap,
// and the agent is told exactly what the protocol prescribes.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "referee/engine/engine_player.h"
#include "referee/game/game.h"
#include "referee/system/temp_folder.h"
#include "tests/files.h"

namespace kalah {
namespace {

EngineSpec agent(bool swap, const std::string& log) {
  EngineSpec c;
  c.name = "agent";
  c.cmd = "/usr/bin/python3";
  c.args = {KALAH_SOURCE_DIR "/tests/engines/mankalah_agent.py"};
  if (swap) c.args.push_back("--swap");
  c.protocol = Protocol::Mankalah;
  c.comm_log = log;
  return c;
}

EngineSpec random_bot() {
  EngineSpec c;
  c.name = "random";
  c.cmd = KALAH_BINARY_DIR "/bots/kalah-random";
  return c;
}

GameSettings manchester_rules() {
  GameSettings s;
  s.variant.pits = 7;
  s.variant.seeds = 7;
  s.variant.pie = true;
  s.time.base_ms = 20000;  // generous: an interpreter starts for every game
  s.time.inc_ms = 0;
  return s;
}

TEST(Mankalah, AgentPlaysBothSidesWithoutForfeits) {
  for (bool swap : {false, true}) {
    const system::TempFolder dir("kalah-mankalah");
    const std::string log = (dir / "mankalah.log").string();
    std::unique_ptr<ProcessPlayer> a = make_player(agent(swap, log));
    std::unique_ptr<ProcessPlayer> r = make_player(random_bot());
    for (int g = 0; g < 4; ++g) {
      const GameRecord rec = g % 2 ? play_game(*r, *a, manchester_rules()) : play_game(*a, *r, manchester_rules());
      ASSERT_FALSE(rec.forfeit.has_value()) << to_string(rec.forfeit->reason) << ": " << rec.forfeit->detail;
      EXPECT_NE(rec.result, Outcome::Ongoing);
    }
    const std::string text = test::read_file(log);
    EXPECT_NE(text.find("agent > START;South"), std::string::npos);
    EXPECT_NE(text.find("agent > START;North"), std::string::npos);
    EXPECT_NE(text.find("agent > END"), std::string::npos);
    EXPECT_NE(text.find(";END\n"), std::string::npos);  // a finished game's last CHANGE
    if (swap) {
      EXPECT_NE(text.find("agent < SWAP"), std::string::npos);
    }
  }
}

TEST(Mankalah, TheFirstChangeShowsTheBoardNorthFirst) {
  // The agent as North sees South's opening move 1 of Kalah(7,7): South's hole 1 is
  // emptied into holes 2..7 and the store; the state lists North's side first.
  const system::TempFolder dir("kalah-mankalah");
  const std::string log = (dir / "mankalah_board.log").string();
  std::unique_ptr<ProcessPlayer> a = make_player(agent(false, log));
  struct FirstPit : Player {
    std::string n = "first";
    const std::string& name() const override { return n; }
    std::optional<Fault> new_game(const Variant&, const std::optional<Position>&, const TimeControl&) override {
      return std::nullopt;
    }
    Reply play(const std::vector<Move>&, const kep::Go&, std::chrono::milliseconds) override {
      return Reply{std::nullopt, Move::at(1), 1, {}};
    }
  } south;
  GameSettings s = manchester_rules();
  s.max_plies = 2;
  play_game(south, *a, s);
  EXPECT_NE(test::read_file(log).find("agent > CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU"), std::string::npos)
      << test::read_file(log);
}

}  // namespace
}  // namespace kalah
