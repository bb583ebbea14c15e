// Openings: forced first moves that both games of a colour-swapped pair start from.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string_view>
#include <vector>

#include "referee/rules/expected.h"
#include "referee/rules/opening.h"
#include "referee/rules/position.h"
#include "referee/rules/variant.h"

namespace kalah::arena {

using kalah::Opening;

// A book: one opening per line as moves separated by spaces or tabs ("3 6 1", "swap" where the pie
// rule offers it); '#' starts a comment, blank lines are skipped. Every line is replayed from the
// start position and must be legal and leave the game running. Errors read
// "path:line:column: message", the column pointing at the offending move.
Expected<std::vector<Opening>> parse_book(std::string_view text, std::string_view path_for_messages,
                                          const Variant& variant);

using kalah::kOpeningSearchNodes;
using kalah::random_opening;

}  // namespace kalah::arena
