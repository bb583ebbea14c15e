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

std::vector<std::string> agent_environment(std::uint16_t port) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view variable(*e);
    if (variable.rfind("KGP_HOST=", 0) != 0 && variable.rfind("KGP_PORT=", 0) != 0) env.emplace_back(variable);
  }
  env.push_back("KGP_HOST=127.0.0.1");
  env.push_back("KGP_PORT=" + std::to_string(port));
  return env;
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
  Expected<LineListener> listening = LineListener::listen("127.0.0.1", 0);
  if (!listening) return startup_fault("cannot listen for the agent: " + listening.error());
  LineListener listener = std::move(listening).value();
  process::SpawnSpec spec;
  spec.command = command.cmd;
  spec.args = with_server_address(command.args, "127.0.0.1", listener.port());
  spec.working_dir = command.dir;
  spec.stderr_log_path = command.stderr_file;
  spec.environment = agent_environment(listener.port());
  auto spawned = process::EngineProcess::spawn(spec);
  if (auto* error = std::get_if<process::SpawnError>(&spawned)) return startup_fault(error->message);
  std::unique_ptr<process::EngineProcess> agent = std::move(std::get<0>(spawned));
  // Waits in slices so that an agent that dies before connecting is reported at once, with how it ended, and
  // not only when the startup time runs out (under load its exit may not be seen before that).
  std::optional<LineSocket> socket;
  std::optional<process::ExitInfo> exit;
  while (!socket) {
    socket = listener.accept(std::min(until, SteadyClock::now() + std::chrono::milliseconds(25)));
    if (socket) break;
    exit = agent->exit_status();
    if (exit) {
      // It may have connected just before it ended: take a connection already queued.
      socket = listener.accept(SteadyClock::now());
      if (!socket)
        return startup_fault("exited before it connected to KGP_HOST:KGP_PORT (it " + exit->describe() + ")");
      break;
    }
    if (SteadyClock::now() >= until) {
      return startup_fault("did not connect to KGP_HOST:KGP_PORT within " + std::to_string(startup.count()) + " ms");
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
