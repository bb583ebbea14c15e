#include "arena/flow/bench_check.h"

#include <charconv>

#include <fmt/core.h>

#include "referee/engine/engine_player.h"

namespace kalah::arena {

std::string bench_key(const std::string& engine) { return "engine." + engine + ".bench"; }

std::optional<long long> recorded_bench(const std::map<std::string, std::string>& settings, const std::string& name) {
  const auto it = settings.find(bench_key(name));
  if (it == settings.end()) return std::nullopt;
  long long count = 0;
  const std::string& text = it->second;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), count);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return count;
}

Expected<std::map<std::string, std::string>> measure_benches(const Config& config) {
  std::map<std::string, std::string> counts;
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
    counts[bench_key(engine.name)] = std::to_string(measured);
  }
  return counts;
}

std::vector<std::string> changed_benches(const std::map<std::string, std::string>& stored,
                                         const std::map<std::string, std::string>& now) {
  std::vector<std::string> lines;
  for (const auto& [key, count] : now) {
    const auto it = stored.find(key);
    if (it == stored.end() || it->second == count) continue;
    const std::string name = key.substr(7, key.size() - 7 - 6);  // "engine." <name> ".bench"
    lines.push_back(
        fmt::format("engine '{}': its bench was {} nodes when the games in this folder were played, "
                    "and is {} now",
                    name, it->second, count));
  }
  return lines;
}

}  // namespace kalah::arena
