// The per-game costs of writing reports from a journal (docs/PERFORMANCE.md, "Scale-out"): parsing
// a journal line, adding the game to the standings, and its games.pgn text, timed apart on lines
// like make-journal's (random Kalah(6,4) games with per-move time, depth, score and nodes).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "arena/rating/standings.h"
#include "arena/report/reporters.h"
#include "bench/synthetic_game.h"
#include "referee/record/record_json.h"

namespace {

using namespace kalah;

std::vector<std::string> journal_lines(int count) {
  std::mt19937_64 rng(7);
  std::vector<std::string> lines;
  for (int n = 0; n < count; ++n)
    lines.push_back(to_json_line(
        bench::synthetic_game(rng, "r1-" + std::to_string(n % 100) + "v" + std::to_string(n % 97) + "-p0-g0", 1,
                              "engine-" + std::to_string(n % 100), "engine-" + std::to_string((n + 1 + n % 7) % 100))));
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
