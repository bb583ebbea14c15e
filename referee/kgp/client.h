// A KGP client (docs/KGP.md, `referee kgp-client`): one of our players (a KEP engine through EnginePlayer,
// or any Player) plays freeplay on a KGP server. Each `state` becomes a game of one move for the player,
// from that board with South to move, under `go movetime` of the time the server gives; the move goes back
// with `yield`. `ping` is answered at once, also while the player thinks (it thinks on a thread of its own).
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "referee/game/player.h"
#include "referee/kgp/line_socket.h"

namespace kalah::kgp {

struct ClientSettings {
  std::string name;                  // set info:name
  std::string authors;               // set info:authors (empty: not sent)
  std::optional<std::string> token;  // set auth:token
  Variant rules;                     // the rule keys the server plays by; pits and seeds come from each board
  // The time of a state when the server sets no time:clock, and what is kept back from the time it gives
  // (the way there and back, the engine's start of a move).
  std::chrono::milliseconds default_move{1000};
  std::chrono::milliseconds margin{300};
  // With time:mode absolute, time:clock is all the time left: a state gets this share of it.
  int absolute_divisor = 20;
  std::chrono::milliseconds startup{5000};  // the handshake with the server, and the engine's
  std::chrono::milliseconds ping{5000};     // the engine's readyok after newgame
};

// What happened, for the command's last line and its exit code.
struct ClientReport {
  int states = 0;   // states received
  int moves = 0;    // answered with a move
  int pings = 0;    // answered with pong
  int faults = 0;   // states the player failed (no move: the server decides)
  std::string end;  // how the connection ended: "goodbye", "closed", or what went wrong
  bool ok = false;  // ended with goodbye, or closed by the server after at least one state
};

// Plays on the connected `socket` until the server says goodbye or closes. `log` gets one line per event
// (the handshake, each state and its answer, faults), without a newline.
ClientReport play_on_server(LineSocket& socket, Player& player, const ClientSettings& settings,
                            const std::function<void(std::string_view)>& log);

// The move time of one state: the server's time:clock (seconds; with time:mode absolute a share of it)
// less the margin, or the default; at least 10 ms.
std::chrono::milliseconds state_budget(const ClientSettings& s, std::optional<long long> clock_seconds,
                                       std::string_view time_mode);

}  // namespace kalah::kgp
