// Random openings: the forced first plies that make game pairs differ.
#pragma once

#include <optional>
#include <random>
#include <vector>

#include "referee/rules/position.h"

namespace kalah {

using Opening = std::vector<Move>;

// How many positions random_opening() may visit before it gives up.
inline constexpr long kOpeningSearchNodes = 1'000'000;

// A random opening of exactly `plies` moves after which the game is still running: a random walk
// over pit moves (never `swap`) that steps back when a move would end the game, so the result is
// a function of the generator's state alone. Moves are drawn with rng() % count, which is the same
// on every standard library (std::uniform_int_distribution is not). nullopt when no such opening
// was found within `max_nodes` positions.
std::optional<Opening> random_opening(const Variant& variant, int plies, std::mt19937_64& rng,
                                      long max_nodes = kOpeningSearchNodes);
// The same from `from` instead of the variant's start.
std::optional<Opening> random_opening(const Variant& variant, const Position& from, int plies, std::mt19937_64& rng,
                                      long max_nodes = kOpeningSearchNodes);

}  // namespace kalah
