// Tests of the searching bots: kalah-alphabeta and kalah-mcts.
//
// In-process: the bots' choose() over every variant, alpha-beta's values
// against a plain minimax written here, and short matches against greedy and
// random players written here. End to end: the engine executables through
// pipes for `stop` and the clock (loose upper bounds only, never tight timing).
// One file past 400 lines: the two searching bots share the reference minimax and the match helpers.
// How strong the bots are at a time per move is measured with the arena, not here (docs/BOTS.md).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "bots/alphabeta/alphabeta.h"
#include "bots/mcts/mcts.h"
#include "tests/child_process.h"
#include "tests/test_variants.h"

namespace kalah {
namespace {

using namespace std::chrono_literals;

// ---- helpers ----------------------------------------------------------------

kep::Go go_depth(int d) {
  kep::Go go;
  go.depth = d;
  return go;
}
kep::Go go_nodes(long long n) {
  kep::Go go;
  go.nodes = n;
  return go;
}

Move choose(bot::Bot& bot, const Variant& v, const Position& p, const kep::Go& go) {
  const std::vector<Move> history;
  std::atomic<bool> stop{false};
  bot::SearchContext context{v, p, history, go, stop, [](const kep::Info&) {}};
  return bot.choose(context);
}

Move random_move(const Variant& v, const Position& p, std::mt19937_64& rng) {
  const MoveList moves = legal_moves(v, p);
  return moves.moves[std::uniform_int_distribution<int>(0, moves.size - 1)(rng)];
}

// The greedy bot's rule (bots/greedy): an extra turn first, else the largest
// store gain now; ties at random.
Move greedy_move(const Variant& v, const Position& p, std::mt19937_64& rng) {
  const Side me = p.to_move;
  const int before = store(v, p, me) - store(v, p, opponent(me));
  int best_score = -1000000;
  std::vector<Move> best;
  for (Move m : legal_moves(v, p)) {
    const Position next = after(v, p, m);
    const Side mine = m.is_swap() ? opponent(me) : me;
    int score = store(v, next, mine) - store(v, next, opponent(mine)) - before;
    if (!next.over && next.to_move == mine && !m.is_swap()) score += 1000;
    if (score > best_score) best_score = score, best.clear();
    if (score == best_score) best.push_back(m);
  }
  return best[std::uniform_int_distribution<size_t>(0, best.size() - 1)(rng)];
}

// A player in an in-process game: a function of the position.
using Player = std::function<Move(const Variant&, const Position&)>;

Player bot_player(bot::Bot& bot, kep::Go go) {
  return [&bot, go](const Variant& v, const Position& p) { return choose(bot, v, p, go); };
}

// Plays one game from `start`; returns the first player's points (1, 0.5, 0).
// `first` plays the player who started as South, whatever the pie does.
double play(const Variant& v, Position p, const Player& first, const Player& second) {
  while (!p.over) {
    const bool first_moves = (p.to_move == Side::South) != p.swapped;
    const Move m = first_moves ? first(v, p) : second(v, p);
    EXPECT_TRUE(is_legal(v, p, m)) << to_notation(v, p) << " move " << to_string(m);
    if (!is_legal(v, p, m)) return first_moves ? 0.0 : 1.0;
    apply(v, p, m);
  }
  const Outcome o = outcome(v, p);
  return o == Outcome::FirstWins ? 1.0 : o == Outcome::Draw ? 0.5 : 0.0;
}

struct MatchScore {
  double points = 0;  // of player a
  int games = 0;
};

// Colour-swapped pairs of games from openings of `random_plies` random moves.
// `new_game` is called before every game (bots reset their tables there).
MatchScore match(const Variant& v, int pairs, int random_plies, const Player& a, const Player& b,
                 const std::function<void()>& new_game, std::uint64_t seed) {
  MatchScore score;
  std::mt19937_64 rng(seed);
  for (int pair = 0; pair < pairs; ++pair) {
    Position start = start_position(v);
    for (int i = 0; i < random_plies && !start.over; ++i) apply(v, start, random_move(v, start, rng));
    if (start.over) continue;
    new_game();
    score.points += play(v, start, a, b);
    new_game();
    score.points += 1.0 - play(v, start, b, a);
    score.games += 2;
  }
  return score;
}

// The first player's final margin under perfect play, from the position on:
// a plain minimax over players (not sides), memoised on the notation.
int first_player_margin(const Variant& v, const Position& p, std::map<std::string, int>& memo) {
  if (p.over) {
    const int south = store(v, p, Side::South) - store(v, p, Side::North);
    return p.swapped ? -south : south;
  }
  const std::string key = to_notation(v, p);
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  const bool first = (p.to_move == Side::South) != p.swapped;
  int best = first ? -100000 : 100000;
  for (Move m : legal_moves(v, p)) {
    const int value = first_player_margin(v, after(v, p, m), memo);
    best = first ? std::max(best, value) : std::min(best, value);
  }
  memo.emplace(key, best);
  return best;
}

// Alpha-beta's internal score for a final margin: kWin plus kSeed per seed.
int internal_score(int margin) {
  return alphabeta::kSeed * margin + (margin > 0 ? alphabeta::kWin : margin < 0 ? -alphabeta::kWin : 0);
}

// ---- every bot returns a legal move in every variant ------------------------

// Positions from one seeded random game: the first three plies (the pie
// decisions) and then every fifth.
std::vector<Position> sample_positions(const Variant& v, std::uint64_t seed) {
  std::vector<Position> positions;
  std::mt19937_64 rng(seed);
  Position p = start_position(v);
  for (int ply = 0; !p.over; ++ply) {
    if (ply < 3 || ply % 5 == 0) positions.push_back(p);
    apply(v, p, random_move(v, p, rng));
  }
  return positions;
}

// On a CPU clock a search counts the CPU time of its thread, or half the wall time when that is more (so that
// it stops well before the referee's wall-clock safety limit of 3 times the allowance); on the wall clock,
// the wall time. Loose bounds: only the order of magnitude is tested.
TEST(BotsTimer, OnACpuClockASleepCountsHalfAndWorkCountsWhole) {
  bot::SearchTimer wall(ClockKind::Wall), cpu(ClockKind::Cpu);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_GE(wall.elapsed_ms(), 200);
  EXPECT_GE(cpu.elapsed_ms(), 100);
  EXPECT_LT(cpu.elapsed_ms(), wall.elapsed_ms() / 2 + 20) << "asleep: half the wall time, not the CPU's ~0";

  bot::SearchTimer busy(ClockKind::Cpu);
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(150);
  volatile unsigned spin = 0;
  while (std::chrono::steady_clock::now() < until) spin = spin + 1;
  EXPECT_GE(busy.elapsed_ms(), 75) << "busy: at least half of 150 ms";
}

// A bot that spends `setup_cpu_ms` of CPU time on `newgame` and keeps what its search timer says as its
// search begins.
class SetupBot : public bot::Bot {
 public:
  explicit SetupBot(long long setup_cpu_ms) : setup_cpu_ms_(setup_cpu_ms) {}
  std::string name() const override { return "setup"; }
  void new_game(const Variant&) override {
    const long long until = cpu_ns() + setup_cpu_ms_ * 1'000'000;
    volatile unsigned spin = 0;
    while (cpu_ns() < until) spin = spin + 1;
  }
  Move choose(const bot::SearchContext& context) override {
    at_go_ms.push_back(bot::SearchTimer(context.clock, context.started).elapsed_ms());
    return *legal_moves(context.variant, context.position).begin();
  }
  std::vector<long long> at_go_ms;

 private:
  static long long cpu_ns() {
    timespec t{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1'000'000'000LL + t.tv_nsec;
  }
  long long setup_cpu_ms_;
};

// Plays `input` (KEP lines) through the bots' protocol loop.
void play_lines(bot::Bot& bot, const std::string& input) {
  std::FILE* in = ::fmemopen(const_cast<char*>(input.data()), input.size(), "r");
  std::FILE* out = std::tmpfile();
  ASSERT_TRUE(in && out);
  bot::run(bot, in, out);
  std::fclose(in);
  std::fclose(out);
}

// The referee charges a game's first move on the CPU clock from `newgame` (docs/PROTOCOL.md, "Clocks"): a
// bot's setup for the game is in its budget, so its search, timed by the kit, stops in time. (A lower bound on
// CPU time: load cannot break it.)
TEST(BotsTimer, OnACpuClockTheFirstMoveIsTimedFromNewgame) {
  const std::string game =
      "kep\nnewgame pits=6 seeds=4 capture=standard ending=side-empty remainder=owner majority=off pie=off "
      "clock=cpu\nisready\nposition startpos\ngo movetime 5000\nquit\n";
  SetupBot cpu(150);
  play_lines(cpu, game);
  ASSERT_EQ(cpu.at_go_ms.size(), 1u);
  EXPECT_GE(cpu.at_go_ms[0], 150) << "the 150 ms of CPU time spent on newgame";
}

TEST(Bots, EveryBotReturnsALegalMoveInEveryVariant) {
  alphabeta::AlphaBetaBot ab;
  ASSERT_TRUE(ab.set_option("Hash", "1"));
  mcts::MctsBot mc;
  ASSERT_TRUE(mc.set_option("Memory", "1"));
  long long checked = 0;
  for (int pits = 1; pits <= 8; ++pits) {
    for (int seeds = 1; seeds <= 6; ++seeds) {
      for (const Variant& v : test::rule_combinations(pits, seeds)) {
        const std::uint64_t seed = static_cast<std::uint64_t>(pits * 1000 + seeds * 100) + checked;
        ab.new_game(v);
        mc.new_game(v);
        for (const Position& p : sample_positions(v, seed)) {
          SCOPED_TRACE(to_string(v) + " at " + to_notation(v, p) + " (game seed " + std::to_string(seed) + ")");
          EXPECT_TRUE(is_legal(v, p, choose(ab, v, p, go_depth(3))));
          EXPECT_TRUE(is_legal(v, p, choose(ab, v, p, go_nodes(200))));
          EXPECT_TRUE(is_legal(v, p, choose(mc, v, p, go_nodes(200))));
          ++checked;
        }
        if (testing::Test::HasFailure()) return;  // one variant's failures are enough to read
      }
    }
  }
  EXPECT_GT(checked, 5000);
}

// The kit spends most of a delay (docs/PROTOCOL.md, "Clocks"): 10 s left, no increment: 10000 / 25 = 400 ms,
// plus 3/4 of a 2 s simple delay = 1900; a Bronstein delay only within the clock: with 1 s left, 40 + 3/4 of
// min(2000, 500) = 415, at most 1000 / 3 + 375 = 708; a simple one in full, 40 + 1500.
TEST(Bots, TheTimeBudgetSpendsMostOfADelay) {
  const Variant v;
  const Position p = start_position(v);
  const std::vector<Move> history;
  std::atomic<bool> stop{false};
  auto budget = [&](long long left, std::optional<kep::Go::Delay> delay) {
    kep::Go go;
    go.clock = kep::Go::Clock{left, left, 0, 0};
    go.delay = delay;
    const bot::SearchContext context{v, p, history, go, stop, [](const kep::Info&) {}};
    return *context.time_budget_ms();
  };
  EXPECT_EQ(budget(10000, std::nullopt), 400);
  EXPECT_EQ(budget(10000, kep::Go::Delay{2000, DelayKind::Simple}), 1900);
  EXPECT_EQ(budget(1000, kep::Go::Delay{2000, DelayKind::Bronstein}), 415);
  EXPECT_EQ(budget(1000, kep::Go::Delay{2000, DelayKind::Simple}), 40 + 1500);
}

TEST(Bots, TinyNodeBudgetsStillGiveALegalMove) {
  const Variant v;
  alphabeta::AlphaBetaBot ab;
  mcts::MctsBot mc;
  const Position p = start_position(v);
  for (long long nodes : {1, 2, 3}) {
    EXPECT_TRUE(is_legal(v, p, choose(ab, v, p, go_nodes(nodes))));
    EXPECT_TRUE(is_legal(v, p, choose(mc, v, p, go_nodes(nodes))));
  }
  EXPECT_TRUE(is_legal(v, p, choose(mc, v, p, go_depth(1))));
  // No time at all: still a legal move (South's pit 1 is empty here, so a
  // default answer would be caught).
  const Expected<Position> parsed = parse_notation(v, "0,5,5,5,5,4/0/4,4,4,4,4,4/0 s");
  ASSERT_TRUE(parsed);
  const Position q = *parsed;
  for (int i = 0; i < 20; ++i) {
    mcts::Search mcts_search(v, mcts::Settings{});
    mcts::Limits none;
    none.playouts = 0;
    EXPECT_TRUE(is_legal(v, q, mcts_search.run(q, none).best));
    none.playouts.reset();
    none.time_ms = 0;
    EXPECT_TRUE(is_legal(v, q, mcts_search.run(q, none).best));
    alphabeta::Search ab_search(v, alphabeta::Settings{});
    alphabeta::Limits zero;
    zero.time_ms = 0;
    EXPECT_TRUE(is_legal(v, q, ab_search.run(q, zero).best));
  }
}

// ---- alpha-beta: exact values ------------------------------------------------

TEST(BotsAlphaBeta, FullDepthScoreEqualsMinimaxOnTinyBoards) {
  for (int pits = 1; pits <= 3; ++pits) {
    for (int seeds = 1; seeds <= 2; ++seeds) {
      for (const Variant& v : test::rule_combinations(pits, seeds)) {
        std::map<std::string, int> memo;
        alphabeta::Settings settings;
        settings.hash_mb = 1;
        alphabeta::Search search(v, settings);
        int index = 0;
        for (const Position& p : sample_positions(v, 77 + pits * 10 + seeds)) {
          SCOPED_TRACE(to_string(v) + " at " + to_notation(v, p));
          const int first = first_player_margin(v, p, memo);
          const bool mover_is_first = (p.to_move == Side::South) != p.swapped;
          const alphabeta::Result r = search.run(p, alphabeta::Limits{});
          EXPECT_TRUE(r.exact);
          EXPECT_EQ(r.score, internal_score(mover_is_first ? first : -first));
          EXPECT_TRUE(is_legal(v, p, r.best));
          // The chosen move keeps the value.
          const Position next = after(v, p, r.best);
          const int after_best = first_player_margin(v, next, memo);
          EXPECT_EQ(after_best, first);
          if (++index % 2 == 0) search.clear_table();  // both cold and warm tables
        }
      }
    }
  }
}

TEST(BotsAlphaBeta, ValueOfTheStartMatchesMinimaxOnPits3Seeds2) {
  // The full game tree of Kalah(3,2), every rule combination: the search from
  // the start agrees with minimax however the table is used.
  for (const Variant& v : test::rule_combinations(3, 2)) {
    SCOPED_TRACE(to_string(v));
    std::map<std::string, int> memo;
    const int first = first_player_margin(v, start_position(v), memo);
    alphabeta::Settings settings;
    settings.hash_mb = 1;
    alphabeta::Search search(v, settings);
    const alphabeta::Result r = search.run(start_position(v), alphabeta::Limits{});
    EXPECT_TRUE(r.exact);
    EXPECT_EQ(r.score, internal_score(first));
  }
}

TEST(BotsAlphaBeta, ReproducesPublishedValuesOfSmallKalah) {
  // Irving, Donkers, Uiterwijk, "Solving Kalah" (2000): with empty capture
  // Kalah(4,1..4) = +2, +6, +8, +2; with standard capture Kalah(4,3) = +6.
  struct Case {
    int seeds;
    Capture capture;
    int margin;
  };
  for (const Case& c : {Case{1, Capture::Empty, 2}, Case{2, Capture::Empty, 6}, Case{3, Capture::Empty, 8},
                        Case{4, Capture::Empty, 2}, Case{3, Capture::Standard, 6}}) {
    Variant v;
    v.pits = 4;
    v.seeds = c.seeds;
    v.capture = c.capture;
    alphabeta::Search search(v, alphabeta::Settings{});
    const alphabeta::Result r = search.run(start_position(v), alphabeta::Limits{});
    EXPECT_TRUE(r.exact) << to_string(v);
    EXPECT_EQ(alphabeta::protocol_score(r.score), 1000 + c.margin) << to_string(v);
  }
}

TEST(BotsAlphaBeta, ProtocolScoreIsSeedsOrAProvenResult) {
  using alphabeta::kSeed;
  EXPECT_EQ(alphabeta::protocol_score(3 * kSeed), 3);
  EXPECT_EQ(alphabeta::protocol_score(-3 * kSeed), -3);
  EXPECT_EQ(alphabeta::protocol_score(kSeed / 2), 1);
  EXPECT_EQ(alphabeta::protocol_score(0), 0);
  EXPECT_EQ(alphabeta::protocol_score(internal_score(8)), 1008);
  EXPECT_EQ(alphabeta::protocol_score(internal_score(-2)), -1002);
}

TEST(BotsAlphaBeta, SwapIsWorthTheNegatedValueOfTheBoardForTheFirstPlayer) {
  // Kalah(3,2) with the pie rule, after each first move: the search's value of
  // the offer equals minimax, which treats players, not sides.
  Variant v;
  v.pits = 3;
  v.seeds = 2;
  v.pie = true;
  const Position start = start_position(v);
  int swaps = 0;
  for (Move first_move : legal_moves(v, start)) {
    const Position offer = after(v, start, first_move);
    ASSERT_EQ(offer.pie, Pie::Offer);
    std::map<std::string, int> memo;
    const int first = first_player_margin(v, offer, memo);  // North (the second player) moves
    alphabeta::Search search(v, alphabeta::Settings{});
    const alphabeta::Result r = search.run(offer, alphabeta::Limits{});
    EXPECT_EQ(r.score, internal_score(-first)) << to_string(first_move);
    // The chosen answer (a pit or the swap) keeps the value.
    EXPECT_EQ(first_player_margin(v, after(v, offer, r.best), memo), first) << to_string(first_move);
    swaps += r.best.is_swap();
  }
  // Kalah(3,2) gives the first player a big edge: some first moves are worth taking over.
  EXPECT_GT(swaps, 0);
}

TEST(BotsAlphaBeta, StopsAtTheNodeBudget) {
  const Variant v;
  alphabeta::Search search(v, alphabeta::Settings{});
  alphabeta::Limits limits;
  limits.nodes = 5000;
  const alphabeta::Result r = search.run(start_position(v), limits);
  EXPECT_LE(r.nodes, 5000);
  EXPECT_GE(r.depth, 3);
}

TEST(BotsAlphaBeta, ReportsAnInfoLineAfterEveryIteration) {
  const Variant v;
  alphabeta::AlphaBetaBot bot;
  const Position p = start_position(v);
  const std::vector<Move> history;
  std::atomic<bool> stop{false};
  const kep::Go go = go_depth(5);
  std::vector<kep::Info> infos;
  bot::SearchContext context{v, p, history, go, stop, [&](const kep::Info& i) { infos.push_back(i); }};
  const Move m = bot.choose(context);
  ASSERT_EQ(infos.size(), 5u);
  for (int d = 1; d <= 5; ++d) {
    const kep::Info& i = infos[d - 1];
    EXPECT_EQ(i.depth, d);
    EXPECT_TRUE(i.score && i.nodes && i.time);
    ASSERT_FALSE(i.pv.empty());
    // The pv is a legal line from the position.
    Position q = p;
    for (Move pv_move : i.pv) {
      ASSERT_TRUE(is_legal(v, q, pv_move));
      apply(v, q, pv_move);
    }
  }
  EXPECT_EQ(infos.back().pv.front(), m);
}

// ---- strength -----------------------------------------------------------------

TEST(BotsAlphaBeta, Depth6BeatsGreedyAndRandom) {
  const Variant v;  // Kalah(6,4)
  alphabeta::AlphaBetaBot ab;
  ASSERT_TRUE(ab.set_option("Hash", "4"));
  std::mt19937_64 rng(2024);
  const Player alpha_beta = bot_player(ab, go_depth(6));
  const Player greedy = [&](const Variant& var, const Position& p) { return greedy_move(var, p, rng); };
  const Player random = [&](const Variant& var, const Position& p) { return random_move(var, p, rng); };
  auto reset = [&] { ab.new_game(v); };

  const MatchScore vs_greedy = match(v, 12, 2, alpha_beta, greedy, reset, 1);
  const MatchScore vs_random = match(v, 12, 2, alpha_beta, random, reset, 2);
  EXPECT_GE(vs_greedy.points, 0.75 * vs_greedy.games) << vs_greedy.points << "/" << vs_greedy.games;
  EXPECT_GE(vs_random.points, 0.9 * vs_random.games) << vs_random.points << "/" << vs_random.games;
}

TEST(BotsAlphaBeta, Depth6BeatsGreedyWithThePieRule) {
  Variant v;
  v.pie = true;
  v.capture = Capture::Empty;
  alphabeta::AlphaBetaBot ab;
  ASSERT_TRUE(ab.set_option("Hash", "4"));
  std::mt19937_64 rng(7);
  const Player greedy = [&](const Variant& var, const Position& p) { return greedy_move(var, p, rng); };
  // No random opening: the pie decision is part of the game.
  const MatchScore s = match(
      v, 8, 0, bot_player(ab, go_depth(6)), greedy, [&] { ab.new_game(v); }, 3);
  EXPECT_GE(s.points, 0.7 * s.games) << s.points << "/" << s.games;
}

TEST(BotsMcts, BeatsRandom) {
  const Variant v;
  mcts::MctsBot mc;
  std::mt19937_64 rng(11);
  const Player random = [&](const Variant& var, const Position& p) { return random_move(var, p, rng); };
  const MatchScore s = match(
      v, 6, 2, bot_player(mc, go_nodes(2000)), random, [] {}, 4);
  EXPECT_GE(s.points, 0.8 * s.games) << s.points << "/" << s.games;
}

TEST(BotsMcts, SameSeedSameMoves) {
  const Variant v;
  const Position p = after(v, start_position(v), Move::at(1));
  mcts::MctsBot a, b;
  ASSERT_TRUE(a.set_option("Seed", "5"));
  ASSERT_TRUE(b.set_option("Seed", "5"));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(choose(a, v, p, go_nodes(3000)), choose(b, v, p, go_nodes(3000)));
}

// Spin and combo options: good values are taken, bad values and other bots' option names refused.
TEST(Bots, OptionsAreValidated) {
  mcts::MctsBot mc;
  alphabeta::AlphaBetaBot ab;
  const struct {
    bot::Bot* bot;
    const char* name;
    const char* value;
    bool taken;
  } cases[] = {
      {&mc, "Exploration", "70", true},   {&mc, "Playouts", "4", true},  {&mc, "Policy", "greedy", true},
      {&mc, "Exploration", "0.7", false}, {&mc, "Playouts", "0", false}, {&mc, "Policy", "smart", false},
      {&mc, "Hash", "16", false},         {&ab, "Hash", "2", true},      {&ab, "Depth", "4", true},
      {&ab, "Hash", "0", false},          {&ab, "Depth", "x", false},    {&ab, "Seed", "1", false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.bot->name() + ": " + c.name + "=" + c.value);
    EXPECT_EQ(c.bot->set_option(c.name, c.value), c.taken);
  }
  const Variant v;
  EXPECT_TRUE(is_legal(v, start_position(v), choose(mc, v, start_position(v), go_nodes(100))));
}

TEST(BotsAlphaBeta, DepthOptionCapsEverySearch) {
  alphabeta::AlphaBetaBot bot;
  ASSERT_TRUE(bot.set_option("Depth", "4"));
  const Variant v;
  const Position p = start_position(v);
  std::vector<kep::Info> infos;
  const std::vector<Move> history;
  std::atomic<bool> stop{false};
  const kep::Go go = go_depth(20);
  bot::SearchContext context{v, p, history, go, stop, [&](const kep::Info& i) { infos.push_back(i); }};
  bot.choose(context);
  ASSERT_FALSE(infos.empty());
  EXPECT_EQ(infos.back().depth, 4);
}

// The bench names the build: the same count every time, whatever the options and the games before.
TEST(BotsBench, ASearchingBotsBenchIsTheSameEveryTimeWhateverItsOptions) {
  alphabeta::AlphaBetaBot ab;
  mcts::MctsBot mc;
  for (bot::Bot* b : std::initializer_list<bot::Bot*>{&ab, &mc}) {
    SCOPED_TRACE(b->name());
    ASSERT_TRUE(b->has_bench());
    const long long first = b->bench();
    EXPECT_GT(first, 1000);
    const Variant v;
    choose(*b, v, start_position(v), go_nodes(500));  // a search in between leaves nothing behind
    EXPECT_EQ(b->bench(), first);
  }
  ASSERT_TRUE(ab.set_option("Depth", "2"));
  ASSERT_TRUE(ab.set_option("Hash", "1"));
  ASSERT_TRUE(mc.set_option("Playouts", "4"));
  alphabeta::AlphaBetaBot ab_default;
  mcts::MctsBot mc_default;
  EXPECT_EQ(ab.bench(), ab_default.bench());
  EXPECT_EQ(mc.bench(), mc_default.bench());
}

TEST(BotsBench, TheBenchPositionsAreEightDistinctPositionsWithAMove) {
  const Variant v;
  const std::vector<Position> set = bot::bench_positions();
  ASSERT_EQ(set.size(), 8u);
  EXPECT_EQ(set.front(), start_position(v));
  for (std::size_t i = 0; i < set.size(); ++i) {
    EXPECT_GT(legal_move_count(v, set[i]), 0) << i;
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(set[i], set[j]) << i << " " << j;
  }
}

// ---- the engine executables through pipes -------------------------------------

// An engine executable on pipes.
struct Engine : kalah::test_support::ChildProcess {
  explicit Engine(const std::string& path) : ChildProcess({path}) {}
};

const char* const kEngines[] = {KALAH_BINARY_DIR "/bots/kalah-alphabeta", KALAH_BINARY_DIR "/bots/kalah-mcts"};
constexpr auto kPatience = 10s;  // for lines that must come: only a broken bot waits this long

void start_game(Engine& e, const Variant& v, const std::string& moves) {
  e.send("kep");
  ASSERT_TRUE(e.wait_for("kepok", std::chrono::steady_clock::now() + kPatience));
  e.send("newgame " + to_string(v));
  e.send("position startpos moves" + moves);
  e.send("isready");
  ASSERT_TRUE(e.wait_for("readyok", std::chrono::steady_clock::now() + kPatience));
}

Move parse_bestmove(const std::string& line) {
  const kep::EngineMessage m = kep::parse_engine_line(line);
  const auto* best = std::get_if<kep::BestMove>(&m);
  EXPECT_TRUE(best) << line;
  return best ? best->move : Move::swap();
}

// Every bundled bot announces `feature bench` and answers `bench` twice alike, a game in between (docs/PROTOCOL.md,
// "Bench").
TEST(BotsEngine, BenchIsAnnouncedAndAnsweredAlikeEveryTime) {
  for (const char* path : {KALAH_BINARY_DIR "/bots/kalah-alphabeta", KALAH_BINARY_DIR "/bots/kalah-mcts",
                           KALAH_BINARY_DIR "/bots/kalah-greedy", KALAH_BINARY_DIR "/bots/kalah-random"}) {
    SCOPED_TRACE(path);
    Engine e(path);
    ASSERT_TRUE(e.started());
    e.send("kep");
    ASSERT_TRUE(e.wait_for("feature bench", kPatience));
    ASSERT_TRUE(e.wait_for("kepok", kPatience));
    auto bench = [&]() -> long long {
      e.send("bench");
      const std::optional<std::string> line = e.wait_for("bench", kPatience);
      EXPECT_TRUE(line);
      const kep::EngineMessage m = kep::parse_engine_line(line.value_or(""));
      const auto* result = std::get_if<kep::BenchResult>(&m);
      EXPECT_TRUE(result) << line.value_or("(none)");
      return result ? result->nodes : -1;
    };
    const long long first = bench();
    EXPECT_GT(first, 0);
    e.send("newgame " + to_string(Variant{}) + " seed=77");
    e.send("position startpos moves 3");
    e.send("go nodes 200");
    ASSERT_TRUE(e.wait_for("bestmove", kPatience));
    EXPECT_EQ(bench(), first);
  }
}

TEST(BotsEngine, StopIsAnsweredAtOnce) {
  for (const char* path : kEngines) {
    SCOPED_TRACE(path);
    Engine e(path);
    ASSERT_TRUE(e.started());
    const Variant v;
    start_game(e, v, " 3");
    e.send("go movetime 100000");
    std::this_thread::sleep_for(200ms);  // the search is well under way
    const auto sent = std::chrono::steady_clock::now();
    e.send("stop");
    const std::optional<std::string> line = e.wait_for("bestmove", sent + kPatience);
    ASSERT_TRUE(line);
    EXPECT_LT(std::chrono::steady_clock::now() - sent, 1s);
    EXPECT_TRUE(is_legal(v, after(v, start_position(v), Move::at(3)), parse_bestmove(*line)));
  }
}

TEST(BotsEngine, AnswersWellWithinItsClock) {
  // 300 ms for the whole game: no move may run the clock out (each should take
  // ~12 ms; the bound is loose so that a loaded machine does not fail the test).
  for (const char* path : kEngines) {
    SCOPED_TRACE(path);
    Engine e(path);
    ASSERT_TRUE(e.started());
    Variant v;
    v.pie = true;
    start_game(e, v, "");
    // A few moves of one game, the bot on both sides, the clock shrinking.
    Position p = start_position(v);
    std::string moves;
    long long left[2] = {300, 300};
    for (int ply = 0; ply < 6 && !p.over; ++ply) {
      const int side = static_cast<int>(p.to_move);
      e.send("position startpos moves" + moves);
      const auto sent = std::chrono::steady_clock::now();
      e.send("go stime " + std::to_string(left[0]) + " ntime " + std::to_string(left[1]) + " sinc 0 ninc 0");
      const std::optional<std::string> line = e.wait_for("bestmove", sent + kPatience);
      ASSERT_TRUE(line);
      const auto used = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - sent);
      EXPECT_LT(used.count(), left[side]) << "ply " << ply;
      left[side] -= used.count();
      const Move m = parse_bestmove(*line);
      ASSERT_TRUE(is_legal(v, p, m)) << to_string(m);
      apply(v, p, m);
      moves += " " + to_string(m);
    }
  }
}

// The info lines of one search and its bestmove line (empty if none came).
struct SearchOutput {
  std::vector<kep::Info> infos;
  std::string bestmove;
};

SearchOutput read_search(Engine& e) {
  SearchOutput out;
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  while (std::optional<std::string> line = e.read_line(deadline)) {
    if (line->rfind("bestmove", 0) == 0) {
      out.bestmove = *line;
      break;
    }
    const kep::EngineMessage m = kep::parse_engine_line(*line);
    if (const auto* info = std::get_if<kep::Info>(&m)) out.infos.push_back(*info);
  }
  return out;
}

// Sends `go` and reads the search to its bestmove; the search must have reported and answered.
SearchOutput search(Engine& engine, const std::string& go) {
  engine.send(go);
  SearchOutput out = read_search(engine);
  EXPECT_FALSE(out.bestmove.empty()) << go;
  EXPECT_FALSE(out.infos.empty()) << go;
  if (out.infos.empty()) out.infos.emplace_back();
  return out;
}

TEST(BotsEngine, HonoursGoDepthAndGoNodes) {
  Engine ab(kEngines[0]);
  ASSERT_TRUE(ab.started());
  start_game(ab, Variant{}, "");
  EXPECT_EQ(search(ab, "go depth 4").infos.back().depth, 4);
  EXPECT_LE(search(ab, "go nodes 3000").infos.back().nodes.value_or(0), 3000);

  Engine mc(kEngines[1]);
  ASSERT_TRUE(mc.started());
  start_game(mc, Variant{}, "");
  EXPECT_EQ(search(mc, "go nodes 500").infos.back().nodes, 500);
}

}  // namespace
}  // namespace kalah
