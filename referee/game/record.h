// What one game leaves behind: the journal line of DESIGN §4, as a value type.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "referee/rules/position.h"

namespace kalah {

enum class Termination {
  Normal,       // the rules ended the game (a side empty / no move)
  Majority,     // a store held more than half of all seeds
  Adjudicated,  // stopped by the referee (ply limit)
  Time,
  Crash,
  Illegal,
  Protocol,
  Startup,
};
const char* to_string(Termination t);  // "normal", "majority", ...
std::optional<Termination> parse_termination(std::string_view text);

struct Forfeit {
  std::string engine;  // the name of the engine that lost by forfeit
  std::string reason;  // same words as Termination: "time", "crash", ...
  std::string detail;  // e.g. "exited with code 3", "bestmove 9 (legal: 1 2 4)"
};

// Per-move data: the time the mover took and what it reported.
struct MoveInfo {
  double time_ms = 0;
  std::optional<int> depth;
  std::optional<int> score;
  std::optional<long long> nodes;
};

struct GameRecord {
  std::string id;     // unique within a tournament, stable across resumes
  int round = 0;
  std::string south;  // engine names at the start of the game
  std::string north;
  Variant variant;
  std::vector<Move> opening;  // forced opening moves (part of `moves` too)
  std::vector<Move> moves;    // all moves played, opening included
  std::vector<MoveInfo> move_info;  // one per move after the opening
  Outcome result = Outcome::Ongoing;  // from the view of the engine that started as South
  int store_south = 0;
  int store_north = 0;
  Termination termination = Termination::Normal;
  std::optional<Forfeit> forfeit;
  bool swapped = false;  // a pie swap happened
  std::string started_at;  // ISO 8601 UTC
  double duration_ms = 0;
};

}  // namespace kalah
