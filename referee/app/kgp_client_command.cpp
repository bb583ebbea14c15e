// `referee kgp-client`: a KEP engine plays freeplay on a KGP server (docs/KGP.md).
#include <charconv>
#include <cstdio>
#include <optional>
#include <tuple>

#include <fmt/core.h>

#include "referee/app/commands.h"
#include "referee/app/engine_args.h"
#include "referee/engine/engine_player.h"
#include "referee/kgp/address.h"
#include "referee/kgp/client.h"
#include "referee/process/engine_process.h"

namespace kalah::referee_app {

using cli::UsageError;

namespace {

struct KgpClientOptions {
  std::string server;
  std::string ca_file;
  std::string token;
  std::vector<std::vector<std::string>> engines;
  std::string rules = "majority=on";
  std::string name;
  std::string authors;
  long long default_ms = 1000;
  long long margin_ms = 300;
  long long startup_ms = TimeControl{}.startup_ms;
  long long ping_ms = TimeControl{}.ping_ms;
  std::string comm_log;
};

// "HOST:PORT" (the host may be a name, an IPv4 address or [an IPv6 one]).
std::pair<std::string, std::uint16_t> host_and_port(const std::string& text) {
  const std::size_t colon = text.rfind(':');
  unsigned port = 0;
  const char* first = text.data() + (colon == std::string::npos ? 0 : colon + 1);
  const char* last = text.data() + text.size();
  const auto [end, ec] = std::from_chars(first, last, port);
  if (colon == std::string::npos || colon == 0 || ec != std::errc() || end != last || port < 1 || port > 65535)
    throw UsageError("--server: '" + text + "' is not HOST:PORT (e.g. localhost:2671)");
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return {host, static_cast<std::uint16_t>(port)};
}

// The server of --server: HOST:PORT over TCP, or a ws:// or wss:// URL (and for wss:// what to trust).
struct Server {
  std::optional<kgp::WebSocketUrl> websocket;
  kgp::TlsTrust trust;
  std::string host;
  std::uint16_t port = 0;
  std::string text() const { return websocket ? to_string(*websocket) : host + ":" + std::to_string(port); }
};

Server server_of(const std::string& text, const std::string& ca_file) {
  Server server;
  const char* no_certificate = "--ca-file: only a wss:// server has a certificate to verify";
  if (!kgp::is_websocket_url(text)) {
    if (!ca_file.empty()) throw UsageError(no_certificate);
    std::tie(server.host, server.port) = host_and_port(text);
    return server;
  }
  Expected<kgp::WebSocketUrl> url = kgp::parse_websocket_url(text);
  if (!url) throw UsageError("--server: " + url.error());
  if (!ca_file.empty() && !url->secure) throw UsageError(no_certificate);
  server.trust.ca_file = ca_file;
  server.websocket = *url;
  server.host = url->host;
  server.port = url->port;
  return server;
}

Expected<kgp::LineSocket> connect_to(const Server& server, kgp::Deadline deadline) {
  if (server.websocket) return kgp::LineSocket::connect_websocket(*server.websocket, deadline, server.trust);
  return kgp::LineSocket::connect(server.host, server.port, deadline);
}

kgp::ClientSettings settings_of(const KgpClientOptions& o) {
  kgp::ClientSettings s;
  Expected<Variant> rules = parse_variant(o.rules);
  if (!rules) throw UsageError("--rules: " + rules.error());
  if (rules->pie) throw UsageError("--rules: KGP has no pie rule (no swap move): leave out pie=on");
  s.rules = *rules;
  if (!o.token.empty()) s.token = o.token;
  s.default_move = std::chrono::milliseconds(o.default_ms);
  s.margin = std::chrono::milliseconds(o.margin_ms);
  s.startup = std::chrono::milliseconds(o.startup_ms);
  s.ping = std::chrono::milliseconds(o.ping_ms);
  return s;
}

int run_kgp_client(const KgpClientOptions& o) {
  const Server server = server_of(o.server, o.ca_file);
  kgp::ClientSettings settings = settings_of(o);
  if (o.engines.size() != 1) throw UsageError("--engine: give exactly one engine");
  EngineSpec spec = parse_engine(o.engines.front(), o.comm_log);
  if (spec.protocol != Protocol::Kep) throw UsageError("--engine: kgp-client plays KEP engines (protocol=kep)");
  process::become_subreaper();
  EnginePlayer player(spec);
  if (std::optional<Fault> f = player.start(settings.startup)) {
    fmt::print(stderr, "referee kgp-client: engine '{}' did not start: {}\n", spec.name, f->detail);
    return 1;
  }
  settings.name = !o.name.empty() ? o.name : !player.engine_id_name().empty() ? player.engine_id_name() : spec.name;
  settings.authors = !o.authors.empty() ? o.authors : player.engine_id_author();
  Expected<kgp::LineSocket> socket = connect_to(server, std::chrono::steady_clock::now() + settings.startup);
  if (!socket) {
    fmt::print(stderr, "referee kgp-client: {}\n", socket.error());
    return 1;
  }
  fmt::print("kgp-client: '{}' ({}) on {} as '{}'\n", spec.name, command_text(spec), server.text(), settings.name);
  std::fflush(stdout);
  kgp::LineSocket connection = std::move(socket).value();
  const kgp::ClientReport r = kgp::play_on_server(connection, player, settings, [](std::string_view line) {
    fmt::print("{}\n", line);
    std::fflush(stdout);
  });
  fmt::print("kgp-client: {} states, {} moves, {} pings answered, {} without a move; the connection ended: {}\n",
             r.states, r.moves, r.pings, r.faults, r.end);
  return r.ok && r.faults == 0 ? 0 : 1;
}

}  // namespace

void add_kgp_client_command(cli::Commands& commands) {
  auto [cmd, o] = commands.add<KgpClientOptions>(
      "kgp-client", "Play freeplay on a KGP server (the Kalah Game Protocol) with a KEP engine", run_kgp_client);
  cmd->add_option("--server", o->server,
                  "The KGP server: HOST:PORT (TCP), ws://HOST[:PORT][/PATH] (a WebSocket) or wss://... (over TLS)")
      ->required();
  cmd->add_option("--ca-file", o->ca_file,
                  "For wss://: trust the certificates of this PEM file, not the system's store")
      ->check(CLI::ExistingFile);
  cmd->add_option("--token", o->token, "Sent as set auth:token: the server knows the agent again by it")
      ->check(cli::non_empty());
  add_engine_option(cmd, o->engines, "once");
  cmd->add_option("--rules", o->rules,
                  "The rule keys the server plays by, as in --variant (pits and seeds come from each board; "
                  "default \"majority=on\", the course server's)");
  cmd->add_option("--name", o->name, "Sent as set info:name (default: the engine's id name)");
  cmd->add_option("--authors", o->authors, "Sent as set info:authors (default: the engine's id author)");
  cmd->add_option("--default-ms", o->default_ms, "Move time when the server sets no time:clock, ms")
      ->check(CLI::Range(10LL, 3600000LL));
  cmd->add_option("--margin-ms", o->margin_ms, "Kept back from the server's time:clock, ms")
      ->check(CLI::Range(0LL, 600000LL));
  add_handshake_options(cmd, o->startup_ms, o->ping_ms);
  add_log_option(cmd, o->comm_log, "the engine");
  cmd->footer(
      "Exit code: 0 the server said goodbye (or closed after playing) and every state got a move, 1 otherwise,\n"
      "2 a usage error.\n"
      "Example:\n"
      "  referee kgp-client --server localhost:2671 --engine cmd=kalah-alphabeta\n"
      "  referee kgp-client --server ws://localhost:8080/socket --engine cmd=kalah-alphabeta\n"
      "  referee kgp-client --server wss://kalah.example.org/socket --engine cmd=kalah-alphabeta\n");
}

}  // namespace kalah::referee_app
