// `referee kgp-client` end to end: two bundled bots, each behind its own kgp-client process, play a whole
// game on the project's KGP server (kgp::host_game, and `referee kgp-server --websocket`) over loopback; and
// hostile WebSocket servers (tests/engines/kgp_ws_server.py) end the client cleanly. Over TLS (wss://):
// kgp_wss_e2e_test.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <set>

#include "referee/kgp/host.h"
#include "referee/system/temp_folder.h"
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

// The lines a scripted server reads up to the first that starts with `until` (that one included).
std::vector<std::string> lines_up_to(LineSocket& s, const std::string& until) {
  std::vector<std::string> lines;
  std::string line;
  while (s.read(line, std::chrono::steady_clock::now() + kPatience) == LineSocket::Status::Line) {
    lines.push_back(line);
    if (line.rfind(until, 0) == 0) break;
  }
  return lines;
}

TEST(KgpClientE2E, PingIsAnsweredWhileTheEngineThinks) {
  Expected<LineListener> listening = LineListener::listen("127.0.0.1", 0);
  ASSERT_TRUE(listening.ok()) << listening.error();
  LineListener listener = std::move(listening).value();
  // kalah-mcts searches for all of its move time: 2 s from the server less a 1 s margin.
  ChildProcess mcts({e2e::kReferee.string(), "kgp-client", "--server", "127.0.0.1:" + std::to_string(listener.port()),
                     "--margin-ms", "1000", "--engine", "cmd=" + e2e::kMcts.string()});
  std::optional<LineSocket> accepted = listener.accept(std::chrono::steady_clock::now() + kPatience);
  ASSERT_TRUE(accepted.has_value());
  LineSocket& s = *accepted;
  const auto soon = [] { return std::chrono::steady_clock::now() + kPatience; };
  ASSERT_TRUE(s.write("kgp 1 0 0\r\n", soon()));
  const std::vector<std::string> hello = lines_up_to(s, "mode");
  ASSERT_FALSE(hello.empty());
  EXPECT_EQ(hello.front(), "set info:name kalah-mcts");
  EXPECT_EQ(hello.back(), "mode freeplay");
  ASSERT_TRUE(s.write(
      "set time:mode relative\r\nset time:clock 2\r\n2 state <6,0,0,4,4,4,4,4,4,4,4,4,4,4,4>\r\n4 ping\r\n", soon()));
  const std::vector<std::string> answers = lines_up_to(s, "@2 yield");
  ASSERT_GE(answers.size(), 3u);
  EXPECT_EQ(answers[0], "@4 pong");  // before the move: the engine was still thinking
  EXPECT_EQ(answers[1].rfind("@2 move ", 0), 0u) << answers[1];
  EXPECT_EQ(answers.back(), "@2 yield");
  ASSERT_TRUE(s.write("6@2 stop\r\ngoodbye\r\n", soon()));
  const std::vector<std::string> printed = rest_of(mcts);
  ASSERT_FALSE(printed.empty());
  EXPECT_NE(printed.back().find("1 states, 1 moves, 1 pings answered, 0 without a move; the connection ended: goodbye"),
            std::string::npos)
      << printed.back();
  EXPECT_EQ(mcts.wait_exit(), 0);
}

// The port in kgp-server's first line, "kgp-server: listening on ws://127.0.0.1:PORT/, ...".
std::optional<std::string> listening_port(ChildProcess& server) {
  const std::optional<std::string> line = server.wait_for("kgp-server: listening on ", kPatience);
  if (!line) return std::nullopt;
  const std::size_t colon = line->find(':', line->find("127.0.0.1"));
  const std::size_t end = line->find('/', colon);
  if (colon == std::string::npos || end == std::string::npos) return std::nullopt;
  return line->substr(colon + 1, end - colon - 1);
}

TEST(KgpClientE2E, TwoBundledBotsPlayAWholeGameOverAWebSocket) {
  ChildProcess server(
      {e2e::kReferee.string(), "kgp-server", "--websocket", "--port", "0", "--movetime", "5000", "--wait-ms", "20000"});
  ASSERT_TRUE(server.started());
  const std::optional<std::string> port = listening_port(server);
  ASSERT_TRUE(port.has_value());
  const std::string url = "ws://127.0.0.1:" + *port + "/kgp";
  ChildProcess greedy({e2e::kReferee.string(), "kgp-client", "--server", url, "--margin-ms", "4000", "--engine",
                       "cmd=" + e2e::kGreedy.string()});
  ChildProcess random({e2e::kReferee.string(), "kgp-client", "--server", url, "--margin-ms", "4000", "--engine",
                       "cmd=" + e2e::kRandom.string()});
  ASSERT_TRUE(greedy.started() && random.started());
  const std::optional<std::string> game = server.wait_for("game kgp-1: ", kPatience);
  ASSERT_TRUE(game.has_value());
  EXPECT_NE(game->find("kalah-greedy"), std::string::npos) << *game;
  EXPECT_NE(game->find("kalah-random"), std::string::npos) << *game;
  EXPECT_EQ(game->find("forfeits"), std::string::npos) << *game;
  EXPECT_EQ(server.wait_exit(), 0);
  for (ChildProcess* client : {&greedy, &random}) {
    const std::vector<std::string> lines = rest_of(*client);
    ASSERT_GE(lines.size(), 3u);
    EXPECT_EQ(lines.front(), "kgp-client: '" + std::string(client == &greedy ? "kalah-greedy" : "kalah-random") +
                                 "' (" + (client == &greedy ? e2e::kGreedy : e2e::kRandom).string() + ") on " + url +
                                 " as '" + (client == &greedy ? "kalah-greedy" : "kalah-random") + "'");
    EXPECT_EQ(lines[1], "server: kgp 1 0 0");
    EXPECT_NE(lines.back().find("0 without a move; the connection ended: goodbye"), std::string::npos) << lines.back();
    EXPECT_EQ(client->wait_exit(), 0);
  }
}

// kgp-client against tests/engines/kgp_ws_server.py misbehaving in `mode`: what it printed and how it ended.
e2e::RunResult against_hostile_server(const std::string& mode) {
  ChildProcess server({"/usr/bin/env", "python3", KALAH_SOURCE_DIR "/tests/engines/kgp_ws_server.py", mode});
  e2e::RunResult r;
  const std::optional<std::string> port = server.read_line(kPatience);
  if (!port) {
    r.status.code = -100;
    return r;
  }
  system::TempFolder scratch{"kalah-e2e"};
  return e2e::run({e2e::kReferee.string(), "kgp-client", "--server", "ws://127.0.0.1:" + *port + "/", "--startup-ms",
                   "1000", "--engine", "cmd=" + e2e::kRandom.string()},
                  scratch.path(), kPatience);
}

TEST(KgpClientE2E, AWebSocketMessageOverTheLineLimitEndsTheClient) {
  const e2e::RunResult r = against_hostile_server("oversized");
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_FALSE(r.status.timed_out);
  EXPECT_NE(r.out.find("the connection ended: the server sent a line over 16384 characters"), std::string::npos)
      << r.summary();
}

TEST(KgpClientE2E, ABinaryWebSocketMessageEndsTheClient) {
  const e2e::RunResult r = against_hostile_server("binary");
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_FALSE(r.status.timed_out);
  EXPECT_NE(r.out.find("the connection ended: the server sent a binary WebSocket message"), std::string::npos)
      << r.summary();
}

TEST(KgpClientE2E, AServerThatDoesNotUpgradeIsNamedWithItsAnswer) {
  const e2e::RunResult r = against_hostile_server("no-upgrade");
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_NE(r.err.find("did not upgrade to a WebSocket: it answered HTTP 200 OK"), std::string::npos) << r.summary();
}

TEST(KgpClientE2E, AServerThatNeverAnswersTheUpgradeTimesOut) {
  const e2e::RunResult r = against_hostile_server("mute");
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_FALSE(r.status.timed_out);
  EXPECT_NE(r.err.find("no WebSocket upgrade from ws://127.0.0.1:"), std::string::npos) << r.summary();
}

// Several lines in one message and a message without a line break (as a server writing a byte stream into
// messages may send them) are lines all the same; each line of the client's is a message of its own.
TEST(KgpClientE2E, AWebSocketMessageHoldsAsManyLinesAsItsLineBreaksSay) {
  ChildProcess server({"/usr/bin/env", "python3", KALAH_SOURCE_DIR "/tests/engines/kgp_ws_server.py", "lines"});
  const std::optional<std::string> port = server.read_line(kPatience);
  ASSERT_TRUE(port.has_value());
  system::TempFolder scratch{"kalah-e2e"};
  const e2e::RunResult r = e2e::run({e2e::kReferee.string(), "kgp-client", "--server", "ws://127.0.0.1:" + *port + "/",
                                     "--margin-ms", "4000", "--engine", "cmd=" + e2e::kRandom.string()},
                                    scratch.path(), kPatience);
  EXPECT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.out.find("1 states, 1 moves, 1 pings answered, 0 without a move; the connection ended: goodbye"),
            std::string::npos)
      << r.summary();
  std::vector<std::string> messages;
  while (std::optional<std::string> line = server.read_line(kPatience)) messages.push_back(*line);
  ASSERT_FALSE(messages.empty()) << r.summary();
  EXPECT_EQ(messages.front(), "'set info:name kalah-random\\r\\n'");
  EXPECT_NE(std::find(messages.begin(), messages.end(), "'@4 pong\\r\\n'"), messages.end());
  // `move` and `yield`, written at once, are two messages.
  const auto yield = std::find(messages.begin(), messages.end(), "'@2 yield\\r\\n'");
  ASSERT_NE(yield, messages.end());
  ASSERT_NE(yield, messages.begin());
  EXPECT_EQ(std::prev(yield)->rfind("'@2 move ", 0), 0u) << *std::prev(yield);
}

}  // namespace
}  // namespace kalah::kgp
