// What one game leaves behind, as a plain value type: the game loop fills it in, the journal
// stores it as one line of JSON (referee/record/record_json.h, docs/FORMATS.md).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "referee/rules/position.h"

namespace kalah {

enum class Termination {
  Normal,       // the rules ended the game (a side empty / no move)
  Majority,     // a store held more than half of all seeds
  Adjudicated,  // stopped by the referee: Adjudication says why
  Time,
  Crash,
  Illegal,
  Protocol,
  Startup,
  FileSize,  // killed by SIGXFSZ: it wrote past its max_file_mb (RLIMIT_FSIZE)
  Output,    // wrote more than max_output_kb to its stderr in one game
  Memory,    // killed by the kernel's memory controller: it held more than memory_mb
};
inline constexpr int kTerminations = 11;
const char* to_string(Termination t);  // "normal", "majority", ...
std::optional<Termination> parse_termination(std::string_view text);

// The terminations that are an engine's forfeit, in the order reports list them.
inline constexpr std::array<Termination, 8> kForfeitReasons = {
    Termination::Time,    Termination::Crash,    Termination::Illegal, Termination::Protocol,
    Termination::Startup, Termination::FileSize, Termination::Output,  Termination::Memory};
constexpr bool is_forfeit(Termination t) { return t >= Termination::Time; }

// At most this much of the end of an engine's stderr is kept in the record of its forfeit.
inline constexpr std::size_t kForfeitStderrBytes = 2048;

// An engine's fault, as the game's record keeps it (docs/FORMATS.md, "games.jsonl").
struct Forfeit {
  std::string engine;                       // the name of the engine that lost by forfeit
  Termination reason = Termination::Crash;  // the fault's kind: one of kForfeitReasons
  std::string detail;                       // e.g. "exited with code 3", "bestmove 9 (legal: 1 2 4)"
  // The end of what the engine wrote to its stderr up to the fault: cleaned text (clean_text), at most
  // kForfeitStderrBytes, from a line start where it was cut; empty when it wrote nothing (or none is kept).
  std::string stderr_tail = {};
  // A time forfeit: how many milliseconds past its allowance (the clock plus the margin) the engine was
  // charged when its answer came or the referee stopped waiting.
  std::optional<double> overrun_ms = std::nullopt;
};

// Why the referee stopped a game (Termination::Adjudicated).
enum class AdjudicationReason {
  MaxPlies,       // still running after max_plies: scored as if it ended now, each side's seeds to its owner
  StoreMajority,  // a store holds more than half of all seeds: its owner has won
  Database,       // few enough seeds in the pits: the endgame database's result with perfect play
  Resign,         // an engine's own score said it was lost for long enough
  Draw,           // both engines' scores said it was level for long enough
};
const char* to_string(AdjudicationReason r);  // "max-plies", "store-majority", "database", "resign", "draw"
std::optional<AdjudicationReason> parse_adjudication_reason(std::string_view text);

struct Adjudication {
  AdjudicationReason reason = AdjudicationReason::MaxPlies;
  // Database only: the final store difference with perfect play from the adjudicated position,
  // South's store minus North's (board sides, like `stores`), seeds already stored included.
  std::optional<int> margin;
  friend bool operator==(const Adjudication&, const Adjudication&) = default;
};
// For people: "database: with perfect play South ends 4 seeds ahead", "resign: ...".
std::string describe(const Adjudication& a);

// A game id is a name, never a path: it names the game's transcript, transcripts/<id>.log, so an id read
// from a journal (untrusted when a published folder is checked) is 1 to kMaxGameId letters, digits, '.',
// '_' and '-', not starting with '.' (no '/', no "..", nothing a shell or a file system reads otherwise).
inline constexpr std::size_t kMaxGameId = 128;
inline bool is_game_id(std::string_view id) {
  if (id.empty() || id.size() > kMaxGameId || id.front() == '.') return false;
  for (const char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
          c == '-'))
      return false;
  return true;
}

// Per-move data: the time the mover took and what it reported.
struct MoveInfo {
  double time_ms = 0;  // the time charged: wall time, or CPU time on a CPU clock
  std::optional<int> depth;
  std::optional<int> score;
  std::optional<long long> nodes;
  std::optional<double> wall_ms;  // on a CPU clock, the move's wall time beside the CPU time charged
};

struct GameRecord {
  // Where the moves are played from: `start`, or the variant's standard start.
  Position initial_position() const { return start ? *start : start_position(variant); }

  std::string id;  // unique within a tournament, stable across resumes
  int round = 0;
  std::string south;  // engine names at the start of the game
  std::string north;
  Variant variant;
  std::optional<Position> start;      // the start position; none: the variant's standard start
  std::vector<Move> opening;          // forced opening moves (part of `moves` too)
  std::vector<Move> moves;            // all moves played, opening included
  std::vector<MoveInfo> move_info;    // one per move after the opening
  Outcome result = Outcome::Ongoing;  // from the view of the engine that started as South
  int store_south = 0;
  int store_north = 0;
  Termination termination = Termination::Normal;
  std::optional<Forfeit> forfeit;
  std::optional<Adjudication> adjudication;  // why, when termination is Adjudicated (absent in old journals)
  bool swapped = false;                      // a pie swap happened
  std::string started_at;                    // ISO 8601 UTC
  double duration_ms = 0;
};

}  // namespace kalah
