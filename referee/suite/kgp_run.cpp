#include "referee/suite/kgp_run.h"

#include <limits>
#include <optional>

#include <fmt/core.h>

#include "referee/kgp/board.h"
#include "referee/suite/run.h"

namespace kalah::suite {

namespace {

using std::chrono::milliseconds;
using KgpAnswer = kgp::ServerSession::Answer;

class KgpGrader {
 public:
  KgpGrader(const kgp::AgentCommand& agent, const Variant& v, const RunSettings& s) : command_(agent), v_(v), s_(s) {}

  const std::string& first_mode() const { return first_mode_; }

  Answer answer(const LabelledPosition& p, std::size_t index) {
    Answer a;
    if (!ready(a)) return a;
    agent_->drain();
    game_id_ = "p" + std::to_string(index + 1);
    if (agent_->session().mode() == "eval")
      by_eval(p.candidate.position, a);
    else
      by_move(p.candidate.position, a);
    if (a.fault) {
      a.score.reset();
      agent_.reset();  // started again for the next position, as after a forfeit
    }
    return a;
  }

 private:
  // The agent connected; false (with the fault in `a`) when it cannot be.
  bool ready(Answer& a) {
    if (agent_) return true;
    if (unready_in_a_row_ >= kMaxUnreadyInARow) {
      a.fault = Fault{Termination::Startup, fmt::format("not sent: the agent could not be started for the last {} "
                                                        "positions ({})",
                                                        kMaxUnreadyInARow, unready_detail_)};
      return false;
    }
    auto opened = kgp::AgentConnection::open(command_, milliseconds(s_.time.startup_ms),
                                             std::vector<std::string>{"freeplay", "eval"});
    if (const Fault* f = std::get_if<Fault>(&opened)) {
      a.fault = Fault{f->kind, "on starting it: " + f->detail};
      unready_detail_ = f->detail;
      ++unready_in_a_row_;
      return false;
    }
    unready_in_a_row_ = 0;
    agent_.emplace(std::move(std::get<kgp::AgentConnection>(opened)));
    if (first_mode_.empty()) first_mode_ = agent_->session().mode();
    return true;
  }

  KgpAnswer ask(const Position& p) {
    kgp::ServerSession::Hints hints;
    hints.time_mode = "relative";
    hints.clock_ms = s_.time.movetime_ms;
    hints.game_id = game_id_;
    const auto deadline = std::chrono::steady_clock::now() + milliseconds(s_.time.movetime_ms);
    return agent_->session().ask(kgp::board_for(v_, p, p.to_move), hints, deadline);
  }

  void by_move(const Position& p, Answer& a) {
    const KgpAnswer k = ask(p);
    a.elapsed_ms = k.elapsed_ms;
    if (k.fault)
      a.fault = k.fault;
    else if (!k.move)
      a.fault =
          Fault{Termination::Time, k.yielded ? std::string("yielded without a move")
                                             : fmt::format("no move before the stop after {} ms", s_.time.movetime_ms)};
    else if (*k.move < 1 || *k.move > v_.pits || !is_legal(v_, p, Move::at(static_cast<int>(*k.move))))
      a.fault = Fault{Termination::Illegal, fmt::format("move {} (legal: {})", *k.move, legal_text(v_, p))};
    else
      a.move = Move::at(static_cast<int>(*k.move));
  }

  // A finished game's worth to `mover`: any eval is less than a win and more than a loss.
  double final_value(const Position& end, Side mover) const {
    const int margin = store(v_, end, mover) - store(v_, end, opponent(mover));
    if (margin == 0) return 0;
    return margin > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  }

  void by_eval(const Position& p, Answer& a) {
    const KgpAnswer own = ask(p);
    a.elapsed_ms = own.elapsed_ms;
    if (own.fault) {
      a.fault = own.fault;
      return;
    }
    a.score = own.eval;
    std::optional<double> best;
    for (Move m : legal_moves(v_, p)) {
      const Position child = after(v_, p, m);
      double value = 0;
      if (child.over) {
        value = final_value(child, p.to_move);
      } else {
        const KgpAnswer k = ask(child);
        a.elapsed_ms += k.elapsed_ms;
        if (k.fault || !k.eval) {
          a.fault = k.fault ? *k.fault
                            : Fault{Termination::Time, fmt::format("no eval of the board after move {} before the stop "
                                                                   "after {} ms",
                                                                   to_string(m), s_.time.movetime_ms)};
          return;
        }
        value = child.to_move == p.to_move ? *k.eval : -*k.eval;
      }
      if (!best || value > *best) {
        best = value;
        a.move = m;
      }
    }
  }

  const kgp::AgentCommand& command_;
  const Variant& v_;
  const RunSettings& s_;
  std::optional<kgp::AgentConnection> agent_;
  std::string first_mode_;
  std::string game_id_;
  int unready_in_a_row_ = 0;
  std::string unready_detail_;
};

}  // namespace

KgpRun run_kgp_positions(const kgp::AgentCommand& agent, const Variant& v,
                         const std::vector<LabelledPosition>& positions, const RunSettings& settings,
                         const std::function<void(std::size_t, const Answer&)>& report) {
  KgpGrader grader(agent, v, settings);
  KgpRun run;
  run.answers.reserve(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    run.answers.push_back(grader.answer(positions[i], i));
    report(i, run.answers.back());
  }
  run.mode = grader.first_mode();
  return run;
}

}  // namespace kalah::suite
