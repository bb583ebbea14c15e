#include "referee/engine/kgp_engine.h"

#include <algorithm>
#include <string>

#include "referee/system/executable.h"

namespace kalah {

namespace fs = std::filesystem;

Expected<fs::path> find_kgp_host() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && system::is_executable_file(self.parent_path() / "referee")) return self.parent_path() / "referee";
  Expected<fs::path> on_path = system::find_executable("referee", system::path_variable(), fs::current_path());
  if (on_path) return on_path;
  return Error{"a KGP agent runs through `referee kgp-host`, but no referee was found beside " +
               (ec ? std::string("this program") : self.string()) + " nor on PATH"};
}

EngineSpec kgp_host_engine(EngineSpec agent, const fs::path& host, KgpNoMove no_move, KgpTransport transport) {
  std::vector<std::string> args = {"kgp-host"};
  if (no_move == KgpNoMove::Random) args.insert(args.end(), {"--no-move", "random"});
  const bool websocket = transport == KgpTransport::WebSocket;
  if (websocket) args.push_back("--websocket");
  args.push_back("--");
  // A bare name ("python3") is looked up again by the host, on the PATH it has: in a sandbox the system's,
  // where the arena's own PATH may lead elsewhere (a ~/.pyenv shim the sandbox does not show).
  const bool bare = agent.cmd_as_written.find('/') == std::string::npos;
  const std::string command = bare ? agent.cmd_as_written : agent.cmd.string();
  agent.kgp = KgpAgent{command, agent.args, no_move == KgpNoMove::Random, websocket};
  args.push_back(command);
  args.insert(args.end(), agent.args.begin(), agent.args.end());
  agent.args = std::move(args);
  agent.cmd = host;
  // As a bundled bot's name: the same in a config's fingerprint wherever the arena is installed.
  agent.cmd_as_written = "referee";
  agent.protocol = Protocol::Kep;
  // A host, its server and its agent for each game alone (the agent may keep what it likes between states
  // of one game, never between games); a config's `restart` may keep them across games instead.
  agent.restart = RestartPolicy::Always;
  return agent;
}

EngineSpec with_kgp_startup(EngineSpec spec, std::chrono::milliseconds startup) {
  if (!spec.kgp || spec.args.empty() || spec.args.front() != "kgp-host") return spec;
  // A fifth of the deadline, at most a second, is kept back for the host's own start and its answer (kepok)
  // to the arena: the default 5 s give the agent 4 s, as the host's own default does.
  const std::chrono::milliseconds kept = std::min(startup / 5, std::chrono::milliseconds(1000));
  const long long agent_ms = std::max<long long>(1, (startup - kept).count());
  spec.args.insert(spec.args.begin() + 1, {"--startup-ms", std::to_string(agent_ms)});
  return spec;
}

}  // namespace kalah
