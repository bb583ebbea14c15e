// The KGP server side (referee/kgp: session, session_player, host) against scripted clients on loopback:
// the handshake, anytime moves, stale and hostile lines, ping, whole games and the verify checks.
#include <gtest/gtest.h>

#include <functional>
#include <future>
#include <set>
#include <thread>

#include "referee/kgp/board.h"
#include "referee/kgp/host.h"

namespace kalah::kgp {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;

Deadline in(milliseconds ms) { return steady_clock::now() + ms; }
constexpr milliseconds kPatience{10000};  // for what must happen: only a broken build waits this long

// A scripted client on its own thread. The constructor returns once it is connected, so that of two
// clients made one after the other the first is accepted first (and starts South in a hosted game).
class Client {
 public:
  Client(std::uint16_t port, std::function<void(LineSocket&)> script) {
    std::promise<void> connected;
    std::future<void> done = connected.get_future();
    thread_ = std::thread([port, script = std::move(script), &connected] {
      Expected<LineSocket> s = LineSocket::connect("127.0.0.1", port, in(kPatience));
      connected.set_value();
      ASSERT_TRUE(s.ok()) << s.error();
      LineSocket socket = std::move(s).value();
      script(socket);
    });
    done.wait();
  }
  ~Client() { thread_.join(); }

 private:
  std::thread thread_;
};

// The next command the client reads, skipping `set` hints.
Command next(LineSocket& s, bool skip_sets = true) {
  std::string line;
  while (s.read(line, in(kPatience)) == LineSocket::Status::Line) {
    Expected<Command> c = parse_line(line);
    EXPECT_TRUE(c.ok()) << line;
    if (!c) return Command{};
    if (!skip_sets || c->name != "set") return *c;
  }
  return Command{};
}

void say(LineSocket& s, std::string_view line) { ASSERT_TRUE(s.write(std::string(line) + "\r\n", in(kPatience))); }

// Connects, reads `kgp`, names itself and asks for freeplay.
void greet(LineSocket& s, std::string_view name = "scripted") {
  const Command hello = next(s);
  EXPECT_EQ(hello.name, "kgp");
  EXPECT_EQ(int_arg(hello, 0), 1);
  say(s, "set info:name " + std::string(name));
  say(s, "mode freeplay");
}

struct Served {
  LineListener listener = std::move(LineListener::listen("127.0.0.1", 0)).value();
  ServerSession accept() {
    std::optional<LineSocket> s = listener.accept(in(kPatience));
    EXPECT_TRUE(s.has_value());
    return ServerSession(std::move(*s));
  }
};

TEST(KgpServer, HandshakeKeepsTheClientsName) {
  Served server;
  Client client(server.listener.port(), [](LineSocket& s) {
    greet(s, "\"Ada's agent\"");
    EXPECT_EQ(next(s).name, "goodbye");
  });
  ServerSession session = server.accept();
  EXPECT_EQ(session.handshake(in(kPatience)), std::nullopt);
  EXPECT_EQ(session.mode(), "freeplay");
  EXPECT_EQ(session.info().name, "Ada's agent");
  session.goodbye(in(kPatience));
}

TEST(KgpServer, AnUnsupportedModeGetsErrorAndGoodbye) {
  Served server;
  Client client(server.listener.port(), [](LineSocket& s) {
    next(s);
    say(s, "3 mode simple");
    const Command error = next(s);
    EXPECT_EQ(error.name, "error");
    EXPECT_EQ(error.ref, 3u);
    EXPECT_EQ(next(s).name, "goodbye");
  });
  ServerSession session = server.accept();
  const std::optional<Fault> f = session.handshake(in(kPatience));
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, Termination::Startup);
  EXPECT_NE(f->detail.find("simple"), std::string::npos) << f->detail;
}

TEST(KgpServer, TheLastMoveBeforeYieldCountsAndStaleOnesAreIgnored) {
  Served server;
  Client client(server.listener.port(), [](LineSocket& s) {
    greet(s);
    const Command state = next(s);
    ASSERT_EQ(state.name, "state");
    ASSERT_TRUE(state.id.has_value());
    const std::string ref = "@" + std::to_string(*state.id);
    say(s, ref + " move 1");
    say(s, "@999999 move 3");  // an earlier state's: ignored
    say(s, "7 set info:comment \"thinking\"");
    say(s, ref + " move 2");
    say(s, ref + " yield");
    const Command stop = next(s);
    EXPECT_EQ(stop.name, "stop");
    EXPECT_EQ(stop.ref, state.id);
    EXPECT_EQ(next(s).name, "goodbye");
  });
  ServerSession session = server.accept();
  ASSERT_EQ(session.handshake(in(kPatience)), std::nullopt);
  ServerSession::Hints hints;
  hints.time_mode = "relative";
  hints.clock_ms = 5000;
  const ServerSession::Answer a = session.ask(Board{3, 0, 0, {3, 3, 3}, {3, 3, 3}}, hints, in(kPatience));
  EXPECT_FALSE(a.fault.has_value());
  EXPECT_EQ(a.move, 2);
  EXPECT_EQ(a.moves, 2);
  EXPECT_TRUE(a.yielded);
  session.goodbye(in(kPatience));
}

TEST(KgpServer, PingIsAnsweredByPong) {
  Served server;
  Client client(server.listener.port(), [](LineSocket& s) {
    greet(s);
    const Command ping = next(s);
    EXPECT_EQ(ping.name, "ping");
    say(s, "@" + std::to_string(ping.id.value_or(0)) + " pong");
    EXPECT_EQ(next(s).name, "goodbye");
  });
  ServerSession session = server.accept();
  ASSERT_EQ(session.handshake(in(kPatience)), std::nullopt);
  EXPECT_TRUE(session.ping(in(kPatience)));
  session.goodbye(in(kPatience));
}

// A client that waits for the server's `ping` during a state before it answers: the ping is sent while the
// state is open, and its pong (when `pong`) is seen; the moves come in order and the evals of the eval mode
// are kept.
ServerSession::Answer ping_during_state(bool pong, const std::string& mode, const std::vector<std::string>& answers) {
  Served server;
  Client client(server.listener.port(), [&](LineSocket& s) {
    EXPECT_EQ(next(s).name, "kgp");
    say(s, "mode " + mode);
    const Command state = next(s);
    ASSERT_EQ(state.name, "state");
    const std::string ref = "@" + std::to_string(state.id.value_or(0));
    const Command ping = next(s);
    ASSERT_EQ(ping.name, "ping");
    if (pong) say(s, "@" + std::to_string(ping.id.value_or(0)) + " pong");
    for (const std::string& a : answers) say(s, ref + " " + a);
    say(s, ref + " yield");
    EXPECT_EQ(next(s).name, "stop");
    EXPECT_EQ(next(s).name, "goodbye");
  });
  ServerSession session = server.accept();
  EXPECT_EQ(session.handshake(in(kPatience), {"freeplay", "eval"}), std::nullopt);
  EXPECT_EQ(session.mode(), mode);
  // Without a pong the wait for it ends at pong_by, after the stop: a bound, not a measurement.
  const ServerSession::PingDuring ping{in(milliseconds(20)), in(pong ? kPatience : milliseconds(300))};
  const ServerSession::Answer a = session.ask(Board{3, 0, 0, {3, 3, 3}, {3, 3, 3}}, {}, in(kPatience), ping);
  session.goodbye(in(kPatience));
  return a;
}

TEST(KgpServer, APingDuringAStateIsAnsweredAndEvalsAreKept) {
  const ServerSession::Answer a = ping_during_state(true, "eval", {"eval 1.5", "eval -.25"});
  EXPECT_FALSE(a.fault.has_value());
  EXPECT_TRUE(a.ping_sent_ms.has_value());
  EXPECT_TRUE(a.pong_ms.has_value());
  EXPECT_EQ(a.eval, -0.25);
  EXPECT_FALSE(a.move.has_value());
  EXPECT_TRUE(a.yielded);
}

TEST(KgpServer, APingWithoutPongIsSeenAndTheMovesAreKeptInOrder) {
  const ServerSession::Answer a = ping_during_state(false, "freeplay", {"move 1", "move 3", "move 2"});
  EXPECT_FALSE(a.fault.has_value());
  EXPECT_TRUE(a.ping_sent_ms.has_value());
  EXPECT_FALSE(a.pong_ms.has_value());
  EXPECT_EQ(a.history, (std::vector<long long>{1, 3, 2}));
  EXPECT_EQ(a.move, 2);
  EXPECT_EQ(a.moves, 3);
}

// What a client that answers a state with `reply` (then closes) gives the server.
ServerSession::Answer answer_to(const std::string& reply) {
  Served server;
  Client client(server.listener.port(), [&](LineSocket& s) {
    greet(s);
    next(s);
    ASSERT_TRUE(s.write(reply, in(kPatience)));
    s.close();
  });
  ServerSession session = server.accept();
  EXPECT_EQ(session.handshake(in(kPatience)), std::nullopt);
  return session.ask(Board{3, 0, 0, {3, 3, 3}, {3, 3, 3}}, {}, in(kPatience));
}

TEST(KgpServer, GarbageLongLinesAndClosedConnectionsAreFaults) {
  const ServerSession::Answer garbage = answer_to("move \"one\r\n");
  ASSERT_TRUE(garbage.fault.has_value());
  EXPECT_EQ(garbage.fault->kind, Termination::Protocol);
  const ServerSession::Answer pitless = answer_to("move one\r\n");
  ASSERT_TRUE(pitless.fault.has_value());
  EXPECT_EQ(pitless.fault->kind, Termination::Protocol);
  const ServerSession::Answer long_line = answer_to("move " + std::string(kMaxLineChars + 10, '1') + "\r\n");
  ASSERT_TRUE(long_line.fault.has_value());
  EXPECT_EQ(long_line.fault->kind, Termination::Protocol);
  const ServerSession::Answer closed = answer_to("");
  ASSERT_TRUE(closed.fault.has_value());
  EXPECT_EQ(closed.fault->kind, Termination::Crash);
}

// A client that plays the lowest legal pit of every state (by our rules, from the board) until goodbye.
void lowest_pit_client(LineSocket& s, std::string_view name) {
  greet(s, name);
  while (true) {
    const Command c = next(s);
    if (c.name == "goodbye" || c.name.empty()) return;
    if (c.name != "state") continue;
    const Board* b = board_arg(c, 0);
    ASSERT_NE(b, nullptr);
    int pit = 1;
    while (pit < b->pits && b->south[pit - 1] == 0) ++pit;
    say(s, "@" + std::to_string(c.id.value_or(0)) + " move " + std::to_string(pit));
    say(s, "@" + std::to_string(c.id.value_or(0)) + " yield");
  }
}

GameSettings quick_game() {
  GameSettings settings;
  settings.id = "kgp-1";
  settings.variant.pits = 4;
  settings.variant.seeds = 3;
  settings.time.mode = TimeControl::Mode::MoveTime;
  settings.time.movetime_ms = 10000;
  return settings;
}

// Replays a record by the rules: every move legal, the final stores as recorded.
void expect_played_by_the_rules(const GameRecord& r) {
  Position p = r.initial_position();
  for (Move m : r.moves) {
    ASSERT_TRUE(is_legal(r.variant, p, m));
    apply(r.variant, p, m);
  }
  EXPECT_TRUE(p.over);
  EXPECT_EQ(store(r.variant, p, Side::South), r.store_south);
  EXPECT_EQ(store(r.variant, p, Side::North), r.store_north);
}

TEST(KgpServer, TwoClientsPlayAWholeGame) {
  Served server;
  Client a(server.listener.port(), [](LineSocket& s) { lowest_pit_client(s, "low-a"); });
  Client b(server.listener.port(), [](LineSocket& s) { lowest_pit_client(s, "low-b"); });
  Expected<HostedGame> hosted = host_game(server.listener, quick_game(), kPatience);
  ASSERT_TRUE(hosted.ok()) << hosted.error();
  const GameRecord& r = hosted->record;
  EXPECT_EQ(r.termination, Termination::Normal) << (r.forfeit ? r.forfeit->detail : "");
  EXPECT_EQ(std::set<std::string>({r.south, r.north}), (std::set<std::string>{"low-a", "low-b"}));
  EXPECT_GT(r.moves.size(), 4u);
  expect_played_by_the_rules(r);
}

// A client that answers every state with nothing (nor yield) until the stop.
void silent_client(LineSocket& s) {
  greet(s, "silent");
  for (Command c = next(s); c.name != "goodbye" && !c.name.empty(); c = next(s)) {
  }
}

TEST(KgpServer, NoMoveIsAForfeitOrARandomMove) {
  GameSettings settings = quick_game();
  settings.time.movetime_ms = 50;  // the silent client's (South's): each of its turns ends at the stop
  settings.second_time = quick_game().time;
  for (NoMove policy : {NoMove::Forfeit, NoMove::Random}) {
    Served server;
    Client south(server.listener.port(), silent_client);
    Client north(server.listener.port(), [](LineSocket& s) { lowest_pit_client(s, "low"); });
    Expected<HostedGame> hosted = host_game(server.listener, settings, kPatience, policy);
    ASSERT_TRUE(hosted.ok()) << hosted.error();
    const GameRecord& r = hosted->record;
    if (policy == NoMove::Forfeit) {
      ASSERT_TRUE(r.forfeit.has_value());
      EXPECT_EQ(r.forfeit->engine, "silent");
      EXPECT_EQ(r.forfeit->reason, Termination::Time);
      EXPECT_TRUE(r.moves.empty());
    } else {
      EXPECT_FALSE(r.forfeit.has_value()) << r.forfeit->detail;
      EXPECT_EQ(r.south, "silent");
      expect_played_by_the_rules(r);
    }
  }
}

TEST(KgpServer, ThePieRuleIsRefused) {
  GameSettings settings = quick_game();
  settings.variant.pie = true;
  Served server;
  Client a(server.listener.port(), [](LineSocket& s) { lowest_pit_client(s, "low-a"); });
  Client b(server.listener.port(), [](LineSocket& s) { lowest_pit_client(s, "low-b"); });
  Expected<HostedGame> hosted = host_game(server.listener, settings, kPatience);
  ASSERT_TRUE(hosted.ok()) << hosted.error();
  ASSERT_TRUE(hosted->record.forfeit.has_value());
  EXPECT_NE(hosted->record.forfeit->detail.find("pie"), std::string::npos);
}

// A verify client: answers each problem by our rules, or, when `mistake`, with the board unchanged.
void verify_answering_client(LineSocket& s, bool mistake) {
  next(s);
  say(s, "mode verify");
  Variant rules;
  rules.majority = true;
  for (Command c = next(s); c.name == "problem"; c = next(s)) {
    const Board* b = board_arg(c, 0);
    const std::optional<long long> pit = int_arg(c, 1);
    ASSERT_TRUE(b && pit);
    Expected<BoardGame> g = game_of(*b, rules);
    ASSERT_TRUE(g.ok()) << g.error();
    const Position next_position = after(g->variant, g->position, Move::at(static_cast<int>(*pit)));
    const bool again = !next_position.over && next_position.to_move == Side::South;
    const Board answer = mistake ? *b : board_for(g->variant, next_position, Side::South);
    say(s, "@" + std::to_string(c.id.value_or(0)) + " solution " + board_text(answer) + (again ? " 1" : " 0"));
  }
}

TEST(KgpServer, VerifyChecksThousandsOfPositionsAndNamesAMistake) {
  Variant rules;
  rules.majority = true;
  for (bool mistake : {false, true}) {
    Served server;
    Client client(server.listener.port(), [mistake](LineSocket& s) { verify_answering_client(s, mistake); });
    ServerSession session = server.accept();
    ASSERT_EQ(session.handshake(in(kPatience), {"freeplay", "verify"}), std::nullopt);
    EXPECT_EQ(session.mode(), "verify");
    const VerifyResult v = verify_client(session, rules, 2000, 41, kPatience);
    EXPECT_FALSE(v.fault.has_value());
    EXPECT_EQ(v.passed, mistake ? 0 : 2000);
    EXPECT_EQ(v.wrong.empty(), !mistake) << v.wrong;
    session.goodbye(in(kPatience));
  }
}

// Over a WebSocket (Transport::WebSocket): a connection that does not ask for the upgrade (a plain KGP
// client, speaking first) is dropped and the next one served; each line goes as a text message both ways, so
// `move` and `yield` written at once arrive as two lines.
TEST(KgpServer, AWebSocketListenerDropsAConnectionThatDoesNotUpgradeAndServesTheNext) {
  Expected<LineListener> listening = LineListener::listen("127.0.0.1", 0, Transport::WebSocket);
  ASSERT_TRUE(listening.ok()) << listening.error();
  LineListener listener = std::move(listening).value();
  Expected<LineSocket> connected = LineSocket::connect("127.0.0.1", listener.port(), in(kPatience));
  ASSERT_TRUE(connected.ok()) << connected.error();
  LineSocket plain = std::move(connected).value();
  ASSERT_TRUE(plain.write("mode freeplay\r\n\r\n", in(kPatience)));
  std::thread client([port = listener.port()] {
    Expected<LineSocket> s =
        LineSocket::connect_websocket(WebSocketUrl{false, "127.0.0.1", port, "/kgp"}, in(kPatience));
    ASSERT_TRUE(s.ok()) << s.error();
    LineSocket socket = std::move(s).value();
    greet(socket, "ws-client");
    const Command state = next(socket);
    ASSERT_EQ(state.name, "state");
    ASSERT_TRUE(state.id.has_value());
    const std::string ref = "@" + std::to_string(*state.id);
    ASSERT_TRUE(socket.write(ref + " move 3\r\n" + ref + " yield\r\n", in(kPatience)));
    EXPECT_EQ(next(socket).name, "stop");
    EXPECT_EQ(next(socket).name, "goodbye");
  });
  std::optional<LineSocket> accepted = listener.accept(in(kPatience));
  ASSERT_TRUE(accepted.has_value());
  ServerSession session(std::move(*accepted));
  EXPECT_EQ(session.handshake(in(kPatience)), std::nullopt);
  EXPECT_EQ(session.info().name, "ws-client");
  const ServerSession::Answer a = session.ask(Board{3, 0, 0, {3, 3, 3}, {3, 3, 3}}, {}, in(kPatience));
  EXPECT_EQ(a.fault, std::nullopt);
  EXPECT_EQ(a.move, 3);
  EXPECT_TRUE(a.yielded);
  session.goodbye(in(kPatience));
  client.join();
  // The plain client was dropped: its connection is closed without a line.
  std::string line;
  EXPECT_EQ(plain.read(line, in(kPatience)), LineSocket::Status::Closed);
}

}  // namespace
}  // namespace kalah::kgp
