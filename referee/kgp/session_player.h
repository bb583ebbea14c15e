// A KGP client as a game player (docs/KGP.md): each of its turns is one `state` of its session, the
// board turned so that it moves as South; the last `move` before `yield` or the stop counts (anytime).
#pragma once

#include <cstdint>
#include <random>

#include "referee/game/player.h"
#include "referee/kgp/session.h"

namespace kalah::kgp {

// What a turn without a move becomes: a forfeit (this arena's default), or a random legal move (what the
// course's server does, `kgp_no_move = "random"`).
enum class NoMove { Forfeit, Random };
const char* to_string(NoMove n);  // "forfeit", "random"

class SessionPlayer : public Player {
 public:
  // `session` has completed its handshake and outlives the player.
  SessionPlayer(std::string name, ServerSession& session, NoMove no_move = NoMove::Forfeit, std::uint32_t seed = 1);

  const std::string& name() const override { return name_; }
  std::optional<Fault> new_game(const Variant& v, const std::optional<Position>& start,
                                const TimeControl& time) override;
  Reply play(const std::vector<Move>& moves, const kep::Go& go, std::chrono::milliseconds allowed) override;
  std::string identity() const override;
  // How many turns had no move and were given a random one (NoMove::Random).
  int random_moves() const { return random_moves_; }

 private:
  std::string name_;
  ServerSession& session_;
  NoMove no_move_;
  std::mt19937 rng_;
  Variant variant_;
  std::optional<Position> start_;
  int games_ = 0;
  int random_moves_ = 0;
};

// How long a turn asked with `go` lasts before `stop`, within `allowed`: the move time; on a Fischer
// clock a twentieth of what is left plus the increment; with a depth or node limit all of `allowed`.
std::chrono::milliseconds turn_budget(const kep::Go& go, Side mover, std::chrono::milliseconds allowed);

}  // namespace kalah::kgp
