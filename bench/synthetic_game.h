// A random legal Kalah(6,4) game shaped like a real journal record (a 2-ply opening, then time,
// depth, score and nodes for every move), for the report benchmarks: make-journal and report_bench.
#pragma once

#include <random>
#include <string>

#include "referee/record/record.h"
#include "referee/rules/position.h"

namespace kalah::bench {

inline GameRecord synthetic_game(std::mt19937_64& rng, std::string id, int round, std::string south,
                                 std::string north) {
  GameRecord g;
  g.id = std::move(id);
  g.round = round;
  g.south = std::move(south);
  g.north = std::move(north);
  g.started_at = "2026-12-03T12:00:00Z";
  Position p = start_position(g.variant);
  while (!p.over) {
    const MoveList legal = legal_moves(g.variant, p);
    const Move m = legal.moves[std::uniform_int_distribution<int>(0, legal.size - 1)(rng)];
    if (g.moves.size() < 2) {
      g.opening.push_back(m);
    } else {
      MoveInfo info;
      info.time_ms = 0.1 * static_cast<double>(1 + rng() % 500);
      info.depth = static_cast<int>(4 + rng() % 10);
      info.score = static_cast<int>(rng() % 41) - 20;
      info.nodes = static_cast<long long>(rng() % 200000);
      g.move_info.push_back(info);
    }
    g.moves.push_back(m);
    apply(g.variant, p, m);
  }
  g.result = outcome(g.variant, p);
  g.store_south = store(g.variant, p, Side::South);
  g.store_north = store(g.variant, p, Side::North);
  g.duration_ms = 0.1 * static_cast<double>(g.moves.size() * (1 + rng() % 500));
  return g;
}

}  // namespace kalah::bench
