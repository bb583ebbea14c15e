// Openings: forced first moves that both games of a colour-swapped pair start from.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string_view>
#include <vector>

#include "referee/rules/expected.h"
#include "referee/rules/position.h"
#include "referee/rules/variant.h"

namespace kalah::arena {

using Opening = std::vector<Move>;

// A book: one opening per line as moves separated by spaces or tabs ("3 6 1", "swap" where the pie
// rule offers it); '#' starts a comment, blank lines are skipped. Every line is replayed from the
// start position and must be legal and leave the game running. Errors read
// "path:line:column: message", the column pointing at the offending move.
Expected<std::vector<Opening>> parse_book(std::string_view text, std::string_view path_for_messages,
                                          const Variant& variant);

// How many positions random_opening() may visit before it gives up.
inline constexpr long kOpeningSearchNodes = 1'000'000;

// A random opening of exactly `plies` moves after which the game is still running: a random walk
// over pit moves (never `swap`) that steps back when a move would end the game, so the result is
// a function of the generator's state alone. Moves are drawn with rng() % count, which is the same
// on every standard library (std::uniform_int_distribution is not). nullopt when no such opening
// was found within `max_nodes` positions.
std::optional<Opening> random_opening(const Variant& variant, int plies, std::mt19937_64& rng,
                                      long max_nodes = kOpeningSearchNodes);

}  // namespace kalah::arena
