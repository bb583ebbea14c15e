#include "arena/config/openings.h"

#include <algorithm>
#include <string>

#include "referee/rules/certificate.h"

namespace kalah::arena {
namespace {

std::string where(std::string_view path, int line, int column) {
  return std::string(path) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
}

std::string legal_list(const Variant& v, const Position& p) {
  std::string s;
  for (Move m : legal_moves(v, p)) s += (s.empty() ? "" : " ") + to_string(m);
  return s;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Whether a line's comment certifies that the position it reaches is an exact draw.
bool certifies_draw(const Variant& v, const Position& reached, std::string_view comment) {
  const std::optional<BookClaim> claim = parse_claim(comment);
  return claim && claim->south == 0 && certificate_names(v, reached, *claim);
}

}  // namespace

const char* to_string(BookFormat f) {
  switch (f) {
    case BookFormat::Auto: return "auto";
    case BookFormat::Moves: return "moves";
    case BookFormat::Positions: return "positions";
  }
  return "?";
}

Expected<std::vector<OpeningLine>> parse_book(std::string_view text, std::string_view path, const Variant& v,
                                              const Position& start, BookFormat format) {
  std::vector<OpeningLine> book;
  int line_number = 0;
  bool certified_here = false;  // a certificate header for this variant came before
  while (!text.empty()) {
    ++line_number;
    const size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    if (const std::optional<std::string> named = certificate_variant(line)) {
      const Expected<Variant> theirs = parse_variant(*named);
      certified_here = theirs && to_string(*theirs) == to_string(v);
    }
    std::string_view comment;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos) {
      comment = line.substr(hash);
      line = line.substr(0, hash);
    }

    OpeningLine opening;
    Position p = start;
    size_t i = 0;
    while (i < line.size() && is_blank(line[i])) ++i;
    // A position first: its three words, as parse_start() reads them.
    const size_t first_end = std::min(line.find_first_of(" \t\r", i), line.size());
    const bool has_position = line.substr(i, first_end - i).find('/') != std::string_view::npos;
    if (i < line.size() && format == BookFormat::Positions && !has_position)
      return Error{where(path, line_number, static_cast<int>(i) + 1) +
                   "expected a start position (openings.format = \"positions\"), e.g. " +
                   to_start_notation(v, start_position(v))};
    if (has_position && format == BookFormat::Moves)
      return Error{where(path, line_number, static_cast<int>(i) + 1) +
                   "a start position in a book of moves (openings.format = \"moves\")"};
    if (has_position) {
      size_t end = i;
      for (int word = 0; word < 3 && end < line.size(); ++word) {
        while (end < line.size() && is_blank(line[end])) ++end;
        while (end < line.size() && !is_blank(line[end])) ++end;
      }
      Expected<Position> position = parse_start(v, line.substr(i, end - i));
      if (!position) return Error{where(path, line_number, static_cast<int>(i) + 1) + position.error()};
      opening.start = p = *position;
      i = end;
    }
    while (i < line.size()) {
      while (i < line.size() && is_blank(line[i])) ++i;
      if (i == line.size()) break;
      size_t j = i;
      while (j < line.size() && !is_blank(line[j])) ++j;
      const std::string_view token = line.substr(i, j - i);
      const int column = static_cast<int>(i) + 1;
      auto move = parse_move(token);
      if (!move) return Error{where(path, line_number, column) + move.error()};
      // p is never over here: a move that ends the game is reported below.
      if (!is_legal(v, p, *move))
        return Error{where(path, line_number, column) + "move " + std::string(token) +
                     " is not legal here (legal: " + legal_list(v, p) + ")"};
      apply(v, p, *move);
      opening.moves.push_back(*move);
      if (p.over)
        return Error{where(path, line_number, column) + "the game ends with move " + std::string(token) +
                     "; an opening must leave the game running"};
      i = j;
    }
    opening.proven_draw = certified_here && certifies_draw(v, p, comment);
    if (opening.start || !opening.moves.empty()) book.push_back(std::move(opening));
  }
  return book;
}

}  // namespace kalah::arena
