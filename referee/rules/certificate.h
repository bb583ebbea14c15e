// Certified book lines (docs/SOLVER.md, "Fair openings"). Each line of a book that `kalah-solver book` writes
// ends in a comment that claims South's exact margin under perfect play and names the position the line
// reaches with the margin of the side to move there, so that a reader re-checks it with `kalah-solver solve
// --position`; a header line names the variant the claims hold for:
//   # certificate: kalah-solver solve --variant "pits=6 seeds=4 capture=standard ..." --position "..." prints ...
//   3 1 4  # South 0; certificate: solve --position "4,0,5,5,5,5/1/4,4,4,4,4,4/0 n" gives 0
// The one place that writes and reads this text: the solver writes it and re-proves it (`book --check`), the
// arena reads it to say in its reports how many openings are proven draws.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "referee/rules/position.h"

namespace kalah {

// A line's claim: South's margin, and the certificate when the line has one.
struct BookClaim {
  int south = 0;
  std::optional<std::string> position;  // the position the line reaches, in to_notation()'s form
  std::optional<int> mover;             // the margin of the side to move there
};

// "# South 0; certificate: solve --position \"<reached>\" gives 0" (South's margin `south`).
std::string claim_comment(const Variant& v, const Position& reached, int south);

// The claim in a line's comment (the text from its '#'); nullopt without a "South N".
std::optional<BookClaim> parse_claim(std::string_view comment);

// Whether the claim carries a certificate that names `reached` and gives the side to move there South's margin,
// seen from that side. It says that the claim is about this line, not that it is true (`book --check` proves it).
bool certificate_names(const Variant& v, const Position& reached, const BookClaim& claim);

// The header line that names the variant of a book's certificates.
std::string certificate_header(const Variant& v);

// The variant text that such a header line names; nullopt for any other line.
std::optional<std::string> certificate_variant(std::string_view line);

}  // namespace kalah
