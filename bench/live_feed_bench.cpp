// What `arena serve` spends on a ply it reads (docs/PERFORMANCE.md, "Live plies"): a worker's live file written by
// the arena's own publisher (40 games of 100 plies, 4,000 plies, no restart of the file), then read by a new
// LiveFeed as a server reads it, every ply turned into its SSE event. CPU time per ply (items: plies), without the
// inotify wake-up and the client's socket write, which come once per batch of plies and not once per ply.
#include <benchmark/benchmark.h>

#include <string>

#include "arena/runner/live_file.h"
#include "arena/serve/live_feed.h"
#include "referee/system/temp_folder.h"

namespace {

using namespace kalah;

constexpr int kGames = 40;
constexpr int kPlies = 100;

void write_live_file(const std::filesystem::path& dir) {
  arena::live::Publisher publisher(dir, std::nullopt, 0, std::chrono::milliseconds(0));
  for (int g = 0; g < kGames; ++g) {
    GameRecord record;
    record.id = "r1-g" + std::to_string(g);
    record.south = "alphabeta-depth-6";
    record.north = "mcts-1000";
    publisher.start(record.id, record.south, record.north);
    for (int i = 0; i < kPlies; ++i) {
      record.moves.push_back(Move::at(i % 6 + 1));
      record.move_info.push_back({});
      record.move_info.back().time_ms = 12.5 + i;
      publisher.ply(record, i % 2, {60000.0 - 12.5 * i, 59000.0 - 11.25 * i});
    }
    publisher.end(true);
  }
}

void BM_LiveFeedReadsPlies(benchmark::State& state) {
  const system::TempFolder dir("live-feed-bench");
  write_live_file(dir.path());
  std::size_t events = 0;
  for (auto _ : state) {
    serve::LiveFeed feed(dir.path(), 1);
    events = feed.look_live().size();  // what start() does after the journals, with the events kept
    benchmark::DoNotOptimize(events);
  }
  state.SetItemsProcessed(state.iterations() * kGames * kPlies);
  state.counters["events"] = static_cast<double>(events);
}
BENCHMARK(BM_LiveFeedReadsPlies)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
