// Subcommands of the `referee` executable. Operator mistakes are thrown as cli::UsageError.
#pragma once

#include "referee/app/cli.h"

namespace kalah::referee_app {

void add_perft_command(cli::Commands& commands);
void add_replay_command(cli::Commands& commands);
void add_match_command(cli::Commands& commands);

}  // namespace kalah::referee_app
