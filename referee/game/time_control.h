// How long a player may think, and every other deadline of a game: one value, filled in from a
// config's [time] table or from command-line options, read by the game loop and the players.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "referee/rules/expected.h"

namespace kalah {

struct TimeControl {
  // Exactly one way to limit a move.
  enum class Mode {
    Fischer,   // base_ms per game + inc_ms per move
    MoveTime,  // movetime_ms per move
    Depth,     // go depth <depth>, bounded by hard_limit_ms
    Nodes,     // go nodes <nodes>, bounded by hard_limit_ms
  };
  Mode mode = Mode::Fischer;
  std::int64_t base_ms = 10000;        // Fischer
  std::int64_t inc_ms = 100;           // Fischer
  std::int64_t movetime_ms = 0;        // MoveTime
  int depth = 0;                       // Depth
  std::int64_t nodes = 0;              // Nodes
  std::int64_t margin_ms = 50;         // grace beyond the allowed time before a time forfeit
  std::int64_t hard_limit_ms = 60000;  // per move in Depth and Nodes modes
  std::int64_t startup_ms = 5000;      // from starting an engine to the end of its handshake
  std::int64_t ping_ms = 5000;         // from newgame + isready to readyok

  // "10+0.1", "movetime 100", "depth 6", "nodes 1000".
  std::string describe() const;
  // The PGN standard's TimeControl tag: "10+0.1" (base+increment in seconds), "60" without an
  // increment, "-" where no clock applies (move time, depth, nodes).
  std::string pgn() const;
};

const char* to_string(TimeControl::Mode m);  // "fischer", "movetime", "depth", "nodes"

// A Fischer clock written the way chess tools write it, in seconds: "10+0.1" or "60" (no
// increment). Gives base_ms and inc_ms (rounded to whole milliseconds) on a default TimeControl;
// the error says what was expected.
Expected<TimeControl> parse_fischer(std::string_view seconds);

}  // namespace kalah
