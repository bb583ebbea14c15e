// The positions of `referee suite` (docs/SOLVER.md, "Grading a bot: referee suite"): drawn from games the
// suite plays itself, deterministically from a seed, and sorted into phases by the seeds left in the pits.
// Pure: the rules library and a seeded generator, no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "referee/rules/position.h"

namespace kalah::suite {

// How far a game has gone, by the seeds still in the pits (k) of the T the variant starts with:
// early k > 2T/3, middle T/3 < k <= 2T/3, late k <= T/3.
enum class Phase : std::uint8_t { Early, Middle, Late };
inline constexpr int kPhases = 3;
const char* to_string(Phase p);  // "early", "middle", "late"
std::optional<Phase> parse_phase(std::string_view text);
Phase phase_of(const Variant& v, const Position& p);
int seeds_in_pits(const Variant& v, const Position& p);

// How many of `total` positions each phase gets: equal thirds, the remainder to the earlier phases
// (31 positions: 11, 10, 10).
int phase_quota(int total, Phase p);

// A position of a drawn game, reached from the variant's start by `moves` (sent to an engine as
// `position startpos moves ...`).
struct Candidate {
  std::vector<Move> moves;
  Position position;
  Phase phase = Phase::Early;
  int game = 0;  // the drawn game it comes from, 0-based
};

// The moves of the fixed policy that plays the drawn games after their random opening: the pit move that
// adds most to the mover's store (captures included), ties broken by rng() % ties over the tied moves in
// pit order. Never `swap`. `p` must not be over.
Move greedy_move(const Variant& v, const Position& p, std::mt19937_64& rng);

// The games the positions come from, one after the other from one generator std::mt19937_64(seed):
// game g opens with 2 + rng() % 5 random plies (random_opening(): pit moves, never swap, the game still
// running), then both sides play greedy_move() to the end. Of the game's positions after its opening
// (the one the opening reaches included) with at least two legal moves, each phase that has any gives
// one candidate, picked by rng() % count, in the order early, middle, late.
class CandidateStream {
 public:
  CandidateStream(const Variant& v, std::uint64_t seed);

  // The next game's candidates (none when its positions all have one legal move).
  std::vector<Candidate> next_game();
  int games() const { return games_; }

 private:
  Variant variant_;
  std::mt19937_64 rng_;
  int games_ = 0;
};

// "startpos moves 3 1 4": how KEP and the suite's output name a position.
std::string moves_text(const std::vector<Move>& moves);

}  // namespace kalah::suite
