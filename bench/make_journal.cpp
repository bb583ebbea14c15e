// make-journal: a results folder with a synthetic journal of any size, for the report and merge
// benchmarks (docs/PERFORMANCE.md). Games are random legal Kalah(6,4) games between E engines in a
// round-robin order, each with a 2-ply opening and per-move time, depth, score and nodes, so a
// line is as long as a real one (~1.2 KB). Deterministic for a seed.
//
//   make-journal DIR --games N [--engines E] [--seed S] [--shards K]
//
// With --shards K the games are dealt to shards/I-of-K/ journals (pair k to shard k mod K + 1),
// as `arena run --shard` writes them.
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "arena/journal/meta.h"
#include "bench/synthetic_game.h"
#include "referee/record/record_json.h"

namespace fs = std::filesystem;
using namespace kalah;

int main(int argc, char** argv) {
  CLI::App app{"Writes a results folder with a synthetic journal (benchmarks)", "make-journal"};
  std::string dir;
  long long games = 0;
  int engines = 10;
  int shards = 0;
  std::uint64_t seed = 1;
  app.add_option("dir", dir, "The results folder to write (its journal is replaced)")->required();
  app.add_option("--games", games, "Games to write")->required()->check(CLI::Range(1LL, 100'000'000LL));
  app.add_option("--engines", engines, "Engines")->check(CLI::Range(2, 10'000));
  app.add_option("--seed", seed, "Random seed");
  app.add_option("--shards", shards, "Deal the games to this many shard journals")->check(CLI::Range(1, 10'000));
  CLI11_PARSE(app, argc, argv);

  std::vector<std::string> names;
  for (int e = 0; e < engines; ++e) names.push_back(fmt::format("engine-{:03}", e));
  journal::TournamentMeta meta;
  meta.fingerprint = fmt::format("make-journal engines={} seed={}", engines, seed);
  meta.engines = names;
  meta.settings["type"] = "round-robin";
  meta.created_at = "2026-12-03T12:00:00Z";

  const int parts = std::max(shards, 1);
  std::vector<std::ofstream> out;
  for (int i = 1; i <= parts; ++i) {
    const fs::path folder = shards > 0 ? fs::path(dir) / "shards" / fmt::format("{}-of-{}", i, shards) : fs::path(dir);
    fs::create_directories(folder);
    journal::TournamentMeta m = meta;
    if (shards > 0) m.shard = journal::ShardMeta{i, shards, 0};
    std::ofstream(folder / "tournament.json") << journal::meta_to_text(m);
    out.emplace_back(folder / "games.jsonl", std::ios::trunc);
  }
  std::mt19937_64 rng(seed);
  // Colour-swapped pairs over every pairing in turn.
  long long written = 0;
  for (long long pair = 0; written < games; ++pair) {
    const long long pairings = static_cast<long long>(engines) * (engines - 1) / 2;
    long long k = pair % pairings;
    int a = 0;
    while (k >= engines - 1 - a) k -= engines - 1 - a++;
    const int b = a + 1 + static_cast<int>(k);
    const int round = static_cast<int>(pair / pairings) + 1;
    for (int game = 0; game < 2 && written < games; ++game, ++written) {
      const int south = game == 0 ? a : b, north = game == 0 ? b : a;
      const std::string id = fmt::format("r{}-{}v{}-p{}-g{}", round, south, north, pair / pairings, game);
      out[static_cast<std::size_t>(pair % parts)]
          << to_json_line(bench::synthetic_game(rng, id, round, names[south], names[north])) << '\n';
    }
  }
  fmt::print("wrote {} games for {} engines into {}{}\n", written, engines, dir,
             shards > 0 ? fmt::format(" ({} shards)", shards) : "");
  return 0;
}
