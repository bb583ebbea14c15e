// The engine's part of `referee suite`: every labelled position sent to one engine process as a game of its
// own (newgame, isready, `position startpos moves ...`, `go movetime`), its answer judged as the game loop
// judges a move (a fault, then the time, then legality). A misbehaving engine is killed and started again
// for the next position, as after a forfeit; nothing it does is an exception.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "referee/engine/engine_player.h"
#include "referee/game/time_control.h"
#include "referee/suite/grading.h"
#include "referee/suite/labels.h"

namespace kalah::suite {

struct RunSettings {
  // movetime_ms for `go movetime`, margin_ms beyond it before a time failure, startup_ms and ping_ms.
  TimeControl time;
  // Position i is game "p<i+1>" of this seed for an engine that announces `feature seed` (game_seed()), so
  // an engine that plays with randomness answers the same way every run.
  std::uint64_t seed = 1;
  // Or, when set, the seed of position i (from 0): the contest's gate derives them with its results folder's
  // secret, so that they look like any game's.
  std::function<std::uint32_t(std::size_t)> seed_of;
  // When set, the `go` every position is sent and the wall time its answer may take (beyond it a time
  // failure), instead of `go movetime` time.movetime_ms and that plus time.margin_ms: the gate sends the
  // contest's own form of `go`.
  std::optional<kep::Go> go;
  std::chrono::milliseconds allowed{0};
};

// After this many positions in a row where the engine could not even be made ready (started, newgame,
// readyok), the rest are failed without being sent: each would fail the same way.
inline constexpr int kMaxUnreadyInARow = 2;

// The legal moves of `p`, as the failure details name them: "1 3 4".
std::string legal_text(const Variant& v, const Position& p);

// Plays the positions in order with `player` and returns one answer each, handing each to `report` as soon
// as it is known.
std::vector<Answer> run_positions(EnginePlayer& player, const Variant& v,
                                  const std::vector<LabelledPosition>& positions, const RunSettings& settings,
                                  const std::function<void(std::size_t, const Answer&)>& report);

}  // namespace kalah::suite
