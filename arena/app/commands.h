// Subcommands of the `arena` executable. Operator mistakes are thrown as
// UsageError and reported once in main() with exit code 2.
#pragma once

#include <stdexcept>

#include <CLI/CLI.hpp>

namespace kalah::arena_app {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Exit code of the subcommand that ran (0 unless it says otherwise).
int& exit_code();

void add_run_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_stats_command(CLI::App& app);
void add_sprt_command(CLI::App& app);

}  // namespace kalah::arena_app
