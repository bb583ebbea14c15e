// The game loop's view of a player: an engine process implements it, tests
// use in-process fakes.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "referee/game/time_control.h"
#include "referee/game/transcript.h"
#include "referee/protocol/protocol.h"
#include "referee/record/record.h"

namespace kalah {

// Why a player could not go on: one of time, crash, protocol, startup.
struct Fault {
  Termination kind = Termination::Crash;
  std::string detail;
};

struct Reply {
  std::optional<Fault> fault;  // set: no move (timeout, crash, garbage)
  Move move;                   // the move the player answered with (not yet checked for legality)
  double elapsed_ms = 0;       // the time charged: on a wall clock from sending `go` to reading `bestmove`
  kep::Info info;              // the last info line of this search
  double wall_ms = 0;          // the wall time from sending `go` to reading `bestmove` (0 when not measured)
};

class Player {
 public:
  virtual ~Player() = default;
  virtual const std::string& name() const = 0;
  // Readies the player for a new game (starting it first if it is not running), within the
  // start-up and ping deadlines of `time`. The game starts from `start`, or from the variant's
  // standard start when there is none.
  virtual std::optional<Fault> new_game(const Variant& v, const std::optional<Position>& start,
                                        const TimeControl& time) = 0;
  // The seed that the next new_game() gives an engine that asked for one (`feature seed`); none: nothing
  // is sent. The game loop sets it before each new_game().
  virtual void set_seed(std::optional<std::uint32_t> /*seed*/) {}
  // Asks for a move after `moves` (played from the start); the player must answer within `allowed`.
  virtual Reply play(const std::vector<Move>& moves, const kep::Go& go, std::chrono::milliseconds allowed) = 0;
  // The end of what the player wrote to its stderr up to now, for the record of its fault: cleaned text,
  // at most kForfeitStderrBytes; empty when it wrote nothing or none is kept. Called before forfeited().
  virtual std::string stderr_tail() { return {}; }
  // The player lost by forfeit: it may be in any state; restart it before the next game.
  virtual void forfeited() {}
  // The game is over (after forfeited(), if it forfeited); `moves` are all its moves.
  virtual void game_over(const std::vector<Move>& /*moves*/) {}
  // Ends the player's part in the game now, from any thread (an interrupted run): a move being
  // awaited comes back at once as a fault. The game is abandoned, not recorded.
  virtual void abort() {}
  // What the engine said about itself ("AlphaBeta 2 by J. Doe"), once it has; empty when it did not.
  virtual std::string identity() const { return {}; }
  // Every line this player exchanges from now on also goes to `transcript`, and its stderr tail at the
  // end; null: the game is over, and what the player still holds for the transcript (its stderr since
  // the last call) is added before it lets go. The caller keeps the transcript alive until then.
  virtual void attach(Transcript* /*transcript*/) {}
};

}  // namespace kalah
