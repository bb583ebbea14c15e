// A KGP agent started by this process, which is its server: `referee check` and `referee suite` speak KGP
// to an agent themselves (docs/KGP.md). The agent is an engine process (referee/process: its own process
// group, killed and reaped) started with KGP_HOST and KGP_PORT naming a free port of 127.0.0.1 that this
// process listens on (over a WebSocket, KGP_HOST and KGP_URL its URL), and `{kgp_host}`, `{kgp_port}` and
// `{kgp_url}` in its arguments replaced by the same (address.h); the connection it makes there is the session.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "referee/game/player.h"
#include "referee/kgp/address.h"
#include "referee/kgp/session.h"

namespace kalah::process {
class EngineProcess;
}

namespace kalah::kgp {

// This process's environment with the server's address where the course's Python and Java client
// libraries read it (docs/KGP.md), any of theirs replaced: over TCP KGP_HOST=127.0.0.1 and KGP_PORT=port;
// over a WebSocket KGP_HOST and KGP_URL the URL (ws://127.0.0.1:PORT/: both libraries take a host that is
// a ws:// URL as their WebSocket server) and no KGP_PORT (the Java library refuses a port with a WebSocket).
std::vector<std::string> agent_environment(const AgentServer& server);
// Where an agent of `server` was told to connect, for a message: "KGP_HOST:KGP_PORT" or "ws://...".
std::string where_told(const AgentServer& server);
// Why an agent of a WebSocket server never connected although it made a TCP connection (`refusal`: the
// listener's last_refusal()), for a start-up fault.
std::string refused_websocket_text(const AgentServer& server, const std::string& refusal,
                                   std::chrono::milliseconds startup);

struct AgentCommand {
  std::string cmd;                // a path, or a bare name found on PATH
  std::vector<std::string> args;  // `{kgp_host}`, `{kgp_port}` and `{kgp_url}` in them name the server
  std::string dir;                // its working directory; empty: ours
  std::string stderr_file;        // its stderr appended here; empty: discarded (its stdout is read and dropped)
  bool websocket = false;         // served over a WebSocket (kgp_transport = "websocket"), else TCP
};

class AgentConnection {
 public:
  // Starts the agent, waits for its connection and reads its `mode` (one of `modes`) within `startup`. A
  // Startup fault says what failed: it could not be started, did not connect, sent garbage or closed the
  // connection before its mode, asked for another mode.
  static std::variant<AgentConnection, Fault> open(const AgentCommand& command, std::chrono::milliseconds startup,
                                                   const std::vector<std::string>& modes = {"freeplay"});
  AgentConnection(AgentConnection&&) noexcept;
  AgentConnection& operator=(AgentConnection&&) noexcept;
  ~AgentConnection();  // kills the agent's process group at once, and reaps it

  ServerSession& session() { return *session_; }
  double startup_ms() const { return startup_ms_; }  // from the start to its mode

  // Reads what the agent wrote to its stdout so far, without waiting, so that it never fills the pipe.
  void drain();
  // Says `goodbye` and waits up to `grace` for the agent to exit: how it exited, or empty when it still
  // runs (it is killed with the connection).
  std::string goodbye(std::chrono::milliseconds grace);

 private:
  AgentConnection(std::unique_ptr<process::EngineProcess> process, std::unique_ptr<ServerSession> session,
                  double startup_ms);
  std::unique_ptr<process::EngineProcess> process_;
  std::unique_ptr<ServerSession> session_;
  double startup_ms_ = 0;
};

}  // namespace kalah::kgp
