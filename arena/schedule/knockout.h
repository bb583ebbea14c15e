// Knockout (docs/SCHEDULE.md, "Knockout"): a seeded single-elimination bracket of matches of
// colour-swapped game pairs, with tie-break pairs for a tied match. Pure and deterministic: the
// bracket is replayed from the finished games, so a resumed tournament continues it exactly.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "arena/schedule/swiss.h"

namespace kalah::arena {

// The standard bracket order of `size` slots (a power of two): the seeds (1-based) top to bottom, so
// that slot pairs (0,1), (2,3), ... are the first round's matches and seeds 1 and 2 can meet only in
// the final. 8 -> 1 8 4 5 2 7 3 6.
std::vector<int> bracket_seeds(int size);

enum class KnockoutDecision {
  Pending,   // still being played, or its engines are not known yet
  Bye,       // one engine had no opponent and went through
  Points,    // more points over the match's `rounds` pairs
  Tiebreak,  // tied after them, ahead after a tie-break pair
  Seed,      // still tied after every tie-break pair: the better seed went through
};
const char* to_string(KnockoutDecision d);  // "pending", "bye", "points", "tie-break", "seed"

struct KnockoutMatch {
  int round = 0;  // bracket round, 1-based (1 = the first round, the last is the final)
  int index = 0;  // 0-based, from the top of the bracket
  // The engines (indices in config order, which is the seeding: engine 0 is seed 1). `high` is the
  // better seed and South in the first game of every pair; -1 while unknown, and `low` is -1 for a bye.
  int high = -1;
  int low = -1;
  double high_points = 0;  // over the complete pairs
  double low_points = 0;
  int pairs = 0;    // complete pairs (both games finished), tie-break pairs included
  int winner = -1;  // -1 while pending
  KnockoutDecision decision = KnockoutDecision::Pending;
  std::vector<int> due;  // pair numbers to play now (started or not): 0.. are the match, `rounds`.. tie-breaks
};

// An engine's place in the knockout's ranking (docs/SCHEDULE.md, "Knockout", "Ranking").
struct KnockoutPlace {
  int engine = 0;       // index in config order (engine 0 is seed 1)
  int reached = 0;      // the last bracket round it is in (a first-round bye counts as round 1)
  bool out = false;     // it lost its match of that round
  int rank = 0;         // 1 = best
  bool shared = false;  // others reached the same round and are out (or still in) too
};

struct KnockoutProgress {
  int engines = 0;                                 // seeded into the bracket
  int bracket_size = 0;                            // the power of two the engines are seeded into
  std::vector<std::vector<KnockoutMatch>> rounds;  // every bracket round, with its matches
  int champion = -1;                               // the final's winner, -1 while pending
  // Every engine, best first: by the round reached (later first), then still in before out of it; engines
  // equal on both share a rank, and are listed by seed. So the champion is 1, the finalist 2, the losers of
  // the semi-finals 3=, those of the quarter-finals 5=, and so on.
  std::vector<KnockoutPlace> ranking() const;
};

// The bracket of `engines` engines as far as `results` go. Every match of the first round is known; a
// later match is known once both matches feeding it are decided. A match plays `rounds` pairs, then
// while tied up to `tiebreak_pairs` more, one at a time.
KnockoutProgress replay_knockout(int engines, int rounds, int tiebreak_pairs, const GameResults& results);

// The ids of pair `pair` of a match between `high` and `low` in bracket round `round`:
// "r{round}-{high}v{low}-p{pair}-g0" and "r{round}-{low}v{high}-p{pair}-g1".
std::array<std::string, 2> knockout_game_ids(int round, int high, int low, int pair);

}  // namespace kalah::arena
