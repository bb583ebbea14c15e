// Adaptive pairing (arena/schedule/adaptive.h, docs/SCHEDULE.md "Adaptive"): round 1 pairs every engine once
// in an order drawn from the seed; every later round pairs only engines adjacent in the fit's order whose
// order is still open (checked against a fit made here from the same games), each engine at most once, the
// most uncertain first and the fewest games first among equals; the
// budget is played exactly; the same seed and results give the same rounds, and a run cut anywhere replays
// into the same rounds; the order settling or the target width ends a run early; the config's refusals name
// file:line:column.
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "arena/config/config.h"
#include "arena/formats/rounds_format.h"
#include "arena/rating/rating.h"
#include "arena/runner/round_source.h"
#include "arena/schedule/adaptive.h"
#include "arena/schedule/rounds.h"
#include "referee/system/temp_folder.h"
#include "tests/files.h"
#include "tests/support/adaptive_play.h"

namespace kalah::arena {
namespace {

using test::logistic;
using test::play_out;
using test::spread;

// Every game between two engines, in both colours, as the fit takes them.
std::vector<rating::PairResult> fit_input(const std::vector<AdaptiveRound>& rounds, const GameResults& results) {
  std::vector<rating::PairResult> out;
  for (const AdaptiveRound& r : rounds)
    for (const Pairing& b : r.boards) {
      const std::array<std::string, 2> ids = adaptive_game_ids(r.round, b);
      out.push_back({b.first, b.second, 1.0, results.at(ids[0])});
      out.push_back({b.second, b.first, 1.0, results.at(ids[1])});
    }
  return out;
}

int games_in(const AdaptiveProgress& p) {
  int games = 0;
  for (const AdaptiveRound& r : p.rounds) games += 2 * static_cast<int>(r.boards.size());
  return games;
}

TEST(Adaptive, FirstRoundPairsEveryEngineOnceInASeededOrder) {
  const AdaptiveProgress p = replay_adaptive({7, 100, 0, 42, {}}, {});
  ASSERT_EQ(p.rounds.size(), 1u);
  EXPECT_FALSE(p.complete);
  EXPECT_EQ(p.rounds[0].round, 1);
  ASSERT_EQ(p.rounds[0].boards.size(), 3u);  // 7 engines: one rests
  std::set<int> seen;
  for (const Pairing& b : p.rounds[0].boards) {
    EXPECT_TRUE(seen.insert(b.first).second);
    EXPECT_TRUE(seen.insert(b.second).second);
  }
  EXPECT_EQ(replay_adaptive({7, 100, 0, 42, {}}, {}).rounds[0].boards, p.rounds[0].boards);
  // Another seed, another draw (these two differ).
  EXPECT_NE(replay_adaptive({7, 100, 0, 43, {}}, {}).rounds[0].boards, p.rounds[0].boards);
}

TEST(Adaptive, LaterRoundsPairOnlyAdjacentEnginesWhoseOrderIsOpen) {
  for (std::uint64_t seed : {1, 2, 3}) {
    SCOPED_TRACE(seed);
    const AdaptivePlan plan{10, 120, 0, seed, {}};
    GameResults results;
    const AdaptiveProgress p = play_out(plan, logistic(spread(10, 600), seed), results);
    ASSERT_GE(p.rounds.size(), 3u);
    for (std::size_t r = 1; r < p.rounds.size(); ++r) {
      // The fit of the rounds before this one, made here.
      const std::vector<AdaptiveRound> before(p.rounds.begin(), p.rounds.begin() + static_cast<long>(r));
      rating::FitOptions options;
      options.first_mover = true;
      const rating::Rating fit = rating::fit(10, fit_input(before, results), options);
      std::set<int> busy;
      for (const Pairing& b : p.rounds[r].boards) {
        EXPECT_TRUE(busy.insert(b.first).second && busy.insert(b.second).second) << "round " << r + 1;
        // Adjacent: no engine rated between the two (beyond rounding: engines with the same record are level).
        constexpr double kLevel = 1e-6;
        const double hi = std::max(fit.elo[b.first], fit.elo[b.second]);
        const double lo = std::min(fit.elo[b.first], fit.elo[b.second]);
        for (int e = 0; e < 10; ++e)
          EXPECT_FALSE(fit.elo[e] > lo + kLevel && fit.elo[e] < hi - kLevel)
              << "round " << r + 1 << ": " << e << " lies between";
        // The better-rated engine first, and their order open.
        EXPECT_GE(fit.elo[b.first], fit.elo[b.second] - kLevel);
        EXPECT_GT(rating::los(fit, b.second, b.first), kAdaptiveOpen) << "round " << r + 1;
      }
    }
  }
}

TEST(Adaptive, ChoosesTheMostUncertainThenTheFewestGamesEachEngineOnce) {
  // Order 0 1 2 3 4 5: the five adjacent pairs, as a later round sees them.
  const std::vector<AdaptiveCandidate> open = {
      {0.39, 10, 1, {0, 1}},  // in the 35-40% step with 1-2
      {0.36, 4, 2, {1, 2}},   // same step, fewer games: before 0-1
      {0.10, 0, 3, {2, 3}},   // much less uncertain, however few its games
      {0.46, 30, 4, {3, 4}},  // the most uncertain: first, whatever its games
      {0.30, 2, 5, {4, 5}},   // 4 is taken by 3-4
  };
  EXPECT_EQ(choose_boards(open, 6), (std::vector<Pairing>{{3, 4}, {1, 2}}));
  // Equal steps and games: the draw decides.
  const std::vector<AdaptiveCandidate> level = {{0.3, 2, 9, {0, 1}}, {0.3, 2, 7, {1, 2}}, {0.3, 2, 8, {2, 3}}};
  EXPECT_EQ(choose_boards(level, 4), (std::vector<Pairing>{{1, 2}}));
  EXPECT_TRUE(choose_boards({}, 4).empty());
}

TEST(Adaptive, PlaysItsBudgetExactly) {
  // Equal engines: the order never settles, so every budget is spent, to the game.
  for (int budget : {2, 4, 10, 14, 38, 60}) {
    SCOPED_TRACE(budget);
    GameResults results;
    const AdaptiveProgress p = play_out({6, budget, 0, 9, {}}, logistic(spread(6, 0), 5), results);
    EXPECT_EQ(p.end, AdaptiveEnd::Budget);
    EXPECT_EQ(p.games_paired, budget);
    EXPECT_EQ(games_in(p), budget);
    EXPECT_EQ(static_cast<int>(results.size()), budget);
  }
}

TEST(Adaptive, SameSeedAndResultsGiveTheSameRounds) {
  GameResults a, b;
  const AdaptiveProgress one = play_out({8, 80, 0, 5, {}}, logistic(spread(8, 400), 11), a);
  const AdaptiveProgress two = play_out({8, 80, 0, 5, {}}, logistic(spread(8, 400), 11), b);
  ASSERT_EQ(one.rounds.size(), two.rounds.size());
  for (std::size_t r = 0; r < one.rounds.size(); ++r) EXPECT_EQ(one.rounds[r].boards, two.rounds[r].boards);
  EXPECT_EQ(a, b);
}

TEST(Adaptive, ACutRunReplaysIntoTheSameRounds) {
  const AdaptivePlan plan{9, 90, 0, 17, {}};
  GameResults all;
  const AdaptiveProgress full = play_out(plan, logistic(spread(9, 500), 23), all);
  // Every prefix of the games in the order they were played: the rounds paired are the full run's.
  std::vector<std::string> order;
  for (const AdaptiveRound& r : full.rounds)
    for (const Pairing& b : r.boards)
      for (const std::string& id : adaptive_game_ids(r.round, b)) order.push_back(id);
  ASSERT_EQ(static_cast<int>(order.size()), full.games_paired);
  GameResults cut;
  for (std::size_t kept = 0; kept <= order.size(); ++kept) {
    if (kept > 0) cut.emplace(order[kept - 1], all.at(order[kept - 1]));
    const AdaptiveProgress p = replay_adaptive(plan, cut);
    ASSERT_LE(p.rounds.size(), full.rounds.size());
    for (std::size_t r = 0; r < p.rounds.size(); ++r)
      ASSERT_EQ(p.rounds[r].boards, full.rounds[r].boards) << kept << " games kept, round " << r + 1;
    EXPECT_EQ(p.complete, kept == order.size());
  }
}

TEST(Adaptive, StopsWhenTheOrderIsSettled) {
  // Two engines, one always wins: after a few pairs the order is no longer open.
  GameResults results;
  const AdaptiveProgress p = play_out(
      {2, 1000, 0, 1, {}}, [](int s, int) { return s == 0 ? 1.0 : 0.0; }, results);
  EXPECT_EQ(p.end, AdaptiveEnd::Settled);
  EXPECT_LT(p.games_paired, 1000);
  EXPECT_GE(p.games_paired, 4);
}

TEST(Adaptive, StopsAtTheTargetWidth) {
  // Three equal engines: the order never settles. A width of 2 (every interval within 1st-3rd) is met as soon
  // as every engine has played, after round 2; a width of 1 is not met before this budget.
  GameResults results;
  const AdaptiveProgress wide = play_out({3, 400, 2, 3, {}}, logistic({0, 0, 0}, 7), results);
  EXPECT_EQ(wide.end, AdaptiveEnd::Target);
  EXPECT_EQ(wide.rounds.size(), 2u);
  results.clear();
  const AdaptiveProgress narrow = play_out({3, 40, 1, 3, {}}, logistic({0, 0, 0}, 7), results);
  EXPECT_EQ(narrow.end, AdaptiveEnd::Budget);
}

// The config side: the games due, from a parsed config.
class AdaptiveConfig : public ::testing::Test {
 protected:
  Expected<Config> parse(const std::string& tournament_lines, const std::string& more = "") const {
    const std::string text = "[tournament]\nname = \"t\"\n" + tournament_lines +
                             "[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
                             "[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[[engine]]\nname = \"c\"\n"
                             "cmd = \"/bin/true\"\n" +
                             more;
    return parse_config(text, "t.toml", dir_.path(), dir_.path());
  }
  void expect_refused(const std::string& lines, const std::string& message, const std::string& more = "") const {
    const Expected<Config> c = parse(lines, more);
    ASSERT_FALSE(c.ok()) << lines;
    EXPECT_EQ(c.error(), message);
  }
  system::TempFolder dir_{"kalah-adaptive"};
};

TEST_F(AdaptiveConfig, ReadsItsKeysAndPairsFromThem) {
  const Expected<Config> c = parse("type = \"adaptive\"\nbudget_games = 12\ntarget_width = 2\nseed = 4\n");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->tournament.type, TournamentType::Adaptive);
  EXPECT_EQ(c->tournament.budget_games, 12);
  EXPECT_EQ(c->tournament.target_width, 2);
  EXPECT_TRUE(make_schedule(*c).empty());
  EXPECT_EQ(formats::round_pairing(*c)->least_games(), 12);
  EXPECT_TRUE(shard_problem(*c, 2).has_value());
  // Round 1 of three engines: one pair, its first game before its second, colours swapped.
  const std::vector<GameSpec> due = formats::round_pairing(*c)->due({});
  ASSERT_EQ(due.size(), 2u);
  EXPECT_EQ(due[0].game_in_pair, 0);
  EXPECT_EQ(due[1].game_in_pair, 1);
  EXPECT_EQ(due[0].south, due[1].north);
  EXPECT_EQ(due[0].north, due[1].south);
  EXPECT_EQ(due[0].id, adaptive_game_ids(1, {due[0].south, due[0].north})[0]);
  // The fingerprint names the budget and target, so another budget is another tournament.
  const Expected<Config> other = parse("type = \"adaptive\"\nbudget_games = 14\ntarget_width = 2\nseed = 4\n");
  ASSERT_TRUE(other.ok());
  EXPECT_NE(fingerprint(*c), fingerprint(*other));
  // The game source hands out round 1, then waits for it before pairing round 2.
  RoundSource source(*c, formats::round_pairing(*c));
  EXPECT_EQ(source.total(), 12);
  const std::optional<GameSpec> g0 = source.next(), g1 = source.next();
  ASSERT_TRUE(g0 && g1);
  EXPECT_FALSE(source.next());
  EXPECT_TRUE(source.more_later());
}

TEST_F(AdaptiveConfig, RefusalsNameFileLineAndColumn) {
  expect_refused("type = \"adaptive\"\n", "t.toml:1:1: missing key \"budget_games\" in [tournament]");
  expect_refused("type = \"adaptive\"\nbudget_games = 7\n",
                 "t.toml:4:16: tournament.budget_games must be even (colour-swapped game pairs), not 7");
  expect_refused("type = \"adaptive\"\nbudget_games = 0\n",
                 "t.toml:4:16: tournament.budget_games must be from 2 to 10000000, not 0");
  expect_refused("budget_games = 10\n", "t.toml:3:16: tournament.budget_games only applies to type = \"adaptive\"");
  expect_refused("type = \"swiss\"\ntarget_width = 2\n",
                 "t.toml:4:16: tournament.target_width only applies to type = \"adaptive\"");
  expect_refused("type = \"adaptive\"\nbudget_games = 10\ntarget_width = 0\n",
                 "t.toml:5:16: tournament.target_width must be from 1 to 10000, not 0");
  expect_refused("type = \"adaptive\"\nrounds = 2\nbudget_games = 10\n",
                 "t.toml:4:10: tournament.rounds does not apply to type = \"adaptive\": its games are budget_games, "
                 "paired round by round where the order is still open");
  expect_refused("type = \"adaptive\"\nbudget_games = 10\n",
                 "t.toml:17:6: ranking.by = \"points\" applies to round-robin and gauntlet tournaments; an adaptive "
                 "tournament pairs engines of unlike strength unequally often, so points are not comparable: it "
                 "ranks by Elo (docs/RANKING.md)",
                 "[ranking]\nby = \"points\"\n");
}

TEST_F(AdaptiveConfig, AFinalReadsItsBoundaries) {
  const Expected<Config> c = parse("type = \"adaptive\"\nbudget_games = 40\nboundaries = [1, 2]\n");
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->tournament.boundaries, (std::vector<int>{1, 2}));
  EXPECT_EQ(adaptive_plan(*c).boundaries, (std::vector<int>{1, 2}));
  EXPECT_TRUE(shard_problem(*c, 2).has_value());
  // The boundaries are in the fingerprint; a plain adaptive tournament's fingerprint does not mention them.
  const Expected<Config> plain = parse("type = \"adaptive\"\nbudget_games = 40\n");
  const Expected<Config> other = parse("type = \"adaptive\"\nbudget_games = 40\nboundaries = [1]\n");
  ASSERT_TRUE(plain.ok() && other.ok());
  EXPECT_NE(fingerprint(*c), fingerprint(*other));
  EXPECT_NE(fingerprint(*c).find("budget_games=40 target_width=0 boundaries=1,2\n"), std::string::npos);
  EXPECT_EQ(fingerprint(*plain).find("boundaries"), std::string::npos);
}

TEST_F(AdaptiveConfig, AFinalsRefusalsNameFileLineAndColumn) {
  expect_refused("type = \"swiss\"\nboundaries = [1]\n",
                 "t.toml:4:14: tournament.boundaries only applies to type = \"adaptive\"");
  expect_refused("type = \"adaptive\"\nbudget_games = 10\nboundaries = []\n",
                 "t.toml:5:14: tournament.boundaries must name at least one place (e.g. boundaries = [1, 3, 10])");
  expect_refused("type = \"adaptive\"\nbudget_games = 10\nboundaries = 1\n",
                 "t.toml:5:14: tournament.boundaries must be an array of whole numbers, not an integer");
  expect_refused("type = \"adaptive\"\nbudget_games = 10\nboundaries = [0]\n",
                 "t.toml:5:15: tournament.boundaries[0] = 0: a boundary is a number of places from the top, 1 to "
                 "1000000");
  expect_refused("type = \"adaptive\"\nbudget_games = 10\nboundaries = [2, 1]\n",
                 "t.toml:5:18: tournament.boundaries[1] = 1: the boundaries must be listed in ascending order, each "
                 "once (after 2)");
  expect_refused("type = \"adaptive\"\nbudget_games = 10\nboundaries = [1, 3]\n",
                 "t.toml:5:18: tournament.boundaries[1] = 3: a boundary lies between two places, so it is less than "
                 "the number of engines (3)");
  expect_refused("type = \"adaptive\"\nbudget_games = 10\nboundaries = [1]\ntarget_width = 2\n",
                 "t.toml:6:16: tournament.target_width does not apply to a final (tournament.boundaries): it ends "
                 "when no rank interval straddles a boundary, or at budget_games");
  expect_refused("type = \"adaptive\"\nboundaries = [1]\n", "t.toml:1:1: missing key \"budget_games\" in [tournament]");
}

}  // namespace
}  // namespace kalah::arena
