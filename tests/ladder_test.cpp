// A season's ladder (arena/schedule/ladder.h, arena/runner/ladder_source.h, docs/SEASON.md "The ladder"): the engine
// with the fewest games plays first (a new entrant at once), then the closest in the fit, then the pair not yet met;
// sparring partners never meet each other; engines that left are passed over; a pair's second game comes before the
// next pair; a ladder resumed from its journal plays the missing game of a half-played pair and never a finished
// one again, with entrants that joined and left between its runs.
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "arena/config/config.h"
#include "arena/runner/ladder_source.h"
#include "arena/schedule/ladder.h"
#include "bench/ladder_stability.h"

namespace kalah::arena {
namespace {

std::vector<LadderEngine> entrants(int n) {
  return std::vector<LadderEngine>(static_cast<std::size_t>(n), {true, true});
}

// `games` games between a and b, each drawn.
void draws(LadderTally& tally, int a, int b, int games) {
  for (int g = 0; g < games; ++g) tally.add(g % 2 ? a : b, g % 2 ? b : a, 0.5);
}

// `games` games that `winner` wins against `loser`, half of them as South.
void wins(LadderTally& tally, int winner, int loser, int games) {
  for (int g = 0; g < games; ++g)
    if (g % 2)
      tally.add(winner, loser, 1.0);
    else
      tally.add(loser, winner, 0.0);
}

bool same_pair(const Pairing& p, int a, int b) {
  return (p.first == a && p.second == b) || (p.first == b && p.second == a);
}

TEST(LadderPair, TheEngineWithTheFewestGamesPlaysFirst) {
  LadderTally tally(4);
  draws(tally, 0, 1, 6);
  draws(tally, 1, 2, 6);
  draws(tally, 0, 2, 6);
  // Engine 3 has just joined: whoever it meets, it plays the next pair.
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const std::optional<Pairing> p = choose_ladder_pair(entrants(4), tally, seed, 9);
    ASSERT_TRUE(p);
    EXPECT_TRUE(p->first == 3 || p->second == 3) << seed;
  }
}

TEST(LadderPair, CloseRanksComeBeforeFarOnes) {
  // 0 = 1 far above 2 = 3; everyone has 20 games.
  LadderTally tally(4);
  draws(tally, 0, 1, 10);
  draws(tally, 2, 3, 10);
  wins(tally, 0, 2, 10);
  wins(tally, 1, 3, 10);
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const std::optional<Pairing> p = choose_ladder_pair(entrants(4), tally, seed, 5);
    ASSERT_TRUE(p);
    EXPECT_TRUE(same_pair(*p, 0, 1) || same_pair(*p, 2, 3)) << seed << ": " << p->first << "v" << p->second;
  }
}

TEST(LadderPair, PairsNotYetMetComeBeforeMeetingAgain) {
  // Four level engines, 4 games each: 0-1 and 2-3 have met.
  LadderTally tally(4);
  draws(tally, 0, 1, 4);
  draws(tally, 2, 3, 4);
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const std::optional<Pairing> p = choose_ladder_pair(entrants(4), tally, seed, 3);
    ASSERT_TRUE(p);
    EXPECT_EQ(tally.games_between(p->first, p->second), 0) << seed << ": " << p->first << "v" << p->second;
  }
}

TEST(LadderPair, SparringPartnersNeverMeetEachOtherAndLeftOrBusyEnginesArePassedOver) {
  LadderTally tally(5);
  std::vector<LadderEngine> engines{{true, false}, {true, false}, {true, true}, {false, true}, {true, true}};
  engines[2].busy = true;
  // 0 and 1 are partners, 2 is in a game, 3 has left: only 4 may play, against a partner.
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const std::optional<Pairing> p = choose_ladder_pair(engines, tally, seed, 0);
    ASSERT_TRUE(p);
    EXPECT_TRUE(same_pair(*p, 4, 0) || same_pair(*p, 4, 1)) << p->first << "v" << p->second;
  }
  engines[4].busy = true;
  EXPECT_FALSE(choose_ladder_pair(engines, tally, 1, 0));
}

TEST(LadderPair, TheBetterRatedIsSouthFirstAndTheSameInputsGiveTheSamePair) {
  LadderTally tally(2);
  wins(tally, 1, 0, 4);
  draws(tally, 0, 1, 2);
  const std::optional<Pairing> p = choose_ladder_pair(entrants(2), tally, 7, 4);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->first, 1);
  LadderTally more(6);
  draws(more, 0, 1, 2);
  draws(more, 2, 3, 2);
  draws(more, 4, 5, 2);
  for (int k = 0; k < 10; ++k)
    EXPECT_EQ(choose_ladder_pair(entrants(6), more, 3, k), choose_ladder_pair(entrants(6), more, 3, k));
}

// A season's contest as the ladder plays it: `partners` sparring partners, then the entrants, those in `left`
// withdrawn.
Config season(int partners, int entrants, const std::set<int>& left = {}) {
  Config c;
  c.submissions = SubmissionsConfig{};
  c.house_engines = partners;
  for (int i = 0; i < partners + entrants; ++i) {
    EngineSpec e;
    e.name = (i < partners ? "partner" : "entrant") + std::to_string(i);
    c.engines.push_back(e);
    EntryState state;
    if (left.contains(i)) state.status = EntryStatus::Withdrawn;
    c.entries.push_back(state);
  }
  c.tournament.seed = 11;
  return c;
}

// The record of `spec` played: South wins when `south_wins`.
GameRecord played(const Config& c, const GameSpec& spec, bool south_wins = true) {
  GameRecord r;
  r.id = spec.id;
  r.round = spec.round;
  r.south = c.engines[static_cast<std::size_t>(spec.south)].name;
  r.north = c.engines[static_cast<std::size_t>(spec.north)].name;
  r.result = south_wins ? Outcome::FirstWins : Outcome::SecondWins;
  return r;
}

TEST(LadderSource, APairsSecondGameComesFirstWithTheColoursSwapped) {
  const Config c = season(2, 1);
  LadderSource source(c);
  const std::optional<GameSpec> first = source.next();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->id, ladder_game_id(0, first->south, first->north, 0));
  EXPECT_TRUE(source.more_later());
  // Concurrency 2: the second game goes to the next worker at once, then nothing until they finish.
  const std::optional<GameSpec> second = source.next();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->south, first->north);
  EXPECT_EQ(second->north, first->south);
  EXPECT_EQ(second->id, ladder_game_id(0, first->north, first->south, 1));
  EXPECT_EQ(second->opening, first->opening);
  EXPECT_FALSE(source.next());
  source.finished(*first, played(c, *first));
  source.finished(*second, played(c, *second));
  EXPECT_FALSE(source.more_later());
  const std::optional<GameSpec> third = source.next();
  ASSERT_TRUE(third);
  EXPECT_EQ(third->round, 2);
  source.close();
  EXPECT_FALSE(source.next());
}

// Plays `games` games of `source` one at a time, each recorded in `journal`.
void play(const Config& c, LadderSource& source, int games, std::vector<GameRecord>& journal) {
  for (int g = 0; g < games; ++g) {
    const std::optional<GameSpec> spec = source.next();
    ASSERT_TRUE(spec) << g;
    journal.push_back(played(c, *spec, g % 3 != 0));
    source.finished(*spec, journal.back());
  }
}

TEST(LadderSource, EntrantsJoinAndLeaveBetweenRunsAndNoFinishedGameIsPlayedAgain) {
  std::vector<GameRecord> journal;
  // Run 1: one entrant (index 2) and the two partners; cut off in the middle of a pair.
  const Config first = season(2, 1);
  {
    LadderSource source(first);
    play(first, source, 7, journal);
  }
  // Run 2: a second entrant (3) joined. The half-played pair is finished first, then the newcomer plays.
  const Config second = season(2, 2);
  LadderSource source(second);
  for (const GameRecord& r : journal) source.add_journaled(r);
  const std::optional<GameSpec> rest = source.next();
  ASSERT_TRUE(rest);
  EXPECT_EQ(rest->round, 4);
  EXPECT_EQ(rest->game_in_pair, 1);
  EXPECT_EQ(rest->south, second.engine_index(journal.back().north));
  journal.push_back(played(second, *rest));
  source.finished(*rest, journal.back());
  const std::optional<GameSpec> newcomer = source.next();
  ASSERT_TRUE(newcomer);
  EXPECT_TRUE(newcomer->south == 3 || newcomer->north == 3);
  journal.push_back(played(second, *newcomer));
  source.finished(*newcomer, journal.back());
  play(second, source, 8, journal);
  // Run 3: entrant 2 left (superseded by 3); it plays no more, and its half-played pair is not finished.
  const Config third = season(2, 2, {2});
  LadderSource last(third);
  for (const GameRecord& r : journal) last.add_journaled(r);
  std::vector<GameRecord> later;
  play(third, last, 20, later);
  for (const GameRecord& r : later) {
    EXPECT_NE(r.south, "entrant2");
    EXPECT_NE(r.north, "entrant2");
  }
  std::set<std::string> ids;
  for (const std::vector<GameRecord>* games : {&journal, &later})
    for (const GameRecord& r : *games) EXPECT_TRUE(ids.insert(r.id).second) << "played twice: " << r.id;
}

// Issue 40 point 4 on a small field (the figures for 20 and 40 entrants: bench/ladder_bench.cpp, docs/PERFORMANCE.md;
// the definitions: bench/ladder_stability.h). A new revision joins a ladder of 12 entrants spread over 800 Elo that
// have 100 games each: every pair the ladder plays is one of its own (it has not caught up by its 90th game), and its
// point rank is within 1 of its true rank from its 50th game on (the 95th percentile of 200 seasons of this field)
// in at least 18 of 20 seeded seasons, and by its 90th game in all of them.
TEST(LadderStability, ANewRevisionsRankIsStableWithinABoundedNumberOfItsGames) {
  ladder_sim::SeasonShape s;
  s.entrants = 12;
  s.warmup = 100;
  s.horizon = 90;
  const ladder_sim::Ladder warm = ladder_sim::warmed_up(s, 11);
  int within = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const double elo = -s.spread / 2 + s.spread * static_cast<double>(seed) / 21;
    const ladder_sim::Stability st = ladder_sim::new_revision(s, warm, elo, seed);
    EXPECT_EQ(st.ladder_pairs, s.horizon / 2) << "seed " << seed << ": another pair played before it caught up";
    EXPECT_TRUE(st.true_rank) << "seed " << seed << ": its rank not within 1 of the truth by its 90th game";
    within += st.true_rank && *st.true_rank <= 50;
  }
  EXPECT_GE(within, 18);
}

TEST(LadderSource, NothingToPlayWithoutAnEntrant) {
  const Config c = season(2, 1, {2});
  LadderSource source(c);
  EXPECT_FALSE(source.next());
  EXPECT_FALSE(source.more_later());
}

}  // namespace
}  // namespace kalah::arena
