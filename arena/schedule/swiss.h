// Swiss pairing (docs/SCHEDULE.md, "Swiss"): each round pairs engines of equal score, from the
// engines' records of the rounds before. Pure and deterministic: the same records give the same
// round, so a resumed tournament replays its journal into the same pairings and game ids.
#pragma once

#include <array>
#include <string>
#include <unordered_map>
#include <vector>

#include "arena/schedule/schedule.h"

namespace kalah::arena {

// The South engine's score (1, 1/2, 0) of each finished game, by game id: what the later rounds of a
// Swiss or knockout tournament are paired from.
using GameResults = std::unordered_map<std::string, double>;

// What a bye is worth: the points of a drawn pair (a pair is two games, at most 2 points).
inline constexpr double kSwissByePoints = 1.0;

// One engine's Swiss record before a round is paired. Engines are numbered in config order, which is
// also their initial seed (the tie-break of equal scores).
struct SwissRecord {
  double points = 0;           // game points (win 1, draw 1/2) and bye points
  std::vector<int> opponents;  // one entry per pair played, in round order
  int firsts = 0;              // pairs in which it was South in the first game
  int seconds = 0;             // pairs in which it was North in the first game
  int last = 0;                // its last pair: +1 first, -1 second, 0 none yet
  int byes = 0;
};

struct SwissRound {
  int round = 0;                // 1-based
  std::vector<Pairing> boards;  // `first` is South in game 0; in the order of the better-ranked engine
  int bye = -1;                 // the engine that rests this round, or -1
  int repeats = 0;              // boards of two engines that met before (only when nothing else was possible)
};

// Pairs round `round` from the records (one per engine, at least two). The rules, in order of
// priority: no repeat pairing while one can be avoided; the bye to the lowest-ranked engine with the
// fewest byes; Dutch-style pairing within score groups (docs/SCHEDULE.md).
SwissRound pair_swiss_round(int round, const std::vector<SwissRecord>& records);

// The ids of the two games of `board` in `round`: "r{round}-{first}v{second}-p0-g0" and
// "r{round}-{second}v{first}-p0-g1".
std::array<std::string, 2> swiss_game_ids(int round, const Pairing& board);

// A Swiss tournament as far as its results go: round 1 is paired from nothing, every later round
// from the records once the round before it is complete.
struct SwissProgress {
  std::vector<SwissRound> rounds;    // paired so far; all but the last are complete
  std::vector<SwissRecord> records;  // every finished game and bye counted
  bool complete = false;             // every round of the tournament is paired and played
  // Each engine's Buchholz score: the sum of its opponents' points (once per pair played, a bye adds nothing).
  std::vector<double> buchholz() const;
  // Engines in standings order: points, then Buchholz, then initial seed.
  std::vector<int> ranking() const;
};
SwissProgress replay_swiss(int engines, int rounds, const GameResults& results);

}  // namespace kalah::arena
