// Swiss pairing and knockout brackets (arena/schedule/swiss.h, knockout.h, rounds.h): the documented
// rules on small hand-made cases, then properties over seeded random tournaments: every engine plays at
// most once a round, no repeat pairing while one can be avoided (checked by brute force), a second bye
// only when every engine without one resting would force a repeat, determinism; a knockout eliminates
// every engine but one exactly once.
#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "arena/config/config.h"
#include "arena/formats/rounds_format.h"
#include "arena/runner/round_source.h"
#include "arena/schedule/knockout.h"
#include "arena/schedule/rounds.h"
#include "arena/schedule/swiss.h"

namespace kalah::arena {
namespace {

std::vector<SwissRecord> with_points(const std::vector<double>& points) {
  std::vector<SwissRecord> records(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) records[i].points = points[i];
  return records;
}

void meet(std::vector<SwissRecord>& records, int a, int b) {
  records[a].opponents.push_back(b);
  records[b].opponents.push_back(a);
}

// Both orders of a board, so that tests can name a pairing without its colours.
std::set<std::pair<int, int>> unordered(const std::vector<Pairing>& boards) {
  std::set<std::pair<int, int>> out;
  for (const Pairing& p : boards) out.insert(std::minmax(p.first, p.second));
  return out;
}

using Set = std::set<std::pair<int, int>>;

TEST(Swiss, FirstRoundPairsTheTopHalfAgainstTheBottomHalf) {
  const SwissRound six = pair_swiss_round(1, with_points(std::vector<double>(6, 0.0)));
  EXPECT_EQ(six.boards, (std::vector<Pairing>{{0, 3}, {1, 4}, {2, 5}})) << "equal colours: the better seed is first";
  EXPECT_EQ(six.bye, -1);
  const SwissRound five = pair_swiss_round(1, with_points(std::vector<double>(5, 0.0)));
  EXPECT_EQ(five.bye, 4) << "the lowest-ranked engine rests";
  EXPECT_EQ(five.boards, (std::vector<Pairing>{{0, 2}, {1, 3}}));
}

TEST(Swiss, AnOddScoreGroupFloatsItsLastEngineDown) {
  // Scores 2 2 2 | 1 1 | 0: the group of three pairs 0-1 and floats 2 onto the top of the next group.
  const SwissRound r = pair_swiss_round(2, with_points({2, 2, 2, 1, 1, 0}));
  EXPECT_EQ(unordered(r.boards), (Set{{0, 1}, {2, 3}, {4, 5}}));
  EXPECT_EQ(r.repeats, 0);
}

TEST(Swiss, RepeatPairingsAreAvoidedByTransposition) {
  // 0 and 2 would meet (top half against bottom half of 0 1 2 3); they have met, so 0 plays 3.
  std::vector<SwissRecord> records = with_points({1, 1, 1, 1});
  meet(records, 0, 2);
  meet(records, 1, 3);
  const SwissRound r = pair_swiss_round(2, records);
  EXPECT_EQ(unordered(r.boards), (Set{{0, 3}, {1, 2}}));
  EXPECT_EQ(r.repeats, 0);
}

TEST(Swiss, ARepeatIsAllowedOnlyWhenNothingElseIsPossible) {
  std::vector<SwissRecord> records = with_points({0, 0});
  meet(records, 0, 1);
  const SwissRound r = pair_swiss_round(2, records);
  EXPECT_EQ(r.boards.size(), 1u);
  EXPECT_EQ(r.repeats, 1);
}

TEST(Swiss, TheByeGoesToTheLowestRankedEngineWithoutOne) {
  std::vector<SwissRecord> records = with_points({2, 1, 1, 0, 1});
  records[3].byes = 1;  // the lowest has had one: the next lowest (4: 1 point, a later seed than 1 and 2) rests
  const SwissRound r = pair_swiss_round(2, records);
  EXPECT_EQ(r.bye, 4);
}

TEST(Swiss, ColoursBalanceWhoIsSouthFirst) {
  std::vector<SwissRecord> records = with_points({1, 1});
  records[0].firsts = 1;
  records[0].last = 1;
  records[1].seconds = 1;
  records[1].last = -1;
  const SwissRound r = pair_swiss_round(2, records);
  ASSERT_EQ(r.boards.size(), 1u);
  EXPECT_EQ(r.boards[0], (Pairing{1, 0})) << "the engine that was first less often is first";
}

TEST(Swiss, GameIdsFollowTheScheduleScheme) {
  const auto ids = swiss_game_ids(3, {4, 1});
  EXPECT_EQ(ids[0], "r3-4v1-p0-g0");
  EXPECT_EQ(ids[1], "r3-1v4-p0-g1");
}

// Plays a whole Swiss tournament with seeded random results, round by round as the flow does.
GameResults random_swiss(int engines, int rounds, std::mt19937_64& rng) {
  GameResults results;
  std::uniform_int_distribution<int> outcome(0, 2);
  for (;;) {
    const SwissProgress p = replay_swiss(engines, rounds, results);
    if (p.complete) return results;
    const SwissRound& round = p.rounds.back();
    for (const Pairing& b : round.boards)
      for (const std::string& id : swiss_game_ids(round.round, b)) results[id] = outcome(rng) / 2.0;
  }
}

// Whether `players` can be paired (with any one of them resting when odd) without a repeat.
bool repeat_free_pairing_exists(std::vector<int> players, const std::vector<std::set<int>>& met, bool odd) {
  if (players.empty()) return true;
  if (odd) {
    for (std::size_t i = 0; i < players.size(); ++i) {
      std::vector<int> rest = players;
      rest.erase(rest.begin() + static_cast<long>(i));
      if (repeat_free_pairing_exists(rest, met, false)) return true;
    }
    return false;
  }
  const int a = players[0];
  for (std::size_t i = 1; i < players.size(); ++i) {
    if (met[a].contains(players[i])) continue;
    std::vector<int> rest;
    for (std::size_t j = 1; j < players.size(); ++j)
      if (j != i) rest.push_back(players[j]);
    if (repeat_free_pairing_exists(rest, met, false)) return true;
  }
  return false;
}

TEST(Swiss, PropertiesOverSeededRandomTournaments) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    std::mt19937_64 rng(seed);
    const int engines = 2 + static_cast<int>(seed % 8);      // 2 .. 9
    const int rounds = 1 + static_cast<int>(seed / 8 % 10);  // 1 .. 10, often more than engines - 1
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + std::to_string(engines) + " engines, " +
                 std::to_string(rounds) + " rounds");
    const GameResults results = random_swiss(engines, rounds, rng);
    const SwissProgress p = replay_swiss(engines, rounds, results);
    ASSERT_TRUE(p.complete);
    ASSERT_EQ(static_cast<int>(p.rounds.size()), rounds);
    EXPECT_EQ(results.size(), static_cast<std::size_t>(rounds * (engines / 2) * 2));

    std::vector<std::set<int>> met(static_cast<std::size_t>(engines));
    std::vector<int> byes(static_cast<std::size_t>(engines), 0);
    for (const SwissRound& round : p.rounds) {
      std::vector<int> seen(static_cast<std::size_t>(engines), 0);
      for (const Pairing& b : round.boards) {
        ASSERT_NE(b.first, b.second);
        ++seen[b.first];
        ++seen[b.second];
      }
      if (round.bye >= 0) ++seen[round.bye];
      for (int e = 0; e < engines; ++e) EXPECT_EQ(seen[e], 1) << "engine " << e << " in round " << round.round;
      EXPECT_EQ(round.bye >= 0, engines % 2 == 1);
      int repeats = 0;
      for (const Pairing& b : round.boards) repeats += met[b.first].contains(b.second) ? 1 : 0;
      EXPECT_EQ(repeats, round.repeats);
      std::vector<int> all(static_cast<std::size_t>(engines));
      for (int e = 0; e < engines; ++e) all[e] = e;
      if (repeats > 0) {
        EXPECT_FALSE(repeat_free_pairing_exists(all, met, engines % 2 == 1))
            << "round " << round.round << " repeats a pairing that could have been avoided";
      }
      if (round.bye >= 0) {
        const int fewest = *std::min_element(byes.begin(), byes.end());
        if (byes[round.bye] > fewest) {
          // Allowed only when every engine with the fewest byes resting would force a repeat.
          for (int e = 0; e < engines; ++e) {
            if (byes[e] != fewest) continue;
            std::vector<int> rest;
            for (int o = 0; o < engines; ++o)
              if (o != e) rest.push_back(o);
            EXPECT_FALSE(repeat_free_pairing_exists(rest, met, false) && repeats == 0)
                << "round " << round.round << ": engine " << e << " could have had the bye";
          }
        }
        ++byes[round.bye];
      }
      for (const Pairing& b : round.boards) {
        met[b.first].insert(b.second);
        met[b.second].insert(b.first);
      }
    }
    // Determinism: the same results, the same tournament.
    const SwissProgress again = replay_swiss(engines, rounds, results);
    for (std::size_t r = 0; r < p.rounds.size(); ++r) {
      EXPECT_EQ(again.rounds[r].boards, p.rounds[r].boards);
      EXPECT_EQ(again.rounds[r].bye, p.rounds[r].bye);
    }
    // Points: one per game, and the byes.
    double points = 0;
    for (const SwissRecord& r : p.records) points += r.points;
    int bye_count = 0;
    for (int b : byes) bye_count += b;
    EXPECT_DOUBLE_EQ(points, static_cast<double>(results.size()) + bye_count * kSwissByePoints);
  }
}

TEST(Swiss, MoreRoundsThanOpponentsStillPairEveryRound) {
  // 15 engines, 24 rounds: after round 15 repeats cannot be avoided; the search gives up on a number of
  // repeats after a bounded number of steps, so even these rounds are paired, and quickly.
  std::mt19937_64 rng(7);
  const GameResults results = random_swiss(15, 24, rng);
  const SwissProgress p = replay_swiss(15, 24, results);
  ASSERT_TRUE(p.complete);
  int repeats = 0;
  for (const SwissRound& r : p.rounds) repeats += r.repeats;
  EXPECT_GT(repeats, 0);
  for (std::size_t r = 0; r < 8; ++r) EXPECT_EQ(p.rounds[r].repeats, 0) << "round " << r + 1;
}

TEST(Swiss, StandingsBreakTiesByBuchholz) {
  GameResults results;
  const SwissRound first = pair_swiss_round(1, with_points({0, 0, 0, 0}));
  ASSERT_EQ(first.boards, (std::vector<Pairing>{{0, 2}, {1, 3}}));
  results["r1-0v2-p0-g0"] = 1.0;  // 0 beats 2 twice
  results["r1-2v0-p0-g1"] = 0.0;
  results["r1-1v3-p0-g0"] = 0.5;  // 1 and 3 draw twice
  results["r1-3v1-p0-g1"] = 0.5;
  const SwissProgress p = replay_swiss(4, 1, results);
  ASSERT_TRUE(p.complete);
  EXPECT_EQ(p.buchholz(), (std::vector<double>{0, 1, 2, 1}));
  EXPECT_EQ(p.ranking(), (std::vector<int>{0, 1, 3, 2})) << "1 and 3 tie on points and Buchholz: seed order";
}

TEST(Knockout, BracketOrderKeepsTheTopSeedsApart) {
  EXPECT_EQ(bracket_seeds(8), (std::vector<int>{1, 8, 4, 5, 2, 7, 3, 6}));
  EXPECT_EQ(bracket_seeds(2), (std::vector<int>{1, 2}));
  for (int size = 2; size <= 64; size *= 2) {
    const std::vector<int> order = bracket_seeds(size);
    const auto half = order.begin() + size / 2;
    EXPECT_NE(std::find(order.begin(), half, 1), half);
    EXPECT_EQ(std::find(order.begin(), half, 2), half) << "seeds 1 and 2 in different halves of " << size;
    for (std::size_t i = 0; i < order.size(); i += 2) EXPECT_EQ(order[i] + order[i + 1], size + 1);
  }
}

TEST(Knockout, ByesGoToTheTopSeeds) {
  const KnockoutProgress k = replay_knockout(5, 1, 0, {});
  EXPECT_EQ(k.bracket_size, 8);
  ASSERT_EQ(k.rounds.size(), 3u);
  const std::vector<KnockoutMatch>& first = k.rounds[0];
  ASSERT_EQ(first.size(), 4u);
  EXPECT_EQ(first[0].decision, KnockoutDecision::Bye);  // seed 1
  EXPECT_EQ(first[0].winner, 0);
  EXPECT_EQ(first[1].high, 3);  // seeds 4 and 5 play
  EXPECT_EQ(first[1].low, 4);
  EXPECT_EQ(first[1].due, (std::vector<int>{0}));
  EXPECT_EQ(first[2].winner, 1);
  EXPECT_EQ(first[3].winner, 2);
  // Seeds 2 and 3 both had byes: their semi-final is known before any game.
  EXPECT_EQ(k.rounds[1][1].high, 1);
  EXPECT_EQ(k.rounds[1][1].low, 2);
  EXPECT_EQ(k.champion, -1);
}

TEST(Knockout, ATiedMatchGetsTieBreakPairsThenTheBetterSeed) {
  GameResults results;
  auto play_pair = [&](int pair, double high_first_game, double low_first_game) {
    const auto ids = knockout_game_ids(1, 0, 1, pair);
    results[ids[0]] = high_first_game;  // engine 0 is South
    results[ids[1]] = low_first_game;   // engine 1 is South
  };
  play_pair(0, 1.0, 1.0);  // each wins as South: 1-1
  KnockoutMatch m = replay_knockout(2, 1, 2, results).rounds[0][0];
  EXPECT_EQ(m.decision, KnockoutDecision::Pending);
  EXPECT_EQ(m.due, (std::vector<int>{1})) << "one tie-break pair at a time";
  play_pair(1, 0.5, 0.5);  // still tied
  m = replay_knockout(2, 1, 2, results).rounds[0][0];
  EXPECT_EQ(m.due, (std::vector<int>{2}));
  GameResults decided = results;
  decided[knockout_game_ids(1, 0, 1, 2)[0]] = 0.0;  // the lower seed wins both games
  decided[knockout_game_ids(1, 0, 1, 2)[1]] = 1.0;
  m = replay_knockout(2, 1, 2, decided).rounds[0][0];
  EXPECT_EQ(m.decision, KnockoutDecision::Tiebreak);
  EXPECT_EQ(m.winner, 1);
  EXPECT_EQ(m.pairs, 3);
  play_pair(2, 1.0, 1.0);  // tied after every tie-break pair: the better seed
  const KnockoutProgress k = replay_knockout(2, 1, 2, results);
  EXPECT_EQ(k.rounds[0][0].decision, KnockoutDecision::Seed);
  EXPECT_EQ(k.champion, 0);
}

TEST(Knockout, PropertiesOverSeededRandomTournaments) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 rng(seed);
    const int engines = 2 + static_cast<int>(seed % 16);  // 2 .. 17
    const int rounds = 1 + static_cast<int>(seed / 16 % 2);
    const int tiebreak = static_cast<int>(seed / 32 % 3);
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + std::to_string(engines) + " engines");
    GameResults results;
    std::uniform_int_distribution<int> outcome(0, 2);
    KnockoutProgress k;
    for (int step = 0; step < 1000; ++step) {
      k = replay_knockout(engines, rounds, tiebreak, results);
      bool played = false;
      for (const auto& round : k.rounds)
        for (const KnockoutMatch& m : round)
          if (m.decision == KnockoutDecision::Pending && m.high >= 0 && m.low >= 0)
            for (int p : m.due)
              for (const std::string& id : knockout_game_ids(m.round, m.high, m.low, p)) {
                results[id] = outcome(rng) / 2.0;
                played = true;
              }
      if (!played) break;
    }
    ASSERT_GE(k.champion, 0);
    std::vector<int> losses(static_cast<std::size_t>(engines), 0);
    for (const auto& round : k.rounds)
      for (const KnockoutMatch& m : round) {
        ASSERT_NE(m.decision, KnockoutDecision::Pending);
        if (m.decision == KnockoutDecision::Bye) continue;
        EXPECT_GE(m.pairs, rounds);
        EXPECT_LE(m.pairs, rounds + tiebreak);
        ++losses[m.winner == m.high ? m.low : m.high];
      }
    for (int e = 0; e < engines; ++e) EXPECT_EQ(losses[e], e == k.champion ? 0 : 1) << "engine " << e;
    const KnockoutProgress again = replay_knockout(engines, rounds, tiebreak, results);
    EXPECT_EQ(again.champion, k.champion);
  }
}

// A config built in code: pairing never starts a command.
Config config_of(TournamentType type, int engines, int rounds) {
  Config c;
  c.tournament.name = "t";
  c.tournament.type = type;
  c.tournament.rounds = rounds;
  c.tournament.tiebreak_pairs = 1;
  c.openings.random_plies = 2;
  for (int i = 0; i < engines; ++i) {
    EngineSpec e;
    e.name = "e" + std::to_string(i);
    c.engines.push_back(e);
  }
  return c;
}

TEST(Rounds, TheSameResultsGiveTheSameGamesAndOpenings) {
  const Config c = config_of(TournamentType::Swiss, 6, 3);
  const std::vector<GameSpec> first = formats::round_pairing(c)->due({});
  ASSERT_EQ(first.size(), 6u);
  EXPECT_EQ(first[0].id, "r1-0v3-p0-g0");
  EXPECT_EQ(first[3].id, "r1-3v0-p0-g1") << "first games of every pair before the second games";
  EXPECT_EQ(first[0].opening, first[3].opening);
  EXPECT_EQ(formats::round_pairing(c)->due({}), first);
  EXPECT_TRUE(make_schedule(c).empty());
  EXPECT_EQ(formats::round_pairing(c)->least_games(), 18);
  EXPECT_EQ(formats::round_pairing(config_of(TournamentType::Knockout, 6, 2))->least_games(), 20);
}

// The source hands out a round, waits while it is in flight, then the next one; a new source over the
// same finished games (a resumed run) hands out exactly the games still missing.
TEST(Rounds, SourceWaitsForTheRoundAndResumesFromTheJournal) {
  const Config c = config_of(TournamentType::Swiss, 4, 2);
  RoundSource source(c, formats::round_pairing(c));
  EXPECT_EQ(source.total(), 8);
  std::vector<GameSpec> round;
  while (std::optional<GameSpec> g = source.next()) round.push_back(*g);
  ASSERT_EQ(round.size(), 4u);
  EXPECT_TRUE(source.more_later()) << "round 2 depends on round 1";
  auto record_of = [](const GameSpec& g, Outcome o) {
    GameRecord r;
    r.id = g.id;
    r.result = o;
    return r;
  };
  std::vector<GameRecord> journal;
  for (const GameSpec& g : round) {
    EXPECT_FALSE(source.next()) << "nothing of round 2 before round 1 is over";
    journal.push_back(record_of(g, Outcome::FirstWins));
    source.finished(g, journal.back());
  }
  std::optional<GameSpec> next = source.next();
  ASSERT_TRUE(next);
  EXPECT_EQ(next->round, 2);
  journal.push_back(record_of(*next, Outcome::Draw));
  source.finished(*next, journal.back());

  RoundSource resumed(c, formats::round_pairing(c));
  for (const GameRecord& r : journal) resumed.add_journaled(r);
  std::set<std::string> rest;
  while (std::optional<GameSpec> g = resumed.next()) rest.insert(g->id);
  std::set<std::string> expected;
  while (std::optional<GameSpec> g = source.next()) expected.insert(g->id);
  EXPECT_EQ(rest, expected);
  EXPECT_EQ(rest.size(), 3u);
  EXPECT_FALSE(rest.contains(next->id));
}

}  // namespace
}  // namespace kalah::arena
