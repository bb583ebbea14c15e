// `referee kgp-host -- AGENT ARGS...`: a KGP agent as a KEP engine (docs/KGP.md). The host listens on a free
// loopback port (over TCP, or a WebSocket with --websocket) and starts the agent with that server named in its
// environment (KGP_HOST and KGP_PORT; over a WebSocket KGP_HOST and KGP_URL its URL) and by `{kgp_host}`,
// `{kgp_port}` and `{kgp_url}` in its arguments (the Go client kgpc takes its server as an argument; inside an
// engine's sandbox that is the sandbox's own loopback: the agent still has no network), greets it, and then
// relays: KEP with the arena on stdin/stdout, KGP with the agent. The agent's stdout and stderr both go to the
// host's stderr, which the arena drains like any engine's, so a chatty agent never blocks a game.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>
#include <variant>

#include <fmt/core.h>

#include "referee/app/commands.h"
#include "referee/kgp/address.h"
#include "referee/kgp/agent_connection.h"
#include "referee/kgp/agent_host.h"
#include "referee/protocol/protocol.h"

namespace kalah::referee_app {

using cli::UsageError;

namespace {

// How often the host looks whether its agent has ended while it waits for its connection.
constexpr std::chrono::milliseconds kSlice{25};

struct KgpHostOptions {
  std::vector<std::string> agent;
  std::string no_move = "forfeit";
  long long startup_ms = 4000;
  long long margin_ms = 20;
  bool websocket = false;
};

// The agent's process: started with the host's environment and KGP_HOST/KGP_PORT (KGP_HOST/KGP_URL over a
// WebSocket; and the placeholders of its arguments replaced), its stdin on /dev/null,
// its stdout and stderr on the host's stderr. Killed and reaped when the host is done with it.
class Agent {
 public:
  Agent(const std::vector<std::string>& command, const kgp::AgentServer& server) {
    std::vector<std::string> env = kgp::agent_environment(server);
    std::vector<std::string> argv = kgp::with_server_address(command, server);
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
  // How it ended ("exited with code 1"), once it has (then reaped); empty while it runs.
  std::string ended() {
    int status = 0;
    if (pid_ <= 0 || waitpid(pid_, &status, WNOHANG) != pid_) return {};
    pid_ = -1;
    if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
    return "was killed by signal " + std::to_string(WTERMSIG(status));
  }

 private:
  pid_t pid_ = -1;
  int error_ = 0;
};

// The arena's lines, read on a thread of their own so that a `stop` reaches the host while it waits for its
// agent's move (the KEP `stop`: the turn ends at once, with the agent's last move). The thread ends with the
// arena's input; it shares its state, so it may outlive this object (blocked in a read) when the host returns.
class ArenaInput {
 public:
  ArenaInput() : state_(std::make_shared<State>()) {
    std::cin.tie(nullptr);  // the reader's thread must not flush stdout, which the host writes
    std::thread([state = state_] {
      std::string line;
      while (std::getline(std::cin, line)) state->push(std::move(line));
      state->push(std::nullopt);
    }).detach();
  }
  ArenaInput(const ArenaInput&) = delete;
  ArenaInput& operator=(const ArenaInput&) = delete;
  ~ArenaInput() { on_line({}); }  // the session it wakes goes before it

  // Called (from the reader's thread) as each line comes: the session's wake().
  void on_line(std::function<void()> wake) {
    std::lock_guard lock(state_->mutex);
    state_->wake = std::move(wake);
  }
  // The next line, waiting for it; false at the end of input.
  bool next(std::string& line) {
    std::unique_lock lock(state_->mutex);
    state_->changed.wait(lock, [&] { return !state_->lines.empty() || state_->ended; });
    if (state_->lines.empty()) return false;
    line = std::move(state_->lines.front());
    state_->lines.pop_front();
    return true;
  }
  // True when a `stop` (taken) or a `quit` waits, or the input ended: the turn being played ends now.
  bool stop_waiting() {
    std::lock_guard lock(state_->mutex);
    for (auto it = state_->lines.begin(); it != state_->lines.end(); ++it) {
      const Expected<kep::Command> c = kep::parse_command(*it);
      if (c && std::holds_alternative<kep::Stop>(*c)) {
        state_->lines.erase(it);
        return true;
      }
      if (c && std::holds_alternative<kep::Quit>(*c)) return true;
    }
    return state_->ended;
  }

 private:
  struct State {
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<std::string> lines;
    bool ended = false;
    std::function<void()> wake;
    void push(std::optional<std::string> line) {
      std::lock_guard lock(mutex);
      if (line)
        lines.push_back(std::move(*line));
      else
        ended = true;
      changed.notify_all();
      if (wake) wake();
    }
  };
  std::shared_ptr<State> state_;
};

// A line to stderr in one write: the arena may read the host's stderr as the host exits, and a line written in
// pieces (as an unbuffered stream may) would reach a forfeit's detail cut short.
void tell(std::string line) {
  line += '\n';
  for (std::size_t done = 0; done < line.size();) {
    const ssize_t n = ::write(2, line.data() + done, line.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// The agent's connection before `until`, waited for in slices so that an agent that ends first is reported at
// once (a connection being upgraded to a WebSocket is given the whole time); the reason when none comes.
std::variant<kgp::LineSocket, std::string> await_agent(kgp::LineListener& listener, Agent& agent,
                                                       const kgp::AgentServer& server, kgp::Deadline until,
                                                       std::chrono::milliseconds startup) {
  using Clock = std::chrono::steady_clock;
  while (true) {
    std::optional<kgp::LineSocket> socket = listener.accept(std::min(until, Clock::now() + kSlice), until);
    if (socket) return std::move(*socket);
    if (const std::string how = agent.ended(); !how.empty()) {
      // It may have connected just before it ended: take a connection already queued.
      socket = listener.accept(Clock::now(), Clock::now() + std::chrono::milliseconds(100));
      if (socket) return std::move(*socket);
      return "exited before it connected to " + kgp::where_told(server) + " (it " + how + ")" +
             (listener.last_refusal().empty() ? "" : "; " + listener.last_refusal());
    }
    if (Clock::now() < until) continue;
    if (!listener.last_refusal().empty()) return kgp::refused_websocket_text(server, listener.last_refusal(), startup);
    return "did not connect to " + kgp::where_told(server) + " within " + std::to_string(startup.count()) + " ms";
  }
}

int run_kgp_host(const KgpHostOptions& o) {
  if (o.agent.empty()) throw UsageError("give the agent's command after --, e.g. -- python3 agent.py");
  if (o.no_move != "forfeit" && o.no_move != "random")
    throw UsageError("--no-move: '" + o.no_move + "' is neither forfeit nor random");
  if (!o.websocket)
    for (const std::string& arg : o.agent)
      if (kgp::names_server_url(arg))
        throw UsageError("the agent's argument '" + arg + "': {kgp_url} names a server over a WebSocket (--websocket)");
  const auto startup = std::chrono::milliseconds(o.startup_ms);
  const auto until = std::chrono::steady_clock::now() + startup;
  Expected<kgp::LineListener> listening =
      kgp::LineListener::listen("127.0.0.1", 0, o.websocket ? kgp::Transport::WebSocket : kgp::Transport::Tcp);
  if (!listening) {
    tell("kgp-host: " + listening.error());
    return 1;
  }
  kgp::LineListener listener = std::move(listening).value();
  const kgp::AgentServer server{"127.0.0.1", listener.port(), o.websocket};
  Agent agent(o.agent, server);
  if (agent.error() != 0) {
    tell("kgp-host: cannot start the agent '" + o.agent.front() + "': " + std::strerror(agent.error()));
    return 1;
  }
  std::variant<kgp::LineSocket, std::string> connected = await_agent(listener, agent, server, until, startup);
  if (const std::string* why = std::get_if<std::string>(&connected)) {
    tell("kgp-host: the agent " + *why);
    return 1;
  }
  kgp::ServerSession session(std::move(std::get<kgp::LineSocket>(connected)));
  if (std::optional<Fault> f = session.handshake(until)) {
    tell("kgp-host: the agent's handshake failed: " + f->detail);
    return 1;
  }
  kgp::AgentHostSettings settings;
  settings.no_move = o.no_move == "random" ? kgp::NoMove::Random : kgp::NoMove::Forfeit;
  settings.margin = std::chrono::milliseconds(o.margin_ms);
  ArenaInput input;
  input.on_line([&session] { session.wake(); });
  const kgp::AgentHostIo io{[&input](std::string& line) { return input.next(line); },
                            [](std::string_view line) {
                              fmt::print("{}\n", line);
                              std::fflush(stdout);
                            },
                            [](std::string_view line) { tell(std::string(line)); },
                            [&input] { return input.stop_waiting(); }};
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
  cmd->add_flag("--websocket", o->websocket,
                "Serve the agent over a WebSocket (KGP_HOST and KGP_URL: ws://127.0.0.1:PORT/) instead of TCP");
  cmd->add_option("agent", o->agent,
                  "The agent's command and arguments, after --; {kgp_host} and {kgp_port} (and {kgp_url} with "
                  "--websocket) in them name the host's KGP server")
      ->expected(-1);
  cmd->footer(
      "Exit code: 0 after quit or the end of input, 1 when the agent could not start or was lost, 2 a usage "
      "error.\n"
      "Example (a KGP agent in a match against a bundled bot):\n"
      "  referee match --engine cmd=referee arg=kgp-host arg=-- arg=python3 arg=agent.py "
      "--engine cmd=kalah-greedy\n");
}

}  // namespace kalah::referee_app
