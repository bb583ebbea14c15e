// The KGP codec (referee/kgp/codec.h, board.h): lines as the specification writes them, round trips, and
// hostile lines coming back as errors.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "referee/kgp/address.h"
#include "referee/kgp/board.h"
#include "referee/kgp/codec.h"

namespace kalah::kgp {
namespace {}  // namespace

void PrintTo(const Board& b, std::ostream* out) { *out << format(make_command("board", {b})); }

namespace {

Command parsed(std::string_view line) {
  Expected<Command> c = parse_line(line);
  EXPECT_TRUE(c.ok()) << line << ": " << (c.ok() ? "" : c.error());
  return c.ok() ? *c : Command{};
}

TEST(KgpCodec, ReadsIdsReferencesAndEveryArgumentType) {
  const Command c = parsed("12@7 set info:name \"my \\\"best\\\" agent\" -3 +4 -.5 2.25 <2,1,0,3,0,1,2>\r\n");
  EXPECT_EQ(c.id, 12u);
  EXPECT_EQ(c.ref, 7u);
  EXPECT_EQ(c.name, "set");
  ASSERT_EQ(c.args.size(), 7u);
  EXPECT_EQ(text_arg(c, 0), "info:name");
  EXPECT_EQ(text_arg(c, 1), "my \"best\" agent");
  EXPECT_EQ(int_arg(c, 2), -3);
  EXPECT_EQ(int_arg(c, 3), 4);
  EXPECT_EQ(std::get<double>(c.args[4]), -0.5);
  EXPECT_EQ(std::get<double>(c.args[5]), 2.25);
  const Board* b = board_arg(c, 6);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->pits, 2);
  EXPECT_EQ(b->south_store, 1);
  EXPECT_EQ(b->north_store, 0);
  EXPECT_EQ(b->south, (std::vector<long long>{3, 0}));
  EXPECT_EQ(b->north, (std::vector<long long>{1, 2}));
}

TEST(KgpCodec, HeaderIsOptionalInEachPart) {
  EXPECT_EQ(parsed("kgp 1 0 0").id, std::nullopt);
  const Command reply = parsed("@4 move 1");
  EXPECT_EQ(reply.id, std::nullopt);
  EXPECT_EQ(reply.ref, 4u);
  EXPECT_EQ(int_arg(reply, 0), 1);
  const Command state = parsed("4 state <3,0,0,3,3,3,3,3,3>");
  EXPECT_EQ(state.id, 4u);
  EXPECT_EQ(state.ref, std::nullopt);
  EXPECT_EQ(parsed("  6@4   stop  \r\n").name, "stop");
  EXPECT_EQ(parsed("pong\n").name, "pong");  // a bare LF is taken too
}

TEST(KgpCodec, TheSpecificationsBoardExample) {
  // <3,10,2,1,2,3,4,2,0>: 3 pits, South's store 10, North's 2, South's pits 1 2 3, North's 4 2 0.
  const Command c = parsed("state <3,10,2,1,2,3,4,2,0>");
  const Board* b = board_arg(c, 0);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(*b, (Board{3, 10, 2, {1, 2, 3}, {4, 2, 0}}));
}

TEST(KgpCodec, LinesFormatBackAsTheyCame) {
  for (const char* line : {"kgp 1 0 0", "mode freeplay", "4 state <3,0,0,3,3,3,3,3,3>", "@4 move 1", "6@4 stop",
                           "set info:authors \"Ada, Alan\"", "set time:clock 5", "@9 eval -0.5", "error \"a \\\\ b\"",
                           "set auth:token \"12\"", "goodbye"}) {
    EXPECT_EQ(format(parsed(line)), std::string(line) + "\r\n");
  }
}

TEST(KgpCodec, BuildersQuoteWhatIsNoWord) {
  EXPECT_EQ(format(make_set("info:name", text("greedy"))), "set info:name greedy\r\n");
  EXPECT_EQ(format(make_set("info:name", text("two words"))), "set info:name \"two words\"\r\n");
  EXPECT_EQ(format(make_set("info:name", text("12"))), "set info:name \"12\"\r\n");
  EXPECT_EQ(format(make_command("move", {3LL}, std::nullopt, 8)), "@8 move 3\r\n");
  EXPECT_EQ(format(make_command("eval", {2.0})), "eval 2.0\r\n");
  EXPECT_EQ(format(make_command("state", {Board{1, 0, 1, {2}, {3}}}, 5)), "5 state <1,0,1,2,3>\r\n");
  EXPECT_EQ(format(make_command("error", {text("a\"b\\c\nd")})), "error \"a\\\"b\\\\c d\"\r\n");
}

TEST(KgpCodec, HostileLinesAreErrors) {
  for (const char* line : {"",
                           "   ",
                           "42",
                           "@",
                           "12@ move 1",
                           "1@x move",
                           "99999999999999999999 ping",
                           "mo-ve 1",
                           "move 1.",
                           "move 1e+5",
                           "move 99999999999999999999",
                           "move 1..2",
                           "set a \"unterminated",
                           "set a \"x\"y",
                           "set a \"x\\",
                           "state <>",
                           "state <3,0,0,3,3,3,3,3>",
                           "state <0>",
                           "state <1,0,0,1,1",
                           "state <1,0,0,1,x>",
                           "state <1,0,0,1,-1>",
                           "state <2000,0,0>",
                           "state <1,0,0,1,9999999>",
                           "state <1,,0,1,1>",
                           "ping\x01",
                           "ping \"a\x02\"",
                           "ping\r\nping",
                           "move 1 \xff",
                           "a \"b\"c"}) {
    Expected<Command> c = parse_line(line);
    EXPECT_FALSE(c.ok()) << "accepted: " << line;
  }
  EXPECT_FALSE(parse_line("ping " + std::string(kMaxLineChars, 'a')).ok());
  EXPECT_TRUE(parse_line("ping " + std::string(kMaxLineChars - 7, 'a') + "\r\n").ok());
}

TEST(KgpCodec, WordsAreNotNumbers) {
  EXPECT_TRUE(is_word("info:name"));
  EXPECT_TRUE(is_word("-"));
  EXPECT_TRUE(is_word("x-1"));
  EXPECT_FALSE(is_word("12"));
  EXPECT_FALSE(is_word("-.5"));
  EXPECT_FALSE(is_word("a b"));
  EXPECT_FALSE(is_word(""));
}

TEST(KgpCodec, RandomLinesNeverCrashAndWhatParsesRoundTrips) {
  const std::string alphabet = "0123456789@<>,.\"\\+-: \tabcz\r\n\x01\xff";
  std::mt19937 rng(41);
  for (int n = 0; n < 20000; ++n) {
    std::string line;
    const int length = static_cast<int>(rng() % 40);
    for (int i = 0; i < length; ++i) line += alphabet[rng() % alphabet.size()];
    Expected<Command> c = parse_line(line);
    if (!c) continue;
    const std::string text = format(*c);
    Expected<Command> again = parse_line(text);
    ASSERT_TRUE(again.ok()) << "seed 41, line " << n << ": " << line;
    EXPECT_EQ(format(*again), text) << "seed 41, line " << n;
  }
}

TEST(KgpBoard, BoardsBecomeOurPositionsWithSouthToMove) {
  Variant rules;
  rules.majority = true;
  Expected<BoardGame> g = game_of(Board{3, 10, 2, {1, 2, 3}, {4, 2, 0}}, rules);
  ASSERT_TRUE(g.ok()) << g.error();
  EXPECT_EQ(g->variant.pits, 3);
  EXPECT_TRUE(g->variant.majority);
  EXPECT_EQ(g->variant.seeds, 4);  // 22 seeds: a standard board of 4 a pit holds 24
  EXPECT_EQ(to_start_notation(g->variant, g->position), "1,2,3/4,2,0 10-2 S");
}

TEST(KgpBoard, BoardsOurRulesCannotPlayAreErrors) {
  Variant rules;
  EXPECT_FALSE(game_of(Board{17, 0, 0, std::vector<long long>(17, 1), std::vector<long long>(17, 1)}, rules).ok());
  EXPECT_FALSE(game_of(Board{1, 0, 0, {0}, {0}}, rules).ok());        // no seed
  EXPECT_FALSE(game_of(Board{2, 3, 0, {0, 0}, {1, 1}}, rules).ok());  // South's row is empty: over
  EXPECT_FALSE(game_of(Board{1, 0, 0, {40}, {0}}, rules).ok());       // over 2 x 16 seeds a pit
  rules.majority = true;
  EXPECT_FALSE(game_of(Board{2, 9, 0, {1, 1}, {1, 1}}, rules).ok());  // a store holds most seeds
}

TEST(KgpBoard, EachMoverSeesItsOwnRowAsSouths) {
  Variant v;
  v.pits = 3;
  v.seeds = 3;
  Position p = start_position(v);
  apply(v, p, Move::at(1));  // South sows 3 from pit 1 into pits 2 and 3 and its store
  EXPECT_EQ(board_for(v, p, Side::South), (Board{3, 1, 0, {0, 4, 4}, {3, 3, 3}}));
  EXPECT_EQ(board_for(v, p, Side::North), (Board{3, 0, 1, {3, 3, 3}, {0, 4, 4}}));
}

}  // namespace
}  // namespace kalah::kgp

// Where a server is (referee/kgp/address.h): WebSocket URLs and the placeholders of an agent's arguments.
namespace kalah::kgp {
namespace {

TEST(KgpAddress, AWebSocketUrlIsTakenApart) {
  Expected<WebSocketUrl> plain = parse_websocket_url("ws://localhost:8080/socket?x=1");
  ASSERT_TRUE(plain.ok()) << plain.error();
  EXPECT_FALSE(plain->secure);
  EXPECT_EQ(plain->host, "localhost");
  EXPECT_EQ(plain->port, 8080);
  EXPECT_EQ(plain->target, "/socket?x=1");
  Expected<WebSocketUrl> bare = parse_websocket_url("WS://127.0.0.1");
  ASSERT_TRUE(bare.ok()) << bare.error();
  EXPECT_EQ(bare->port, 80);
  EXPECT_EQ(bare->target, "/");
  EXPECT_EQ(to_string(*bare), "ws://127.0.0.1:80/");
  Expected<WebSocketUrl> v6 = parse_websocket_url("ws://[::1]:2671");
  ASSERT_TRUE(v6.ok()) << v6.error();
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(to_string(*v6), "ws://[::1]:2671/");
  Expected<WebSocketUrl> secure = parse_websocket_url("wss://kalah.kwarc.info/socket");
  ASSERT_TRUE(secure.ok()) << secure.error();
  EXPECT_TRUE(secure->secure);
  EXPECT_EQ(secure->port, 443);
  EXPECT_TRUE(is_websocket_url("wss://x") && is_websocket_url("Ws://x") && !is_websocket_url("localhost:2671"));
}

TEST(KgpAddress, AMalformedWebSocketUrlIsAnErrorNamingWhatIsWrong) {
  const auto error_of = [](std::string_view text) {
    Expected<WebSocketUrl> url = parse_websocket_url(text);
    return url ? std::string("(parsed)") : url.error();
  };
  EXPECT_EQ(error_of("http://x/"), "'http://x/' is not a ws:// or wss:// URL");
  EXPECT_EQ(error_of("ws:///path"), "the URL 'ws:///path' has no host");
  EXPECT_EQ(error_of("ws://host:/"), "the URL 'ws://host:/' has an empty port");
  EXPECT_EQ(error_of("ws://host:70000/"),
            "the URL 'ws://host:70000/' has a port '70000' that is not a number from 1 to 65535");
  EXPECT_EQ(error_of("ws://[::1/"), "the URL 'ws://[::1/' has an IPv6 address without its closing ]");
  EXPECT_EQ(error_of("ws://user@host/"), "the URL 'ws://user@host/' has a host with a space or an @ in it");
  EXPECT_EQ(error_of("ws://host/a b"), "the URL 'ws://host/a b' holds a space or a control character");
}

TEST(KgpAddress, ThePlaceholdersOfAnAgentsArgumentsNameTheServer) {
  const std::vector<std::string> args = with_server_address(
      {":{kgp_port}", "--to={kgp_host}:{kgp_port}", "{dir}/agent"}, AgentServer{"127.0.0.1", 40123});
  EXPECT_EQ(args, (std::vector<std::string>{":40123", "--to=127.0.0.1:40123", "{dir}/agent"}));
  // Over a WebSocket the server has a URL too, which the course's clients take where they take a host.
  const AgentServer ws{"127.0.0.1", 40123, true};
  EXPECT_EQ(with_server_address({"{kgp_url}", "{kgp_port}"}, ws),
            (std::vector<std::string>{"ws://127.0.0.1:40123/", "40123"}));
  EXPECT_TRUE(names_server_address("--server={kgp_url}"));
  EXPECT_TRUE(names_server_url("--server={kgp_url}"));
  EXPECT_FALSE(names_server_url("{kgp_host}"));
  EXPECT_EQ(address_placeholder_problem("{kgp_url}"), std::nullopt);
  EXPECT_TRUE(names_server_address("x{kgp_host}"));
  EXPECT_FALSE(names_server_address("{kgp_hosts"));
  EXPECT_EQ(address_placeholder_problem(":{kgp_port}"), std::nullopt);
  // `referee kgp-host` written out: its agent's arguments come after `--`.
  const std::vector<std::string> host = {"kgp-host", "--no-move", "random", "--", "kgpc", ":{kgp_port}"};
  EXPECT_TRUE(after_kgp_host(host, 5));
  EXPECT_FALSE(after_kgp_host(host, 2));
  EXPECT_FALSE(after_kgp_host({"--", "kgp-host", ":{kgp_port}"}, 2));
  EXPECT_EQ(address_placeholder_problem(":{kgp_prt}"),
            "'{kgp_prt}' is no placeholder: the server's address is {kgp_host} and {kgp_port}, or {kgp_url} over a "
            "WebSocket");
}

}  // namespace
}  // namespace kalah::kgp
