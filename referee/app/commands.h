// Subcommands of the `referee` executable. Operator mistakes are thrown as cli::UsageError.
#pragma once

#include <optional>
#include <string>

#include "referee/app/cli.h"
#include "referee/rules/position.h"

namespace kalah::referee_app {

// The position a `--start` option names (docs/RULES.md, "Start positions"), or none for an empty
// text; a bad one is a UsageError naming the option.
std::optional<Position> parse_start_option(const Variant& v, const std::string& text);
// Adds the `--start` option with its help text.
void add_start_option(CLI::App* command, std::string& text);

void add_perft_command(cli::Commands& commands);
void add_replay_command(cli::Commands& commands);
void add_match_command(cli::Commands& commands);
void add_check_command(cli::Commands& commands);
void add_replay_transcript_command(cli::Commands& commands);
void add_suite_command(cli::Commands& commands);
void add_kgp_client_command(cli::Commands& commands);
void add_kgp_server_command(cli::Commands& commands);
void add_kgp_host_command(cli::Commands& commands);

}  // namespace kalah::referee_app
