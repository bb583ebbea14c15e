// A Player backed by an engine process speaking KEP. It owns the process:
// starts it on first use, restarts it after a forfeit or crash, and shuts it
// down (quit, grace period, SIGKILL to its process group) when destroyed.
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "referee/engine/engine_spec.h"
#include "referee/engine/move_clock.h"
#include "referee/engine/sandbox.h"
#include "referee/game/player.h"
#include "referee/process/engine_process.h"

namespace kalah {

// What KEP and adapter players share: one engine child process, its
// communication log, and how its misbehaviour is described.
class ProcessPlayer : public Player {
 public:
  explicit ProcessPlayer(EngineSpec spec);
  ~ProcessPlayer() override;

  const std::string& name() const override { return spec_.name; }
  std::string stderr_tail() override;
  void forfeited() override;
  void abort() override;
  void attach(Transcript* transcript) override;

  // Quits the engine (grace period, then SIGKILL to its group); the next game restarts it.
  void stop();
  // Writes `quit` alone, leaving the engine's input open, and waits up to `grace` for it to exit: how it
  // exited, or nullopt when it was still running (or was not). Then stops it like stop(). For
  // `referee check`, which must tell an engine that obeys quit from one that only exits at end of input.
  std::optional<process::ExitInfo> quit_and_wait(std::chrono::milliseconds grace);
  int restarts() const { return starts_ > 0 ? starts_ - 1 : 0; }

 protected:
  using Deadline = std::chrono::steady_clock::time_point;
  // Starts the process; a failure is a `startup` fault. With a CPU clock asked for (use_clock) the
  // engine is put in a group that counts its CPU time, where one can be made. `startup`: the deadline of
  // its handshake, which a KGP agent's host passes on to its agent (with_kgp_startup).
  std::optional<Fault> spawn(std::optional<std::chrono::milliseconds> startup = std::nullopt);
  // The game's clock (docs/PROCESSES.md, "CPU time"): remembered for the next spawn(), and, once the
  // process runs, the MoveClock that play() waits on. new_game() calls it before and after starting.
  void use_clock(const TimeControl& time);
  // Writes one or more lines ('\n'-separated) in one write.
  bool send(const std::string& text, Deadline deadline);
  // Reads one line into line_ (logged when it is a line).
  int read(Deadline deadline);  // a process::Status
  // A crash fault naming how the engine ended (waits briefly for its exit). `writing`: a write to the
  // engine failed (rather than a read), so a live engine closed or stopped reading its stdin.
  Fault crash_fault(const char* while_doing, bool writing = false);
  // An `output` fault: the engine wrote more than max_output_kb to its stderr in this game.
  Fault output_fault(const char* while_doing);
  std::string describe_exit();
  // "; its stderr ends: \"...\"": the last lines the engine wrote to its stderr (cleaned, on one line,
  // at most kStderrEndingBytes), for the detail of a fault; empty when it wrote nothing or none is kept.
  // What it takes stays in the game's transcript.
  std::string stderr_ending();
  void log(char direction, std::string_view line);
  void kill_now();
  // Waits for the reply to a move request timed by `clock` (started just before the request): the line
  // `parse` turns into a move. Reads lines until `parse` returns true for one (it fills in the move or a
  // fault) or the clock says the move is over its time.
  Reply await_move(MoveClock& clock, const std::function<bool(Reply&)>& parse);

  EngineSpec spec_;
  // Declared before the process so that it is destroyed after it: a sandbox's folder is removed and its
  // uid given back only once every process of it has been killed and reaped.
  std::optional<Sandbox> sandbox_;
  std::unique_ptr<process::EngineProcess> process_;
  std::string line_;                                                  // reused read buffer
  std::unique_ptr<MoveClock> clock_ = std::make_unique<WallClock>();  // of the game being played

 private:
  void set_kill_switch(process::KillSwitch kill_switch);
  // Keeps what the running process wrote to stderr for the transcript, before the process goes.
  void keep_stderr_tail();
  // Adds what the process wrote to stderr to recent_stderr_.
  void remember_stderr(std::string_view text);

  std::FILE* comm_log_ = nullptr;
  Transcript* transcript_ = nullptr;         // of the game being played, if it keeps one
  process::EngineProcess::StderrTail tail_;  // stderr of processes already gone in this game
  std::string recent_stderr_;     // the end of the running process's stderr, for a fault's record (stderr_tail)
  std::mutex kill_switch_mutex_;  // abort() runs on another thread than everything else
  process::KillSwitch kill_switch_;
  int starts_ = 0;
  ClockKind clock_kind_ = ClockKind::Wall;
};

// What an engine may write before kepok (its banner, options and features), in bytes: more is a
// start-up forfeit, never memory the arena keeps growing.
inline constexpr std::size_t kMaxHandshakeBytes = 1 << 20;
// How much of an engine's last stderr a fault's detail quotes (ProcessPlayer::stderr_ending).
inline constexpr std::size_t kStderrEndingBytes = 600;

// A player speaking KEP (docs/PROTOCOL.md); the engine persists across games.
class EnginePlayer : public ProcessPlayer {
 public:
  explicit EnginePlayer(EngineSpec spec) : ProcessPlayer(std::move(spec)) {}

  void set_seed(std::optional<std::uint32_t> seed) override { seed_ = seed; }
  std::optional<Fault> new_game(const Variant& v, const std::optional<Position>& start,
                                const TimeControl& time) override;
  Reply play(const std::vector<Move>& moves, const kep::Go& go, std::chrono::milliseconds allowed) override;
  // With restart = "always" the process ends with its game, so that nothing it left running (a search,
  // processes it started) goes on beside the next game of its worker.
  void game_over(const std::vector<Move>& moves) override;

  // Starts the engine and completes the handshake within `deadline` (new_game does it when needed).
  std::optional<Fault> start(std::chrono::milliseconds deadline);
  // What the engine said about itself in the handshake.
  const std::string& engine_id_name() const { return id_name_; }
  const std::string& engine_id_author() const { return id_author_; }
  std::string identity() const override;
  // Whether the engine announced `feature <name>` in its handshake (after start()).
  bool has_feature(std::string_view name) const;
  // The options it declared in its last handshake, and the lines there that looked like a known message
  // but were not well formed (an `option` line without a type): what `referee check` judges.
  const std::vector<kep::OptionDecl>& declared_options() const { return declared_options_; }
  const std::vector<kep::Malformed>& malformed_handshake_lines() const { return malformed_lines_; }
  // What is wrong with the options this engine is given (its spec's `options`) against what it declared in
  // its last handshake: one line per option it does not take as given (kep::setting_problem), each ending
  // with what the engine declares. Empty when all are fine. A tournament refuses to start on any
  // (docs/PROTOCOL.md, "Options").
  std::vector<std::string> option_problems() const;

  // `isready` alone: readyok within `ping`, else a `protocol` fault (a `crash` one if the engine is gone).
  std::optional<Fault> ping(std::chrono::milliseconds ping);
  // Asks for a move as play() does, with an open-ended `go` (depth or nodes); if no move has come after
  // `stop_after`, writes `stop` (and sets `stop_sent`), after which the move must come within `allowed`. The
  // reply's elapsed_ms counts from the stop, or from the request when the move came first.
  Reply play_until_stop(const std::vector<Move>& moves, const kep::Go& go, std::chrono::milliseconds stop_after,
                        std::chrono::milliseconds allowed, bool& stop_sent);

  // The answer to `bench` (docs/PROTOCOL.md, "Bench"): the engine's count, or what went wrong.
  struct BenchReply {
    std::optional<kep::BenchResult> result;
    std::optional<Fault> fault;  // `protocol` (no answer in time, a malformed one, too much said), `crash`, `output`
    double elapsed_ms = 0;
  };
  // Sends `bench` to the running engine (one that announced `feature bench`, outside a game) and reads its
  // answer within `allowed`; only info and empty lines may come before it, at most kMaxHandshakeBytes in all.
  // After a fault the caller kills the engine (forfeited()): it may still be benching.
  BenchReply bench(std::chrono::milliseconds allowed);

 private:
  // Reads until readyok (before `deadline`, which is `ping` from now), classifying what goes wrong.
  std::optional<Fault> await_ready(std::chrono::steady_clock::time_point deadline, std::chrono::milliseconds ping);
  // Reads what the engine said since its last answer: a bestmove among it is a stale answer (a fault).
  std::optional<Fault> drain_unasked();
  // Waits for `bestmove` after a request: only info and empty lines may come first.
  Reply await_bestmove(MoveClock& clock);

  std::string id_name_;
  std::string id_author_;
  std::vector<std::string> features_;
  std::string start_;                  // this game's start in KEP notation; empty: startpos
  std::optional<std::uint32_t> seed_;  // this game's seed, sent with newgame if the engine has `feature seed`
  std::vector<kep::OptionDecl> declared_options_;
  std::vector<kep::Malformed> malformed_lines_;
};

// Makes the player for an engine's protocol.
std::unique_ptr<ProcessPlayer> make_player(EngineSpec spec);

}  // namespace kalah
