#include "referee/kgp/agent_connection.h"

#include <algorithm>
#include <string_view>

#include "referee/kgp/address.h"
#include "referee/process/engine_process.h"

extern char** environ;

namespace kalah::kgp {

namespace {

using SteadyClock = std::chrono::steady_clock;

Fault startup_fault(std::string detail) { return Fault{Termination::Startup, std::move(detail)}; }

}  // namespace

std::vector<std::string> agent_environment(const AgentServer& server) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view variable(*e);
    if (variable.rfind("KGP_HOST=", 0) != 0 && variable.rfind("KGP_PORT=", 0) != 0 &&
        variable.rfind("KGP_URL=", 0) != 0)
      env.emplace_back(variable);
  }
  if (server.websocket) {
    env.push_back("KGP_HOST=" + server.url());
    env.push_back("KGP_URL=" + server.url());
  } else {
    env.push_back("KGP_HOST=" + server.host);
    env.push_back("KGP_PORT=" + std::to_string(server.port));
  }
  return env;
}

std::string where_told(const AgentServer& server) {
  return server.websocket ? server.url() + " (KGP_HOST)" : std::string("KGP_HOST:KGP_PORT");
}

std::string refused_websocket_text(const AgentServer& server, const std::string& refusal,
                                   std::chrono::milliseconds startup) {
  return "did not connect to " + server.url() + " (KGP_HOST) as a WebSocket client within " +
         std::to_string(startup.count()) + " ms: it made a TCP connection, but " + refusal +
         " (kgp_transport = \"websocket\"; an agent that speaks KGP over plain TCP needs kgp_transport = \"tcp\")";
}

AgentConnection::AgentConnection(std::unique_ptr<process::EngineProcess> process,
                                 std::unique_ptr<ServerSession> session, double startup_ms)
    : process_(std::move(process)), session_(std::move(session)), startup_ms_(startup_ms) {}
AgentConnection::AgentConnection(AgentConnection&&) noexcept = default;
AgentConnection& AgentConnection::operator=(AgentConnection&&) noexcept = default;
AgentConnection::~AgentConnection() {
  if (process_) process_->kill();
}

std::variant<AgentConnection, Fault> AgentConnection::open(const AgentCommand& command,
                                                           std::chrono::milliseconds startup,
                                                           const std::vector<std::string>& modes) {
  const auto start = SteadyClock::now();
  const Deadline until = start + startup;
  Expected<LineListener> listening =
      LineListener::listen("127.0.0.1", 0, command.websocket ? Transport::WebSocket : Transport::Tcp);
  if (!listening) return startup_fault("cannot listen for the agent: " + listening.error());
  LineListener listener = std::move(listening).value();
  const AgentServer server{"127.0.0.1", listener.port(), command.websocket};
  process::SpawnSpec spec;
  spec.command = command.cmd;
  spec.args = with_server_address(command.args, server);
  spec.working_dir = command.dir;
  spec.stderr_log_path = command.stderr_file;
  spec.environment = agent_environment(server);
  auto spawned = process::EngineProcess::spawn(spec);
  if (auto* error = std::get_if<process::SpawnError>(&spawned)) return startup_fault(error->message);
  std::unique_ptr<process::EngineProcess> agent = std::move(std::get<0>(spawned));
  // Waits in slices so that an agent that dies before connecting is reported at once, with how it ended, and
  // not only when the startup time runs out (under load its exit may not be seen before that).
  std::optional<LineSocket> socket;
  std::optional<process::ExitInfo> exit;
  // A connection being upgraded to a WebSocket is given the whole start-up time, not a slice.
  while (!socket) {
    socket = listener.accept(std::min(until, SteadyClock::now() + std::chrono::milliseconds(25)), until);
    if (socket) break;
    exit = agent->exit_status();
    if (exit) {
      // It may have connected just before it ended: take a connection already queued.
      socket = listener.accept(SteadyClock::now(), SteadyClock::now() + std::chrono::milliseconds(100));
      if (!socket) {
        const std::string refused = listener.last_refusal().empty() ? "" : "; " + listener.last_refusal();
        return startup_fault("exited before it connected to " + where_told(server) + " (it " + exit->describe() + ")" +
                             refused);
      }
      break;
    }
    if (SteadyClock::now() >= until) {
      if (!listener.last_refusal().empty())
        return startup_fault(refused_websocket_text(server, listener.last_refusal(), startup));
      return startup_fault("did not connect to " + where_told(server) + " within " + std::to_string(startup.count()) +
                           " ms");
    }
  }
  auto session = std::make_unique<ServerSession>(std::move(*socket));
  if (std::optional<Fault> f = session->handshake(until, modes)) return startup_fault(f->detail);
  const double took = std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count();
  return AgentConnection(std::move(agent), std::move(session), took);
}

void AgentConnection::drain() {
  // Bounded: a pipe holds 64 KiB, and each line read is one of them.
  for (int i = 0; i < 4096; ++i) {
    const process::Status s = process_->read_line(SteadyClock::now()).status;
    if (s != process::Status::Ok && s != process::Status::TooLong) return;
  }
}

std::string AgentConnection::goodbye(std::chrono::milliseconds grace) {
  session_->goodbye(SteadyClock::now() + grace);
  const std::optional<process::ExitInfo> exit = process_->wait_for_exit(SteadyClock::now() + grace);
  return exit ? exit->describe() : std::string();
}

}  // namespace kalah::kgp
