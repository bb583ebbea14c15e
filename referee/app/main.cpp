// The `referee` executable: the rules from the command line, matches between two engines, and an engine's
// conformance check.
#include "referee/app/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"Kalah referee: rules tools and matches between engines", "referee"};
  kalah::cli::Commands commands(app);
  kalah::referee_app::add_perft_command(commands);
  kalah::referee_app::add_replay_command(commands);
  kalah::referee_app::add_match_command(commands);
  kalah::referee_app::add_check_command(commands);
  kalah::referee_app::add_replay_transcript_command(commands);
  kalah::referee_app::add_suite_command(commands);
  kalah::referee_app::add_kgp_client_command(commands);
  kalah::referee_app::add_kgp_server_command(commands);
  kalah::referee_app::add_kgp_host_command(commands);
  return commands.main(argc, argv);
}
