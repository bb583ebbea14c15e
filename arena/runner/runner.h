// Plays games on `concurrency` worker threads, journals each finished game
// before it is reported, and stops cleanly when interrupted.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "arena/config/config.h"
#include "arena/journal/journal.h"
#include "arena/runner/game_source.h"
#include "referee/engine/engine_spec.h"
#include "referee/game/game.h"

namespace kalah::arena {

struct RunResult {
  int played = 0;
  bool interrupted = false;
  std::string error;  // the journal could not be written: the run stopped
  // What each engine said about itself (Player::identity) the first time it did, by engine name.
  std::map<std::string, std::string> identities;
};

// Makes the player for one engine of the config. The runner's default starts engine processes
// (kalah::make_player); tests pass in-process players.
using PlayerFactory = std::function<std::unique_ptr<Player>(const EngineSpec&)>;
PlayerFactory process_players();

class Runner {
 public:
  // Called under the runner's lock after each game is safely in the journal.
  using OnGame = std::function<void(const GameSpec&, const GameRecord&)>;

  Runner(const Config& config, journal::Journal& journal, GameSource& source, OnGame on_game,
         PlayerFactory make_player = process_players());

  // Worker i runs its games (both engines) on cpu_slots(config)[i] when the config pins; the flow
  // has checked that the slots can be made.
  RunResult run(int concurrency);

  // Safe from another thread (the signal thread): games in flight are
  // abandoned (their engines are killed) and nothing more is started.
  void interrupt();

  // What the game loop needs to play `spec` under `config`.
  static GameSettings settings_for(const Config& config, const GameSpec& spec);

 private:
  using Engines = std::map<int, std::unique_ptr<Player>>;
  void work(int slot);
  Player& player(Engines& cache, int engine, int keep, const std::string& game_id, int slot);

  const Config& config_;
  journal::Journal& journal_;
  GameSource& source_;
  OnGame on_game_;
  PlayerFactory make_player_;
  std::mutex mutex_;
  std::condition_variable wake_;  // a game finished or the run stops: waiting workers ask the source again
  std::atomic<bool> stop_{false};
  std::set<Player*> active_;  // players in a running game, for interrupt()
  RunResult result_;
  std::vector<std::vector<int>> slot_cpus_;  // per worker, under pinning (Config::cpu_slots)
};

}  // namespace kalah::arena
