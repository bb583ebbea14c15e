// Random openings: the forced first plies that make game pairs differ.
#pragma once

#include <cstdint>
#include <vector>

#include "referee/rules/position.h"

namespace kalah {

// A uniformly random sequence of `plies` legal moves from the start, never
// one that ends the game and never the pie swap; the same seed gives the
// same opening. Fewer plies only if no longer sequence exists.
std::vector<Move> random_opening(const Variant& v, int plies, std::uint64_t seed);

}  // namespace kalah
