// Certified book lines: each line of a book that `kalah-solver book` writes carries its exact value and the
// position a reader hands to `kalah-solver solve --position` to re-check it; `kalah-solver book --check`
// re-certifies a whole book with the exact search (docs/SOLVER.md, "Fair openings").
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bots/solver/book.h"
#include "referee/rules/position.h"
#include "referee/solver/solver.h"

namespace kalah::solver {

// The start positions of the variant with `moved` seeds moved, each to another pit of its own side (a side
// keeps its seeds, South moves first), the game running; every distinct board once, in a fixed order.
std::vector<Position> moved_seed_starts(const Variant& v, int moved);

// The position a line reaches: its start (the variant's, unless the line has its own), then its moves.
Position line_position(const Variant& v, const BookLine& line);

// A book line as text, the certificate in its comment:
//   3 1 4  # South +0; certificate: solve --position "4,0,5,5,5,5/1/4,4,4,4,4,4/0 n" gives +0
// (the margin of the side to move there; South's is the same or its negation).
std::string book_line_text(const Variant& v, const BookLine& line);

// One line of a checked book.
struct CheckedLine {
  int line_number = 0;
  std::string text;        // the line as written
  int claimed = 0;         // South's margin in the comment
  std::optional<int> got;  // South's exact margin, nullopt if the search was stopped
  std::string problem;     // the certificate does not describe this line (what it names instead); empty if it does
  bool ok() const { return problem.empty() && got && *got == claimed; }
};

// Re-solves every line of a book (the text of a file, `path` for messages) and compares South's exact margin
// with the one its comment claims (each search given `per_line` at most, if set); a certificate that names another
// position or value fails its line. A line the rules or the format reject, or a header whose certificates are for
// another variant, is an operator's mistake: an error "path:line:column: message". `on_line` hears of each line as
// it is checked.
Expected<std::vector<CheckedLine>> check_book(ExactSolver& solver, std::string_view text, std::string_view path,
                                              std::optional<std::chrono::milliseconds> per_line,
                                              const std::function<void(const CheckedLine&)>& on_line = {});

}  // namespace kalah::solver
