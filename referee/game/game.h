// One game between two players: rules, clocks and forfeits.
#pragma once

#include "referee/game/player.h"
#include "referee/game/record.h"

namespace kalah {

struct TimeControl {
  enum class Mode { Clock, MoveTime, Depth, Nodes };
  Mode mode = Mode::Clock;
  long long base_ms = 10000;  // Clock: Fischer base and increment
  long long inc_ms = 100;
  long long movetime_ms = 0;  // MoveTime
  int depth = 0;              // Depth
  long long nodes = 0;        // Nodes
  long long margin_ms = 50;   // grace beyond the allowed time before a time forfeit
  long long hard_limit_ms = 60000;  // per move in Depth and Nodes modes

  std::string describe() const;  // "10+0.1", "movetime 100", "depth 6", "nodes 1000"
};

struct GameSettings {
  std::string id;
  int round = 0;
  Variant variant;
  TimeControl time;
  std::vector<Move> opening;  // legal forced moves played before the engines move
  int max_plies = 1000;       // adjudicated by material after this many plies
};

// Plays a whole game. `south` starts as South. Never throws for anything a
// player does: every misbehaviour ends in the record as a forfeit.
GameRecord play_game(Player& south, Player& north, const GameSettings& settings);

}  // namespace kalah
