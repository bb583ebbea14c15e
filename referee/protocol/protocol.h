// KEP, the Kalah Engine Protocol: typed messages <-> text lines, both ways.
// This is the only place that splits protocol strings; the referee and the
// bots both go through it. See docs/PROTOCOL.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "referee/rules/expected.h"
#include "referee/rules/position.h"

namespace kalah {

// What a move's time is measured on (docs/PROCESSES.md, "CPU time"): the wall clock from `go` to
// `bestmove`, or the CPU time the engine's processes used meanwhile. Told to an engine that announced
// `feature clock` with `newgame` (docs/PROTOCOL.md, "Clocks").
enum class ClockKind { Wall, Cpu };
const char* to_string(ClockKind k);  // "wall", "cpu"
std::optional<ClockKind> parse_clock_kind(std::string_view text);

// A delay's kind (docs/CONFIG.md, "Delays"): the first ms of each move are free. Simple (US): the clock
// starts after them, so a move may take the clock plus the delay. Bronstein: the clock runs from the start and
// gets back what the move used of the delay, so a move may take the clock alone. Both charge a move
// max(0, used - delay).
enum class DelayKind { Simple, Bronstein };
const char* to_string(DelayKind k);  // "simple", "bronstein"
std::optional<DelayKind> parse_delay_kind(std::string_view text);

}  // namespace kalah

namespace kalah::kep {

// ---- arena -> engine -------------------------------------------------------
struct Hello {};  // "kep"
struct SetOption {
  std::string name;
  std::string value;
};
struct IsReady {};
// "newgame pits=6 ... pie=off [seed=<n>] [clock=wall|cpu]": the seed, 0..2^31-1, only to an engine that
// announced `feature seed` (docs/PROTOCOL.md, "Seeds"): the game's own, derived from the tournament's seed
// and the game's id, so that the game can be played again alike anywhere; the clock only to an engine that
// announced `feature clock` (docs/PROTOCOL.md, "Clocks").
struct NewGame {
  Variant variant;
  std::optional<std::uint32_t> seed;
  std::optional<ClockKind> clock;
};
// "position startpos moves 3 6 swap", or from a start position in the notation of parse_start():
// "position 4,0,4/4,4,5 1-0 N moves 2". The start is kept as text: the codec knows no variant.
struct PositionCmd {
  std::string start;  // empty: startpos
  std::vector<Move> moves;
};
// "go stime .. ntime .. sinc .. ninc ..", "go movetime ..", "go depth ..", "go nodes ..". With a clock and
// a delay, "delay <ms>" (simple) or "bronstein <ms>" after the increments: the mover's own delay, only to an
// engine that announced `feature delay` (docs/PROTOCOL.md, "Clocks").
struct Go {
  struct Clock {
    long long stime = 0, ntime = 0, sinc = 0, ninc = 0;
  };
  struct Delay {
    long long ms = 0;
    DelayKind kind = DelayKind::Simple;
  };
  std::optional<Clock> clock;
  std::optional<Delay> delay;
  std::optional<int> movestogo;  // with a clock: the mover's moves until its next time control
  std::optional<long long> movetime;
  std::optional<int> depth;
  std::optional<long long> nodes;
};
struct Stop {};
struct Quit {};
// "bench": run the engine's fixed, deterministic search and answer with its node count (BenchResult). Sent
// only to an engine that announced `feature bench`, after the handshake and outside a game
// (docs/PROTOCOL.md, "Bench").
struct Bench {};

using Command = std::variant<Hello, SetOption, IsReady, NewGame, PositionCmd, Go, Stop, Quit, Bench>;

std::string format(const Command& c);
Expected<Command> parse_command(std::string_view line);

// ---- engine -> arena -------------------------------------------------------
struct IdName {
  std::string name;
};
struct IdAuthor {
  std::string author;
};
struct OptionDecl {  // "option name Hash type spin default 16 min 1 max 1024"
  std::string name;
  std::string type;  // spin | check | string
  std::string default_value;
  std::optional<long long> min, max;
};
// "feature <name>" before kepok: something optional the engine supports ("positions": it takes
// `position <start notation> ...`; "seed": it wants each game's seed with newgame; "bench": it answers
// `bench`).
struct Feature {
  std::string name;
};
struct KepOk {};
struct ReadyOk {};
struct Info {
  std::optional<int> depth;
  std::optional<int> score;
  std::optional<long long> nodes;
  std::optional<long long> time;
  std::vector<Move> pv;
  std::string text;  // "info string ..."
};
struct BestMove {
  Move move;
};
// "bench nodes <n> [time <ms>]": the answer to `bench`. The node count is the build's signature: the same
// binary gives the same count every time; the time is for people (it varies with the machine). Unknown
// fields are skipped with their value, as in `info`.
struct BenchResult {
  long long nodes = 0;
  std::optional<long long> time;
};
// Anything else an engine prints: ignored by the referee (and logged).
struct Unknown {
  std::string line;
};
// A line that starts like a known message but is malformed ("bestmove x").
struct Malformed {
  std::string line;
  std::string why;
};

using EngineMessage = std::variant<IdName, IdAuthor, OptionDecl, Feature, KepOk, ReadyOk, Info, BestMove, BenchResult,
                                   Unknown, Malformed>;

std::string format(const EngineMessage& m);
EngineMessage parse_engine_line(std::string_view line);

// A line cut to at most `limit` characters for records and logs.
std::string shorten(std::string_view line, size_t limit = 200);

}  // namespace kalah::kep
