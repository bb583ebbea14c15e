// `arena serve` under 1000 live clients (docs/PERFORMANCE.md, "arena serve: 1000 browsers following a run"):
// the real server (the `arena` executable, started here on a free loopback port) streams one tournament whose
// workers' live files are written by this bench through the arena's own publisher (arena::live::Publisher, one
// write(2) per ply, as a worker of `arena run` writes them), a game of random legal moves at a time per worker,
// a ply every INTERVAL ms per worker. CLIENTS connections follow the tournament's live stream (Server-Sent
// Events), all read by one thread of this bench on epoll. Measured in one run, side by side:
//   - the floor: a TCP round trip on loopback between two threads of the bench, and an HTTP request's round trip
//     to the server (GET /app.css on a kept-alive connection) while it is idle;
//   - from a ply being written (the time before its write(2)) to its arrival at each client (the time epoll
//     reported its socket readable): p50, p95, p99 and the largest, over every (ply, client);
//   - the HTTP round trip again while the server streams to every client;
//   - the server's CPU time over the streaming (utime + stime of /proc/PID/stat), and its memory (VmHWM).
// Bounded: PLIES plies in all, and a deadline (the plies' time plus 60 s) for the clients to receive them.
// Usage: sse_bench [clients 1000] [plies 2000] [interval ms 10] [workers 2]
#include <fcntl.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include "arena/runner/live_file.h"
#include "bench/arena_serve.h"
#include "referee/rules/position.h"
#include "referee/system/temp_folder.h"

namespace {

namespace fs = std::filesystem;
using kalah::bench::connect_loopback;
using kalah::bench::send_all;
using Clock = std::chrono::steady_clock;

[[noreturn]] void fail(const std::string& message) {
  fmt::print(stderr, "sse_bench: {}\n", message);
  std::exit(1);
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  const std::size_t at = std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(at), v.end());
  return v[at];
}

double micros(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

// The soft limit of open files raised to the hard one: the clients' sockets here, the server's (inherited) there.
void raise_descriptor_limit(std::size_t needed) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) fail("getrlimit");
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < needed)
    fail(fmt::format("{} descriptors needed, the hard limit is {} (ulimit -Hn)", needed, limit.rlim_cur));
}

// The floor: a one-byte TCP round trip on loopback between two threads, in microseconds.
std::vector<double> tcp_round_trips(int n) {
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  if (::bind(listener, reinterpret_cast<sockaddr*>(&address), size) != 0 || ::listen(listener, 1) != 0 ||
      ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &size) != 0)
    fail("cannot listen on loopback");
  std::thread echo([listener, n] {
    const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    char byte = 0;
    for (int i = 0; i < n && ::recv(fd, &byte, 1, 0) == 1; ++i) ::send(fd, &byte, 1, MSG_NOSIGNAL);
    ::close(fd);
  });
  const int fd = connect_loopback(ntohs(address.sin_port));
  std::vector<double> out;
  char byte = 'x';
  for (int i = 0; i < n; ++i) {
    const Clock::time_point t0 = Clock::now();
    send_all(fd, std::string_view(&byte, 1));
    if (::recv(fd, &byte, 1, MSG_WAITALL) != 1) fail("echo failed");
    out.push_back(micros(Clock::now() - t0));
  }
  ::close(fd);
  echo.join();
  ::close(listener);
  return out;
}

// An HTTP request's round trip to the server: GET /app.css on one kept-alive connection, `n` times, `pause`
// between them; in microseconds.
std::vector<double> http_round_trips(unsigned short port, int n, std::chrono::milliseconds pause) {
  const int fd = connect_loopback(port);
  std::vector<double> out;
  std::string buffer;
  char chunk[16384];
  for (int i = 0; i < n; ++i) {
    const Clock::time_point t0 = Clock::now();
    send_all(fd, "GET /app.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    std::size_t end = std::string::npos, length = 0;
    while (end == std::string::npos || buffer.size() < end + 4 + length) {
      const ssize_t got = ::recv(fd, chunk, sizeof chunk, 0);
      if (got <= 0) fail("the server closed an HTTP connection");
      buffer.append(chunk, static_cast<std::size_t>(got));
      if (end == std::string::npos && (end = buffer.find("\r\n\r\n")) != std::string::npos) {
        const std::size_t field = buffer.find("Content-Length: ");
        if (field == std::string::npos || field > end) fail("no Content-Length");
        std::from_chars(buffer.data() + field + 16, buffer.data() + end, length);
      }
    }
    out.push_back(micros(Clock::now() - t0));
    buffer.erase(0, end + 4 + length);
    std::this_thread::sleep_for(pause);
  }
  ::close(fd);
  return out;
}

// The workers: each writes games of random legal moves into its live file, a ply every `interval`, until
// `plies` plies in all are written. written[g][i]: when ply i of game g ("g<g>") was written.
struct Workers {
  int plies = 0;
  std::chrono::milliseconds interval{10};
  std::atomic<int> left{0};
  std::atomic<int> next_game{0};
  std::vector<std::vector<Clock::time_point>> written;

  void run(const fs::path& dir, int worker) {
    kalah::arena::live::Publisher publisher(dir, std::nullopt, worker);
    std::mt19937 random(static_cast<unsigned>(worker) + 1);
    Clock::time_point next = Clock::now();
    while (left.load() > 0) {
      const int game = next_game++;
      kalah::GameRecord record;
      record.id = "g" + std::to_string(game);
      kalah::Position position = kalah::start_position(record.variant);
      publisher.start(record.id, "south", "north");
      while (!position.over && left.fetch_sub(1) > 0) {
        const kalah::MoveList moves = kalah::legal_moves(record.variant, position);
        const kalah::Move move = moves.moves[random() % static_cast<unsigned>(moves.size)];
        const int mover = position.to_move == kalah::Side::South ? 0 : 1;
        kalah::apply(record.variant, position, move);
        record.moves.push_back(move);
        kalah::MoveInfo info;
        info.time_ms = static_cast<double>(interval.count());
        record.move_info.push_back(info);
        std::this_thread::sleep_until(next += interval);
        written[static_cast<std::size_t>(game)].push_back(Clock::now());
        publisher.ply(record, mover, {std::nullopt, std::nullopt});
      }
      publisher.end(position.over);
    }
  }
};

// One client's arrival of a ply.
struct Arrival {
  std::uint32_t game;
  std::uint32_t ply;
  Clock::time_point at;
};

struct Client {
  int fd = -1;
  std::string buffer;
  bool header = false;
  int plies = 0;
};

// Reads one client's new events; each `ply` is an arrival at `now`.
void read_events(Client& c, Clock::time_point now, std::vector<Arrival>& arrivals) {
  if (!c.header) {
    const std::size_t end = c.buffer.find("\r\n\r\n");
    if (end == std::string::npos) return;
    if (!c.buffer.starts_with("HTTP/1.1 200")) fail("the live stream answered " + c.buffer.substr(0, 40));
    c.header = true;
    c.buffer.erase(0, end + 4);
  }
  std::size_t start = 0;
  for (std::size_t end; (end = c.buffer.find("\n\n", start)) != std::string::npos; start = end + 2) {
    const std::string_view frame(c.buffer.data() + start, end - start);
    if (frame.find("event: ply\n") == std::string_view::npos) continue;
    const std::size_t game = frame.find("\"game\":\"g"), ply = frame.find("\"ply\":");
    if (game == std::string_view::npos || ply == std::string_view::npos) fail("a ply event without its game");
    Arrival a{0, 0, now};
    std::from_chars(frame.data() + game + 9, frame.data() + frame.size(), a.game);
    std::from_chars(frame.data() + ply + 6, frame.data() + frame.size(), a.ply);
    arrivals.push_back(a);
    ++c.plies;
  }
  c.buffer.erase(0, start);
}

// Every client connected to the live stream of `name`; returns once each has its response's header.
std::vector<Client> connect_clients(unsigned short port, const std::string& name, int count, int epoll) {
  std::vector<Client> clients(static_cast<std::size_t>(count));
  const std::string request = "GET /api/tournaments/" + name + "/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  for (std::size_t i = 0; i < clients.size(); ++i) {
    clients[i].fd = connect_loopback(port);
    send_all(clients[i].fd, request);
    ::fcntl(clients[i].fd, F_SETFL, ::fcntl(clients[i].fd, F_GETFL) | O_NONBLOCK);
    epoll_event event{EPOLLIN, {.u64 = i}};
    ::epoll_ctl(epoll, EPOLL_CTL_ADD, clients[i].fd, &event);
  }
  return clients;
}

// Reads every client until each has `plies` plies, or the writers are done and nothing came for a second, or the
// deadline passes; the arrivals in the order read.
std::vector<Arrival> follow(std::vector<Client>& clients, int epoll, int plies, std::atomic<bool>& all_headers,
                            const std::atomic<bool>& written, Clock::time_point deadline) {
  std::vector<Arrival> arrivals;
  arrivals.reserve(clients.size() * static_cast<std::size_t>(plies));
  std::vector<epoll_event> ready(1024);
  std::size_t done = 0, headers = 0;
  char chunk[65536];
  Clock::time_point last = Clock::now();
  while (done < clients.size() && Clock::now() < deadline &&
         !(written && Clock::now() - last > std::chrono::seconds(1))) {
    const int n = ::epoll_wait(epoll, ready.data(), static_cast<int>(ready.size()), 100);
    const Clock::time_point now = Clock::now();
    if (n > 0) last = now;
    for (int k = 0; k < n; ++k) {
      Client& c = clients[ready[static_cast<std::size_t>(k)].data.u64];
      const bool had_header = c.header, was_done = c.plies >= plies;
      for (ssize_t got; (got = ::recv(c.fd, chunk, sizeof chunk, 0)) > 0;)
        c.buffer.append(chunk, static_cast<std::size_t>(got));
      read_events(c, now, arrivals);
      if (!had_header && c.header && ++headers == clients.size()) all_headers = true;
      if (!was_done && c.plies >= plies) ++done;
    }
  }
  return arrivals;
}

void print_quantiles(std::string_view what, const std::vector<double>& v, double scale, std::string_view unit) {
  fmt::print("  {:<44} p50 {:8.3f} {}  p95 {:8.3f} {}  p99 {:8.3f} {}  max {:8.3f} {}  ({} samples)\n", what,
             quantile(v, 0.50) / scale, unit, quantile(v, 0.95) / scale, unit, quantile(v, 0.99) / scale, unit,
             quantile(v, 1.0) / scale, unit, v.size());
}

int arg(int argc, char** argv, int i, int fallback) { return argc > i ? std::atoi(argv[i]) : fallback; }

}  // namespace

int main(int argc, char** argv) {
  const int clients_wanted = arg(argc, argv, 1, 1000), plies = arg(argc, argv, 2, 2000);
  const int interval_ms = arg(argc, argv, 3, 10), workers_wanted = arg(argc, argv, 4, 2);
  if (clients_wanted < 1 || plies < 1 || interval_ms < 1 || workers_wanted < 1)
    fail("usage: sse_bench [clients] [plies] [interval ms] [workers]");
  raise_descriptor_limit(static_cast<std::size_t>(clients_wanted) + 256);
  kalah::system::TempFolder temp("sse-bench");
  const fs::path dir = temp.path() / "results" / "followed";
  fs::create_directories(dir / kalah::arena::live::kFolder);
  std::ofstream(dir / "games.jsonl").flush();  // listed as a tournament; its games are the live ones
  const kalah::bench::ServeProcess server(
      temp.path() / "results", {"--max-connections", std::to_string(clients_wanted + 64)}, temp.path() / "serve.err");
  fmt::print("sse_bench: {} clients, {} plies ({} workers, a ply every {} ms each), arena serve pid {}\n",
             clients_wanted, plies, workers_wanted, interval_ms, server.pid);
  print_quantiles("floor: TCP round trip on loopback", tcp_round_trips(2000), 1, "us");
  print_quantiles("floor: HTTP GET /app.css round trip, idle",
                  http_round_trips(server.port, 500, std::chrono::milliseconds(0)), 1, "us");

  const int epoll = ::epoll_create1(EPOLL_CLOEXEC);
  std::vector<Client> clients = connect_clients(server.port, "followed", clients_wanted, epoll);
  Workers workers;
  workers.plies = plies;
  workers.left = plies;
  workers.interval = std::chrono::milliseconds(interval_ms);
  workers.written.resize(static_cast<std::size_t>(plies + workers_wanted));
  std::atomic<bool> all_headers{false}, written{false};
  const Clock::time_point deadline =
      Clock::now() + std::chrono::milliseconds(static_cast<long long>(plies) * interval_ms / workers_wanted) +
      std::chrono::seconds(60);
  std::vector<Arrival> arrivals;
  std::thread reader([&] { arrivals = follow(clients, epoll, plies, all_headers, written, deadline); });
  while (!all_headers && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (!all_headers) fail("not every client got its stream's header; see the server's stderr");

  const double cpu0 = server.cpu_seconds();
  const Clock::time_point t0 = Clock::now();
  std::vector<std::thread> writers;
  for (int w = 1; w <= workers_wanted; ++w) writers.emplace_back([&, w] { workers.run(dir, w); });
  std::vector<double> busy;
  std::thread prober([&] { busy = http_round_trips(server.port, 100, std::chrono::milliseconds(interval_ms * 5)); });
  for (std::thread& w : writers) w.join();
  // The server's CPU over the time the plies were written (it lags them by its pause, 20 ms, and its writes).
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count(), cpu = server.cpu_seconds() - cpu0;
  written = true;
  reader.join();
  prober.join();

  std::vector<double> latency;
  latency.reserve(arrivals.size());
  for (const Arrival& a : arrivals) latency.push_back(micros(a.at - workers.written[a.game][a.ply]));
  const std::size_t expected = static_cast<std::size_t>(plies) * clients.size();
  // The plies some client missed, and of them those at the end of their game (every later ply of it missed too).
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> got;
  for (const Arrival& a : arrivals) ++got[{a.game, a.ply}];
  std::size_t missed = 0, missed_at_end = 0;
  for (std::uint32_t g = 0; g < workers.written.size(); ++g) {
    bool tail = true;
    for (auto i = static_cast<std::uint32_t>(workers.written[g].size()); i-- > 0;) {
      const std::size_t lost = clients.size() - std::min(clients.size(), got[{g, i}]);
      tail = tail && lost > 0;
      missed += lost;
      if (tail) missed_at_end += lost;
    }
  }
  print_quantiles("ply written -> arrived at a client", latency, 1000, "ms");
  print_quantiles("HTTP GET /app.css round trip, streaming", busy, 1, "us");
  fmt::print("  arrivals {} of {} ({} missing, {} of them the last plies of their game)\n", arrivals.size(), expected,
             missed, missed_at_end);
  fmt::print(
      "  server CPU {:.2f} s over {:.2f} s = {:.1f}% of a core; "
      "memory: peak {:.1f} MB, now {:.1f} MB\n",
      cpu, wall, 100 * cpu / wall, server.memory_mb("VmHWM:"), server.memory_mb("VmRSS:"));
  for (const Client& c : clients) ::close(c.fd);
  ::close(epoll);
  return missed == missed_at_end ? 0 : 1;
}
