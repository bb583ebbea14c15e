#include "bots/solver/certify.h"

#include <cstdlib>
#include <set>

#include "referee/rules/certificate.h"

namespace kalah::solver {

namespace {

// Every row of `pits` pits holding `pits * seeds` seeds in all with exactly `moved` seeds away from their
// pit (the excess over `seeds`, summed over the pits).
void rows_with_moved(int pits, int seeds, int moved, std::vector<int>& row, int excess, int deficit,
                     std::vector<std::vector<int>>& out) {
  const int i = static_cast<int>(row.size());
  if (i == pits) {
    if (excess == moved && deficit == moved) out.push_back(row);
    return;
  }
  for (int c = std::max(0, seeds - (moved - deficit)); c <= seeds + (moved - excess); ++c) {
    row.push_back(c);
    rows_with_moved(pits, seeds, moved, row, excess + std::max(0, c - seeds), deficit + std::max(0, seeds - c), out);
    row.pop_back();
  }
}

std::vector<std::vector<int>> rows(const Variant& v, int moved) {
  std::vector<std::vector<int>> out;
  std::vector<int> row;
  rows_with_moved(v.pits, v.seeds, moved, row, 0, 0, out);
  return out;
}

struct Word {
  std::string_view text;
  int column;  // 1-based
};

std::vector<Word> words_of(std::string_view line) {
  std::vector<Word> out;
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] == ' ' || line[i] == '\t') {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    out.push_back({line.substr(start, i - start), static_cast<int>(start) + 1});
  }
  return out;
}

// One line of a book, read as a BookLine with its claim, or an error "column: message".
Expected<CheckedLine> read_line(const Variant& v, std::string_view line, BookLine& out) {
  const std::size_t hash = line.find('#');
  const std::string_view body = line.substr(0, hash);
  const std::string_view comment = hash == std::string_view::npos ? std::string_view() : line.substr(hash);
  const std::vector<Word> words = words_of(body);
  CheckedLine checked;
  checked.text = std::string(line);
  std::size_t w = 0;
  out = BookLine{};
  if (!words.empty() && words[0].text.find('/') != std::string_view::npos) {
    if (words.size() < 3) return Error{std::to_string(words[0].column) + ": a start position takes three words"};
    const std::string start =
        std::string(words[0].text) + " " + std::string(words[1].text) + " " + std::string(words[2].text);
    const Expected<Position> p = parse_start(v, start);
    if (!p) return Error{std::to_string(words[0].column) + ": " + p.error()};
    out.start = *p;
    w = 3;
  }
  Position p = out.start ? *out.start : start_position(v);
  for (; w < words.size(); ++w) {
    const Expected<Move> m = parse_move(words[w].text);
    if (!m || !is_legal(v, p, *m))
      return Error{std::to_string(words[w].column) + ": '" + std::string(words[w].text) + "' is not a legal move"};
    apply(v, p, *m);
    if (p.over) return Error{std::to_string(words[w].column) + ": the game is over after this move"};
    out.moves.push_back(*m);
  }
  const std::optional<BookClaim> claim = parse_claim(comment);
  if (!claim)
    return Error{std::to_string(hash == std::string_view::npos ? line.size() + 1 : hash + 1) +
                 ": no certified value (a comment \"# South +N\")"};
  checked.claimed = claim->south;
  // A certificate that names another position, or another value there, is a false claim about this line.
  if (claim->position && !certificate_names(v, p, *claim))
    checked.problem = "the certificate names " + *claim->position + " (gives " +
                      (claim->mover ? std::to_string(*claim->mover) : std::string("?")) + "), the line reaches " +
                      to_notation(v, p);
  out.south_margin = claim->south;
  return checked;
}

}  // namespace

std::vector<Position> moved_seed_starts(const Variant& v, int moved) {
  std::vector<Position> out;
  std::set<std::string> seen;
  for (int south_moved = 0; south_moved <= moved; ++south_moved) {
    const auto south = rows(v, south_moved);
    const auto north = rows(v, moved - south_moved);
    for (const auto& s : south)
      for (const auto& n : north) {
        std::string text;
        for (int i = 0; i < v.pits; ++i) text += (i ? "," : "") + std::to_string(s[i]);
        text += "/";
        for (int i = 0; i < v.pits; ++i) text += (i ? "," : "") + std::to_string(n[i]);
        text += " 0-0 S";
        const Expected<Position> p = parse_start(v, text);
        if (p && seen.insert(text).second) out.push_back(*p);
      }
  }
  return out;
}

Position line_position(const Variant& v, const BookLine& line) {
  Position p = line.start ? *line.start : start_position(v);
  for (Move m : line.moves) apply(v, p, m);
  return p;
}

std::string book_line_text(const Variant& v, const BookLine& line) {
  std::string text = line.start ? to_start_notation(v, *line.start) : std::string();
  for (Move m : line.moves) text += (text.empty() ? "" : " ") + to_string(m);
  return text + "  " + claim_comment(v, line_position(v, line), line.south_margin);
}

Expected<std::vector<CheckedLine>> check_book(ExactSolver& solver, std::string_view text, std::string_view path,
                                              std::optional<std::chrono::milliseconds> per_line,
                                              const std::function<void(const CheckedLine&)>& on_line) {
  const Variant& v = solver.variant();
  std::vector<CheckedLine> out;
  int number = 0;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    ++number;
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (const std::optional<std::string> named = certificate_variant(line)) {
      // Claims proved for another variant say nothing about this one.
      const Expected<Variant> theirs = parse_variant(*named);
      if (!theirs || to_string(*theirs) != to_string(v))
        return Error{std::string(path) + ":" + std::to_string(number) + ":1: the book's certificates are for \"" +
                     *named + "\", not \"" + to_string(v) + "\" (--variant)"};
    }
    if (first == std::string_view::npos || line[first] == '#') continue;
    BookLine book_line;
    Expected<CheckedLine> checked = read_line(v, line, book_line);
    if (!checked) return Error{std::string(path) + ":" + std::to_string(number) + ":" + checked.error()};
    CheckedLine result = *checked;
    result.line_number = number;
    const Position p = line_position(v, book_line);
    SolveLimits limits;
    if (per_line) limits.deadline = std::chrono::steady_clock::now() + *per_line;
    if (const std::optional<int> margin = solver.value(p, limits))
      result.got = p.to_move == Side::South ? *margin : -*margin;
    out.push_back(result);
    if (on_line) on_line(out.back());
  }
  return out;
}

}  // namespace kalah::solver
