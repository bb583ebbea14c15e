// The KGP side of `referee check` (docs/KGP.md, "Checking a KGP agent"): the agent is started with
// KGP_HOST/KGP_PORT naming a loopback port of this process, which is its KGP server for the checks. Each
// failure names the forfeit a game through `referee kgp-host` would record for it: start-up (no connection,
// no freeplay), time (no move before the stop), illegal, protocol (garbage), crash (the connection lost).
#include <algorithm>
#include <optional>

#include <fmt/core.h>
#include <fmt/format.h>

#include "referee/check/check_detail.h"
#include "referee/kgp/agent_connection.h"
#include "referee/kgp/board.h"

namespace kalah::check::detail {

namespace {

using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using Answer = kgp::ServerSession::Answer;

std::string legal_text(const Variant& v, const Position& p) {
  std::string text;
  for (Move m : legal_moves(v, p)) text += (text.empty() ? "" : " ") + to_string(m);
  return text;
}

std::string moves_text(const std::vector<long long>& moves) { return fmt::format("{}", fmt::join(moves, " ")); }

class KgpChecker {
 public:
  KgpChecker(const EngineSpec& engine, const Settings& s, const std::function<void(const Result&)>& report)
      : engine_(engine), s_(s), report_(report) {}

  std::vector<Result> run() {
    if (!handshake()) return std::move(results_);
    for (const Variant& v : check_variants(Protocol::Kep)) {
      if (v.pie) {
        add(skip("move " + short_name(v),
                 "KGP has no swap move: a KGP agent cannot play the pie rule (a config refuses it)"));
        continue;
      }
      for (const Probe& probe : probes(v, s_.seed)) move(v, probe);
    }
    anytime();
    ping();
    clock();
    goodbye();
    return std::move(results_);
  }

 private:
  void add(Result r) {
    report_(r);
    results_.push_back(std::move(r));
  }

  kgp::AgentCommand command() const {
    return kgp::AgentCommand{engine_.kgp->cmd, engine_.kgp->args, engine_.dir.string(), engine_.stderr_file.string(),
                             engine_.kgp->websocket};
  }

  bool handshake() {
    auto opened = kgp::AgentConnection::open(command(), milliseconds(s_.clock.startup_ms));
    if (const Fault* f = std::get_if<Fault>(&opened)) {
      add(fail("handshake", *f));
      return false;
    }
    agent_.emplace(std::move(std::get<kgp::AgentConnection>(opened)));
    const kgp::ClientInfo& info = agent_->session().info();
    const std::string who = info.name.empty()
                                ? std::string("no `set info:name` (the arena names it itself)")
                                : "'" + info.name + "'" + (info.authors.empty() ? "" : " by " + info.authors);
    add(pass("handshake", fmt::format("{}; `kgp 1 0 0` answered with `mode freeplay` after {:.0f} ms (deadline {} ms)",
                                      who, agent_->startup_ms(), s_.clock.startup_ms)));
    return true;
  }

  // The agent, connected again after a failure (as the arena starts a forfeited engine again). None when it
  // cannot be: the checks after it are skipped, each would fail the same way.
  kgp::AgentConnection* ready(const std::string& check) {
    if (unusable_) {
      add(skip(check, "the agent could not be started again (above)"));
      return nullptr;
    }
    if (!agent_) {
      auto opened = kgp::AgentConnection::open(command(), milliseconds(s_.clock.startup_ms));
      if (const Fault* f = std::get_if<Fault>(&opened)) {
        unusable_ = true;
        add(fail(check, Fault{f->kind, "on starting it again: " + f->detail}));
        return nullptr;
      }
      agent_.emplace(std::move(std::get<kgp::AgentConnection>(opened)));
    }
    agent_->drain();
    return &*agent_;
  }

  // Sends the position after `moves` as a state lasting `budget`.
  Answer ask(const Variant& v, const std::vector<Move>& moves, milliseconds budget,
             const std::optional<kgp::ServerSession::PingDuring>& ping = std::nullopt) {
    const Position p = position_after(v, moves);
    kgp::ServerSession::Hints hints;
    hints.time_mode = "relative";
    hints.clock_ms = budget.count();
    hints.game_id = "check-" + std::to_string(++states_);
    return agent_->session().ask(kgp::board_for(v, p, p.to_move), hints, SteadyClock::now() + budget, ping);
  }

  static Position position_after(const Variant& v, const std::vector<Move>& moves) {
    Position p = start_position(v);
    for (Move m : moves) apply(v, p, m);
    return p;
  }

  // The answer judged as a game through `referee kgp-host` judges it: empty when it is a legal move.
  std::optional<Fault> judge(const Variant& v, const Position& p, const Answer& a, milliseconds budget) const {
    if (a.fault) return a.fault;
    if (!a.move)
      return Fault{Termination::Time, a.yielded ? fmt::format("yielded without a move after {:.0f} ms", a.elapsed_ms)
                                                : fmt::format("no move before the stop after {} ms", budget.count())};
    if (*a.move < 1 || *a.move > v.pits || !is_legal(v, p, Move::at(static_cast<int>(*a.move))))
      return Fault{Termination::Illegal, fmt::format("move {} (legal: {})", *a.move, legal_text(v, p))};
    return std::nullopt;
  }

  // A failure: a game forfeits it, unless it is a turn without a move that kgp_no_move = "random" fills.
  void failed(const std::string& check, const Fault& f, const std::string& where) {
    agent_.reset();  // started again for the next check, as after a forfeit
    if (f.kind == Termination::Time && engine_.kgp->random_no_move)
      return add(fail_tolerated(check, f.detail + where + " (kgp_no_move = \"random\": a game gets a random move)"));
    add(fail(check, Fault{f.kind, f.detail + where}));
  }

  static std::string where(const Variant& v, const std::vector<Move>& moves) {
    const Position p = position_after(v, moves);
    return " (board " + kgp::board_text(kgp::board_for(v, p, p.to_move)) + ")";
  }

  void move(const Variant& v, const Probe& probe) {
    const std::string check = "move " + short_name(v) + " " + probe.label;
    if (!ready(check)) return;
    const milliseconds budget(s_.movetime_ms);
    const Answer a = ask(v, probe.moves, budget);
    if (std::optional<Fault> f = judge(v, position_after(v, probe.moves), a, budget))
      return failed(check, *f, where(v, probe.moves));
    add(pass(check, fmt::format("move {} after {:.0f} ms{}", *a.move, a.elapsed_ms, where(v, probe.moves))));
  }

  // Anytime: a longer state, where the last of several `move`s counts.
  void anytime() {
    const std::string check = "anytime";
    if (!ready(check)) return;
    const Variant v = check_variants(Protocol::Kep).front();
    const std::vector<Probe> set = probes(v, s_.seed);
    const Probe& probe = set.size() > 1 ? set[1] : set[0];
    const Answer a = ask(v, probe.moves, s_.stop_after);
    const Position p = position_after(v, probe.moves);
    if (std::optional<Fault> f = judge(v, p, a, s_.stop_after)) return failed(check, *f, where(v, probe.moves));
    std::string earlier;
    for (std::size_t i = 0; i + 1 < a.history.size(); ++i)
      if (a.history[i] < 1 || a.history[i] > v.pits || !is_legal(v, p, Move::at(static_cast<int>(a.history[i]))))
        earlier =
            fmt::format("; an earlier one, {}, was not legal, which is no fault: only the last counts", a.history[i]);
    const std::string end = a.yielded ? fmt::format("then yield after {:.0f} ms", a.elapsed_ms)
                                      : fmt::format("until the stop after {} ms", s_.stop_after.count());
    if (a.moves == 1)
      return add(
          pass(check, fmt::format("one move ({}), {}: nothing to revise{}", *a.move, end, where(v, probe.moves))));
    add(pass(check, fmt::format("{} moves ({}{}), {}: the last, {}, counts{}{}", a.moves, moves_text(a.history),
                                a.moves > static_cast<int>(a.history.size()) ? " ..." : "", end, *a.move, earlier,
                                where(v, probe.moves))));
  }

  // `ping` while the agent thinks on a state, a third into it; between states when it has answered by then.
  void ping() {
    const std::string check = "ping";
    if (!ready(check)) return;
    const Variant v = check_variants(Protocol::Kep).front();
    const std::vector<Probe> set = probes(v, s_.seed);
    const Probe& probe = set.size() > 1 ? set[1] : set[0];
    const auto at = SteadyClock::now() + s_.stop_after / 3;
    const milliseconds pong_allowed(s_.clock.ping_ms);
    const Answer a = ask(v, probe.moves, s_.stop_after, kgp::ServerSession::PingDuring{at, at + pong_allowed});
    if (a.fault) return failed(check, *a.fault, where(v, probe.moves));
    const std::string dropped =
        " (this arena does not ping in games, but the course's server drops a client that does not answer)";
    if (a.ping_sent_ms) {
      if (!a.pong_ms)
        return add(
            fail_tolerated(check, fmt::format("no pong within {} ms of a ping sent {:.0f} ms into a state, while "
                                              "it thought{}",
                                              pong_allowed.count(), *a.ping_sent_ms, dropped)));
      return add(pass(check, fmt::format("pong {:.0f} ms after a ping sent {:.0f} ms into a state, while it thought",
                                         *a.pong_ms, *a.ping_sent_ms)));
    }
    const auto sent = SteadyClock::now();
    if (!agent_->session().ping(sent + pong_allowed))
      return add(fail_tolerated(
          check, fmt::format("no pong within {} ms of a ping sent between states{}", pong_allowed.count(), dropped)));
    const double took = std::chrono::duration<double, std::milli>(SteadyClock::now() - sent).count();
    add(pass(check,
             fmt::format("the state was answered within {:.0f} ms, before the ping was due: pong {:.0f} ms after "
                         "a ping sent between states",
                         a.elapsed_ms, took)));
  }

  // A game against itself under the clock, each side through `referee kgp-host` as in a tournament.
  void clock() {
    if (unusable_) return add(skip("clock", "the agent could not be started again (above)"));
    std::unique_ptr<ProcessPlayer> first = make_player(engine_);
    add(clock_game(*first, engine_, s_, check_variants(Protocol::Kep).front()));
  }

  void goodbye() {
    const std::string check = "goodbye";
    if (!ready(check)) return;
    const milliseconds grace = engine_.quit_grace;
    const auto start = SteadyClock::now();
    const std::string exit = agent_->goodbye(grace);
    const double took = std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count();
    agent_.reset();
    if (exit.empty())
      return add(fail_tolerated(check, fmt::format("still running {} ms after goodbye (the referee then kills its "
                                                   "process group)",
                                                   grace.count())));
    add(pass(check, fmt::format("{} {:.0f} ms after goodbye (grace {} ms)", exit, took, grace.count())));
  }

  const EngineSpec& engine_;
  const Settings& s_;
  const std::function<void(const Result&)>& report_;
  std::optional<kgp::AgentConnection> agent_;
  bool unusable_ = false;  // starting it again failed
  int states_ = 0;
  std::vector<Result> results_;
};

}  // namespace

std::vector<Result> run_kgp_checks(const EngineSpec& engine, const Settings& s,
                                   const std::function<void(const Result&)>& report) {
  return KgpChecker(engine, s, report).run();
}

}  // namespace kalah::check::detail
