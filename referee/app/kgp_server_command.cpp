// `referee kgp-server`: the project's small KGP server (docs/KGP.md): games between pairs of KGP clients by
// our rules, each client moving as South on its turn, or the verify mode's rule checks of one client.
#include <cstdio>

#include <fmt/core.h>

#include "referee/app/commands.h"
#include "referee/kgp/host.h"

namespace kalah::referee_app {

using cli::UsageError;

namespace {

struct KgpServerOptions {
  std::string address = "127.0.0.1";
  int port = 2671;
  std::string variant = "majority=on";
  long long movetime = 5000;
  long long wait_ms = 60000;
  int games = 1;
  std::string no_move = "forfeit";
  int verify = 0;
  unsigned seed = 1;
  bool websocket = false;
};

std::string result_line(const GameRecord& r) {
  std::string line = fmt::format("game {}: {} (South) - {} (North) {} {}-{} ({})", r.id, r.south, r.north,
                                 to_string(r.result), r.store_south, r.store_north, to_string(r.termination));
  if (r.forfeit) line += fmt::format(": {} forfeits: {}", r.forfeit->engine, r.forfeit->detail);
  return line + fmt::format(", {} moves", r.moves.size());
}

int play_games(kgp::LineListener& listener, const KgpServerOptions& o, const Variant& v) {
  GameSettings settings;
  settings.variant = v;
  settings.time.mode = TimeControl::Mode::MoveTime;
  settings.time.movetime_ms = o.movetime;
  const kgp::NoMove no_move = o.no_move == "random" ? kgp::NoMove::Random : kgp::NoMove::Forfeit;
  for (int i = 1; i <= o.games; ++i) {
    settings.id = "kgp-" + std::to_string(i);
    Expected<kgp::HostedGame> hosted = host_game(listener, settings, std::chrono::milliseconds(o.wait_ms), no_move);
    if (!hosted) {
      fmt::print(stderr, "referee kgp-server: {}\n", hosted.error());
      return 1;
    }
    fmt::print("{}\n", result_line(hosted->record));
    std::fflush(stdout);
  }
  return 0;
}

int check_one(kgp::LineListener& listener, const KgpServerOptions& o, const Variant& v) {
  std::optional<kgp::LineSocket> socket =
      listener.accept(std::chrono::steady_clock::now() + std::chrono::milliseconds(o.wait_ms));
  if (!socket) {
    fmt::print(stderr, "referee kgp-server: no client within {} ms\n", o.wait_ms);
    return 1;
  }
  kgp::ServerSession session(std::move(*socket));
  const auto start = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  if (std::optional<Fault> f = session.handshake(start, {"verify"})) {
    fmt::print("verify: {}\n", f->detail);
    return 1;
  }
  const kgp::VerifyResult r = verify_client(session, v, o.verify, o.seed, std::chrono::milliseconds(o.movetime));
  session.goodbye(std::chrono::steady_clock::now() + std::chrono::seconds(1));
  if (r.fault)
    fmt::print("verify: {} of {} right, then: {}\n", r.passed, o.verify, r.fault->detail);
  else if (!r.wrong.empty())
    fmt::print("verify: {} of {} right, then: {}\n", r.passed, o.verify, r.wrong);
  else
    fmt::print("verify: {} of {} right\n", r.passed, o.verify);
  return r.passed == o.verify ? 0 : 1;
}

int run_kgp_server(const KgpServerOptions& o) {
  Expected<Variant> v = parse_variant(o.variant);
  if (!v) throw UsageError("--variant: " + v.error());
  if (v->pie) throw UsageError("--variant: KGP has no pie rule (no swap move): leave out pie=on");
  if (o.no_move != "forfeit" && o.no_move != "random")
    throw UsageError("--no-move: '" + o.no_move + "' is neither forfeit nor random");
  const kgp::Transport transport = o.websocket ? kgp::Transport::WebSocket : kgp::Transport::Tcp;
  Expected<kgp::LineListener> listener =
      kgp::LineListener::listen(o.address, static_cast<std::uint16_t>(o.port), transport);
  if (!listener) throw UsageError("--listen: " + listener.error());
  kgp::LineListener listening = std::move(listener).value();
  const std::string where = o.address.find(':') != std::string::npos ? "[" + o.address + "]" : o.address;
  fmt::print("kgp-server: listening on {}{}:{}{}, {}\n", o.websocket ? "ws://" : "", where, listening.port(),
             o.websocket ? "/" : "",
             o.verify > 0 ? fmt::format("{} verify problems for one client", o.verify)
                          : fmt::format("{} game(s) of {}, {} ms a move", o.games, to_string(*v), o.movetime));
  std::fflush(stdout);
  return o.verify > 0 ? check_one(listening, o, *v) : play_games(listening, o, *v);
}

}  // namespace

void add_kgp_server_command(cli::Commands& commands) {
  auto [cmd, o] = commands.add<KgpServerOptions>(
      "kgp-server", "A small KGP server: games between pairs of KGP clients by our rules, or rule checks",
      run_kgp_server);
  cmd->add_option("--address", o->address, "The address to listen on (default 127.0.0.1: this machine only)");
  cmd->add_option("--port", o->port, "The TCP port (default 2671, the course server's; 0: any free one)")
      ->check(CLI::Range(0, 65535));
  cmd->add_flag("--websocket", o->websocket,
                "Clients connect with a WebSocket (ws://ADDRESS:PORT/, any path), each line one text message");
  cmd->add_option("--variant", o->variant, "The rules, as `referee match --variant` (default \"majority=on\")");
  cmd->add_option("--movetime", o->movetime, "Time per move before stop, ms (sent as time:clock, rounded up)")
      ->check(CLI::Range(1LL, 3600000LL));
  cmd->add_option("--games", o->games, "Games to host one after the other, each between the next two clients")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--wait-ms", o->wait_ms, "How long to wait for the clients of a game")
      ->check(CLI::Range(1LL, 86400000LL));
  cmd->add_option("--no-move", o->no_move, "A turn without a move: forfeit (default) or random (the course server's)");
  cmd->add_option("--verify", o->verify, "Instead of games: this many rule checks (mode verify) of one client")
      ->check(CLI::Range(0, 10000000));
  cmd->add_option("--seed", o->seed, "Seed of the verify checks' random positions");
  cmd->footer(
      "Exit code: 0 every game was hosted (or every check passed), 1 otherwise, 2 a usage error.\n"
      "Example:\n"
      "  referee kgp-server --port 2671 --movetime 1000 &\n"
      "  referee kgp-client --server localhost:2671 --engine cmd=kalah-greedy &\n"
      "  referee kgp-client --server localhost:2671 --engine cmd=kalah-alphabeta\n");
}

}  // namespace kalah::referee_app
