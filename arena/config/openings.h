// Openings: forced first moves that both games of a colour-swapped pair start from.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "referee/rules/expected.h"
#include "referee/rules/opening.h"
#include "referee/rules/position.h"
#include "referee/rules/variant.h"

namespace kalah::arena {

using kalah::Opening;

// What a game pair starts from: a start position (none: the tournament's start) and forced moves.
struct OpeningLine {
  std::optional<Position> start;
  Opening moves;
  // Its comment carries a solver's certificate (referee/rules/certificate.h) of an exact draw at the position the
  // line reaches, under the variant the book's certificate header names, which is the tournament's.
  bool proven_draw = false;
  friend bool operator==(const OpeningLine&, const OpeningLine&) = default;
};

// How a book's lines are read: "auto" takes a line whose first word holds a '/' for a position.
enum class BookFormat { Auto, Moves, Positions };
const char* to_string(BookFormat f);  // "auto", "moves", "positions"

// A book: one opening per line; '#' starts a comment, blank lines are skipped. A line is moves
// separated by spaces or tabs ("3 6 1", "swap" where the pie rule offers it), or a start position
// in the notation of parse_start() followed by moves, if any ("4,0,5/4,4,4 1-0 N 2 3"). Moves are
// replayed from the line's position, else from `start` (the tournament's start), and must be legal
// and leave the game running. Errors read "path:line:column: message", the column pointing at the
// offending word. A line whose comment certifies an exact draw (certificate.h) is marked proven_draw.
Expected<std::vector<OpeningLine>> parse_book(std::string_view text, std::string_view path_for_messages,
                                              const Variant& variant, const Position& start,
                                              BookFormat format = BookFormat::Auto);

using kalah::kOpeningSearchNodes;
using kalah::random_opening;

}  // namespace kalah::arena
