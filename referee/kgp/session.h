// A KGP server's conversation with one client (docs/KGP.md): the handshake, freeplay's `state` and its
// anytime `move`s up to `yield` or `stop`, `ping`, and the `verify` mode's rule checks. Everything the
// client sends is untrusted: garbage, a line too long or a closed connection comes back as a Fault.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "referee/game/player.h"
#include "referee/kgp/codec.h"
#include "referee/kgp/line_socket.h"

namespace kalah::kgp {

// What the client said of itself with `set info:...`.
struct ClientInfo {
  std::string name;
  std::string authors;
  std::string description;
};

class ServerSession {
 public:
  explicit ServerSession(LineSocket socket) : socket_(std::move(socket)) {}

  // Sends `kgp 1 0 0` and reads up to the client's `mode`. A mode not in `modes` gets `error` and
  // `goodbye` and comes back as a Startup fault, and so does no mode before the deadline.
  std::optional<Fault> handshake(Deadline deadline, const std::vector<std::string>& modes = {"freeplay"});
  const std::string& mode() const { return mode_; }
  const ClientInfo& info() const { return info_; }

  // The answer to one `state`.
  struct Answer {
    std::optional<long long> move;  // the last `move` before `yield` or the deadline (a pit, 1-based, unchecked)
    std::optional<Fault> fault;     // the connection failed or the client sent garbage
    bool yielded = false;
    int moves = 0;                   // how many `move`s it sent (anytime revisions)
    std::vector<long long> history;  // those moves in order, the first kMaxHistory of them
    std::optional<double> eval;      // the last `eval` (the eval mode's answer)
    double elapsed_ms = 0;           // from sending the state to its last move or its yield
    // With a ping during the state: when it went out (from the state) and how long its pong took.
    std::optional<double> ping_sent_ms;
    std::optional<double> pong_ms;
  };
  static constexpr std::size_t kMaxHistory = 32;
  // The hints a state is sent with: `set time:mode`, `time:clock` and `time:opclock` (seconds, rounded up),
  // `game:id`. Empty ones are not sent.
  struct Hints {
    std::string time_mode;  // "relative", "absolute" or "none"
    std::optional<std::int64_t> clock_ms;
    std::optional<std::int64_t> opclock_ms;
    std::string game_id;
  };
  // A `ping` sent while the client works on a state: at `at` unless it has yielded by then; its `pong` is
  // awaited until `pong_by`, after the stop if need be.
  struct PingDuring {
    Deadline at;
    Deadline pong_by;
  };
  // Sends the hints and `ID state <board>`, reads `move`s (or `eval`s) until `yield` or `deadline`, then
  // sends `stop`. After each wake() `stop_now` (if given) is asked whether the state ends there, as at its
  // deadline (the arena's KEP `stop` to `referee kgp-host`).
  Answer ask(const Board& board, const Hints& hints, Deadline deadline,
             const std::optional<PingDuring>& ping = std::nullopt, const std::function<bool()>& stop_now = {});
  // From any thread: makes a state being asked (or the next) ask its `stop_now`.
  void wake() { socket_.wake(); }

  // `ping`: true when the `pong` comes before the deadline (other lines meanwhile are handled as in ask()).
  bool ping(Deadline deadline);

  // The `verify` mode's check: sends `problem <board> <pit>` and reads the `solution`. The error text
  // (also sent to the client as `error`) when the solution is not `expected` and `repeat`, or a fault.
  struct Checked {
    std::optional<std::string> wrong;
    std::optional<Fault> fault;
  };
  Checked verify(const Board& board, int pit, const Board& expected, bool repeat, Deadline deadline);

  // `goodbye`, then closes the connection.
  void goodbye(Deadline deadline);

 private:
  // Reads one command; a fault for a closed connection, a line too long or garbage. A wake() comes back as
  // `woken` only when `wakeable` (else the read goes on).
  struct Read {
    std::optional<Command> command;
    std::optional<Fault> fault;
    bool timeout = false;
    bool woken = false;
  };
  Read read(Deadline deadline, bool wakeable = false);
  // Handles what any command may be: `set` (info kept), `pong`, `ok`, `error`, and unknown ones (ignored).
  void note(const Command& c);
  // One line of the client's during a state: a move, an eval, a yield or a pong are entered in `answer`.
  // False when the state is over (yield) or the line is a fault.
  bool take(const Command& c, std::uint64_t state, std::optional<std::uint64_t> ping, Answer& answer, Deadline start);
  // After the stop: the pong of `ping` awaited until `until`.
  void await_pong(std::uint64_t ping, Deadline until, Answer& answer, Deadline start);
  std::uint64_t next_id() { return next_id_ += 2; }
  bool send(const Command& c, Deadline deadline) { return socket_.write(format(c), deadline); }

  LineSocket socket_;
  std::string mode_;
  ClientInfo info_;
  std::uint64_t next_id_ = 0;
  std::string line_;
};

}  // namespace kalah::kgp
