// The per-game costs of writing reports from a journal (docs/PERFORMANCE.md, "Scale-out"): parsing
// a journal line, adding the game to the standings, and its games.pgn text, timed apart on lines
// like make-journal's (random Kalah(6,4) games with per-move time, depth, score and nodes).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "arena/rating/standings.h"
#include "arena/report/reporters.h"
#include "referee/record/record_json.h"
#include "referee/rules/position.h"

namespace {

using namespace kalah;

std::vector<std::string> journal_lines(int count) {
  std::mt19937_64 rng(7);
  std::vector<std::string> lines;
  for (int n = 0; n < count; ++n) {
    GameRecord g;
    g.id = "r1-" + std::to_string(n % 100) + "v" + std::to_string(n % 97) + "-p0-g0";
    g.south = "engine-" + std::to_string(n % 100);
    g.north = "engine-" + std::to_string((n + 1 + n % 7) % 100);
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
    lines.push_back(to_json_line(g));
  }
  return lines;
}

const std::vector<std::string>& lines() {
  static const std::vector<std::string> l = journal_lines(1000);
  return l;
}

void BM_ParseLine(benchmark::State& state) {
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(record_from_json(lines()[i++ % lines().size()]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseLine);

void BM_AddToStandings(benchmark::State& state) {
  std::vector<GameRecord> games;
  for (const std::string& l : lines()) games.push_back(record_from_json(l).value());
  rating::StandingsBuilder builder({});
  std::size_t i = 0;
  for (auto _ : state) builder.add(games[i++ % games.size()]);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AddToStandings);

void BM_PgnGame(benchmark::State& state) {
  std::vector<GameRecord> games;
  for (const std::string& l : lines()) games.push_back(record_from_json(l).value());
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(report::pgn_game(games[i++ % games.size()], "bench"));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PgnGame);

}  // namespace

BENCHMARK_MAIN();
