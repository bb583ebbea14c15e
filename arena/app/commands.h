// Subcommands of the `arena` executable: each reads its options, calls the library and returns
// its exit code. Operator mistakes are thrown as cli::UsageError (exit code 2).
#pragma once

#include "referee/app/cli.h"

namespace kalah::arena_app {

using cli::UsageError;

void add_run_command(cli::Commands& commands);
void add_report_command(cli::Commands& commands);
void add_sprt_command(cli::Commands& commands);
void add_stats_command(cli::Commands& commands);

}  // namespace kalah::arena_app
