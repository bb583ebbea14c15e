// An adapter for agents written for the Manchester Kalah game engine (the
// protocol of the University of Manchester's Kalah(7,7) bot contest):
//   engine -> agent: START;South|North   CHANGE;<n|SWAP>;<board>;YOU|OPP|END   END
//   agent -> engine: MOVE;<n>   SWAP
// <board> lists North's holes from North's hole 1, North's store, South's holes,
// South's store. An agent plays one game per process and exits after END, so
// the adapter starts the agent for every game. It has no clock messages; the
// referee's clock still applies.
#pragma once

#include "referee/engine/engine_player.h"

namespace kalah {

class MankalahPlayer : public ProcessPlayer {
 public:
  explicit MankalahPlayer(EngineSpec spec) : ProcessPlayer(std::move(spec)) {}

  std::optional<Fault> new_game(const Variant& v, const std::optional<Position>& start,
                                const TimeControl& time) override;
  Reply play(const std::vector<Move>& moves, const kep::Go& go, std::chrono::milliseconds allowed) override;
  void game_over(const std::vector<Move>& moves) override;

 private:
  // The CHANGE lines for moves[synced_..] as seen by player `me` (0 = started South).
  std::string changes(const std::vector<Move>& moves, int me);

  Variant variant_;
  std::chrono::milliseconds ping_{5000};  // the deadline for the goodbye after a game
  bool started_ = false;
  int me_ = -1;
  size_t synced_ = 0;
};

}  // namespace kalah
