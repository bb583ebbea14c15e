// A Player backed by an engine process speaking KEP. It owns the process:
// starts it on first use, restarts it after a forfeit or crash, and shuts it
// down (quit, grace period, SIGKILL to its process group) when destroyed.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "referee/game/player.h"

namespace kalah::process {
class EngineProcess;
}

namespace kalah {

struct EngineConfig {
  std::string name;
  std::string cmd;
  std::vector<std::string> args;
  std::string dir;  // working directory; empty = the arena's
  std::vector<std::pair<std::string, std::string>> options;  // sent with setoption, in order
  std::string stderr_log;  // the engine's stderr goes here (empty: discarded)
  std::string comm_log;    // every line exchanged is appended here (empty: none)
  std::chrono::milliseconds startup_timeout{5000};  // from spawn to kepok
  std::chrono::milliseconds ping_timeout{5000};     // newgame + isready -> readyok
  std::chrono::milliseconds quit_grace{200};        // after quit, before SIGKILL
  bool restart_each_game = false;
};

class EnginePlayer : public Player {
 public:
  explicit EnginePlayer(EngineConfig config);
  ~EnginePlayer() override;

  const std::string& name() const override { return config_.name; }
  std::optional<Fault> new_game(const Variant& v) override;
  Reply play(const std::vector<Move>& moves, const kep::Go& go, std::chrono::milliseconds allowed) override;
  void forfeited() override;

  // Starts the engine and completes the handshake (new_game does it when needed).
  std::optional<Fault> start();
  // Quits the engine (grace period, then SIGKILL to its group); the next game restarts it.
  void stop();
  // What the engine said about itself in the handshake.
  const std::string& engine_id_name() const { return id_name_; }
  // The running engine's pid (its process group id), or -1; safe from any thread.
  int pid() const { return pid_; }
  int restarts() const { return starts_ > 0 ? starts_ - 1 : 0; }

 private:
  using Deadline = std::chrono::steady_clock::time_point;
  bool send(const std::string& text, Deadline deadline);
  // A crash fault naming how the engine ended (waits briefly for its exit).
  std::optional<Fault> crash_fault(const char* while_doing);
  std::string describe_exit();
  void log(char direction, std::string_view line);

  EngineConfig config_;
  std::unique_ptr<process::EngineProcess> process_;
  std::FILE* comm_log_ = nullptr;
  std::string id_name_;
  std::string line_;  // reused read buffer
  std::atomic<int> pid_{-1};
  int starts_ = 0;
  bool in_game_ = false;
};

}  // namespace kalah
