// What publishing plies costs the arena (docs/PERFORMANCE.md, "Live plies"): games between two instant-reply
// engines played through the referee's game loop, as a worker plays them, in four ways side by side in one
// run, round after round: without a live file; with the worker's live file (arena/runner/live_file.h); with
// the live file while a watcher reads it as `arena serve` does (an inotify descriptor on the live folder and
// the server's LiveFeed, on a thread of its own at the server's niceness, pausing kLiveReadPause after each read
// as the server does); and
// served: the live file of a tournament that a real `arena serve` process (this build's) follows, with one client
// of its live stream (a thread of the bench that reads it and counts the ply events). Per ply: the wall time and
// the CPU time of the thread that plays (the arena's own work; the engines' is not counted), medians of the
// rounds, and the medians of each round's ratios to the run without a live file. Usage:
// live_bench [games per round] [rounds]
#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include "arena/runner/live_file.h"
#include "arena/serve/live_feed.h"
#include "arena/serve/server.h"
#include "bench/arena_serve.h"
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
    // As the server's threads do (ServeOptions::nice): the games come first.
    errno = 0;
    const int now = ::getpriority(PRIO_PROCESS, 0);
    if (errno == 0) ::setpriority(PRIO_PROCESS, 0, std::min(19, now + kalah::serve::kDefaultNice));
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

// One client of a real server's live stream: a thread of the bench reads it and counts the ply events.
class StreamClient {
 public:
  StreamClient(unsigned short port, const std::string& tournament) {
    fd_ = kalah::bench::connect_loopback(port);
    kalah::bench::send_all(fd_,
                           fmt::format("GET /api/tournaments/{}/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", tournament));
    if (::pipe2(stop_pipe_.data(), O_CLOEXEC) != 0) std::exit(1);
    thread_ = std::thread([this] { run(); });
  }
  ~StreamClient() {
    ::close(stop_pipe_[1]);
    thread_.join();
    ::close(stop_pipe_[0]);
    ::close(fd_);
  }
  StreamClient(const StreamClient&) = delete;
  StreamClient& operator=(const StreamClient&) = delete;
  // The ply events arrived so far, once they are `plies` or none came for `quiet`.
  long long wait_for(long long plies, Clock::duration quiet) {
    std::unique_lock lock(mutex_);
    for (long long before = -1; plies_ < plies && plies_ != before;) {
      before = plies_;
      arrived_.wait_for(lock, quiet, [&] { return plies_ >= plies || plies_ != before; });
    }
    return plies_;
  }

 private:
  void run() {
    static constexpr std::string_view kPly = "\nevent: ply\n";
    std::array<char, 1 << 16> buffer;
    std::string text;  // what was read, after the end of the last read that could begin an event's name
    for (;;) {
      std::array<pollfd, 2> ready{pollfd{fd_, POLLIN, 0}, pollfd{stop_pipe_[0], POLLIN, 0}};
      if (::poll(ready.data(), ready.size(), -1) < 0 || ready[1].revents != 0) return;
      const ssize_t n = ::read(fd_, buffer.data(), buffer.size());
      if (n <= 0) return;
      text.append(buffer.data(), static_cast<std::size_t>(n));
      long long found = 0;
      for (std::size_t at = 0; (at = text.find(kPly, at)) != std::string::npos; at += kPly.size()) ++found;
      text.erase(0, text.size() - std::min(text.size(), kPly.size() - 1));
      std::lock_guard lock(mutex_);
      plies_ += found;
      arrived_.notify_all();
    }
  }
  int fd_ = -1;
  std::array<int, 2> stop_pipe_{-1, -1};
  std::mutex mutex_;
  std::condition_variable arrived_;
  long long plies_ = 0;
  std::thread thread_;
};

struct Sample {
  double wall_us = 0, cpu_us = 0, watcher_cpu_us = 0;  // per ply
  long long plies = 0;
};

enum class Mode { Without, LiveFile, Watched, Served };

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
  return {wall / n, cpu / n, watcher_cpu / n, plies};
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
  // The served tournament: a folder of its own (an empty journal makes it one), which the other modes leave alone.
  const std::filesystem::path served = dir.path() / "served" / "live-bench";
  std::filesystem::create_directories(served);
  std::ofstream(served / "games.jsonl").flush();
  const kalah::bench::ServeProcess server(served.parent_path(), {}, dir.path() / "serve.err");
  StreamClient client(server.port, "live-bench");
  kalah::EngineSpec config;
  config.cmd = KALAH_BINARY_DIR "/tests/engines/instant_engine";
  config.name = "instant-a";
  kalah::EnginePlayer a(config);
  config.name = "instant-b";
  kalah::EnginePlayer b(config);
  play(a, b, 20, Mode::Without, dir.path());  // engines started, caches warm
  constexpr int kModes = 4;
  const Mode modes[kModes] = {Mode::Without, Mode::LiveFile, Mode::Watched, Mode::Served};
  const char* names[kModes] = {"without a live file", "with the live file", "live file, watched",
                               "arena serve, 1 client"};
  std::vector<double> wall[kModes], cpu[kModes], wall_ratio[kModes], cpu_ratio[kModes], watcher_cpu;
  long long served_plies = 0, streamed = 0;
  const double server_cpu0 = server.cpu_seconds();
  for (int round = 0; round < rounds; ++round) {
    Sample got[kModes];
    for (int m = 0; m < kModes; ++m) {
      const int at = (m + round) % kModes;  // each mode in each position of the round in turn
      const Sample s = play(a, b, games, modes[at], modes[at] == Mode::Served ? served : dir.path());
      got[at] = s;
      if (modes[at] == Mode::Watched) watcher_cpu.push_back(s.watcher_cpu_us);
      // The server's reading and streaming of this mode's plies done before the next mode is timed.
      if (modes[at] == Mode::Served)
        streamed = client.wait_for(served_plies += s.plies, std::chrono::milliseconds(500));
    }
    for (int m = 0; m < kModes; ++m) {
      wall[m].push_back(got[m].wall_us);
      cpu[m].push_back(got[m].cpu_us);
      wall_ratio[m].push_back(got[m].wall_us / got[0].wall_us);
      cpu_ratio[m].push_back(got[m].cpu_us / got[0].cpu_us);
    }
  }
  const double server_cpu = server.cpu_seconds() - server_cpu0;
  fmt::print("{} rounds x {} games a mode (instant_engine, 10 plies a game); per ply, medians of the rounds\n", rounds,
             games);
  fmt::print("(x: the median of the rounds' ratios to the same round without a live file):\n");
  for (int m = 0; m < kModes; ++m)
    fmt::print("  {:<22} wall {:6.2f} us ({:.3f}x)   playing thread's CPU {:6.2f} us ({:.3f}x)\n", names[m],
               median(wall[m]), median(wall_ratio[m]), median(cpu[m]), median(cpu_ratio[m]));
  fmt::print("  the watcher's CPU (its thread: reading, parsing, the events made) {:.2f} us a ply\n",
             median(watcher_cpu));
  fmt::print("  arena serve: CPU {:.2f} us a ply served ({:.2f} s in all); its client got {} of the {} plies\n",
             server_cpu * 1e6 / static_cast<double>(served_plies), server_cpu, streamed, served_plies);
  return 0;
}
