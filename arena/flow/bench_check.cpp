#include "arena/flow/bench_check.h"

#include <fmt/core.h>

#include "referee/engine/engine_player.h"

namespace kalah::arena {

Expected<BenchCounts> measure_benches(const Config& config) {
  BenchCounts counts;
  if (!config.sprt || !config.sprt->bench) return counts;
  const char* const roles[] = {"base", "test"};
  for (std::size_t i = 0; i < config.engines.size() && i < 2; ++i) {
    const EngineSpec& engine = config.engines[i];
    const std::string who = fmt::format("{}: engine '{}' ({})", config.source, engine.name, roles[i]);
    EnginePlayer player(config.engine_for_game(static_cast<int>(i), "bench"));
    if (std::optional<Fault> fault = player.start(std::chrono::milliseconds(config.time.startup_ms)))
      return Error{
          fmt::format("{} did not start to give its bench: {}: {}", who, to_string(fault->kind), fault->detail)};
    if (!player.has_feature("bench"))
      return Error{fmt::format(
          "{} did not announce 'feature bench' in its handshake, so its build cannot be checked by bench; run "
          "without --bench ([sprt] bench), or give it a bench (docs/PROTOCOL.md, \"Bench\")",
          who)};
    const EnginePlayer::BenchReply reply = player.bench(kBenchAllowed);
    if (reply.fault) {
      player.forfeited();
      return Error{fmt::format("{}: its bench failed: {}: {} (docs/PROTOCOL.md, \"Bench\")", who,
                               to_string(reply.fault->kind), reply.fault->detail)};
    }
    player.stop();
    const long long measured = reply.result->nodes;
    const std::optional<long long>& declared = i == 0 ? config.sprt->base_bench : config.sprt->test_bench;
    if (declared && *declared != measured)
      return Error{fmt::format(
          "{}: its bench is {} nodes, but {}_bench declares {}: this is not the build the test was meant for; "
          "nothing was played",
          who, measured, roles[i], *declared)};
    counts[engine.name] = measured;
  }
  return counts;
}

std::vector<std::string> changed_benches(const TournamentDescription& stored, const BenchCounts& now) {
  std::vector<std::string> lines;
  for (const auto& [name, count] : now) {
    const std::optional<long long> recorded = stored.engine(name).bench;
    if (!recorded || *recorded == count) continue;
    lines.push_back(
        fmt::format("engine '{}': its bench was {} nodes when the games in this folder were played, "
                    "and is {} now",
                    name, *recorded, count));
  }
  return lines;
}

}  // namespace kalah::arena
