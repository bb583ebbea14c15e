// The `arena` executable: tournaments from TOML configs, reports, statistics.
#include "arena/app/commands.h"
#include "referee/process/engine_process.h"

int main(int argc, char** argv) {
  // From the first process the arena starts (the sandbox probe at config load included): what an engine
  // leaves behind comes to the arena to be reaped, not to init (docs/PROCESSES.md).
  kalah::process::become_subreaper();
  CLI::App app{"Kalah Arena: tournaments between Kalah engines", "arena"};
  app.footer(
      "Examples:\n"
      "  arena run configs/quick.toml                 play (or resume) a tournament\n"
      "  arena run configs/quick.toml --fresh         start over, moving old results aside\n"
      "  arena report results/quick                   rewrite standings, PGN and HTML from the journal\n"
      "  arena run configs/quick.toml --shard 2/4     play only shard 2 of 4 (merge: arena report)\n"
      "  arena slurm configs/quick.toml --shards 4    a Slurm job array of 4 shards and its merge job\n"
      "  arena sprt --base OLD --test NEW --tc 10+0.1 play game pairs until the SPRT decides\n"
      "  arena stats --penta 10,100,200,120,15        Elo, LOS, nElo (and --sprt) from counts\n");
  kalah::cli::Commands commands(app);
  kalah::arena_app::add_run_command(commands);
  kalah::arena_app::add_match_command(commands);
  kalah::arena_app::add_report_command(commands);
  kalah::arena_app::add_plan_command(commands);
  kalah::arena_app::add_slurm_command(commands);
  kalah::arena_app::add_sprt_command(commands);
  kalah::arena_app::add_stats_command(commands);
  kalah::arena_app::add_contest_command(commands);
  kalah::arena_app::add_verify_command(commands);
  kalah::arena_app::add_archive_command(commands);
  kalah::arena_app::add_analyse_command(commands);
  kalah::arena_app::add_serve_command(commands);
  kalah::arena_app::add_season_command(commands);
  return commands.main(argc, argv);
}
