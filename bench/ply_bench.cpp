// Wall time per ply of games between two instant-reply engines (concurrency 1),
// and the raw floor: a short line each way through pipes between two
// processes. Usage: ply_bench [games] [ping-pong round trips]
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

#include <fmt/core.h>

#include "bench/ping_pong.h"
#include "referee/engine/engine_player.h"
#include "referee/game/game.h"

namespace {

using Clock = std::chrono::steady_clock;

struct PlyResult {
  double us_per_ply;
  long long plies;
};

PlyResult referee_us_per_ply(const char* engine, int games) {
  kalah::EngineSpec config;
  config.cmd = engine;
  config.name = "instant-a";
  kalah::EnginePlayer a(config);
  config.name = "instant-b";
  kalah::EnginePlayer b(config);
  kalah::GameSettings s;
  s.time.base_ms = 60000;
  s.time.inc_ms = 0;
  // Warm up: start both engines outside the measurement.
  kalah::play_game(a, b, s);
  long long plies = 0;
  const auto t0 = Clock::now();
  for (int g = 0; g < games; ++g) {
    const kalah::GameRecord r = g % 2 ? kalah::play_game(b, a, s) : kalah::play_game(a, b, s);
    if (r.forfeit) {
      fmt::print(stderr, "unexpected forfeit: {}\n", r.forfeit->detail);
      std::exit(1);
    }
    plies += static_cast<long long>(r.moves.size());
  }
  const auto t1 = Clock::now();
  return {std::chrono::duration<double, std::micro>(t1 - t0).count() / static_cast<double>(plies), plies};
}

}  // namespace

int main(int argc, char** argv) {
  const int games = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int trips = argc > 2 ? std::atoi(argv[2]) : 200000;
  // instant_engine always plays its first non-empty pit (10-ply games);
  // kalah-random is a bundled bot on the shared bot loop (random, ~40-ply games).
  const char* engines[] = {KALAH_BINARY_DIR "/tests/engines/instant_engine", KALAH_BINARY_DIR "/bots/kalah-random"};
  std::vector<double> pings, plies[2];
  long long ply_count[2] = {0, 0};
  for (int run = 0; run < 3; ++run) {
    pings.push_back(kalah::bench::ping_pong_us(trips));
    for (int e = 0; e < 2; ++e) {
      const PlyResult r = referee_us_per_ply(engines[e], games);
      plies[e].push_back(r.us_per_ply);
      ply_count[e] = r.plies;
    }
  }
  const double ping = *std::min_element(pings.begin(), pings.end());
  fmt::print("raw pipe ping-pong:            {:7.2f} us per round trip (best of 3 x {} trips)\n", ping, trips);
  for (int e = 0; e < 2; ++e) {
    const double ply = *std::min_element(plies[e].begin(), plies[e].end());
    fmt::print("referee vs {:<20} {:7.2f} us per ply (best of 3 x {} games, {} plies) = {:.2f}x ping-pong\n",
               e == 0 ? "instant_engine:" : "kalah-random:", ply, games, ply_count[e], ply / ping);
  }
  return 0;
}
