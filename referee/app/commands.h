// Subcommands of the `referee` executable. Each adds itself to the CLI11 app;
// operator mistakes are thrown as UsageError and reported once in main().
#pragma once

#include <stdexcept>

#include <CLI/CLI.hpp>

namespace kalah::referee_app {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void add_perft_command(CLI::App& app);
void add_replay_command(CLI::App& app);
void add_match_command(CLI::App& app);

}  // namespace kalah::referee_app
