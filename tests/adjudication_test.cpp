// Adjudication (referee/game/adjudication.h): a store majority, the endgame database and the
// cutechess-style draw and resign rules on reported scores; in the game loop and on their own.
#include <algorithm>
#include <functional>
#include <random>

#include <gtest/gtest.h>

#include "referee/game/game.h"
#include "tests/test_variants.h"

namespace kalah {
namespace {

using test::V;

using test::P;

// The final store difference (South - North) with perfect play, by plain minimax over the rules
// library: South maximises, North minimises, an extra turn keeps the mover.
int minimax(const Variant& v, const Position& p) {
  if (p.over) return store(v, p, Side::South) - store(v, p, Side::North);
  int best = p.to_move == Side::South ? -1000 : 1000;
  for (Move m : legal_moves(v, p)) {
    const int value = minimax(v, after(v, p, m));
    best = p.to_move == Side::South ? std::max(best, value) : std::min(best, value);
  }
  return best;
}

std::shared_ptr<const endgame::Database> database_for(const Variant& v, int seeds) {
  auto db = std::make_shared<endgame::Database>(endgame::DbKey::of(v), seeds);
  db->build(1);
  return db;
}

// The store-majority rule alone.
AdjudicationRules store_majority_rules() {
  AdjudicationRules rules;
  rules.store_majority = true;
  return rules;
}

// The endgame database of v alone, deciding at `seeds` seeds left in the pits or fewer.
AdjudicationRules database_rules(const Variant& v, int seeds) {
  AdjudicationRules rules;
  rules.database_seeds = seeds;
  rules.database = database_for(v, seeds);
  return rules;
}

// ---- store majority --------------------------------------------------------------------------

TEST(AdjudicateStoreMajority, AStoreWithMoreThanHalfOfAllSeedsWinsForItsOwner) {
  const Variant v = V("pits=6 seeds=4");
  AdjudicationRules rules = store_majority_rules();
  //        6  5  4  3  2  1
  //      [ 0  4  4  4  4  4 ]
  //   0                        25     South holds 25 of 48
  //      [ 0  0  1  2  0  0 ]
  const Position p = P(v, "0,0,1,2,0,0/25/4,4,4,4,4,0/0 n");
  const std::optional<Ruling> ruling = adjudicate_position(rules, v, p);
  ASSERT_TRUE(ruling.has_value());
  EXPECT_EQ(ruling->result, Outcome::FirstWins);
  EXPECT_EQ(ruling->adjudication.reason, AdjudicationReason::StoreMajority);
  EXPECT_FALSE(ruling->adjudication.margin.has_value());

  // After a pie swap the first player sits North: South's store is the second player's.
  const Variant pie = V("pits=6 seeds=4 pie=on");
  EXPECT_EQ(adjudicate_position(rules, pie, P(pie, "0,0,1,2,0,0/25/4,4,4,4,4,0/0 n swapped"))->result,
            Outcome::SecondWins);
  // Exactly half decides nothing.
  EXPECT_FALSE(adjudicate_position(rules, v, P(v, "0,0,1,3,0,0/24/4,4,4,4,4,0/0 n")).has_value());
  // Off unless configured.
  EXPECT_FALSE(adjudicate_position(AdjudicationRules{}, v, p).has_value());
}

TEST(AdjudicateStoreMajority, AllSeedsAreCountedOnTheBoardNotFromTheVariant) {
  const Variant v = V("pits=6 seeds=4");
  AdjudicationRules rules = store_majority_rules();
  // 21 seeds in all (a position that did not start from 6 x 4 x 2): 11 of them are a majority,
  // although 11 is far from half of 48.
  const std::optional<Ruling> ruling = adjudicate_position(rules, v, P(v, "0,0,0,0,0,1/8/1,0,0,0,0,0/11 s"));
  ASSERT_TRUE(ruling.has_value());
  EXPECT_EQ(ruling->result, Outcome::SecondWins);
}

TEST(AdjudicateStoreMajority, TheMajorityRuleEndsSuchGamesItselfSoItStandsAside) {
  const Variant v = V("pits=6 seeds=4 majority=on");
  AdjudicationRules rules = store_majority_rules();
  EXPECT_FALSE(adjudicate_position(rules, v, P(v, "0,0,1,2,0,0/25/4,4,4,4,4,0/0 n")).has_value());
}

TEST(AdjudicateStoreMajority, APendingPieDecisionIsNeverAdjudicated) {
  const Variant v = V("pits=6 seeds=4 pie=on");
  AdjudicationRules rules = store_majority_rules();
  EXPECT_FALSE(adjudicate_position(rules, v, P(v, "0,0,1,2,0,0/25/4,4,4,4,4,0/0 n pie=offer")).has_value());
}

// ---- the endgame database --------------------------------------------------------------------

TEST(AdjudicateDatabase, FewSeedsLeftEndTheGameWithTheProvenScore) {
  const Variant v = V("pits=6 seeds=4");
  AdjudicationRules rules = database_rules(v, 5);
  //        6  5  4  3  2  1
  //      [ 0  0  0  1  0  2 ]
  //  22                        21     North to move; 5 seeds in the pits
  //      [ 0  0  0  0  2  0 ]
  const Position p = P(v, "0,2,0,0,0,0/21/2,0,1,0,0,0/22 n");
  const std::optional<Ruling> ruling = adjudicate_position(rules, v, p);
  ASSERT_TRUE(ruling.has_value());
  EXPECT_EQ(ruling->adjudication.reason, AdjudicationReason::Database);
  const int perfect = minimax(v, p);
  ASSERT_TRUE(ruling->adjudication.margin.has_value());
  EXPECT_EQ(*ruling->adjudication.margin, perfect);
  EXPECT_EQ(ruling->result, perfect > 0 ? Outcome::FirstWins : perfect < 0 ? Outcome::SecondWins : Outcome::Draw);

  // One seed more than K: play on.
  EXPECT_FALSE(adjudicate_position(rules, v, P(v, "0,2,0,0,0,1/20/2,0,1,0,0,0/22 n")).has_value());
  // A smaller K than the database holds is honoured.
  rules.database_seeds = 4;
  EXPECT_FALSE(adjudicate_position(rules, v, p).has_value());
}

// The database's ruling is perfect play's: random positions with few seeds left, in variants
// that differ in every key the database depends on, against minimax; swapped boards too.
TEST(AdjudicateDatabase, AgreesWithMinimaxOnRandomEndgames) {
  constexpr unsigned kSeed = 20261204;
  std::mt19937 rng(kSeed);
  for (const char* text : {"pits=6 seeds=4", "pits=4 seeds=3 capture=empty", "pits=5 seeds=4 ending=no-move",
                           "pits=6 seeds=5 remainder=none"}) {
    const Variant v = V(text);
    AdjudicationRules rules = database_rules(v, 6);
    int checked = 0;
    for (int round = 0; round < 300; ++round) {
      Position p = start_position(v);
      std::fill(p.cells.begin(), p.cells.end(), 0);
      const int seeds = 1 + static_cast<int>(rng() % 6);
      for (int s = 0; s < seeds; ++s) {
        const int pit = static_cast<int>(rng() % (2 * v.pits));
        ++p.cells[static_cast<std::size_t>(pit < v.pits ? pit : pit + 1)];
      }
      const int stored = v.total_seeds() - seeds;
      const int south = static_cast<int>(rng() % (stored + 1));
      p.cells[static_cast<std::size_t>(v.pits)] = static_cast<Position::Cell>(south);
      p.cells[static_cast<std::size_t>(2 * v.pits + 1)] = static_cast<Position::Cell>(stored - south);
      p.to_move = rng() % 2 ? Side::South : Side::North;
      p.swapped = rng() % 2;
      if (seeds_on_side(v, p, Side::South) == 0 || seeds_on_side(v, p, Side::North) == 0) continue;
      const std::optional<Ruling> ruling = adjudicate_position(rules, v, p);
      ASSERT_TRUE(ruling.has_value()) << text << " " << to_notation(v, p) << " seed " << kSeed;
      const int perfect = minimax(v, p);
      EXPECT_EQ(ruling->adjudication.margin, perfect) << text << " " << to_notation(v, p) << " seed " << kSeed;
      const Outcome south_view = perfect > 0 ? Outcome::FirstWins : perfect < 0 ? Outcome::SecondWins : Outcome::Draw;
      const Outcome expected = !p.swapped || south_view == Outcome::Draw ? south_view
                               : south_view == Outcome::FirstWins        ? Outcome::SecondWins
                                                                         : Outcome::FirstWins;
      EXPECT_EQ(ruling->result, expected) << text << " " << to_notation(v, p);
      ++checked;
    }
    EXPECT_GT(checked, 100) << text;
  }
}

TEST(AdjudicateDatabase, ADatabaseOfAnotherVariantOrTheMajorityRuleIsNotUsed) {
  const Variant v = V("pits=6 seeds=4");
  AdjudicationRules rules;
  rules.database_seeds = 5;
  rules.database = database_for(V("pits=6 seeds=4 capture=empty"), 5);
  EXPECT_FALSE(adjudicate_position(rules, v, P(v, "0,2,0,0,0,0/21/2,0,1,0,0,0/22 n")).has_value());
  const Variant majority = V("pits=6 seeds=4 majority=on");
  rules.database = database_for(majority, 5);
  EXPECT_FALSE(adjudicate_position(rules, majority, P(majority, "0,2,0,0,0,0/21/2,0,1,0,0,0/22 n")).has_value());
}

// ---- in the game loop ------------------------------------------------------------------------

using Script = std::function<Reply(const Variant&, const Position&)>;

// Plays the highest legal pit (42 plies in Kalah(6,5)) and reports the score `score(ply)` gives for its n-th own move.
class ScoringPlayer : public Player {
 public:
  ScoringPlayer(std::string name, std::function<std::optional<int>(int)> score)
      : name_(std::move(name)), score_(std::move(score)) {}
  const std::string& name() const override { return name_; }
  std::optional<Fault> new_game(const Variant& v, const std::optional<Position>&, const TimeControl&) override {
    variant_ = v;
    return std::nullopt;
  }
  Reply play(const std::vector<Move>& moves, const kep::Go&, std::chrono::milliseconds) override {
    Position p = start_position(variant_);
    for (Move m : moves) apply(variant_, p, m);
    const MoveList legal = legal_moves(variant_, p);
    Reply r{std::nullopt, legal.moves[static_cast<std::size_t>(legal.size - 1)], 1.0, {}};
    r.info.score = score_(calls++);
    return r;
  }
  int calls = 0;

 private:
  std::string name_;
  std::function<std::optional<int>(int)> score_;
  Variant variant_;
};

GameSettings settings(AdjudicationRules rules) {
  GameSettings s;
  s.id = "g";
  s.time.base_ms = 100000;
  s.variant = V("pits=6 seeds=5");  // long enough a game for the counts below
  s.adjudicate = std::move(rules);
  return s;
}

std::function<std::optional<int>(int)> always(std::optional<int> score) {
  return [score](int) { return score; };
}

TEST(AdjudicateInGame, WithoutRulesTheGameIsPlayedOut) {
  ScoringPlayer a("a", always(-900)), b("b", always(900));
  const GameRecord r = play_game(a, b, settings({}));
  EXPECT_NE(r.termination, Termination::Adjudicated);
  EXPECT_FALSE(r.adjudication.has_value());
  EXPECT_GE(a.calls, 12);  // room for the counts of the tests below
  EXPECT_GE(b.calls, 12);
}

TEST(AdjudicateInGame, AnEngineWhoseScoresSayLostResigns) {
  ScoringPlayer a("a", always(-500)), b("b", always(0));
  AdjudicationRules rules;
  rules.resign = ResignRule{3, 400, false};
  const GameRecord r = play_game(a, b, settings(rules));
  EXPECT_EQ(r.termination, Termination::Adjudicated);
  ASSERT_TRUE(r.adjudication.has_value());
  EXPECT_EQ(r.adjudication->reason, AdjudicationReason::Resign);
  EXPECT_EQ(r.result, Outcome::SecondWins);
  EXPECT_EQ(a.calls, 3);  // it resigned after its third move
}

TEST(AdjudicateInGame, TwoSidedResignWaitsForTheOpponentToAgree) {
  AdjudicationRules rules;
  rules.resign = ResignRule{3, 400, true};
  {
    ScoringPlayer a("a", always(-500)), b("b", always(0));
    const GameRecord r = play_game(a, b, settings(rules));
    EXPECT_NE(r.termination, Termination::Adjudicated);
  }
  {
    ScoringPlayer a("a", always(600)), b("b", always(-500));
    const GameRecord r = play_game(a, b, settings(rules));
    EXPECT_EQ(r.termination, Termination::Adjudicated);
    EXPECT_EQ(r.result, Outcome::FirstWins);
    EXPECT_EQ(b.calls, 3);
  }
}

TEST(AdjudicateInGame, AMissingOrBetterScoreStartsTheResignCountAgain) {
  AdjudicationRules rules;
  rules.resign = ResignRule{3, 400, false};
  // a: -500, -500, (none), -500, -500, +0, -500, -500, -500: the ninth move is the third in a row.
  const std::optional<int> scores[] = {-500, -500, std::nullopt, -500, -500, 0, -500, -500, -500};
  ScoringPlayer a("a", [&](int n) { return n < 9 ? scores[n] : std::optional<int>(-500); });
  ScoringPlayer b("b", always(0));
  const GameRecord r = play_game(a, b, settings(rules));
  ASSERT_EQ(r.termination, Termination::Adjudicated);
  EXPECT_EQ(r.adjudication->reason, AdjudicationReason::Resign);
  EXPECT_EQ(a.calls, 9);
}

TEST(AdjudicateInGame, LevelScoresFromBothEnginesDrawAfterTheMoveNumber) {
  AdjudicationRules rules;
  rules.draw = DrawRule{10, 2, 5};
  ScoringPlayer a("a", always(3)), b("b", always(-5));
  const GameRecord r = play_game(a, b, settings(rules));
  ASSERT_EQ(r.termination, Termination::Adjudicated);
  EXPECT_EQ(r.adjudication->reason, AdjudicationReason::Draw);
  EXPECT_EQ(r.result, Outcome::Draw);
  EXPECT_EQ(r.moves.size(), 10u);  // both had two level moves long before: the move number decides
}

TEST(AdjudicateInGame, OneScoreOutsideTheWindowOrMissingBreaksTheDrawRun) {
  AdjudicationRules rules;
  rules.draw = DrawRule{0, 3, 5};
  {
    ScoringPlayer a("a", always(0)), b("b", [](int n) { return n % 3 == 2 ? std::optional<int>(6) : 0; });
    const GameRecord r = play_game(a, b, settings(rules));
    EXPECT_NE(r.termination, Termination::Adjudicated);
  }
  {
    ScoringPlayer a("a", always(0)), b("b", [](int n) { return n % 3 == 2 ? std::nullopt : std::optional<int>(0); });
    const GameRecord r = play_game(a, b, settings(rules));
    EXPECT_NE(r.termination, Termination::Adjudicated);
  }
}

TEST(AdjudicateInGame, AStoreMajorityStopsTheGameBeforeTheNextMove) {
  AdjudicationRules rules = store_majority_rules();
  ScoringPlayer a("a", always({})), b("b", always({}));
  const GameRecord r = play_game(a, b, settings(rules));
  ASSERT_EQ(r.termination, Termination::Adjudicated);
  EXPECT_EQ(r.adjudication->reason, AdjudicationReason::StoreMajority);
  // The record replays to a position the rules would play on from, where one store has just come
  // to hold more than half of the 60 seeds: the winner is that store's owner.
  Position p = start_position(r.variant);
  for (std::size_t i = 0; i + 1 < r.moves.size(); ++i) apply(r.variant, p, r.moves[i]);
  EXPECT_FALSE(2 * store(r.variant, p, Side::South) > 60 || 2 * store(r.variant, p, Side::North) > 60);
  apply(r.variant, p, r.moves.back());
  EXPECT_FALSE(p.over);
  EXPECT_TRUE(2 * r.store_south > 60 || 2 * r.store_north > 60);
  EXPECT_EQ(r.result, 2 * r.store_south > 60 ? Outcome::FirstWins : Outcome::SecondWins);
}

TEST(AdjudicateInGame, TheDatabaseEndsASmallGameAtOnceWithPerfectPlaysResult) {
  // Kalah(2,1): four seeds, all in the pits at the start, so the database decides before a move.
  const Variant v = V("pits=2 seeds=1");
  AdjudicationRules rules = database_rules(v, 4);
  ScoringPlayer a("a", always({})), b("b", always({}));
  GameSettings s = settings(rules);
  s.variant = v;
  const GameRecord r = play_game(a, b, s);
  ASSERT_EQ(r.termination, Termination::Adjudicated);
  EXPECT_EQ(r.adjudication->reason, AdjudicationReason::Database);
  EXPECT_EQ(a.calls, 0);
  const int perfect = minimax(v, start_position(v));
  EXPECT_EQ(r.adjudication->margin, perfect);
  EXPECT_EQ(r.result, perfect > 0 ? Outcome::FirstWins : perfect < 0 ? Outcome::SecondWins : Outcome::Draw);
}

// From a start position the seeds are those of the position: here 29 in all, not the variant's 48.
TEST(AdjudicateInGame, FromAStartPositionTheDatabaseAndTheMajorityCountItsSeeds) {
  const Variant v = V("pits=6 seeds=4");
  //        6  5  4  3  2  1
  //      [ 0  0  0  1  0  2 ]
  //  12                        12     South to move; 5 seeds in the pits, 29 in all
  //      [ 0  2  0  0  0  0 ]
  const Position start = P(v, "0,2,0,0,0,0/12/2,0,1,0,0,0/12 s");
  {
    AdjudicationRules rules = database_rules(v, 5);
    ScoringPlayer a("a", always({})), b("b", always({}));
    GameSettings s = settings(rules);
    s.variant = v;
    s.start = start;
    const GameRecord r = play_game(a, b, s);
    ASSERT_EQ(r.termination, Termination::Adjudicated);
    EXPECT_EQ(r.adjudication->reason, AdjudicationReason::Database);
    EXPECT_EQ(r.adjudication->margin, minimax(v, start));
    EXPECT_EQ(a.calls + b.calls, 0);
  }
  {
    // 15 of 29 seeds is a majority (of the variant's 48 it would not be): decided before a move.
    AdjudicationRules rules = store_majority_rules();
    ScoringPlayer a("a", always({})), b("b", always({}));
    GameSettings s = settings(rules);
    s.variant = v;
    s.start = P(v, "0,2,0,0,0,0/15/2,0,1,0,0,0/9 s");
    const GameRecord r = play_game(a, b, s);
    ASSERT_EQ(r.termination, Termination::Adjudicated);
    EXPECT_EQ(r.adjudication->reason, AdjudicationReason::StoreMajority);
    EXPECT_EQ(r.result, Outcome::FirstWins);
    EXPECT_EQ(a.calls + b.calls, 0);
  }
}

TEST(AdjudicateInGame, ThePlyLimitSaysWhy) {
  ScoringPlayer a("a", always({})), b("b", always({}));
  GameSettings s = settings({});
  s.max_plies = 4;
  const GameRecord r = play_game(a, b, s);
  ASSERT_EQ(r.termination, Termination::Adjudicated);
  EXPECT_EQ(r.adjudication->reason, AdjudicationReason::MaxPlies);
}

}  // namespace
}  // namespace kalah
