#include "referee/app/engine_args.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "referee/engine/kgp_engine.h"
#include "referee/kgp/address.h"
#include "referee/rules/spelling.h"
#include "referee/system/executable.h"

namespace kalah::referee_app {

using cli::UsageError;

bool names_given(const std::vector<std::string>& tokens) {
  return std::any_of(tokens.begin(), tokens.end(), [](const std::string& t) { return t.rfind("name=", 0) == 0; });
}

std::string command_text(const EngineSpec& e) {
  std::string text = e.cmd_as_written;
  for (const std::string& a : e.args) text += " " + a;
  return text;
}

EngineSpec parse_engine(const std::vector<std::string>& tokens, const std::string& comm_log) {
  EngineSpec e;
  bool kgp = false;
  std::optional<KgpNoMove> no_move;
  std::optional<KgpTransport> transport;
  for (const std::string& token : tokens) {
    const size_t eq = token.find('=');
    if (eq == std::string::npos) throw UsageError("--engine: '" + token + "' is not key=value");
    const std::string key = token.substr(0, eq);
    const std::string value = token.substr(eq + 1);
    if (key == "cmd")
      e.cmd_as_written = value;
    else if (key == "name")
      e.name = value;
    else if (key == "arg")
      e.args.push_back(value);
    else if (key == "dir")
      e.dir = value;
    else if (key == "stderr")
      e.stderr_file = value;
    else if (key == "protocol" && parse_protocol(value))
      e.protocol = *parse_protocol(value);
    else if (key == "protocol" && value == kKgpProtocol)
      kgp = true;
    else if (key == "kgp_no_move" && (value == "forfeit" || value == "random"))
      no_move = value == "random" ? KgpNoMove::Random : KgpNoMove::Forfeit;
    else if (key == "kgp_transport" && (value == "tcp" || value == "websocket"))
      transport = value == "websocket" ? KgpTransport::WebSocket : KgpTransport::Tcp;
    else if (key.rfind("option.", 0) == 0 && key.size() > 7)
      e.options.push_back({key.substr(7), value});
    else
      throw UsageError(
          "--engine: unknown key '" + key + "'" +
          did_you_mean(key, {"cmd", "name", "arg", "dir", "stderr", "protocol", "kgp_no_move", "kgp_transport"}) +
          " (known: cmd, name, arg, dir, stderr, protocol=kep|mankalah|kgp, kgp_no_move=forfeit|random, "
          "kgp_transport=tcp|websocket, option.NAME)");
  }
  if (e.cmd_as_written.empty()) throw UsageError("--engine: cmd=PATH is required");
  if (e.name.empty()) e.name = std::filesystem::path(e.cmd_as_written).filename().string();
  if (!valid_engine_name(e.name))
    throw UsageError("--engine: name '" + e.name.substr(0, 80) + "' is not usable: " + kEngineNameRule);
  Expected<std::filesystem::path> found =
      system::find_executable(e.cmd_as_written, system::path_variable(), std::filesystem::current_path());
  if (!found) {
    // A bundled bot by its name ("kalah-greedy"), as the arena finds it.
    std::vector<std::string> tried;
    const std::optional<std::filesystem::path> bot = system::find_bundled_bot(e.cmd_as_written, tried);
    if (!bot) {
      std::string places;
      for (const std::string& t : tried) places += ", " + t;
      throw UsageError("engine '" + e.name + "': " + found.error() +
                       (tried.empty() ? "" : " (nor " + places.substr(2) + ")"));
    }
    found = *bot;
  }
  e.cmd = *found;
  e.comm_log = comm_log;
  if (no_move && !kgp) throw UsageError("--engine: kgp_no_move applies to protocol=kgp only");
  if (transport && !kgp) throw UsageError("--engine: kgp_transport applies to protocol=kgp only");
  const bool websocket = transport == KgpTransport::WebSocket;
  // `{kgp_host}` and `{kgp_port}` name a KGP agent's server (docs/KGP.md): as the config's checks say.
  for (std::size_t i = 0; i < e.args.size(); ++i) {
    const std::string& arg = e.args[i];
    if (std::optional<std::string> problem = kgp::address_placeholder_problem(arg))
      throw UsageError("--engine: arg=" + arg + ": " + *problem);
    if (!kgp && kgp::names_server_address(arg) && !kgp::after_kgp_host(e.args, i))
      throw UsageError("--engine: arg=" + arg +
                       ": {kgp_host}, {kgp_port} and {kgp_url} name the server of a KGP agent (protocol=kgp)");
    if (kgp && !websocket && kgp::names_server_url(arg))
      throw UsageError("--engine: arg=" + arg +
                       ": {kgp_url} is the URL of a server over a WebSocket (kgp_transport=websocket)");
  }
  if (kgp) {
    // A KGP agent runs through `referee kgp-host` (docs/KGP.md).
    Expected<std::filesystem::path> host = find_kgp_host();
    if (!host) throw UsageError("engine '" + e.name + "': " + host.error());
    e = kgp_host_engine(std::move(e), *host, no_move.value_or(KgpNoMove::Forfeit),
                        transport.value_or(KgpTransport::Tcp));
  }
  return e;
}

void add_engine_option(CLI::App* cmd, std::vector<std::vector<std::string>>& engines, const std::string& how_many) {
  cmd->add_option("--engine", engines, std::string(kEngineSyntax) + " (" + how_many + ")")
      ->required()
      ->allow_extra_args(false);
}

void add_handshake_options(CLI::App* cmd, long long& startup_ms, long long& ping_ms) {
  cmd->add_option("--startup-ms", startup_ms, "Deadline from start to kepok")->check(CLI::Range(1LL, 600000LL));
  cmd->add_option("--ping-ms", ping_ms, "Deadline for readyok")->check(CLI::Range(1LL, 600000LL));
}

void add_log_option(CLI::App* cmd, std::string& comm_log, const std::string& whom) {
  cmd->add_option("--log", comm_log, "Append every line exchanged with " + whom + " to this file");
}

}  // namespace kalah::referee_app
