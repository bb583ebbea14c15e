#include "referee/kgp/client.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>
#include <thread>

#include "referee/kgp/board.h"
#include "referee/kgp/codec.h"

namespace kalah::kgp {

namespace {

using std::chrono::milliseconds;
using SteadyClock = std::chrono::steady_clock;

// A server silent this long has gone: the client stops waiting.
constexpr auto kSilentServer = std::chrono::hours(1);

struct Job {
  std::uint64_t id = 0;
  Board board;
  milliseconds budget{0};
};

class Client {
 public:
  Client(LineSocket& socket, Player& player, const ClientSettings& settings,
         const std::function<void(std::string_view)>& log)
      : socket_(socket), player_(player), settings_(settings), log_(log) {}

  ClientReport run() {
    if (handshake()) {
      std::thread worker([this] { work(); });
      listen();
      {
        std::lock_guard lock(mutex_);
        done_ = true;
      }
      wake_.notify_all();
      worker.join();
    }
    report_.moves = moves_;
    report_.faults = faults_;
    report_.ok = report_.end == "goodbye" || (report_.end == "closed" && report_.states > 0);
    return report_;
  }

 private:
  void say(const std::string& text) {
    std::lock_guard lock(log_mutex_);
    log_(text);
  }

  // Reads the server's `kgp` and answers with our info and `mode freeplay`.
  bool handshake() {
    std::string line;
    const Deadline deadline = SteadyClock::now() + settings_.startup;
    switch (socket_.read(line, deadline)) {
      case LineSocket::Status::Line: break;
      case LineSocket::Status::TooLong: report_.end = "the server's greeting is over 16384 characters"; return false;
      case LineSocket::Status::Binary: report_.end = "the server sent a binary WebSocket message"; return false;
      default: report_.end = "no `kgp` greeting from the server"; return false;
    }
    Expected<Command> c = parse_line(line);
    if (!c || c->name != "kgp" || int_arg(*c, 0) != 1) {
      report_.end = "expected `kgp 1 ...` from the server, got: " + shorten(line);
      return false;
    }
    say("server: " + shorten(line));
    std::string out = format(make_set("info:name", text(settings_.name)));
    if (!settings_.authors.empty()) out += format(make_set("info:authors", text(settings_.authors)));
    if (settings_.token) out += format(make_set("auth:token", text(*settings_.token)));
    out += format(make_command("mode", {Text{"freeplay", false}}));
    if (!socket_.write(out, deadline)) {
      report_.end = "the connection failed in the handshake";
      return false;
    }
    return true;
  }

  void listen() {
    std::string line;
    while (true) {
      switch (socket_.read(line, SteadyClock::now() + kSilentServer)) {
        case LineSocket::Status::Line: break;
        case LineSocket::Status::Closed: report_.end = "closed"; return;
        case LineSocket::Status::TooLong: report_.end = "the server sent a line over 16384 characters"; return;
        case LineSocket::Status::Binary: report_.end = "the server sent a binary WebSocket message"; return;
        case LineSocket::Status::Timeout: report_.end = "the server was silent for an hour"; return;
        case LineSocket::Status::Woken: continue;  // nobody wakes a client's socket
      }
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      Expected<Command> c = parse_line(line);
      if (!c) {
        say("ignored (" + c.error() + "): " + shorten(line));
        continue;
      }
      if (!handle(*c)) return;
    }
  }

  // One command of the server; false at goodbye.
  bool handle(const Command& c) {
    if (c.name == "goodbye") {
      report_.end = "goodbye";
      return false;
    }
    if (c.name == "ping") {
      ++report_.pings;
      socket_.write(format(make_command("pong", {}, std::nullopt, c.id)), SteadyClock::now() + settings_.ping);
    } else if (c.name == "state") {
      take_state(c);
    } else if (c.name == "stop" && c.ref) {
      std::lock_guard lock(mutex_);
      stopped_.insert(*c.ref);
    } else if (c.name == "set") {
      const std::optional<std::string> key = text_arg(c, 0);
      if (key == "time:clock") clock_ = int_arg(c, 1);
      if (key == "time:mode") time_mode_ = text_arg(c, 1).value_or("");
    } else if (c.name == "error") {
      say("server error: " + shorten(text_arg(c, 0).value_or("")));
    }
    return true;
  }

  void take_state(const Command& c) {
    ++report_.states;
    const Board* board = board_arg(c, 0);
    if (!board || !c.id) {
      say("ignored a state without an id and a board");
      ++faults_;
      return;
    }
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(Job{*c.id, *board, state_budget(settings_, clock_, time_mode_)});
    }
    wake_.notify_all();
  }

  void work() {
    while (true) {
      Job job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return done_ || !jobs_.empty(); });
        if (done_) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
        if (stopped_.count(job.id) != 0) continue;  // stopped before we began: the server has moved on
      }
      answer(job);
    }
  }

  void fail(const Job& job, const std::string& why) {
    ++faults_;
    say("state " + std::to_string(job.id) + " " + board_text(job.board) + ": no move: " + why);
  }

  void answer(const Job& job) {
    Expected<BoardGame> game = game_of(job.board, settings_.rules);
    if (!game) return fail(job, game.error());
    const Variant& v = game->variant;
    // From the standard start an engine needs no `feature positions`.
    std::optional<Position> start;
    if (game->position != start_position(v)) start = game->position;
    TimeControl time;
    time.mode = TimeControl::Mode::MoveTime;
    time.movetime_ms = job.budget.count();
    time.startup_ms = settings_.startup.count();
    time.ping_ms = settings_.ping.count();
    if (std::optional<Fault> f = player_.new_game(v, start, time)) {
      player_.forfeited();
      return fail(job, std::string(to_string(f->kind)) + ": " + f->detail);
    }
    kep::Go go;
    go.movetime = job.budget.count();
    const Reply reply = player_.play({}, go, job.budget + settings_.margin);
    if (reply.fault) {
      player_.forfeited();
      return fail(job, std::string(to_string(reply.fault->kind)) + ": " + reply.fault->detail);
    }
    if (!is_legal(v, game->position, reply.move)) {
      player_.forfeited();
      return fail(job, "the engine answered the illegal move " + to_string(reply.move));
    }
    player_.game_over({reply.move});
    socket_.send_soon(format(make_command("move", {static_cast<long long>(reply.move.pit)}, std::nullopt, job.id)) +
                      format(make_command("yield", {}, std::nullopt, job.id)));
    ++moves_;
    say("state " + std::to_string(job.id) + " " + board_text(job.board) + ": move " + to_string(reply.move) + " (" +
        std::to_string(static_cast<long long>(reply.elapsed_ms)) + " ms of " + std::to_string(job.budget.count()) +
        ")");
  }

  LineSocket& socket_;
  Player& player_;
  const ClientSettings& settings_;
  const std::function<void(std::string_view)>& log_;
  ClientReport report_;
  std::optional<long long> clock_;  // the server's last time:clock, seconds
  std::string time_mode_;
  std::mutex log_mutex_;
  std::mutex mutex_;  // guards jobs_, stopped_, done_
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  std::set<std::uint64_t> stopped_;
  bool done_ = false;
  std::atomic<int> moves_{0};
  std::atomic<int> faults_{0};
};

}  // namespace

milliseconds state_budget(const ClientSettings& s, std::optional<long long> clock_seconds, std::string_view time_mode) {
  milliseconds budget = s.default_move;
  if (clock_seconds && time_mode != "none") {
    const long long seconds = std::clamp<long long>(*clock_seconds, 0, 24LL * 3600);
    budget = milliseconds(seconds * 1000);
    if (time_mode == "absolute") budget /= std::max(1, s.absolute_divisor);
    budget -= s.margin;
  }
  return std::max(budget, milliseconds(10));
}

ClientReport play_on_server(LineSocket& socket, Player& player, const ClientSettings& settings,
                            const std::function<void(std::string_view)>& log) {
  Client client(socket, player, settings, log);
  return client.run();
}

}  // namespace kalah::kgp
