// The schedule: Berger tables, colour-swapped pairs on shared openings, determinism, gauntlets,
// SPRT pairs.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "arena/config/config.h"
#include "arena/schedule/schedule.h"

namespace kalah::arena {
namespace {

// A config built in code: the schedule never looks at commands or the file system.
Config make_config(int engines, int rounds, int random_plies = 2, std::uint64_t seed = 1) {
  Config c;
  c.tournament.name = "t";
  c.tournament.rounds = rounds;
  c.tournament.seed = seed;
  c.openings.random_plies = random_plies;
  for (int i = 0; i < engines; ++i) {
    EngineSpec e;
    e.name = "e" + std::to_string(i);
    c.engines.push_back(e);
  }
  return c;
}

Config make_gauntlet(int engines, std::vector<int> seeds, int rounds) {
  Config c = make_config(engines, rounds);
  c.tournament.type = TournamentType::Gauntlet;
  c.tournament.seed_engines = std::move(seeds);
  return c;
}

// Openings as text, for sets (Move has no ordering).
std::string text(const Opening& opening) {
  std::string s;
  for (Move m : opening) s += to_string(m) + " ";
  return s;
}

// Replays an opening and says whether it is legal and leaves the game running.
bool playable(const Variant& v, const Opening& opening) {
  Position p = start_position(v);
  for (Move m : opening) {
    if (!is_legal(v, p, m)) return false;
    apply(v, p, m);
  }
  return !p.over;
}

TEST(ScheduleBerger, MatchesTheFideTableForSixPlayers) {
  // FIDE Handbook C.05 Annex 1, 5 or 6 players (1-based, White first).
  const std::vector<std::vector<std::pair<int, int>>> fide = {
      {{1, 6}, {2, 5}, {3, 4}}, {{6, 4}, {5, 3}, {1, 2}}, {{2, 6}, {3, 1}, {4, 5}},
      {{6, 5}, {1, 4}, {2, 3}}, {{3, 6}, {4, 2}, {5, 1}},
  };
  const auto table = berger_table(6);
  ASSERT_EQ(table.size(), fide.size());
  for (size_t r = 0; r < fide.size(); ++r) {
    ASSERT_EQ(table[r].size(), fide[r].size());
    for (size_t b = 0; b < fide[r].size(); ++b) {
      EXPECT_EQ(table[r][b].first + 1, fide[r][b].first) << "round " << r + 1 << " board " << b + 1;
      EXPECT_EQ(table[r][b].second + 1, fide[r][b].second) << "round " << r + 1 << " board " << b + 1;
    }
  }
}

TEST(ScheduleBerger, FivePlayersUseTheSixPlayerTableWithAByeForPlayerSix) {
  const auto table = berger_table(5);
  ASSERT_EQ(table.size(), 5u);
  // Round 1 of the six-player table is 1-6, 2-5, 3-4: player 1 rests.
  ASSERT_EQ(table[0].size(), 2u);
  EXPECT_EQ(table[0][0], (Pairing{1, 4}));
  EXPECT_EQ(table[0][1], (Pairing{2, 3}));
}

TEST(ScheduleBerger, EveryPairMeetsOnceAndNobodyPlaysTwiceInARound) {
  for (int n = 2; n <= 12; ++n) {
    SCOPED_TRACE("players " + std::to_string(n));
    const auto table = berger_table(n);
    const int rounds = n % 2 ? n : n - 1;
    ASSERT_EQ(static_cast<int>(table.size()), rounds);
    std::set<std::pair<int, int>> met;
    std::map<int, int> byes, whites;
    for (const auto& round : table) {
      std::set<int> seen;
      for (const Pairing& p : round) {
        ASSERT_GE(p.first, 0);
        ASSERT_LT(p.first, n);
        ASSERT_GE(p.second, 0);
        ASSERT_LT(p.second, n);
        EXPECT_TRUE(seen.insert(p.first).second);
        EXPECT_TRUE(seen.insert(p.second).second);
        EXPECT_TRUE(met.insert(std::minmax(p.first, p.second)).second);
        ++whites[p.first];
      }
      EXPECT_EQ(static_cast<int>(round.size()), n / 2);
      if (n % 2) {
        ASSERT_EQ(static_cast<int>(seen.size()), n - 1);
        for (int i = 0; i < n; ++i)
          if (!seen.count(i)) ++byes[i];
      }
    }
    EXPECT_EQ(static_cast<int>(met.size()), n * (n - 1) / 2);
    if (n % 2) {
      ASSERT_EQ(static_cast<int>(byes.size()), n);  // everyone rests exactly once
      for (auto [player, count] : byes) EXPECT_EQ(count, 1) << player;
    }
    // Berger tables balance colours: nobody has White more than one game above half.
    for (auto [player, count] : whites) EXPECT_LE(count, (n - 1 + 1) / 2 + 1) << player;
  }
}

TEST(ScheduleRoundRobin, CountsPairsAndRoundsForFourToSevenPlayers) {
  for (int n = 4; n <= 7; ++n) {
    for (int rounds = 1; rounds <= 3; ++rounds) {
      SCOPED_TRACE("players " + std::to_string(n) + " rounds " + std::to_string(rounds));
      const Config c = make_config(n, rounds);
      const auto games = make_schedule(c);
      ASSERT_EQ(games.size(), static_cast<size_t>(n * (n - 1) / 2 * 2 * rounds));

      const int per_cycle = n % 2 ? n : n - 1;
      std::map<int, std::set<int>> busy;                 // round -> engines playing in it
      std::map<std::pair<int, int>, int> games_between;  // unordered pair -> games
      std::map<std::pair<int, int>, int> souths;         // ordered (south, north) -> games
      for (const GameSpec& g : games) {
        ASSERT_NE(g.south, g.north);
        EXPECT_GE(g.round, 1);
        EXPECT_LE(g.round, per_cycle * rounds);
        EXPECT_EQ((g.round - 1) / per_cycle, g.pair);  // one pair per pairing per cycle
        ++games_between[std::minmax(g.south, g.north)];
        ++souths[{g.south, g.north}];
        if (g.game_in_pair == 0) {
          // In a round, each engine plays at most one pairing (both its games).
          EXPECT_TRUE(busy[g.round].insert(g.south).second);
          EXPECT_TRUE(busy[g.round].insert(g.north).second);
        }
      }
      EXPECT_EQ(static_cast<int>(games_between.size()), n * (n - 1) / 2);
      for (auto [pair, count] : games_between) EXPECT_EQ(count, 2 * rounds);
      for (auto [pair, count] : souths) EXPECT_EQ(count, rounds);  // colours balanced per pairing
      for (auto& [round, engines] : busy)
        EXPECT_EQ(static_cast<int>(engines.size()), n % 2 ? n - 1 : n) << "round " << round;
    }
  }
}

TEST(ScheduleRoundRobin, PairsShareAnOpeningAndSwapColours) {
  const Config c = make_config(5, 2, 4);
  const auto games = make_schedule(c);
  std::map<std::tuple<int, int>, std::vector<const GameSpec*>> by_pair;  // (pairing, pair)
  for (const GameSpec& g : games) by_pair[{g.pairing, g.pair}].push_back(&g);
  ASSERT_EQ(by_pair.size(), games.size() / 2);
  for (auto& [key, pair] : by_pair) {
    ASSERT_EQ(pair.size(), 2u);
    const GameSpec& first = *pair[0];
    const GameSpec& second = *pair[1];
    EXPECT_EQ(first.game_in_pair, 0);
    EXPECT_EQ(second.game_in_pair, 1);
    EXPECT_EQ(first.round, second.round);
    EXPECT_EQ(first.opening, second.opening);
    EXPECT_EQ(first.opening.size(), 4u);
    EXPECT_EQ(first.south, second.north);
    EXPECT_EQ(first.north, second.south);
    const Pairing p = pairings(c)[first.pairing];
    EXPECT_EQ(std::minmax(first.south, first.north), std::minmax(p.first, p.second));
  }
}

TEST(ScheduleRoundRobin, FirstGamesOfARoundComeBeforeItsSecondGames) {
  const Config c = make_config(6, 1);
  const auto games = make_schedule(c);
  // 3 boards per round: g0 g0 g0 g1 g1 g1, round after round.
  for (size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(games[i].round, static_cast<int>(i / 6) + 1);
    EXPECT_EQ(games[i].game_in_pair, static_cast<int>(i % 6 / 3));
  }
  // So the first three games (as many workers) involve six different engines.
  std::set<int> engines;
  for (int i = 0; i < 3; ++i) engines.insert({games[i].south, games[i].north});
  EXPECT_EQ(engines.size(), 6u);
}

TEST(ScheduleOpenings, RandomOpeningsAreLegalAndDoNotEndTheGame) {
  for (int pits : {3, 4, 6}) {
    for (int plies : {1, 2, 5, 8}) {
      for (std::uint64_t seed : {1u, 7u, 99u}) {
        SCOPED_TRACE("pits " + std::to_string(pits) + " plies " + std::to_string(plies) + " seed " +
                     std::to_string(seed));
        Config c = make_config(4, 2, plies, seed);
        c.variant.pits = pits;
        c.variant.seeds = 3;
        c.variant.pie = pits == 4;
        for (const GameSpec& g : make_schedule(c)) {
          ASSERT_EQ(g.opening.size(), static_cast<size_t>(plies));
          EXPECT_TRUE(playable(c.variant, g.opening)) << g.id;
          for (Move m : g.opening) EXPECT_FALSE(m.is_swap()) << g.id;
        }
      }
    }
  }
}

TEST(ScheduleOpenings, SameConfigSameScheduleDifferentSeedDifferentOpenings) {
  const Config a = make_config(6, 3, 4, 42);
  EXPECT_EQ(make_schedule(a), make_schedule(a));
  EXPECT_EQ(make_schedule(a), make_schedule(make_config(6, 3, 4, 42)));

  const auto one = make_schedule(a);
  const auto other = make_schedule(make_config(6, 3, 4, 43));
  ASSERT_EQ(one.size(), other.size());
  int different = 0;
  for (size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].id, other[i].id);  // the seed changes openings, not the games
    different += one[i].opening != other[i].opening;
  }
  EXPECT_GT(different, static_cast<int>(one.size()) / 2);

  // Openings vary between pairs, too.
  std::set<std::string> distinct;
  for (const GameSpec& g : one) distinct.insert(text(g.opening));
  EXPECT_GT(distinct.size(), one.size() / 4);
}

TEST(ScheduleOpenings, ConcurrencyAndLogisticsDoNotChangeTheSchedule) {
  Config a = make_config(5, 2);
  Config b = a;
  b.tournament.concurrency = 16;
  b.tournament.output = "elsewhere";
  b.tournament.rating_interval = 7;
  EXPECT_EQ(make_schedule(a), make_schedule(b));
}

TEST(ScheduleOpenings, MoreRoundsOnlyAppendGames) {
  const auto short_run = make_schedule(make_config(4, 2));
  const auto long_run = make_schedule(make_config(4, 5));
  ASSERT_LT(short_run.size(), long_run.size());
  for (size_t i = 0; i < short_run.size(); ++i) EXPECT_EQ(short_run[i], long_run[i]);
}

TEST(ScheduleOpenings, BookIsUsedInOrderAndCycled) {
  Config c = make_config(3, 2, 0);
  c.openings.book = {{{}, {Move::at(1)}}, {{}, {Move::at(2)}}, {{}, {Move::at(3)}}, {{}, {Move::at(4)}}};
  const auto games = make_schedule(c);
  const OpeningSource source(c);
  for (const GameSpec& g : games) {
    const std::uint64_t k = static_cast<std::uint64_t>(g.pair) * 3 + g.pairing;
    EXPECT_EQ(g.opening, c.openings.book[k % 4].moves) << g.id;
    EXPECT_EQ(g.opening, source.for_pair(k).moves);
  }
}

TEST(ScheduleOpenings, ShuffledBookIsAPermutationFixedBySeed) {
  Config c = make_config(2, 1, 0);
  for (int i = 1; i <= 6; ++i) c.openings.book.push_back({{}, {Move::at(i)}});
  c.openings.order = OpeningOrder::Random;
  const OpeningSource source(c);
  std::set<std::string> seen;
  std::vector<Opening> first_six;
  for (std::uint64_t k = 0; k < 6; ++k) {
    seen.insert(text(source.for_pair(k).moves));
    first_six.push_back(source.for_pair(k).moves);
  }
  EXPECT_EQ(seen.size(), 6u);
  for (std::uint64_t k = 6; k < 12; ++k) EXPECT_EQ(source.for_pair(k).moves, first_six[k - 6]);
  EXPECT_EQ(OpeningSource(c).for_pair(3), source.for_pair(3));

  int changed = 0;
  for (std::uint64_t seed = 2; seed < 12; ++seed) {
    c.tournament.seed = seed;
    const OpeningSource other(c);
    for (std::uint64_t k = 0; k < 6; ++k) changed += other.for_pair(k).moves != first_six[k];
  }
  EXPECT_GT(changed, 0);
}

TEST(ScheduleOpenings, NoOpeningsMeansTheStartPosition) {
  for (const GameSpec& g : make_schedule(make_config(3, 1, 0))) EXPECT_TRUE(g.opening.empty());
}

TEST(ScheduleIds, AreUniqueAndReadable) {
  for (int n = 2; n <= 7; ++n) {
    const auto games = make_schedule(make_config(n, 3));
    std::set<std::string> ids;
    for (const GameSpec& g : games) EXPECT_TRUE(ids.insert(g.id).second) << g.id;
  }
  const auto games = make_schedule(make_config(4, 1));
  // Round 1 of the four-player table: 1-4 and 2-3.
  EXPECT_EQ(games[0].id, "r1-0v3-p0-g0");
  EXPECT_EQ(games[1].id, "r1-1v2-p0-g0");
  EXPECT_EQ(games[2].id, "r1-3v0-p0-g1");
  EXPECT_EQ(games[3].id, "r1-2v1-p0-g1");
}

TEST(ScheduleGauntlet, EachSeedPlaysEveryOtherEngine) {
  const Config c = make_gauntlet(6, {2, 0}, 3);
  const auto games = make_schedule(c);
  ASSERT_EQ(games.size(), 2u * 4u * 2u * 3u);  // seeds x others x 2 x rounds
  const auto all = pairings(c);
  ASSERT_EQ(all.size(), 8u);
  EXPECT_EQ(all[0], (Pairing{2, 1}));
  EXPECT_EQ(all[4], (Pairing{0, 1}));

  std::map<std::pair<int, int>, int> count;
  std::set<std::string> ids;
  for (const GameSpec& g : games) {
    const bool south_seed = g.south == 0 || g.south == 2;
    const bool north_seed = g.north == 0 || g.north == 2;
    EXPECT_NE(south_seed, north_seed) << g.id;  // never seed vs seed, never other vs other
    EXPECT_EQ(south_seed, g.game_in_pair == 0) << g.id;
    EXPECT_EQ(g.round, g.pair + 1);
    ++count[std::minmax(g.south, g.north)];
    EXPECT_TRUE(ids.insert(g.id).second);
  }
  EXPECT_EQ(count.size(), 8u);
  for (auto [pair, n] : count) EXPECT_EQ(n, 6);
}

TEST(ScheduleGauntlet, PairsShareAnOpening) {
  const auto games = make_schedule(make_gauntlet(4, {0}, 2));
  std::map<std::pair<int, int>, std::vector<Opening>> openings;
  for (const GameSpec& g : games) openings[{g.pairing, g.pair}].push_back(g.opening);
  for (auto& [key, list] : openings) {
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0], list[1]);
  }
}

TEST(ScheduleSprt, PairsAlternateColoursOnOneOpening) {
  const Config c = make_config(2, 1, 3, 5);
  const SprtPairs sprt(c);
  std::set<std::string> openings;
  for (int k = 0; k < 50; ++k) {
    const auto pair = sprt.pair(k);
    EXPECT_EQ(pair[0].id, "sprt-p" + std::to_string(k) + "-g0");
    EXPECT_EQ(pair[1].id, "sprt-p" + std::to_string(k) + "-g1");
    EXPECT_EQ(pair[0].south, 0);
    EXPECT_EQ(pair[0].north, 1);
    EXPECT_EQ(pair[1].south, 1);
    EXPECT_EQ(pair[1].north, 0);
    EXPECT_EQ(pair[0].opening, pair[1].opening);
    EXPECT_EQ(pair[0].round, k + 1);
    EXPECT_TRUE(playable(c.variant, pair[0].opening));
    EXPECT_EQ(sprt_game(c, k, 1), pair[1]);
    openings.insert(text(pair[0].opening));
  }
  EXPECT_GT(openings.size(), 10u);
  // Independent of the order of asking.
  EXPECT_EQ(SprtPairs(c).pair(37), sprt.pair(37));
}

// ---- shards

TEST(ScheduleShards, EveryGameInExactlyOneShardWithWholePairsAndBalancedCounts) {
  for (int engines : {2, 3, 5, 8})
    for (int rounds : {1, 2, 3}) {
      const Config c = make_config(engines, rounds);
      const std::vector<GameSpec> all = make_schedule(c);
      const int pairs = count_pairs(all);
      EXPECT_EQ(pairs * 2, static_cast<int>(all.size()));
      for (int n : {1, 2, 3, 4, 7}) {
        if (n > pairs) {
          EXPECT_TRUE(shard_problem(c, n)) << engines << " engines, " << n << " shards";
          continue;
        }
        EXPECT_FALSE(shard_problem(c, n));
        std::map<std::string, int> shard_of;
        std::size_t smallest = all.size(), largest = 0;
        for (int i = 1; i <= n; ++i) {
          const std::vector<GameSpec> part = shard_games(all, Shard{i, n});
          smallest = std::min(smallest, part.size());
          largest = std::max(largest, part.size());
          std::map<std::pair<int, int>, int> games_of_pair;
          for (const GameSpec& g : part) {
            EXPECT_TRUE(shard_of.emplace(g.id, i).second) << g.id << " is in two shards";
            ++games_of_pair[{g.pairing, g.pair}];
          }
          for (const auto& [pair, count] : games_of_pair) EXPECT_EQ(count, 2) << "a pair is split";
          // Schedule order within the shard: a subsequence of the whole.
          std::size_t at = 0;
          for (const GameSpec& g : part) {
            while (at < all.size() && all[at].id != g.id) ++at;
            EXPECT_LT(at, all.size()) << g.id << " out of order";
          }
        }
        EXPECT_EQ(shard_of.size(), all.size());
        EXPECT_LE(largest - smallest, 2u) << "shards differ by one pair at most";
      }
    }
}

TEST(ScheduleShards, TheSplitIsFixedGameForGame) {
  // Five engines, one round: 10 pairs dealt in turn to 3 shards (4, 3 and 3 pairs).
  const Config c = make_config(5, 1);
  const std::vector<GameSpec> all = make_schedule(c);
  std::vector<std::string> first;
  for (const GameSpec& g : shard_games(all, Shard{1, 3})) first.push_back(g.id);
  EXPECT_EQ(first.size(), 8u);
  EXPECT_EQ(shard_games(all, Shard{2, 3}).size(), 6u);
  EXPECT_EQ(shard_games(all, Shard{3, 3}).size(), 6u);
  // Pair k goes to shard k mod 3 + 1: the first shard holds the pairs of first appearance 0, 3, 6, 9.
  std::vector<std::string> expected;
  std::map<std::pair<int, int>, int> ordinal;
  for (const GameSpec& g : all) {
    const int k = ordinal.try_emplace({g.pairing, g.pair}, static_cast<int>(ordinal.size())).first->second;
    if (k % 3 == 0) expected.push_back(g.id);
  }
  EXPECT_EQ(first, expected);
}

TEST(ScheduleShards, ParsesIOverNAndRefusesTheRest) {
  EXPECT_EQ(*parse_shard("2/4"), (Shard{2, 4}));
  EXPECT_EQ(*parse_shard("1/1"), (Shard{1, 1}));
  EXPECT_EQ(parse_shard("2/4")->text(), "2-of-4");
  for (const char* bad : {"5/4", "0/4", "a/b", "1/0", "", "/", "1/", "/4", "-1/4", "1/4/2", "1.5/4", " 1/4"})
    EXPECT_FALSE(parse_shard(bad).ok()) << bad;
  EXPECT_NE(parse_shard("5/4").error().find("1 to 4"), std::string::npos);
}

}  // namespace
}  // namespace kalah::arena
