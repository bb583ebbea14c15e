// How long a player may think, and every other deadline of a game: one value, filled in from a
// config's [time] table or from command-line options, read by the game loop and the players.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "referee/protocol/protocol.h"
#include "referee/rules/expected.h"

namespace kalah {

struct TimeControl {
  // Exactly one way to limit a move.
  enum class Mode {
    Fischer,   // base_ms per game (or per `moves` moves) + inc_ms per move
    MoveTime,  // movetime_ms per move
    Depth,     // go depth <depth>, bounded by hard_limit_ms
    Nodes,     // go nodes <nodes>, bounded by hard_limit_ms
  };
  Mode mode = Mode::Fischer;
  std::int64_t base_ms = 10000;         // Fischer
  std::int64_t inc_ms = 100;            // Fischer
  int moves = 0;                        // Fischer: base_ms is added again after every `moves` own moves; 0: once
  std::int64_t delay_ms = 0;            // Fischer: the first delay_ms of each move are not charged; 0: none
  DelayKind delay = DelayKind::Simple;  // with delay_ms: may a move use the delay beyond the clock (simple)
  std::int64_t movetime_ms = 0;         // MoveTime
  int depth = 0;                        // Depth
  std::int64_t nodes = 0;               // Nodes
  std::int64_t margin_ms = 50;          // grace beyond the allowed time before a time forfeit
  std::int64_t hard_limit_ms = 60000;   // per move in Depth and Nodes modes
  std::int64_t startup_ms = 5000;       // from starting an engine to the end of its handshake
  std::int64_t ping_ms = 5000;          // from newgame + isready to readyok
  // What a move is charged: its wall time, or the CPU time of the engine's processes (docs/PROCESSES.md,
  // "CPU time"); the same for both players of a game.
  ClockKind clock = ClockKind::Wall;

  // "10+0.1", "40/60+0.6", "movetime 100", "depth 6", "nodes 1000"; "60d2 (simple delay)" with a delay; on a
  // CPU clock followed by " (CPU clock)".
  std::string describe() const;
  // The PGN TimeControl tag: "10+0.1" (base+increment in seconds), "60" without an increment,
  // "40/60" or "40/60+0.6" with moves per period (as cutechess writes it), "-" where no clock
  // applies (move time, depth, nodes).
  std::string pgn() const;
  // The clock text of the cutechess grammar that parse_fischer() reads back: "40/60+0.6", with a delay
  // "60+0.5d2" (simple) or "60+0.5b2" (Bronstein).
  std::string clock_text() const;

  friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

const char* to_string(TimeControl::Mode m);  // "fischer", "movetime", "depth", "nodes"
std::optional<TimeControl::Mode> parse_time_mode(std::string_view text);

// The one list of a time control's numbers, by the names of its `key=value` text forms (the config's
// fingerprint, a transcript's `# timing` line), in the fingerprint's order: the limits of each mode, then
// the deadlines of every mode. `mode` and `clock` are words, written beside them by each form.
struct TimeField {
  std::string_view key;                   // "base_ms", ...
  std::optional<TimeControl::Mode> only;  // the mode it limits; none: a deadline of every mode
  std::int64_t (*get)(const TimeControl&);
  void (*set)(TimeControl&, std::int64_t);
  // Added after the text forms were fixed: written only when not 0 (the word beside it, `delay=`, too), so
  // that fingerprints, journals and transcripts from before it stay as they were and are read.
  bool only_when_set = false;
};
extern const std::array<TimeField, 11> kTimeFields;

// A clock written the way chess tools (cutechess, fastchess) write it: "[MOVES/]TIME[+INC]", TIME
// and INC in seconds, TIME also as minutes:seconds or hours:minutes:seconds: "10+0.1", "60",
// "40/60+0.6" (40 moves in 60 s, repeating, plus 0.6 s a move), "1:30+1" (90 s + 1 s). Gives
// base_ms, inc_ms (rounded to whole milliseconds) and moves on a default TimeControl; the error
// says what was expected. A delay after it (not a chess tools' form, docs/CONFIG.md, "Delays"): "60+0.5d2",
// a simple delay of 2 s, "60b2" a Bronstein delay. "inf" (no clock) is not a clock: callers that take it check for it
// first.
Expected<TimeControl> parse_fischer(std::string_view text);

// The way to limit a move as the command lines give it (`referee match`, `arena sprt`): a clock for
// parse_fischer(), a move time, a depth or a node count, 0 or empty when not given; none given: the default
// clock, TimeControl{}'s (the one place it is written). The caller checks that at most one is given; a clock
// parse_fischer() refuses is an error that names --tc.
Expected<TimeControl> time_from_options(std::string_view tc, std::int64_t movetime_ms, int depth, std::int64_t nodes);

}  // namespace kalah
