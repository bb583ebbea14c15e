// The `arena` executable: tournaments from TOML configs, reports, statistics.
#include <cstdio>

#include <fmt/core.h>

#include "arena/app/commands.h"

namespace kalah::arena_app {
int& exit_code() {
  static int code = 0;
  return code;
}
}  // namespace kalah::arena_app

int main(int argc, char** argv) {
  using namespace kalah::arena_app;
  CLI::App app{"Kalah Arena: tournaments between Kalah engines", "arena"};
  app.footer(
      "Examples:\n"
      "  arena run configs/quick.toml                 play (or resume) a tournament\n"
      "  arena run configs/quick.toml --fresh         start over, moving old results aside\n"
      "  arena report results/quick                   rewrite standings, PGN and HTML from the journal\n"
      "  arena sprt --base OLD --test NEW --tc 10+0.1 play game pairs until the SPRT decides\n"
      "  arena stats --penta 10,100,200,120,15        Elo, LOS, nElo (and --sprt) from counts\n");
  app.require_subcommand(1);
  add_run_command(app);
  add_report_command(app);
  add_sprt_command(app);
  add_stats_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const UsageError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "arena: {}\n", e.what());
    return 2;
  }
  return exit_code();
}
