#include <chrono>

#include <fmt/core.h>

#include "referee/app/commands.h"
#include "referee/rules/perft.h"

namespace kalah::referee_app {

using cli::UsageError;

namespace {

struct PerftOptions {
  std::string variant;
  std::string start;
  int depth = 6;
  bool timing = false;
};

int run_perft(const PerftOptions& o) {
  Expected<Variant> variant = parse_variant(o.variant);
  if (!variant) throw UsageError(variant.error());
  const Position start = parse_start_option(*variant, o.start).value_or(start_position(*variant));
  for (int d = 1; d <= o.depth; ++d) {
    auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t count = perft(*variant, start, d);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (o.timing)
      fmt::print("{} {} {:.3f}s {:.1f}M/s\n", d, count, seconds, seconds > 0 ? count / seconds / 1e6 : 0.0);
    else
      fmt::print("{} {}\n", d, count);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

void add_perft_command(cli::Commands& commands) {
  auto [cmd, opts] = commands.add<PerftOptions>(
      "perft", "Count move paths from the start, one line '<depth> <count>' per depth", run_perft);
  cmd->add_option("--variant", opts->variant, "Variant tokens, e.g. \"pits=6 seeds=4 capture=empty\"");
  add_start_option(cmd, opts->start);
  cmd->add_option("--depth", opts->depth, "Deepest depth to count")->check(CLI::Range(0, 24));
  cmd->add_flag("--time", opts->timing, "Also print the time and leaves per second of each depth");
}

}  // namespace kalah::referee_app
