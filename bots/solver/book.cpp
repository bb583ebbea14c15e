#include "bots/solver/book.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <unordered_set>

#include "bots/solver/certify.h"

namespace kalah::solver {

namespace {

// A 64-bit hash of the whole position: a 10-ply walk of Kalah(6,4) meets 12
// million distinct positions, whose notation texts would take gigabytes. A
// collision (odds about 1 in 250,000 there) would only drop one candidate.
std::uint64_t key_of(const Variant& v, const Position& p) {
  std::string key;
  key.reserve(static_cast<std::size_t>(v.cells()) + 2);
  for (int i = 0; i < v.cells(); ++i) {
    key += static_cast<char>(p.cells[i] & 0xff);
    key += static_cast<char>(p.cells[i] >> 8);
  }
  key += static_cast<char>(p.to_move);
  key += static_cast<char>(static_cast<int>(p.pie) | (p.swapped ? 4 : 0));
  return std::hash<std::string>{}(key);
}

void walk(const Variant& v, const Position& p, int plies_left, std::vector<Move>& line,
          std::unordered_set<std::uint64_t>& seen, std::vector<std::vector<Move>>& out) {
  if (plies_left == 0) {
    if (seen.insert(key_of(v, p)).second) out.push_back(line);
    return;
  }
  for (Move m : legal_moves(v, p)) {
    if (m.is_swap()) continue;
    const Position next = after(v, p, m);
    if (next.over) continue;
    line.push_back(m);
    walk(v, next, plies_left - 1, line, seen, out);
    line.pop_back();
  }
}

}  // namespace

std::vector<std::vector<Move>> distinct_openings(const Variant& v, int plies) {
  std::vector<std::vector<Move>> out;
  std::unordered_set<std::uint64_t> seen;
  std::vector<Move> line;
  walk(v, start_position(v), plies, line, seen, out);
  return out;
}

std::vector<BookLine> make_book(ExactSolver& solver, const BookOptions& o, BookStats& stats,
                                const std::function<void(const BookLine&)>& on_line) {
  const Variant& v = solver.variant();
  std::vector<BookLine> candidates;
  if (o.starts > 0) {
    for (const Position& p : moved_seed_starts(v, o.starts)) candidates.push_back({p, {}, 0});
  } else {
    for (std::vector<Move>& moves : distinct_openings(v, o.plies)) candidates.push_back({std::nullopt, moves, 0});
  }
  stats = {};
  stats.candidates = candidates.size();
  std::mt19937_64 rng(o.seed);
  std::shuffle(candidates.begin(), candidates.end(), rng);
  std::vector<BookLine> book;
  for (BookLine& line : candidates) {
    if (static_cast<int>(book.size()) >= o.count) break;
    const Position p = line_position(v, line);
    SolveLimits limits;
    if (o.per_position) limits.deadline = std::chrono::steady_clock::now() + *o.per_position;
    const std::optional<int> margin = solver.value(p, limits);
    if (!margin) {
      ++stats.skipped;
      continue;
    }
    ++stats.solved;
    line.south_margin = p.to_move == Side::South ? *margin : -*margin;
    if (std::abs(line.south_margin) > o.max_margin) continue;
    book.push_back(line);
    if (on_line) on_line(book.back());
  }
  return book;
}

}  // namespace kalah::solver
