// What publishing plies costs the arena (docs/PERFORMANCE.md, "Live plies"): games between two instant-reply
// engines played through the referee's game loop, as a worker plays them, in three ways side by side in one
// run, round after round: without a live file; with the worker's live file (arena/runner/live_file.h); and with
// the live file while a watcher reads it as `arena serve` does (an inotify descriptor on the live folder and
// the server's LiveFeed, on a thread of its own, pausing kLiveReadPause after each read as the server does). Per ply:
// the wall time and the CPU time of the thread that plays (the arena's own work; the engines' is not counted). Usage:
// live_bench [games per round] [rounds]
#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include "arena/runner/live_file.h"
#include "arena/serve/live_feed.h"
#include "referee/engine/engine_player.h"
#include "referee/game/game.h"
#include "referee/system/temp_folder.h"

namespace {

using Clock = std::chrono::steady_clock;

double thread_cpu_us() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) / 1e3;
}

// The server's side, in process: inotify on the live folder, the changed file read by a LiveFeed.
class Watcher {
 public:
  explicit Watcher(const std::filesystem::path& dir) : feed_(dir, 1) {
    fd_ = ::inotify_init1(IN_CLOEXEC);
    if (::pipe2(stop_pipe_.data(), O_CLOEXEC) != 0) std::exit(1);
    ::inotify_add_watch(fd_, (dir / kalah::arena::live::kFolder).c_str(), IN_MODIFY | IN_CREATE);
    feed_.start();
    thread_ = std::thread([this] { run(); });
  }
  ~Watcher() {
    stop();
    ::close(stop_pipe_[0]);
    ::close(fd_);
  }
  // Ends the watcher's thread and returns its CPU time, in microseconds.
  double stop() {
    if (thread_.joinable()) {
      ::close(stop_pipe_[1]);  // the poll returns
      thread_.join();
    }
    return cpu_us_;
  }

 private:
  void run() {
    watch();
    cpu_us_ = thread_cpu_us();
  }
  void watch() {
    alignas(inotify_event) std::array<char, 1 << 16> buffer;
    for (;;) {
      std::array<pollfd, 2> ready{pollfd{fd_, POLLIN, 0}, pollfd{stop_pipe_[0], POLLIN, 0}};
      if (::poll(ready.data(), ready.size(), -1) < 0 || ready[1].revents != 0) return;
      const ssize_t n = ::read(fd_, buffer.data(), buffer.size());
      if (n <= 0) return;
      feed_.look_live();
      // As the server does: the plies of the next kLiveReadPause are read together (or the bench stops).
      std::array<pollfd, 1> stop{pollfd{stop_pipe_[0], POLLIN, 0}};
      if (::poll(stop.data(), 1, static_cast<int>(kalah::serve::kLiveReadPause.count())) != 0) return;
    }
  }
  kalah::serve::LiveFeed feed_;
  int fd_ = -1;
  std::array<int, 2> stop_pipe_{-1, -1};
  double cpu_us_ = 0;  // written by the thread before it ends
  std::thread thread_;
};

struct Sample {
  double wall_us = 0, cpu_us = 0, watcher_cpu_us = 0;  // per ply
};

enum class Mode { Without, LiveFile, Watched };

Sample play(kalah::EnginePlayer& a, kalah::EnginePlayer& b, int games, Mode mode, const std::filesystem::path& dir) {
  std::optional<kalah::arena::live::Publisher> live;
  std::optional<Watcher> watcher;
  if (mode != Mode::Without) live.emplace(dir, std::nullopt, 0);
  if (mode == Mode::Watched) watcher.emplace(dir);
  kalah::GameSettings s;
  s.time.base_ms = 60000;
  s.time.inc_ms = 0;
  if (live) s.watch = &*live;
  long long plies = 0;
  const auto t0 = Clock::now();
  const double c0 = thread_cpu_us();
  for (int g = 0; g < games; ++g) {
    s.id = "g" + std::to_string(g);
    if (live) live->start(s.id, "instant-a", "instant-b");
    const kalah::GameRecord r = g % 2 ? kalah::play_game(b, a, s) : kalah::play_game(a, b, s);
    if (live) live->end(true);
    if (r.forfeit) {
      fmt::print(stderr, "unexpected forfeit: {}\n", r.forfeit->detail);
      std::exit(1);
    }
    plies += static_cast<long long>(r.moves.size());
  }
  const double cpu = thread_cpu_us() - c0;
  const double wall = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
  const double watcher_cpu = watcher ? watcher->stop() : 0;
  const auto n = static_cast<double>(plies);
  return {wall / n, cpu / n, watcher_cpu / n};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int games = argc > 1 ? std::atoi(argv[1]) : 500;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 7;
  kalah::system::TempFolder dir("live-bench");
  kalah::EngineSpec config;
  config.cmd = KALAH_BINARY_DIR "/tests/engines/instant_engine";
  config.name = "instant-a";
  kalah::EnginePlayer a(config);
  config.name = "instant-b";
  kalah::EnginePlayer b(config);
  play(a, b, 20, Mode::Without, dir.path());  // engines started, caches warm
  const Mode modes[] = {Mode::Without, Mode::LiveFile, Mode::Watched};
  const char* names[] = {"without a live file", "with the live file", "live file, watched"};
  std::vector<double> wall[3], cpu[3], watcher_cpu;
  for (int round = 0; round < rounds; ++round)
    for (int m = 0; m < 3; ++m) {
      const int at = (m + round) % 3;  // each mode in each position of the round in turn
      const Sample s = play(a, b, games, modes[at], dir.path());
      wall[at].push_back(s.wall_us);
      cpu[at].push_back(s.cpu_us);
      if (modes[at] == Mode::Watched) watcher_cpu.push_back(s.watcher_cpu_us);
    }
  fmt::print("{} rounds x {} games a mode (instant_engine, 10 plies a game); medians per ply:\n", rounds, games);
  for (int m = 0; m < 3; ++m)
    fmt::print("  {:<20} wall {:6.2f} us ({:.3f}x)   playing thread's CPU {:6.2f} us ({:.3f}x)\n", names[m],
               median(wall[m]), median(wall[m]) / median(wall[0]), median(cpu[m]), median(cpu[m]) / median(cpu[0]));
  fmt::print("  the watcher's CPU (its thread: reading, parsing, the events made) {:.2f} us a ply\n",
             median(watcher_cpu));
  return 0;
}
