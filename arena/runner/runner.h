// Plays games on `concurrency` worker threads, journals each finished game
// before it is reported, and stops cleanly when interrupted.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "arena/config/config.h"
#include "arena/journal/journal.h"
#include "arena/runner/game_source.h"
#include "arena/runner/start_watch.h"
#include "referee/engine/engine_spec.h"
#include "referee/game/game.h"
#include "referee/game/seed_secret.h"
#include "referee/game/transcript.h"
#include "referee/rules/expected.h"

namespace kalah::arena {

struct RunResult {
  int played = 0;
  bool interrupted = false;
  bool limited = false;          // interrupted because the game limit (set_game_limit) was reached
  std::string error;             // the journal could not be written: the run stopped
  std::string transcript_error;  // the first transcript that could not be written (the run went on)
  // An engine never started in its first games (StartWatch): why the run stopped, and what to do.
  std::string engine_failure;
  // The engines that failed to start and never started in this run (a contest's entrants forfeit on).
  std::vector<StartWatch::NeverStarted> never_started;
  // What each engine said about itself (Player::identity) the first time it did, by engine name.
  std::map<std::string, std::string> identities;
};

// Makes the player for one engine of the config. The runner's default starts engine processes
// (kalah::make_player); tests pass in-process players.
using PlayerFactory = std::function<std::unique_ptr<Player>(const EngineSpec&)>;
PlayerFactory process_players();

// Games played somewhere else than on the runner's own workers (a season's ladder on Slurm, docs/SEASON.md): each
// worker hands its game to `play`, which blocks until the game's record is back or says why it is not. The record
// is then journaled and reported as a game played here. A game that comes back without a record stops the run as
// an engine that never starts does (RunResult::engine_failure): it is not in the journal, so it is chosen again
// by the next run. `abort` (from interrupt(), any thread) makes the `play` calls in flight return at once.
struct PlayElsewhere {
  std::function<Expected<GameRecord>(const GameSpec&)> play;
  std::function<void()> abort;
};

// The endgame database that `adjudicate.database_seeds` needs (null when it is not configured):
// read from the solver's cache directory (endgame::default_cache_dir()) as far as a file there has
// the levels, built for the rest on `threads` threads and saved back. Called once per run, before
// the first game; every game thread then reads the same database. `note` (if given) receives a line
// for people: the levels, the size and where they came from.
std::shared_ptr<const endgame::Database> adjudication_database(const Config& config, int threads,
                                                               std::string* note = nullptr);

class Runner {
 public:
  // Called under the runner's lock after each game is safely in the journal (on the disk), in the
  // journal's order, on the runner's committer thread.
  using OnGame = std::function<void(const GameSpec&, const GameRecord&)>;

  Runner(const Config& config, journal::Journal& journal, GameSource& source, OnGame on_game,
         PlayerFactory make_player = process_players());

  // Worker i runs its games (both engines) on cpu_slots(config)[i] when the config pins; the flow
  // has checked that the slots can be made.
  RunResult run(int concurrency);

  // Safe from another thread (the signal thread): games in flight are
  // abandoned (their engines are killed) and nothing more is started.
  void interrupt();

  // The database for `adjudicate.database_seeds` (adjudication_database); none: no lookups.
  void set_database(std::shared_ptr<const endgame::Database> db) { database_ = std::move(db); }
  // Stop as if interrupted once `games` games were played by this run (0: no limit): the games in flight
  // then are cut short and played again on resume.
  void set_game_limit(int games) { game_limit_ = games; }
  // The games are played by `elsewhere` instead of engine processes started here; before run().
  void set_play_elsewhere(PlayElsewhere elsewhere) { elsewhere_ = std::move(elsewhere); }

  // The secret the games' seeds are derived with (journal::load_or_make_seed_secret); until it is set, one
  // of the runner's own, made at random, so that no game is ever sent a seed anyone can work out.
  void set_seed_secret(const SeedSecret& secret) { secret_ = secret; }

  // What the game loop needs to play `spec` under `config` (and the adjudication database).
  static GameSettings settings_for(const Config& config, const GameSpec& spec, const SeedSecret& secret,
                                   std::shared_ptr<const endgame::Database> database = nullptr);

 private:
  using Engines = std::map<int, std::unique_ptr<Player>>;
  // A game in the journal, not yet known to be on the disk nor reported.
  struct Written {
    std::size_t count;  // the journal's games up to and including this one (Journal::sync_through)
    GameSpec spec;
    GameRecord record;
    GameSettings settings;
    Transcript transcript;
  };
  void work(int slot);
  // work() with the games played elsewhere (runner_elsewhere.cpp).
  void work_elsewhere();
  // A game played: in the journal (the journal's order), told to the source, queued for the committer. Under the
  // lock; false when the run stops (the journal failed).
  bool record_played(const GameSpec& spec, GameRecord record, GameSettings settings, Transcript transcript);
  // The committer thread: syncs the games written (one fdatasync for all written so far), then reports
  // them in the journal's order: transcripts, on_game. Returns when the workers are done and all is reported.
  void commit();
  // The journal could not be written or synced: the run stops with `error`. Under the lock.
  void fail(const std::string& error);
  // <results>/transcripts/<game id>.log; called under the runner's lock.
  void write_transcript(const GameRecord& record, const GameSettings& settings, const Transcript& transcript);
  Player& player(Engines& cache, int engine, int keep, const std::string& game_id, int slot);

  const Config& config_;
  journal::Journal& journal_;
  GameSource& source_;
  OnGame on_game_;
  PlayerFactory make_player_;
  std::mutex mutex_;
  std::condition_variable wake_;             // a game finished or the run stops: waiting workers ask the source again
  std::condition_variable written_changed_;  // a game was written, or the workers are done: the committer looks
  std::deque<Written> written_;              // written, in the journal's order, not yet synced and reported
  bool workers_done_ = false;
  bool committer_idle_ = false;  // the committer waits for a first game to sync: a worker that writes one wakes it
  bool failed_ = false;          // the journal could not be written or synced
  std::atomic<bool> stop_{false};
  std::set<Player*> active_;  // players in a running game, for interrupt()
  RunResult result_;
  std::vector<std::vector<int>> slot_cpus_;  // per worker, under pinning (cpu_slots, pinning.h)
  std::shared_ptr<const endgame::Database> database_;
  SeedSecret secret_ = SeedSecret::random();
  int written_this_run_ = 0;  // games this run wrote to the journal (the game limit counts them)
  int game_limit_ = 0;
  StartWatch start_watch_;   // under the lock
  PlayElsewhere elsewhere_;  // empty: the games are played here
};

}  // namespace kalah::arena
