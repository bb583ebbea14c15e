// One game between two players: rules, clocks and forfeits.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "referee/game/adjudication.h"
#include "referee/game/player.h"
#include "referee/game/time_control.h"
#include "referee/record/record.h"

namespace kalah {

struct GameSettings {
  std::string id;
  int round = 0;
  Variant variant;
  TimeControl time;                        // the first player's (who starts South), and the second's unless:
  std::optional<TimeControl> second_time;  // the second player's own (time odds)
  std::optional<Position> start;           // the position the game starts from; none: the variant's start
  std::vector<Move> opening;               // legal forced moves played (from the start) before the engines move
  int max_plies = 1000;                    // adjudicated by material after this many plies
  AdjudicationRules adjudicate;            // the early endings: off unless set
  // The game's seed (game_seed()), passed on with `newgame` to engines that announce `feature seed`;
  // none: nothing is sent.
  std::optional<std::uint32_t> seed;

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
