// `referee kgp-host -- AGENT ARGS...`: a KGP agent as a KEP engine (docs/KGP.md). The host listens on a free
// loopback port, starts the agent with KGP_HOST and KGP_PORT naming it, and `{kgp_host}` and `{kgp_port}` in
// its arguments replaced by the same (the Go client kgpc takes its server as an argument; inside an engine's sandbox
// that is the sandbox's own loopback: the agent still has no network), greets it, and then relays: KEP with the arena
// on stdin/stdout, KGP with the agent. The agent's stdout and stderr both go to the host's stderr, which the arena
// drains like any engine's, so a chatty agent never blocks a game.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <iostream>

#include <fmt/core.h>

#include "referee/app/commands.h"
#include "referee/kgp/address.h"
#include "referee/kgp/agent_connection.h"
#include "referee/kgp/agent_host.h"

namespace kalah::referee_app {

using cli::UsageError;

namespace {

struct KgpHostOptions {
  std::vector<std::string> agent;
  std::string no_move = "forfeit";
  long long startup_ms = 4000;
  long long margin_ms = 20;
};

// The agent's process: started with the host's environment and KGP_HOST/KGP_PORT (and the placeholders of
// its arguments replaced), its stdin on /dev/null,
// its stdout and stderr on the host's stderr. Killed and reaped when the host is done with it.
class Agent {
 public:
  Agent(const std::vector<std::string>& command, std::uint16_t port) {
    std::vector<std::string> env = kgp::agent_environment(port);
    std::vector<std::string> argv = kgp::with_server_address(command, "127.0.0.1", port);
    std::vector<char*> args, envp;
    for (std::string& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    for (std::string& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, 2, 1);
    error_ = posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (error_ != 0) pid_ = -1;
  }
  Agent(const Agent&) = delete;
  Agent& operator=(const Agent&) = delete;
  ~Agent() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  int error() const { return error_; }

 private:
  pid_t pid_ = -1;
  int error_ = 0;
};

int run_kgp_host(const KgpHostOptions& o) {
  if (o.agent.empty()) throw UsageError("give the agent's command after --, e.g. -- python3 agent.py");
  if (o.no_move != "forfeit" && o.no_move != "random")
    throw UsageError("--no-move: '" + o.no_move + "' is neither forfeit nor random");
  Expected<kgp::LineListener> listening = kgp::LineListener::listen("127.0.0.1", 0);
  if (!listening) {
    fmt::print(stderr, "kgp-host: {}\n", listening.error());
    return 1;
  }
  kgp::LineListener listener = std::move(listening).value();
  Agent agent(o.agent, listener.port());
  if (agent.error() != 0) {
    fmt::print(stderr, "kgp-host: cannot start the agent '{}': {}\n", o.agent.front(), std::strerror(agent.error()));
    return 1;
  }
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(o.startup_ms);
  std::optional<kgp::LineSocket> socket = listener.accept(until);
  if (!socket) {
    fmt::print(stderr, "kgp-host: the agent did not connect to KGP_HOST:KGP_PORT within {} ms\n", o.startup_ms);
    return 1;
  }
  kgp::ServerSession session(std::move(*socket));
  if (std::optional<Fault> f = session.handshake(until)) {
    fmt::print(stderr, "kgp-host: the agent's handshake failed: {}\n", f->detail);
    return 1;
  }
  kgp::AgentHostSettings settings;
  settings.no_move = o.no_move == "random" ? kgp::NoMove::Random : kgp::NoMove::Forfeit;
  settings.margin = std::chrono::milliseconds(o.margin_ms);
  const kgp::AgentHostIo io{[](std::string& line) { return static_cast<bool>(std::getline(std::cin, line)); },
                            [](std::string_view line) {
                              fmt::print("{}\n", line);
                              std::fflush(stdout);
                            },
                            [](std::string_view line) {
                              fmt::print(stderr, "{}\n", line);
                              std::fflush(stderr);
                            }};
  return kgp::run_agent_host(session, settings, io);
}

}  // namespace

void add_kgp_host_command(cli::Commands& commands) {
  auto [cmd, o] = commands.add<KgpHostOptions>(
      "kgp-host", "Run a KGP agent as a KEP engine: KEP on stdin/stdout, the agent's KGP server on loopback",
      run_kgp_host);
  cmd->add_option("--no-move", o->no_move,
                  "A turn without a move: forfeit (no answer: the arena's time forfeit; default) or random");
  cmd->add_option("--startup-ms", o->startup_ms, "Time for the agent to start, connect and ask for freeplay")
      ->check(CLI::Range(1LL, 600000LL));
  cmd->add_option("--margin-ms", o->margin_ms, "Kept back from each move's time for the answer to the arena")
      ->check(CLI::Range(0LL, 60000LL));
  cmd->add_option("agent", o->agent,
                  "The agent's command and arguments, after --; {kgp_host} and {kgp_port} in them name the "
                  "host's KGP server")
      ->expected(-1);
  cmd->footer(
      "Exit code: 0 after quit or the end of input, 1 when the agent could not start or was lost, 2 a usage "
      "error.\n"
      "Example (a KGP agent in a match against a bundled bot):\n"
      "  referee match --engine cmd=referee arg=kgp-host arg=-- arg=python3 arg=agent.py "
      "--engine cmd=kalah-greedy\n");
}

}  // namespace kalah::referee_app
