#include "referee/kgp/session_player.h"

#include <algorithm>

#include "referee/kgp/board.h"

namespace kalah::kgp {

const char* to_string(NoMove n) { return n == NoMove::Forfeit ? "forfeit" : "random"; }

SessionPlayer::SessionPlayer(std::string name, ServerSession& session, NoMove no_move, std::uint32_t seed)
    : name_(std::move(name)), session_(session), no_move_(no_move), rng_(seed) {}

std::optional<Fault> SessionPlayer::new_game(const Variant& v, const std::optional<Position>& start,
                                             const TimeControl& /*time*/) {
  if (v.pie) return Fault{Termination::Startup, "a KGP agent cannot play the pie rule: KGP has no swap"};
  variant_ = v;
  start_ = start;
  ++games_;
  return std::nullopt;
}

std::string SessionPlayer::identity() const {
  const ClientInfo& info = session_.info();
  if (info.name.empty()) return {};
  return info.authors.empty() ? info.name : info.name + " by " + info.authors;
}

std::chrono::milliseconds turn_budget(const kep::Go& go, Side mover, std::chrono::milliseconds allowed) {
  using std::chrono::milliseconds;
  milliseconds budget = allowed;
  if (go.movetime) {
    budget = milliseconds(*go.movetime);
  } else if (go.clock) {
    const long long left = mover == Side::South ? go.clock->stime : go.clock->ntime;
    const long long inc = mover == Side::South ? go.clock->sinc : go.clock->ninc;
    budget = milliseconds(std::min(left, left / 20 + inc));
  }
  return std::clamp(budget, milliseconds(1), allowed);
}

Reply SessionPlayer::play(const std::vector<Move>& moves, const kep::Go& go, std::chrono::milliseconds allowed) {
  Position p = start_ ? *start_ : start_position(variant_);
  for (Move m : moves) apply(variant_, p, m);
  const Side mover = p.to_move;
  const std::chrono::milliseconds budget = turn_budget(go, mover, allowed);
  ServerSession::Hints hints;
  hints.time_mode = "relative";
  hints.clock_ms = budget.count();
  hints.game_id = std::to_string(games_);
  const auto deadline = std::chrono::steady_clock::now() + budget;
  ServerSession::Answer a = session_.ask(board_for(variant_, p, mover), hints, deadline);
  Reply reply;
  reply.elapsed_ms = std::min(a.elapsed_ms, static_cast<double>(budget.count()));
  reply.wall_ms = a.elapsed_ms;
  if (a.fault) {
    reply.fault = a.fault;
    return reply;
  }
  if (!a.move) {
    if (no_move_ == NoMove::Random) {
      const MoveList legal = legal_moves(variant_, p);
      reply.move = legal.moves[std::uniform_int_distribution<int>(0, legal.size - 1)(rng_)];
      ++random_moves_;
      return reply;
    }
    reply.fault =
        a.yielded ? Fault{Termination::Protocol, "yielded without a move"}
                  : Fault{Termination::Time, "no move before the stop after " + std::to_string(budget.count()) + " ms"};
    return reply;
  }
  if (*a.move < 1 || *a.move > variant_.pits) {
    reply.fault = Fault{Termination::Illegal, "move " + std::to_string(*a.move) + " on a board of " +
                                                  std::to_string(variant_.pits) + " pits"};
    return reply;
  }
  reply.move = Move::at(static_cast<int>(*a.move));
  return reply;
}

}  // namespace kalah::kgp
