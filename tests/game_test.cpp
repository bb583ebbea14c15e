// The game loop with in-process fake players: clocks, forfeits, pie, records.
#include <functional>

#include <gtest/gtest.h>

#include "referee/game/game.h"
#include "referee/game/seed_secret.h"

namespace kalah {
namespace {

using Script = std::function<Reply(const Variant&, const std::vector<Move>&, const kep::Go&)>;

// A player whose answers come from a function; by default the lowest legal pit.
class FakePlayer : public Player {
 public:
  explicit FakePlayer(std::string name, Script script = {}) : name_(std::move(name)), script_(std::move(script)) {}
  const std::string& name() const override { return name_; }
  std::optional<Fault> new_game(const Variant& v, const std::optional<Position>& start, const TimeControl&) override {
    variant_ = v;
    start_ = start ? *start : start_position(v);
    ++games_;
    return startup_fault;
  }
  Reply play(const std::vector<Move>& moves, const kep::Go& go, std::chrono::milliseconds allowed) override {
    last_go = go;
    last_allowed = allowed;
    ++calls;
    if (script_) return script_(variant_, moves, go);
    return Reply{std::nullopt, legal_moves(variant_, replay(variant_, moves, start_)).moves[0], 1.0, {}};
  }
  void forfeited() override { ++forfeits; }
  void set_seed(std::optional<std::uint32_t> seed) override { seeds.push_back(seed); }

  static Position replay(const Variant& v, const std::vector<Move>& moves, std::optional<Position> start = {}) {
    Position p = start ? *start : start_position(v);
    for (Move m : moves) apply(v, p, m);
    return p;
  }

  std::optional<Fault> startup_fault;
  kep::Go last_go;
  std::chrono::milliseconds last_allowed{};
  int calls = 0, forfeits = 0, games_ = 0;
  std::vector<std::optional<std::uint32_t>> seeds;  // what set_seed() was given, before each new_game()

 private:
  std::string name_;
  Script script_;
  Variant variant_;
  Position start_;
};

Reply answer(Move m, double ms = 1.0) { return Reply{std::nullopt, m, ms, {}}; }

GameSettings clock_settings(long long base, long long inc) {
  GameSettings s;
  s.id = "g1";
  s.time.base_ms = base;
  s.time.inc_ms = inc;
  s.time.margin_ms = 50;
  return s;
}

TEST(GameSeed, ComesFromTheTournamentSeedAndTheGameIdAlone) {
  // Fixed numbers, computed independently (FNV-1a of the id, SplitMix64's finaliser, low 31 bits).
  EXPECT_EQ(game_seed(1, "g1"), 533993462u);
  EXPECT_EQ(game_seed(1, "g2"), 1570424383u);
  EXPECT_EQ(game_seed(2, "g1"), 1327773519u);
  EXPECT_EQ(game_seed(11, "r1-0v1-p0-g0"), 752560376u);
  EXPECT_EQ(game_seed(0, ""), 1803982880u);
}

TEST(SeedSecret, SeedsAreTheHmacSha256OfTheLabelUnderTheSecret) {
  // The key 00 01 02 ... 1f; the numbers from Python's hmac module (the first 4 or 8 bytes, big-endian, the top
  // bit cleared).
  const Expected<SeedSecret> secret =
      SeedSecret::from_hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
  ASSERT_TRUE(secret) << secret.error();
  EXPECT_EQ(secret->seed_for("g1"), 243595979u);
  EXPECT_EQ(secret->seed_for("r1-0v1-p0-g0"), 660482680u);
  EXPECT_EQ(secret->number_for("gate-suite"), 483400677612371932u);
  EXPECT_EQ(secret->hex(), "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
}

TEST(SeedSecret, IsRandomAndReadBackOnlyFromItsOwnForm) {
  const SeedSecret a = SeedSecret::random(), b = SeedSecret::random();
  EXPECT_NE(a, b);
  EXPECT_NE(a.seed_for("g1"), b.seed_for("g1"));
  const Expected<SeedSecret> back = SeedSecret::from_hex(a.hex());
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(*back, a);
  EXPECT_FALSE(SeedSecret::from_hex(""));
  EXPECT_FALSE(SeedSecret::from_hex(a.hex().substr(1)));
  EXPECT_FALSE(SeedSecret::from_hex(std::string(64, 'G')));
  EXPECT_FALSE(SeedSecret::from_hex(std::string(64, 'A')));  // lowercase only, as hex() writes it
}

TEST(GameSeed, EachPlayerIsGivenTheGamesSeedBeforeItsNewGame) {
  FakePlayer south("s"), north("n");
  GameSettings s = clock_settings(10000, 0);
  s.seed = 533993462u;
  play_game(south, north, s);
  ASSERT_EQ(south.seeds.size(), 1u);
  EXPECT_EQ(south.seeds[0], 533993462u);
  EXPECT_EQ(north.seeds, south.seeds);
  s.seed.reset();
  play_game(south, north, s);
  EXPECT_EQ(south.seeds.back(), std::nullopt);
}

TEST(Game, TwoLowestPitPlayersFinishANormalGame) {
  FakePlayer a("a"), b("b");
  const GameRecord r = play_game(a, b, clock_settings(1000, 10));
  EXPECT_EQ(r.termination, Termination::Normal);
  EXPECT_FALSE(r.forfeit.has_value());
  EXPECT_NE(r.result, Outcome::Ongoing);
  EXPECT_EQ(r.store_south + r.store_north, 48);
  EXPECT_EQ(r.south, "a");
  EXPECT_EQ(r.north, "b");
  EXPECT_EQ(r.moves.size(), r.move_info.size());
  // The record replays to the same end.
  const Position end = FakePlayer::replay(r.variant, r.moves);
  EXPECT_TRUE(end.over);
  EXPECT_EQ(outcome(r.variant, end), r.result);
}

TEST(Game, ClockCountsDownAndAddsTheIncrement) {
  // Every answer takes 100 ms against 1000 + 10: South's clock before its
  // second move is 1000 - 100 + 10 = 910.
  std::vector<long long> south_clocks;
  auto slow = [&](const Variant& v, const std::vector<Move>& moves, const kep::Go& go) {
    const Position p = FakePlayer::replay(v, moves);
    if (p.to_move == Side::South) south_clocks.push_back(go.clock->stime);
    return answer(legal_moves(v, p).moves[0], 100.0);
  };
  FakePlayer a("a", slow), b("b", slow);
  GameSettings s = clock_settings(1000, 10);
  s.max_plies = 6;
  play_game(a, b, s);
  ASSERT_GE(south_clocks.size(), 2u);
  EXPECT_EQ(south_clocks[0], 1000);
  EXPECT_EQ(south_clocks[1], 910);
}

TEST(Game, MovesPerPeriodRefillTheClockAndAreSentAsMovestogo) {
  // 3 moves in 1 s + 0.01, repeating; every answer takes 100 ms. South's clock before its moves:
  // 1000, 910, 820 (movestogo 3, 2, 1), then 730 + 1000 = 1730 with movestogo 3 again.
  std::vector<long long> clocks;
  std::vector<int> to_go;
  auto slow = [&](const Variant& v, const std::vector<Move>& moves, const kep::Go& go) {
    const Position p = FakePlayer::replay(v, moves);
    if (p.to_move == Side::South) {
      clocks.push_back(go.clock->stime);
      to_go.push_back(go.movestogo.value_or(0));
    }
    // The highest pit: it never ends in the store from the start, so the turns alternate.
    const MoveList legal = legal_moves(v, p);
    return answer(legal.moves[legal.size - 1], 100.0);
  };
  FakePlayer a("a", slow), b("b", slow);
  GameSettings s = clock_settings(1000, 10);
  s.time.moves = 3;
  s.max_plies = 8;
  play_game(a, b, s);
  ASSERT_GE(clocks.size(), 4u);
  EXPECT_EQ(std::vector<long long>(clocks.begin(), clocks.begin() + 4), (std::vector<long long>{1000, 910, 820, 1730}));
  EXPECT_EQ(std::vector<int>(to_go.begin(), to_go.begin() + 4), (std::vector<int>{3, 2, 1, 3}));
}

TEST(Game, EachPlayerHasItsOwnTimeControlWithTimeOdds) {
  // The first player has 1 s + 0.01, the second 4 s + 0.1: both see both clocks, each is held to its own.
  std::vector<kep::Go> gos;
  auto record = [&](const Variant& v, const std::vector<Move>& moves, const kep::Go& go) {
    gos.push_back(go);
    const MoveList legal = legal_moves(v, FakePlayer::replay(v, moves));
    return answer(legal.moves[legal.size - 1], 10.0);
  };
  FakePlayer a("a", record), b("b", record);
  GameSettings s = clock_settings(1000, 10);
  s.second_time = s.time;
  s.second_time->base_ms = 4000;
  s.second_time->inc_ms = 100;
  s.max_plies = 2;
  play_game(a, b, s);
  ASSERT_EQ(gos.size(), 2u);
  EXPECT_EQ(gos[0].clock->stime, 1000);
  EXPECT_EQ(gos[0].clock->ntime, 4000);
  EXPECT_EQ(gos[0].clock->sinc, 10);
  EXPECT_EQ(gos[0].clock->ninc, 100);
  EXPECT_FALSE(gos[0].movestogo.has_value());
  EXPECT_EQ(gos[1].clock->stime, 1000);  // 1000 - 10 + 10
  EXPECT_EQ(b.last_allowed, std::chrono::milliseconds(4000 + 50));
  EXPECT_EQ(a.last_allowed, std::chrono::milliseconds(1000 + 50));
}

TEST(Game, TheAllowanceIsTheClockPlusTheMargin) {
  FakePlayer a("a"), b("b");
  GameSettings s = clock_settings(2000, 0);
  s.max_plies = 1;
  play_game(a, b, s);
  EXPECT_EQ(a.last_allowed.count(), 2050);
}

TEST(Game, ALateButLegalMoveLosesOnTime) {
  FakePlayer a("a",
               [](const Variant&, const std::vector<Move>&, const kep::Go&) { return answer(Move::at(1), 1200.0); });
  FakePlayer b("b");
  const GameRecord r = play_game(a, b, clock_settings(1000, 0));
  EXPECT_EQ(r.termination, Termination::Time);
  ASSERT_TRUE(r.forfeit.has_value());
  EXPECT_EQ(r.forfeit->engine, "a");
  EXPECT_EQ(r.forfeit->reason, Termination::Time);
  EXPECT_EQ(r.result, Outcome::SecondWins);
  EXPECT_EQ(a.forfeits, 1);
}

TEST(Game, AMoveWithinTheMarginIsNotATimeLoss) {
  int n = 0;
  FakePlayer a("a", [&](const Variant& v, const std::vector<Move>& moves, const kep::Go&) {
    return answer(legal_moves(v, FakePlayer::replay(v, moves)).moves[0], n++ == 0 ? 1040.0 : 1.0);
  });
  FakePlayer b("b");
  GameSettings s = clock_settings(1000, 100);
  s.max_plies = 4;
  const GameRecord r = play_game(a, b, s);
  EXPECT_NE(r.termination, Termination::Time);
}

// Delays (docs/CONFIG.md, "Delays"): 1 s + 0.01 with a 300 ms delay; every answer takes 400 ms, so each move
// is charged 100: South's clock before its second move is 1000 - 100 + 10 = 910, and a move of 200 ms costs
// nothing (1000 + 10). The mover's delay is sent with `go`.
TEST(Game, ADelayIsNotChargedAndIsSentWithGo) {
  for (const DelayKind kind : {DelayKind::Simple, DelayKind::Bronstein}) {
    for (const double took : {400.0, 200.0}) {
      std::vector<kep::Go> gos;
      auto slow = [&](const Variant& v, const std::vector<Move>& moves, const kep::Go& go) {
        const Position p = FakePlayer::replay(v, moves);
        if (p.to_move == Side::South) gos.push_back(go);
        const MoveList legal = legal_moves(v, p);
        return answer(legal.moves[legal.size - 1], took);
      };
      FakePlayer a("a", slow), b("b", slow);
      GameSettings s = clock_settings(1000, 10);
      s.time.delay_ms = 300;
      s.time.delay = kind;
      s.max_plies = 4;
      play_game(a, b, s);
      ASSERT_GE(gos.size(), 2u);
      EXPECT_EQ(gos[1].clock->stime, took == 400.0 ? 910 : 1010) << to_string(kind);
      ASSERT_TRUE(gos[0].delay.has_value());
      EXPECT_EQ(gos[0].delay->ms, 300);
      EXPECT_EQ(gos[0].delay->kind, kind);
    }
  }
}

// A simple delay runs before the clock: a move may take the clock plus the delay (plus the margin). A
// Bronstein delay is given back after the move: the clock alone bounds it.
TEST(Game, ASimpleDelayLengthensTheAllowanceABronsteinDelayDoesNot) {
  for (const DelayKind kind : {DelayKind::Simple, DelayKind::Bronstein}) {
    FakePlayer a("a",
                 [](const Variant&, const std::vector<Move>&, const kep::Go&) { return answer(Move::at(1), 1200.0); });
    FakePlayer b("b");
    GameSettings s = clock_settings(1000, 0);
    s.time.delay_ms = 300;
    s.time.delay = kind;
    s.max_plies = 2;
    const GameRecord r = play_game(a, b, s);
    EXPECT_EQ(a.last_allowed.count(), kind == DelayKind::Simple ? 1350 : 1050);
    EXPECT_EQ(r.termination == Termination::Time, kind == DelayKind::Bronstein) << to_string(kind);
  }
}

TEST(Game, AnIllegalMoveLosesAndNamesTheLegalSet) {
  FakePlayer a("a");
  FakePlayer b("b", [](const Variant&, const std::vector<Move>&, const kep::Go&) { return answer(Move::at(9)); });
  const GameRecord r = play_game(a, b, clock_settings(1000, 0));
  EXPECT_EQ(r.termination, Termination::Illegal);
  EXPECT_EQ(r.forfeit->engine, "b");
  EXPECT_EQ(r.result, Outcome::FirstWins);
  // a played pit 1 (4 seeds into pits 2-5): North may play any pit.
  EXPECT_EQ(r.forfeit->detail, "bestmove 9 (legal: 1 2 3 4 5 6)");
}

TEST(Game, SwapOutsideThePieOfferIsIllegal) {
  FakePlayer a("a", [](const Variant&, const std::vector<Move>&, const kep::Go&) { return answer(Move::swap()); });
  FakePlayer b("b");
  const GameRecord r = play_game(a, b, clock_settings(1000, 0));
  EXPECT_EQ(r.termination, Termination::Illegal);
  EXPECT_EQ(r.forfeit->engine, "a");
}

TEST(Game, FaultsFromThePlayerBecomeForfeitsWithTheirReason) {
  for (Termination kind : {Termination::Crash, Termination::Protocol, Termination::Time}) {
    FakePlayer a("a");
    FakePlayer b("b", [&](const Variant&, const std::vector<Move>&, const kep::Go&) {
      return Reply{Fault{kind, "detail"}, Move{}, 0, {}};
    });
    const GameRecord r = play_game(a, b, clock_settings(1000, 0));
    EXPECT_EQ(r.termination, kind);
    EXPECT_EQ(r.forfeit->reason, kind);
    EXPECT_EQ(r.forfeit->detail, "detail");
    EXPECT_EQ(r.result, Outcome::FirstWins);
  }
}

TEST(Game, AStartupFailureForfeitsBeforeAnyMove) {
  FakePlayer a("a"), b("b");
  a.startup_fault = Fault{Termination::Startup, "no kepok within 5000 ms"};
  const GameRecord r = play_game(a, b, clock_settings(1000, 0));
  EXPECT_EQ(r.termination, Termination::Startup);
  EXPECT_EQ(r.forfeit->engine, "a");
  EXPECT_EQ(r.result, Outcome::SecondWins);
  EXPECT_TRUE(r.moves.empty());
  EXPECT_EQ(b.calls, 0);
}

TEST(Game, TheOpeningIsPlayedBeforeTheEnginesMove) {
  FakePlayer a("a"), b("b");
  GameSettings s = clock_settings(1000, 0);
  s.opening = {Move::at(3), Move::at(1)};  // South 3 (extra turn), South 1
  s.max_plies = 3;
  const GameRecord r = play_game(a, b, s);
  ASSERT_GE(r.moves.size(), 3u);
  EXPECT_EQ(r.moves[0], Move::at(3));
  EXPECT_EQ(r.moves[1], Move::at(1));
  EXPECT_EQ(a.calls, 0);  // North is to move after the opening
  EXPECT_EQ(b.calls, 1);
  EXPECT_EQ(r.move_info.size(), 1u);
}

TEST(Game, PieSwapHandsTheFirstPlayerTheNorthSide) {
  // a (South) opens 3; b swaps and now owns South's position; a moves next, as North.
  std::vector<std::string> who_moved;
  FakePlayer* pa = nullptr;
  auto script = [&](const char* name) {
    return [&, name](const Variant& v, const std::vector<Move>& moves, const kep::Go& go) {
      const Position p = FakePlayer::replay(v, moves);
      who_moved.push_back(std::string(name) + ":" + to_string(p.to_move) + ":" + std::to_string(go.clock->stime));
      if (moves.size() == 1) return answer(Move::swap());
      return answer(legal_moves(v, p).moves[0], std::string(name) == "a" ? 100.0 : 1.0);
    };
  };
  FakePlayer a("a", script("a")), b("b", script("b"));
  pa = &a;
  GameSettings s = clock_settings(1000, 0);
  s.variant.pie = true;
  s.max_plies = 4;
  const GameRecord r = play_game(a, b, s);
  ASSERT_GE(who_moved.size(), 3u);
  EXPECT_EQ(who_moved[0], "a:south:1000");
  EXPECT_EQ(who_moved[1], "b:north:900");  // a spent 100 ms
  // After the swap b owns South: stime is now b's clock (1000 - 1), a plays North.
  EXPECT_EQ(who_moved[2], "a:north:999");
  EXPECT_TRUE(r.swapped);
  EXPECT_EQ(r.moves[1], Move::swap());
  EXPECT_NE(pa, nullptr);
}

TEST(Game, AfterASwapTheResultIsFromTheFirstPlayersView) {
  // b swaps, then a (now North) forfeits with an illegal move: b, who started as North, wins.
  FakePlayer a("a", [](const Variant& v, const std::vector<Move>& moves, const kep::Go&) {
    if (moves.empty()) return answer(Move::at(3));
    (void)v;
    return answer(Move::at(9));
  });
  FakePlayer b("b", [](const Variant&, const std::vector<Move>&, const kep::Go&) { return answer(Move::swap()); });
  GameSettings s = clock_settings(1000, 0);
  s.variant.pie = true;
  const GameRecord r = play_game(a, b, s);
  EXPECT_EQ(r.forfeit->engine, "a");
  EXPECT_EQ(r.result, Outcome::SecondWins);
}

TEST(Game, MajorityEndingIsRecorded) {
  FakePlayer a("a");
  FakePlayer b("b", [](const Variant& v, const std::vector<Move>& moves, const kep::Go&) {
    const MoveList legal = legal_moves(v, FakePlayer::replay(v, moves));
    return answer(legal.moves[legal.size - 1]);
  });
  GameSettings s = clock_settings(1000, 0);
  s.variant.majority = true;
  int majority = 0;
  for (int seed = 1; seed <= 6; ++seed) {
    s.opening = {Move::at(seed)};
    const GameRecord r = play_game(a, b, s);
    if (r.termination == Termination::Majority) {
      ++majority;
      EXPECT_TRUE(2 * r.store_south > 48 || 2 * r.store_north > 48);
    }
  }
  EXPECT_GT(majority, 0);
}

TEST(Game, TooLongGamesAreAdjudicatedByMaterial) {
  FakePlayer a("a"), b("b");
  GameSettings s = clock_settings(1000, 0);
  s.max_plies = 2;
  const GameRecord r = play_game(a, b, s);
  EXPECT_EQ(r.termination, Termination::Adjudicated);
  EXPECT_EQ(r.moves.size(), 2u);
}

TEST(Game, LimitModesSendTheirGoCommand) {
  FakePlayer a("a"), b("b");
  GameSettings s;
  s.max_plies = 1;
  s.time.mode = TimeControl::Mode::MoveTime;
  s.time.movetime_ms = 200;
  play_game(a, b, s);
  EXPECT_EQ(kep::format(a.last_go), "go movetime 200");
  EXPECT_EQ(a.last_allowed.count(), 250);
  s.time.mode = TimeControl::Mode::Depth;
  s.time.depth = 7;
  play_game(a, b, s);
  EXPECT_EQ(kep::format(a.last_go), "go depth 7");
  EXPECT_EQ(a.last_allowed.count(), s.time.hard_limit_ms);
  s.time.mode = TimeControl::Mode::Nodes;
  s.time.nodes = 5000;
  play_game(a, b, s);
  EXPECT_EQ(kep::format(a.last_go), "go nodes 5000");
}

TEST(Game, TimeControlDescriptions) {
  TimeControl t;
  t.base_ms = 2000;
  t.inc_ms = 20;
  EXPECT_EQ(t.describe(), "2+0.02");
  EXPECT_EQ(t.pgn(), "2+0.02");
  t.base_ms = 60000;
  t.inc_ms = 0;
  EXPECT_EQ(t.describe(), "60+0");
  EXPECT_EQ(t.pgn(), "60") << "sudden death, as the PGN standard writes it";
  t.mode = TimeControl::Mode::MoveTime;
  EXPECT_EQ(t.pgn(), "-");
  t.mode = TimeControl::Mode::Depth;
  EXPECT_EQ(t.pgn(), "-");
}

// The one parser of chess-style clocks (`referee match --tc`, `arena sprt --tc`).
TEST(TimeControl, ParsesFischerClocksInSeconds) {
  const struct {
    const char* text;
    std::int64_t base_ms, inc_ms;
  } good[] = {{"10+0.1", 10000, 100}, {"60", 60000, 0},      {"2+0.02", 2000, 20},
              {"0.5+0", 500, 0},      {"1.0005+0", 1001, 0}, {"86400+3600", 86400000, 3600000}};
  for (const auto& g : good) {
    SCOPED_TRACE(g.text);
    Expected<TimeControl> t = parse_fischer(g.text);
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_EQ(t->mode, TimeControl::Mode::Fischer);
    EXPECT_EQ(t->base_ms, g.base_ms);
    EXPECT_EQ(t->inc_ms, g.inc_ms);
  }
  EXPECT_EQ(parse_fischer("10+0.1")->describe(), "10+0.1");
}

TEST(TimeControl, ParsesMovesPerPeriodAndClockTimes) {
  const struct {
    const char* text;
    std::int64_t base_ms, inc_ms;
    int moves;
    const char* pgn;
  } good[] = {{"40/60+0.6", 60000, 600, 40, "40/60+0.6"}, {"40/60", 60000, 0, 40, "40/60"},
              {"1:30+1", 90000, 1000, 0, "90+1"},         {"1:00:00", 3600000, 0, 0, "3600"},
              {"5/0:30.5+0", 30500, 0, 5, "5/30.5"},      {"0:00:01.5+0.1", 1500, 100, 0, "1.5+0.1"}};
  for (const auto& g : good) {
    SCOPED_TRACE(g.text);
    Expected<TimeControl> t = parse_fischer(g.text);
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_EQ(t->base_ms, g.base_ms);
    EXPECT_EQ(t->inc_ms, g.inc_ms);
    EXPECT_EQ(t->moves, g.moves);
    EXPECT_EQ(t->pgn(), g.pgn);
    EXPECT_EQ(parse_fischer(t->clock_text())->clock_text(), t->clock_text());
  }
  const struct {
    const char* text;
    const char* message;
  } bad[] = {
      {"0/60", "the moves per time control must be 1 to 1000, not 0"},
      {"1001/60", "the moves per time control must be 1 to 1000"},
      {"x/60", "expected SECONDS"},
      {"40/", "expected SECONDS"},
      {"1:60", "expected SECONDS"},
      {"1:2:3:4", "expected SECONDS"},
      {":30", "expected SECONDS"},
      {"1:-5", "expected SECONDS"},
      {"inf", "expected SECONDS"},
      {"25:00:00", "at most a day"},
  };
  for (const auto& b : bad) {
    SCOPED_TRACE(b.text);
    Expected<TimeControl> t = parse_fischer(b.text);
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.error().find(b.message), std::string::npos) << t.error();
  }
}

TEST(TimeControl, RejectsWhatIsNotAClock) {
  const struct {
    const char* text;
    const char* message;
  } bad[] = {
      {"", "expected SECONDS or SECONDS+INCREMENT"},
      {"abc", "expected SECONDS or SECONDS+INCREMENT"},
      {"10+", "expected SECONDS or SECONDS+INCREMENT"},
      {"+1", "expected SECONDS or SECONDS+INCREMENT"},
      {"10 +1", "expected SECONDS or SECONDS+INCREMENT"},
      {"1e3", "expected SECONDS or SECONDS+INCREMENT"},
      {"10+0.1+2", "expected SECONDS or SECONDS+INCREMENT"},
      {"0+1", "the base time must be > 0"},
      {"-5", "the base time must be > 0"},
      {"10+-1", "the increment >= 0"},
      {"90000", "at most a day"},
      {"0.0001", "rounds to 0 ms"},
  };
  for (const auto& b : bad) {
    SCOPED_TRACE(b.text);
    Expected<TimeControl> t = parse_fischer(b.text);
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.error().find(b.message), std::string::npos) << t.error();
  }
}

// A delay after the clock: d simple, b Bronstein (docs/CONFIG.md, "Delays"); read back from clock_text().
TEST(TimeControl, ParsesDelays) {
  const struct {
    const char* text;
    std::int64_t base_ms, inc_ms, delay_ms;
    DelayKind kind;
    const char* described;
  } good[] = {{"60+0.5d2", 60000, 500, 2000, DelayKind::Simple, "60+0.5d2 (simple delay)"},
              {"60b2", 60000, 0, 2000, DelayKind::Bronstein, "60+0b2 (Bronstein delay)"},
              {"40/1:30+1d0.25", 90000, 1000, 250, DelayKind::Simple, "40/90+1d0.25 (simple delay)"}};
  for (const auto& g : good) {
    SCOPED_TRACE(g.text);
    Expected<TimeControl> t = parse_fischer(g.text);
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_EQ(t->base_ms, g.base_ms);
    EXPECT_EQ(t->inc_ms, g.inc_ms);
    EXPECT_EQ(t->delay_ms, g.delay_ms);
    EXPECT_EQ(t->delay, g.kind);
    EXPECT_EQ(t->describe(), g.described);
    EXPECT_EQ(*parse_fischer(t->clock_text()), *t);
  }
  EXPECT_EQ(parse_fischer("10+0.1")->delay_ms, 0);
  for (const char* bad : {"60d", "60d0", "60+1dx", "60d-1", "60d4000", "60d0.0001", "60d1b1", "d2"}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(parse_fischer(bad).ok());
  }
}

TEST(TimeControl, ModeWords) {
  EXPECT_STREQ(to_string(TimeControl::Mode::Fischer), "fischer");
  EXPECT_STREQ(to_string(TimeControl::Mode::MoveTime), "movetime");
  EXPECT_STREQ(to_string(TimeControl::Mode::Depth), "depth");
  EXPECT_STREQ(to_string(TimeControl::Mode::Nodes), "nodes");
}

}  // namespace
}  // namespace kalah
