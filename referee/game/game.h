// One game between two players: rules, clocks and forfeits.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "referee/game/adjudication.h"
#include "referee/game/player.h"
#include "referee/game/time_control.h"
#include "referee/record/record.h"

namespace kalah {

// Told of each ply as the game loop applies it (the opening's forced moves too), on the game's own thread,
// between the players' moves: it must be cheap and must not throw. `so_far` is the record up to and including
// the ply (its last move); `mover` the player who made it (0: the one who started South); `clock_ms` each
// player's Fischer clock after it (none for a player without one).
class PlyWatch {
 public:
  virtual ~PlyWatch() = default;
  virtual void ply(const GameRecord& so_far, int mover, const std::array<std::optional<double>, 2>& clock_ms) = 0;
};

struct GameSettings {
  std::string id;
  int round = 0;
  Variant variant;
  TimeControl time;                        // the first player's (who starts South), and the second's unless:
  std::optional<TimeControl> second_time;  // the second player's own (time odds)
  std::optional<Position> start;           // the position the game starts from; none: the variant's start
  std::vector<Move> opening;               // legal forced moves played (from the start) before the engines move
  int max_plies = kDefaultMaxPlies;        // adjudicated by material after this many plies
  AdjudicationRules adjudicate;            // the early endings: off unless set
  // The game's seed (game_seed()), passed on with `newgame` to engines that announce `feature seed`;
  // none: nothing is sent.
  std::optional<std::uint32_t> seed;
  PlyWatch* watch = nullptr;  // told of each ply; none: nobody is

  // The time control of player 0 (started South) or 1.
  const TimeControl& time_of(int player) const { return player == 1 && second_time ? *second_time : time; }
};

// The seed of game `game_id` of a tournament (or match) seeded with `tournament_seed`: 0..2^31-1, the
// same wherever and whenever the game is played (docs/PROTOCOL.md, "Seeds"). FNV-1a of the id, mixed
// with the seed by SplitMix64's finaliser.
std::uint32_t game_seed(std::uint64_t tournament_seed, std::string_view game_id);

// Plays a whole game. `south` starts as South. Never throws for anything a
// player does: every misbehaviour ends in the record as a forfeit.
GameRecord play_game(Player& south, Player& north, const GameSettings& settings);

}  // namespace kalah
