#include "referee/kgp/session.h"

#include <algorithm>

namespace kalah::kgp {

namespace {

using SteadyClock = std::chrono::steady_clock;

double ms_since(SteadyClock::time_point start) {
  return std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count();
}

long long seconds_up(std::int64_t ms) { return static_cast<long long>((std::max<std::int64_t>(ms, 0) + 999) / 1000); }

// A line of ours to the client should not wait long on a client that does not read.
Deadline write_deadline(Deadline deadline) { return std::max(deadline, SteadyClock::now()) + std::chrono::seconds(1); }

}  // namespace

ServerSession::Read ServerSession::read(Deadline deadline, bool wakeable) {
  while (true) {
    switch (socket_.read(line_, deadline)) {
      case LineSocket::Status::Timeout: return Read{std::nullopt, std::nullopt, true};
      case LineSocket::Status::Woken:
        if (wakeable) return Read{std::nullopt, std::nullopt, false, true};
        continue;
      case LineSocket::Status::Closed:
        return Read{std::nullopt, Fault{Termination::Crash, "the connection closed"}, false};
      case LineSocket::Status::TooLong:
        return Read{std::nullopt,
                    Fault{Termination::Protocol, "a line over " + std::to_string(kMaxLineChars) + " characters"},
                    false};
      case LineSocket::Status::Binary:
        return Read{std::nullopt, Fault{Termination::Protocol, "a binary WebSocket message, not a line"}, false};
      case LineSocket::Status::Line: break;
    }
    if (line_.find_first_not_of(" \t") == std::string::npos) continue;  // an empty line says nothing
    Expected<Command> c = parse_line(line_);
    if (!c)
      return Read{std::nullopt, Fault{Termination::Protocol, "garbage (" + c.error() + "): " + shorten(line_)}, false};
    return Read{*c, std::nullopt, false};
  }
}

void ServerSession::note(const Command& c) {
  if (c.name != "set") return;
  const std::optional<std::string> key = text_arg(c, 0);
  const std::optional<std::string> value = text_arg(c, 1);
  if (!key || !value) return;
  const std::string clean = shorten(*value);
  if (*key == "info:name") info_.name = clean;
  if (*key == "info:authors") info_.authors = clean;
  if (*key == "info:description") info_.description = clean;
}

std::optional<Fault> ServerSession::handshake(Deadline deadline, const std::vector<std::string>& modes) {
  if (!send(make_command("kgp", {1LL, 0LL, 0LL}), deadline))
    return Fault{Termination::Startup, "the connection failed before the handshake"};
  while (true) {
    Read r = read(deadline);
    if (r.timeout) return Fault{Termination::Startup, "no `mode` before the start-up deadline"};
    if (r.fault) return Fault{Termination::Startup, r.fault->detail + " before its `mode`"};
    if (r.command->name != "mode") {
      note(*r.command);
      continue;
    }
    const std::string mode = text_arg(*r.command, 0).value_or("");
    if (std::find(modes.begin(), modes.end(), mode) != modes.end()) {
      mode_ = mode;
      return std::nullopt;
    }
    send(make_command("error", {text("unsupported mode " + shorten(mode))}, std::nullopt, r.command->id),
         write_deadline(deadline));
    goodbye(write_deadline(deadline));
    return Fault{Termination::Startup, "asked for mode '" + shorten(mode) + "', which this server does not play"};
  }
}

ServerSession::Answer ServerSession::ask(const Board& board, const Hints& hints, Deadline deadline,
                                         const std::optional<PingDuring>& ping, const std::function<bool()>& stop_now) {
  Answer answer;
  const auto start = SteadyClock::now();
  std::string hint_lines;
  if (!hints.time_mode.empty()) hint_lines += format(make_set("time:mode", Text{hints.time_mode, false}));
  if (hints.clock_ms) hint_lines += format(make_set("time:clock", seconds_up(*hints.clock_ms)));
  if (hints.opclock_ms) hint_lines += format(make_set("time:opclock", seconds_up(*hints.opclock_ms)));
  if (!hints.game_id.empty()) hint_lines += format(make_set("game:id", text(hints.game_id)));
  const std::uint64_t id = next_id();
  if (!socket_.write(hint_lines + format(make_command("state", {board}, id)), deadline)) {
    answer.fault = Fault{Termination::Crash, "the connection failed (sending a state)"};
    return answer;
  }
  std::optional<std::uint64_t> ping_id;
  while (true) {
    const bool ping_due = ping && !ping_id;
    Read r = read(ping_due ? std::min(deadline, ping->at) : deadline, true);
    if (r.woken) {
      if (stop_now && stop_now()) break;
      continue;
    }
    if (r.timeout && ping_due && SteadyClock::now() < deadline) {
      ping_id = next_id();
      answer.ping_sent_ms = ms_since(start);
      if (!send(make_command("ping", {}, *ping_id), deadline)) {
        answer.fault = Fault{Termination::Crash, "the connection failed (sending a ping)"};
        return answer;
      }
      continue;
    }
    if (r.timeout) break;
    if (r.fault) {
      answer.fault = r.fault;
      return answer;
    }
    if (!take(*r.command, id, ping_id, answer, start)) break;
  }
  if (answer.fault) return answer;
  if (!answer.yielded) answer.elapsed_ms = answer.move || answer.eval ? answer.elapsed_ms : ms_since(start);
  send(make_command("stop", {}, next_id(), id), write_deadline(deadline));
  if (ping_id && !answer.pong_ms) await_pong(*ping_id, ping->pong_by, answer, start);
  return answer;
}

bool ServerSession::take(const Command& c, std::uint64_t state, std::optional<std::uint64_t> ping, Answer& answer,
                         Deadline start) {
  const bool ours = !c.ref || *c.ref == state;  // a `move` for an earlier state comes after its `stop`
  if (c.name == "move" && ours) {
    const std::optional<long long> pit = int_arg(c, 0);
    if (!pit) {
      answer.fault = Fault{Termination::Protocol, "a move without a pit number: " + shorten(line_)};
      return false;
    }
    answer.move = *pit;
    ++answer.moves;
    if (answer.history.size() < kMaxHistory) answer.history.push_back(*pit);
    answer.elapsed_ms = ms_since(start);
  } else if (c.name == "eval" && ours) {
    const std::optional<double> value = real_arg(c, 0);
    if (!value) {
      answer.fault = Fault{Termination::Protocol, "an eval without a number: " + shorten(line_)};
      return false;
    }
    answer.eval = *value;
    answer.elapsed_ms = ms_since(start);
  } else if (c.name == "yield" && ours) {
    answer.yielded = true;
    answer.elapsed_ms = ms_since(start);
    return false;
  } else if (c.name == "pong" && ping && c.ref == *ping) {
    answer.pong_ms = ms_since(start) - answer.ping_sent_ms.value_or(0);
  } else {
    note(c);
  }
  return true;
}

void ServerSession::await_pong(std::uint64_t ping, Deadline until, Answer& answer, Deadline start) {
  while (true) {
    Read r = read(until);
    if (r.timeout) return;
    if (r.fault) {
      answer.fault = r.fault;
      return;
    }
    if (r.command->name == "pong" && r.command->ref == ping) {
      answer.pong_ms = ms_since(start) - answer.ping_sent_ms.value_or(0);
      return;
    }
    note(*r.command);  // moves after the stop are ignored
  }
}

bool ServerSession::ping(Deadline deadline) {
  const std::uint64_t id = next_id();
  if (!send(make_command("ping", {}, id), deadline)) return false;
  while (true) {
    Read r = read(deadline);
    if (r.timeout || r.fault) return false;
    if (r.command->name == "pong" && r.command->ref == id) return true;
    note(*r.command);
  }
}

ServerSession::Checked ServerSession::verify(const Board& board, int pit, const Board& expected, bool repeat,
                                             Deadline deadline) {
  Checked checked;
  const std::uint64_t id = next_id();
  if (!send(make_command("problem", {board, static_cast<long long>(pit)}, id), deadline)) {
    checked.fault = Fault{Termination::Crash, "the connection failed (sending a problem)"};
    return checked;
  }
  while (true) {
    Read r = read(deadline);
    if (r.timeout) {
      checked.fault = Fault{Termination::Time, "no solution before the deadline"};
      return checked;
    }
    if (r.fault) {
      checked.fault = r.fault;
      return checked;
    }
    const Command& c = *r.command;
    if (c.name != "solution" || (c.ref && *c.ref != id)) {
      note(c);
      continue;
    }
    const Board* got = board_arg(c, 0);
    const std::optional<long long> again = int_arg(c, 1);
    if (!got || !again)
      checked.wrong = "a solution is a board and 0 or 1: " + shorten(line_);
    else if (*got != expected)
      checked.wrong = "wrong board " + shorten(board_text(*got)) + ", expected " + board_text(expected);
    else if ((*again != 0) != repeat)
      checked.wrong = repeat ? "the mover moves again" : "the mover does not move again";
    if (checked.wrong) {
      send(make_command("error", {text(*checked.wrong)}, std::nullopt, c.id.value_or(id)), write_deadline(deadline));
    }
    return checked;
  }
}

void ServerSession::goodbye(Deadline deadline) {
  send(make_command("goodbye"), deadline);
  socket_.close();
}

}  // namespace kalah::kgp
