// Move-path enumeration for correctness checks and speed measurement.
#pragma once

#include <cstdint>

#include "referee/rules/position.h"

namespace kalah {

// Number of move sequences of exactly `depth` plies from p, where a game that
// ends earlier counts as one leaf. Every ply is one move: an extra turn is a
// new ply. At the last ply the moves are counted, not played ("bulk counting").
std::uint64_t perft(const Variant& v, const Position& p, int depth);

// The same count, but every leaf move is played too (for benchmarks of apply()).
std::uint64_t perft_full(const Variant& v, const Position& p, int depth);

}  // namespace kalah
