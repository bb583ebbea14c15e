// A KGP agent as a KEP engine (docs/KGP.md, `referee kgp-host`): the host speaks KEP with the arena on one
// side and is the agent's KGP server on the other. Each `go` becomes one `state` (the board turned so that
// the mover is South); the agent's last `move` before `yield` or the stop is the `bestmove`. The host never
// lets an agent's failure look like its own move: a turn without a move is no answer (the arena's time
// forfeit) unless random moves are asked for, and a lost connection ends the host (the arena's crash
// forfeit), with the reason on stderr.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include "referee/kgp/session.h"
#include "referee/kgp/session_player.h"

namespace kalah::kgp {

struct AgentHostSettings {
  NoMove no_move = NoMove::Forfeit;
  // Kept back from each turn's time, for the way of the answer to the arena.
  std::chrono::milliseconds margin{20};
  std::chrono::milliseconds hard_limit{60000};  // a turn under `go depth` or `go nodes`, which KGP cannot say
  std::uint32_t seed = 1;                       // of the random moves
};

// What the host says to the arena and to its own stderr.
struct AgentHostIo {
  std::function<bool(std::string& line)> read_line;  // the arena's next line; false at end of input
  std::function<void(std::string_view line)> write_line;
  std::function<void(std::string_view line)> note;  // to stderr
  // Asked while the agent works on a state, after each ServerSession::wake(): true when the arena said
  // `stop` (or `quit`, or its input ended), which ends the state at once, as its deadline would.
  std::function<bool()> stop_requested;
};

// Runs the KEP side for the agent of `session` (its handshake done) until `quit` or end of input (0), or
// until the agent is lost (1).
int run_agent_host(ServerSession& session, const AgentHostSettings& settings, const AgentHostIo& io);

}  // namespace kalah::kgp
