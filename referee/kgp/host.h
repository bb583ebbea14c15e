// A small KGP server (docs/KGP.md), written from the specification: on a listening socket it hosts one
// freeplay game between two clients by our rules, or puts one client through the `verify` mode's rule checks.
#pragma once

#include <chrono>
#include <cstdint>

#include "referee/game/game.h"
#include "referee/kgp/line_socket.h"
#include "referee/kgp/session.h"
#include "referee/kgp/session_player.h"

namespace kalah::kgp {

struct HostedGame {
  GameRecord record;
  ClientInfo south;  // what the client that started South said of itself
  ClientInfo north;
};

// Waits up to `wait` for two clients (the first to connect starts South), hands each its handshake within
// the start-up time of `settings.time`, plays one game by `settings` (a client that fails its handshake loses
// by a start-up forfeit) and says goodbye to both. An error when fewer than two clients connect in time.
Expected<HostedGame> host_game(LineListener& listener, const GameSettings& settings, std::chrono::milliseconds wait,
                               NoMove no_move = NoMove::Forfeit);

// The `verify` mode: `problems` positions of random games by `rules` (seeded), each sent with a random legal
// move; the client must answer with the board after it and whether the mover moves again.
struct VerifyResult {
  int passed = 0;
  std::string wrong;           // the first mistake, with the problem; empty: none
  std::optional<Fault> fault;  // the client failed to answer
};
VerifyResult verify_client(ServerSession& session, const Variant& rules, int problems, std::uint32_t seed,
                           std::chrono::milliseconds per_problem);

}  // namespace kalah::kgp
