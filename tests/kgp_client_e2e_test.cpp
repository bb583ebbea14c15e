// `referee kgp-client` end to end: two bundled bots, each behind its own kgp-client process, play a whole
// game on the project's KGP server (kgp::host_game) over loopback.
#include <gtest/gtest.h>

#include <set>

#include "referee/kgp/host.h"
#include "tests/child_process.h"
#include "tests/e2e_util.h"

namespace kalah::kgp {
namespace {

using test_support::ChildProcess;

constexpr std::chrono::milliseconds kPatience{20000};

// A kgp-client process for `bot` on the server's port; the server's 5 s a move less a 4 s margin leave the
// engine 1 s (the bots here answer at once).
std::vector<std::string> client_args(std::uint16_t port, const std::filesystem::path& bot) {
  return {e2e::kReferee.string(), "kgp-client", "--server", "127.0.0.1:" + std::to_string(port),
          "--margin-ms",          "4000",       "--engine", "cmd=" + bot.string()};
}

// Everything the client printed, up to its exit.
std::vector<std::string> rest_of(ChildProcess& p) {
  std::vector<std::string> lines;
  const auto deadline = ChildProcess::Clock::now() + kPatience;
  while (std::optional<std::string> line = p.read_line(deadline)) lines.push_back(*line);
  return lines;
}

TEST(KgpClientE2E, TwoBundledBotsPlayAWholeGameOnTheKgpServer) {
  Expected<LineListener> listening = LineListener::listen("127.0.0.1", 0);
  ASSERT_TRUE(listening.ok()) << listening.error();
  LineListener listener = std::move(listening).value();
  ChildProcess greedy(client_args(listener.port(), e2e::kGreedy));
  ChildProcess random(client_args(listener.port(), e2e::kRandom));
  ASSERT_TRUE(greedy.started() && random.started());
  GameSettings settings;
  settings.id = "kgp-e2e";
  settings.variant.majority = true;  // the course server's rules
  settings.time.mode = TimeControl::Mode::MoveTime;
  settings.time.movetime_ms = 5000;
  Expected<HostedGame> hosted = host_game(listener, settings, kPatience);
  ASSERT_TRUE(hosted.ok()) << hosted.error();
  const GameRecord& r = hosted->record;
  EXPECT_FALSE(r.forfeit.has_value()) << r.forfeit->engine << ": " << r.forfeit->detail;
  EXPECT_TRUE(r.termination == Termination::Normal || r.termination == Termination::Majority);
  EXPECT_EQ(std::set<std::string>({r.south, r.north}), (std::set<std::string>{"kalah-greedy", "kalah-random"}));
  Position p = r.initial_position();
  for (Move m : r.moves) {
    ASSERT_TRUE(is_legal(r.variant, p, m));
    apply(r.variant, p, m);
  }
  EXPECT_TRUE(p.over);
  for (ChildProcess* client : {&greedy, &random}) {
    const std::vector<std::string> lines = rest_of(*client);
    ASSERT_FALSE(lines.empty());
    EXPECT_NE(lines.back().find("0 without a move; the connection ended: goodbye"), std::string::npos) << lines.back();
    EXPECT_EQ(client->wait_exit(), 0);
  }
}

}  // namespace
}  // namespace kalah::kgp
