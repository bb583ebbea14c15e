// Which games a tournament plays, in which order, with which openings: a pure, deterministic
// function of the Config. The same config gives the same list on every run and for every
// concurrency, so game ids can key the journal and a resumed run skips exactly what is done.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "arena/config/openings.h"
#include "referee/rules/position.h"

namespace kalah::arena {

struct GameSpec {
  std::string id;        // "r{round}-{south}v{north}-p{pair}-g{game_in_pair}", engine indices
  int round = 0;         // 1-based; the PGN Round
  int pairing = 0;       // which two engines: an index into pairings(config)
  int pair = 0;          // 0-based game pair of this pairing (0 .. rounds-1; the pair number in SPRT)
  int game_in_pair = 0;  // 0, or 1 for the colour-swapped replay
  int south = 0;         // engine indices into Config::engines
  int north = 0;
  std::optional<Position> start;  // the position the pair starts from; none: the variant's start
  Opening opening;                // the same for both games of a pair

  friend bool operator==(const GameSpec&, const GameSpec&) = default;
};

// Two engines that meet. In berger_table() `first` has White: South in the first game of a pair.
struct Pairing {
  int first = 0;
  int second = 0;
  friend bool operator==(const Pairing&, const Pairing&) = default;
};

// FIDE Berger tables by the circle method: for n players (0-based), the rounds in order, each the
// list of boards with White (first) and Black (second). An odd n gets a bye as player n, and the
// boards against it are left out, so each round of an odd table has one player resting. n - 1
// rounds for even n, n rounds for odd n; every two players meet exactly once.
std::vector<std::vector<Pairing>> berger_table(int players);

// Every pairing of the tournament, indexed by GameSpec::pairing (none for Swiss, knockout and adaptive, whose
// pairings depend on results: arena/schedule/rounds.h; there GameSpec::pairing is the board or match).
// Round robin: (i, j) for i < j in lexicographic order; a contest's ([submissions]) by column, (i, j)
// for j = 1, 2, ... and i < j, so that a late entrant adds pairings at the end. Gauntlet: for each seed engine in the
// order given, (seed, other) for every non-seed engine in engine order.
std::vector<Pairing> pairings(const Config& config);

// The opening of game pair number k. Random plies: a random_opening() from an mt19937_64 seeded
// with a mix of the tournament seed and k. Book: line k mod size, in file order or in an order
// shuffled once by the seed. Neither depends on when or where the pair is played.
class OpeningSource {
 public:
  explicit OpeningSource(const Config& config);  // keeps a reference: the config must outlive it
  OpeningLine for_pair(std::uint64_t k) const;

 private:
  const Config& config_;
  std::vector<std::size_t> order_;  // book line for k mod size
};

// The whole tournament. Round robin: `rounds` cycles of the Berger table, the round number
// running on across cycles; gauntlet: `rounds` rounds in which every seed engine meets every
// other engine once. Within a round, all first games come before all second games, so parallel
// workers start on different pairings (and in a round robin on disjoint engines). Pair k of the
// openings is cycle * pairings + pairing. A contest plays one cycle per round, its pairings in
// pairings() order, leaving out those of entrants that no longer play; pair k is cycle * 10^6 + pairing. Games:
// pairings x rounds x 2. Empty for Swiss, knockout and adaptive.
std::vector<GameSpec> make_schedule(const Config& config);

// The games of one shard of `schedule` (make_schedule's list), in schedule order. The schedule's
// colour-swapped game pairs, numbered in the order their first game appears, are dealt out in turn:
// pair k goes to shard k mod N + 1. Both games of a pair stay in one shard (the pair shares an
// opening and is what the SPRT and the pentanomial count), every shard gets a slice of every round,
// and shard sizes differ by one pair at most. Every game costs the same expected work today (one
// time control for all engines), so equal counts are equal work. Ids are those of the schedule.
std::vector<GameSpec> shard_games(const std::vector<GameSpec>& schedule, const Shard& shard);
// The number of colour-swapped game pairs in `schedule`.
int count_pairs(const std::vector<GameSpec>& schedule);
// Why `config` cannot be played as `count` shards, or nullopt: a schedule with fewer game pairs
// than shards (an empty shard is a mistake, not a task), a Swiss, knockout or adaptive tournament (its later
// rounds depend on results) or a staged one (its later stages do). An SPRT splits into any number of streams.
std::optional<std::string> shard_problem(const Config& config, int count);

// SPRT: an endless run of pairs between engine 0 (base) and engine 1 (test). Game 0 of a pair has
// the base as South, game 1 the test; ids are "sprt-p{pair}-g{game}", round = pair + 1.
class SprtPairs {
 public:
  explicit SprtPairs(const Config& config) : config_(config), openings_(config) {}
  std::array<GameSpec, 2> pair(int pair_index) const;

 private:
  const Config& config_;
  OpeningSource openings_;
};

// One game of SprtPairs(config).pair(pair_index) (builds the opening source each call).
GameSpec sprt_game(const Config& config, int pair_index, int game_in_pair);

}  // namespace kalah::arena
