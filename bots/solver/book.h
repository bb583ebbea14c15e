// Balanced opening books from exact values: every distinct position a few
// plies from the start, in a seeded random order, solved exactly, kept when
// its margin under perfect play is small. With such a book a game is decided
// by the players' mistakes, not by the opening (docs/SOLVER.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "referee/rules/position.h"
#include "referee/solver/solver.h"

namespace kalah::solver {

struct BookOptions {
  int plies = 6;       // opening length
  int count = 100;     // lines wanted
  int max_margin = 0;  // keep |exact margin| <= this
  // > 0: candidates are start positions with this many seeds moved, each within its side
  // (moved_seed_starts in certify.h), instead of the openings of `plies` moves.
  int starts = 0;
  std::uint64_t seed = 1;
  // Give up on a position whose solve takes longer (it is skipped, not kept).
  std::optional<std::chrono::milliseconds> per_position;
};

struct BookLine {
  std::optional<Position> start;  // a start of its own, else the variant's
  std::vector<Move> moves;
  int south_margin;  // South's final store difference under perfect play
};

struct BookStats {
  std::size_t candidates = 0;  // distinct running positions at that many plies
  std::size_t solved = 0;
  std::size_t skipped = 0;  // over the time limit
};

// Every distinct position (first line that reaches it) `plies` pit moves from
// the start that leaves the game running, never a swap; in move order.
std::vector<std::vector<Move>> distinct_openings(const Variant& v, int plies);

// Solves candidates (openings, or starts with `options.starts`) in a seeded random order until `count` lines are kept
// or the candidates run out. on_line is called for every kept line.
std::vector<BookLine> make_book(ExactSolver& solver, const BookOptions& options, BookStats& stats,
                                const std::function<void(const BookLine&)>& on_line = {});

}  // namespace kalah::solver
