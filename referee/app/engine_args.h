// `--engine cmd=PATH [name=N] [arg=A]... ...`: the engine syntax of `referee match` and `referee check`.
#pragma once

#include <string>
#include <vector>

#include "referee/app/cli.h"
#include "referee/engine/engine_spec.h"

namespace kalah::referee_app {

// The key=value words of one --engine option as an EngineSpec, its command found (PATH, the working
// directory) and its name defaulting to the command's file name; `comm_log` is every engine's --log.
// Throws cli::UsageError for an unknown key, a missing cmd=, a bad name or a command that is not found.
EngineSpec parse_engine(const std::vector<std::string>& tokens, const std::string& comm_log);

// True when the words name the engine (name=...), rather than leaving it to the command's file name (or,
// in `referee match`, to the name the engine announces).
bool names_given(const std::vector<std::string>& tokens);

// "build/bots/kalah-greedy --depth 3": the command as written and its arguments, for the output.
std::string command_text(const EngineSpec& e);

// The --engine option's help text.
inline constexpr const char* kEngineSyntax =
    "cmd=PATH name=NAME [arg=A]... [dir=D] [stderr=FILE] [protocol=kep|mankalah|kgp] [kgp_no_move=forfeit|random] "
    "[kgp_transport=tcp|websocket] [option.NAME=VALUE]...";

// The options the commands that run engines share, worded alike in each command's help.
// --engine WORDS...: required; `how_many` says how often it is given, in brackets after the syntax.
void add_engine_option(CLI::App* cmd, std::vector<std::vector<std::string>>& engines, const std::string& how_many);
// --startup-ms and --ping-ms: the deadlines of the engine's handshake.
void add_handshake_options(CLI::App* cmd, long long& startup_ms, long long& ping_ms);
// --log FILE: every line exchanged with `whom` ("the engine", "the engines").
void add_log_option(CLI::App* cmd, std::string& comm_log, const std::string& whom);

}  // namespace kalah::referee_app
