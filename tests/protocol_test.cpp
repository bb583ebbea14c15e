#include <gtest/gtest.h>

#include <tuple>

#include "referee/protocol/options.h"
#include "referee/protocol/protocol.h"

namespace kalah::kep {
namespace {

template <class T>
T command(std::string_view line) {
  Expected<Command> c = parse_command(line);
  EXPECT_TRUE(c.ok()) << line << ": " << (c.ok() ? "" : c.error());
  EXPECT_TRUE(c.ok() && std::holds_alternative<T>(*c)) << line;
  return c.ok() && std::holds_alternative<T>(*c) ? std::get<T>(*c) : T{};
}

template <class T>
T message(std::string_view line) {
  EngineMessage m = parse_engine_line(line);
  EXPECT_TRUE(std::holds_alternative<T>(m)) << line << " parsed as alternative " << m.index();
  return std::holds_alternative<T>(m) ? std::get<T>(m) : T{};
}

TEST(Protocol, CommandsRoundTrip) {
  for (const char* line :
       {"kep", "isready", "stop", "quit", "setoption name Hash Size value 64 MB",
        "newgame pits=6 seeds=4 capture=empty ending=side-empty remainder=owner majority=off pie=on",
        "position startpos", "position startpos moves 3 6 swap 1", "go stime 1000 ntime 950 sinc 10 ninc 10",
        "go movetime 250", "go depth 12", "go nodes 100000", "position 4,0,4/4,4,5 1-0 N",
        "position 4,0,4/4,4,5 1-0 N moves 2 3", "go stime 1000 ntime 950 sinc 10 ninc 10 movestogo 7", "bench"}) {
    Expected<Command> c = parse_command(line);
    ASSERT_TRUE(c.ok()) << line << ": " << c.error();
    EXPECT_EQ(format(*c), line);
  }
}

TEST(Protocol, NewGameCarriesTheGamesSeedAsItsLastWord) {
  const std::string rules =
      "newgame pits=6 seeds=4 capture=standard ending=side-empty remainder=owner majority=off pie=off";
  Expected<Command> with = parse_command(rules + " seed=1520834071");
  ASSERT_TRUE(with) << with.error();
  const auto* n = std::get_if<NewGame>(&*with);
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->seed, 1520834071u);
  EXPECT_EQ(n->variant, Variant{});
  EXPECT_EQ(format(*with), rules + " seed=1520834071");
  Expected<Command> without = parse_command(rules);
  ASSERT_TRUE(without);
  EXPECT_EQ(std::get<NewGame>(*without).seed, std::nullopt);
  EXPECT_EQ(format(*without), rules);
  for (const char* bad : {" seed=", " seed=x", " seed=-1", " seed=2147483648", " seed=1 2"})
    EXPECT_FALSE(parse_command(rules + bad)) << bad;
}

TEST(Protocol, NewGameCarriesTheClockAfterTheSeed) {
  const std::string rules =
      "newgame pits=6 seeds=4 capture=standard ending=side-empty remainder=owner majority=off pie=off";
  for (const auto& [words, seed, clock] :
       {std::tuple{" seed=7 clock=cpu", std::optional<std::uint32_t>(7), std::optional(ClockKind::Cpu)},
        std::tuple{" clock=wall", std::optional<std::uint32_t>(), std::optional(ClockKind::Wall)},
        std::tuple{"", std::optional<std::uint32_t>(), std::optional<ClockKind>()}}) {
    Expected<Command> c = parse_command(rules + words);
    ASSERT_TRUE(c) << words << ": " << c.error();
    const NewGame& n = std::get<NewGame>(*c);
    EXPECT_EQ(n.variant, Variant{});
    EXPECT_EQ(n.seed, seed) << words;
    EXPECT_EQ(n.clock, clock) << words;
    EXPECT_EQ(format(*c), rules + words);
  }
  for (const char* bad : {" clock=", " clock=thread", " clock=cpu seed=1", " clock=cpu 2"})
    EXPECT_FALSE(parse_command(rules + bad)) << bad;
  EXPECT_EQ(parse_clock_kind("cpu"), ClockKind::Cpu);
  EXPECT_EQ(std::string(to_string(ClockKind::Wall)), "wall");
}

TEST(Protocol, PositionFromAStartKeepsTheStartAsText) {
  const PositionCmd p = command<PositionCmd>("position  4,0,4/4,4,5   1-0 N moves 2 swap");
  EXPECT_EQ(p.start, "4,0,4/4,4,5 1-0 N");
  EXPECT_EQ(p.moves, (std::vector<Move>{Move::at(2), Move::swap()}));
  EXPECT_EQ(command<PositionCmd>("position startpos moves 1").start, "");
  EXPECT_EQ(command<Go>("go stime 5 ntime 5 sinc 0 ninc 0 movestogo 3").movestogo, 3);
}

TEST(Protocol, SetOptionKeepsSpacesInNameAndValue) {
  const SetOption o = command<SetOption>("setoption name Book File value /tmp/my book.txt");
  EXPECT_EQ(o.name, "Book File");
  EXPECT_EQ(o.value, "/tmp/my book.txt");
}

TEST(Protocol, GoWithAClock) {
  const Go go = command<Go>("go stime 1000 ntime 950 sinc 10 ninc 20");
  ASSERT_TRUE(go.clock.has_value());
  EXPECT_EQ(go.clock->stime, 1000);
  EXPECT_EQ(go.clock->ntime, 950);
  EXPECT_EQ(go.clock->ninc, 20);
  EXPECT_FALSE(go.movetime.has_value());
}

// A delay, only to an engine that announced `feature delay` (docs/PROTOCOL.md, "Clocks").
TEST(Protocol, GoWithADelayRoundTrips) {
  for (const char* line : {"go stime 60000 ntime 60000 sinc 0 ninc 0 delay 2000",
                           "go stime 60000 ntime 59000 sinc 500 ninc 500 bronstein 250 movestogo 3"})
    EXPECT_EQ(format(command<Go>(line)), line);
  const Go go = command<Go>("go stime 60000 ntime 60000 sinc 0 ninc 0 bronstein 2000");
  ASSERT_TRUE(go.delay.has_value());
  EXPECT_EQ(go.delay->ms, 2000);
  EXPECT_EQ(go.delay->kind, DelayKind::Bronstein);
  EXPECT_FALSE(parse_command("go stime 9 delay -1").ok());
}

TEST(Protocol, BadCommandsAreErrors) {
  for (const char* line :
       {"", "hello", "go movetime", "go movetime -5", "go soon 3", "position fen x", "position startpos 3 4",
        "position startpos moves 3 x", "newgame pits=99", "setoption Hash 3", "position", "position 4,4/4,4 0-0",
        "position 4,4/4,4 0-0 moves 1", "position 4,4/4,4 0-0 S 1", "go stime 9 movestogo 0", "bench 12"})
    EXPECT_FALSE(parse_command(line).ok()) << line;
}

TEST(Protocol, EngineMessagesRoundTrip) {
  for (const char* line :
       {"id name Alpha Beta 1.0", "id author A. Turing", "feature positions", "kepok", "readyok", "bestmove 3",
        "bestmove swap", "info depth 12 score -3 nodes 123456 time 15 pv 3 1 6", "info string hello world",
        "option name Hash type spin default 16 min 1 max 1024", "option name Book File type string default my book.txt",
        "option name Ponder type check default false", "feature bench", "bench nodes 123456 time 85",
        "bench nodes 0"}) {
    EXPECT_EQ(format(parse_engine_line(line)), line);
  }
}

TEST(Protocol, BenchAnswerGivesTheNodeCountAndSkipsUnknownFields) {
  const BenchResult b = message<BenchResult>("bench nodes 123456 time 85");
  EXPECT_EQ(b.nodes, 123456);
  EXPECT_EQ(b.time, 85);
  const BenchResult more = message<BenchResult>("  bench time 3 nps 41152000 nodes 9223372036854775807\r");
  EXPECT_EQ(more.nodes, 9223372036854775807LL);
  EXPECT_EQ(more.time, 3);
  EXPECT_EQ(message<BenchResult>("bench nodes 7").time, std::nullopt);
}

// An engine's answer to bench is checked word by word: a count that is missing, not a whole number, negative or
// too big for 64 bits is malformed, never read as some other number.
TEST(Protocol, MalformedBenchAnswers) {
  for (const char* line : {"bench", "bench nodes", "bench nodes x", "bench nodes -5", "bench nodes 12.5",
                           "bench nodes 99999999999999999999", "bench time 85", "bench nodes 12 time",
                           "bench nodes 1e6", "bench nodes 12 time soon"})
    EXPECT_FALSE(message<Malformed>(line).why.empty()) << line;
}

// Found by fuzz_kep: a depth beyond int was cast and wrapped around into a negative one.
TEST(Protocol, NumbersBeyondIntAreRefusedOrDroppedNeverWrapped) {
  EXPECT_FALSE(parse_command("go stime 610 depth 494992992990990").ok());
  const Expected<Command> ok = parse_command("go depth 2147483647");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(format(*ok), "go depth 2147483647");
  const EngineMessage m = parse_engine_line("info depth 99999999999 score -99999999999 nodes 7");
  const Info* info = std::get_if<Info>(&m);
  ASSERT_NE(info, nullptr);
  EXPECT_FALSE(info->depth);
  EXPECT_FALSE(info->score);
  EXPECT_EQ(info->nodes, 7);
}

TEST(Protocol, InfoFieldsAreParsed) {
  const Info i = message<Info>("info depth 7 seldepth 9 score 4 nodes 1000 nps 5 time 12 pv 3 swap 2");
  EXPECT_EQ(i.depth, 7);
  EXPECT_EQ(i.score, 4);
  EXPECT_EQ(i.nodes, 1000);
  EXPECT_EQ(i.time, 12);
  ASSERT_EQ(i.pv.size(), 3u);
  EXPECT_TRUE(i.pv[1].is_swap());
}

TEST(Protocol, OptionDeclarations) {
  const OptionDecl o = message<OptionDecl>("option name Hash type spin default 16 min 1 max 1024");
  EXPECT_EQ(o.name, "Hash");
  EXPECT_EQ(o.type, "spin");
  EXPECT_EQ(o.default_value, "16");
  EXPECT_EQ(o.min, 1);
  EXPECT_EQ(o.max, 1024);
}

TEST(Protocol, BestmoveAcceptsTrailingWordsAndCarriageReturn) {
  EXPECT_EQ(message<BestMove>("bestmove 4 ponder 2").move, Move::at(4));
  EXPECT_EQ(message<BestMove>("bestmove 5\r").move, Move::at(5));
}

TEST(Protocol, MalformedBestmoveAndUnknownLines) {
  EXPECT_EQ(message<Malformed>("bestmove").why, "bestmove without a move");
  message<Malformed>("bestmove e2e4");
  EXPECT_EQ(message<Unknown>("hello world").line, "hello world");
  message<Unknown>("");
}

TEST(Protocol, ShortenCutsLongLines) {
  EXPECT_EQ(shorten(std::string(500, 'x')).size(), 203u);
  EXPECT_EQ(shorten("short"), "short");
}

// ---- options: what an engine declares against what it is given -----------------------------------------

std::vector<OptionDecl> alphabeta_like() {
  return {OptionDecl{"Hash", "spin", "16", 1, 4096}, OptionDecl{"Depth", "spin", "64", 1, 254},
          OptionDecl{"Ponder", "check", "false", {}, {}}, OptionDecl{"Book", "string", "", {}, {}}};
}

TEST(Options, ValuesTheEngineTakesHaveNoProblem) {
  const std::vector<OptionDecl> d = alphabeta_like();
  for (auto [name, value] : {std::pair{"Depth", "1"},
                             {"Depth", "254"},
                             {"Hash", "16"},
                             {"Ponder", "true"},
                             {"Ponder", "false"},
                             {"Book", "any text at all"},
                             {"Book", ""}})
    EXPECT_EQ(setting_problem(d, name, value), "") << name << "=" << value;
}

TEST(Options, AMisspeltNameIsRefusedWithTheNearestDeclaredName) {
  const std::vector<OptionDecl> d = alphabeta_like();
  EXPECT_EQ(setting_problem(d, "Dept", "2"), "option 'Dept' is not one the engine declares (did you mean 'Depth'?)");
  EXPECT_EQ(setting_problem(d, "Depht", "2"), "option 'Depht' is not one the engine declares (did you mean 'Depth'?)");
  // The engine compares names exactly: another case is another name, and the right one is suggested.
  EXPECT_EQ(setting_problem(d, "depth", "2"), "option 'depth' is not one the engine declares (did you mean 'Depth'?)");
  // Nothing near: no suggestion.
  EXPECT_EQ(setting_problem(d, "Threads", "2"), "option 'Threads' is not one the engine declares");
  EXPECT_EQ(setting_problem({}, "Seed", "2"), "option 'Seed' is not one the engine declares");
}

TEST(Options, ASpinTakesOnlyAnIntegerInsideItsRange) {
  const std::vector<OptionDecl> d = alphabeta_like();
  EXPECT_EQ(setting_problem(d, "Depth", "255"), "option 'Depth': 255 is outside the declared range [1, 254]");
  EXPECT_EQ(setting_problem(d, "Depth", "0"), "option 'Depth': 0 is outside the declared range [1, 254]");
  for (const char* bad : {"two", "2.5", " 2", "2 ", "", "99999999999999999999"})
    EXPECT_EQ(setting_problem(d, "Depth", bad),
              std::string("option 'Depth' is a spin (an integer); '") + bad + "' is not one")
        << bad;
  // A spin without bounds takes any integer.
  EXPECT_EQ(setting_problem({OptionDecl{"Seed", "spin", "1", {}, {}}}, "Seed", "-5"), "");
}

TEST(Options, ACheckTakesTrueOrFalse) {
  EXPECT_EQ(setting_problem(alphabeta_like(), "Ponder", "on"),
            "option 'Ponder' is a check; its value is true or false, not 'on'");
}

TEST(Options, DeclarationsAreJudgedAndDescribed) {
  EXPECT_EQ(declaration_problem(OptionDecl{"Depth", "spin", "64", 1, 254}), "");
  EXPECT_EQ(declaration_problem(OptionDecl{"Depth", "spin", "300", 1, 254}), "default 300 is outside [1, 254]");
  EXPECT_EQ(declaration_problem(OptionDecl{"Depth", "spin", "x", {}, {}}), "a spin's default 'x' is not an integer");
  EXPECT_EQ(declaration_problem(OptionDecl{"Depth", "spin", "3", 5, 4}), "min 5 is above max 4");
  EXPECT_EQ(declaration_problem(OptionDecl{"P", "check", "yes", {}, {}}),
            "a check's default 'yes' is not true or false");
  EXPECT_EQ(declaration_problem(OptionDecl{"P", "combo", "a", {}, {}}), "type 'combo' is not spin, check or string");
  EXPECT_EQ(describe(OptionDecl{"Depth", "spin", "64", 1, 254}), "Depth spin 64 [1, 254]");
  EXPECT_EQ(describe(OptionDecl{"Book", "string", "", {}, {}}), "Book string \"\"");
}

}  // namespace
}  // namespace kalah::kep
