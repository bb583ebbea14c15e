#include "referee/engine/mankalah_player.h"

#include <charconv>

#include "referee/process/engine_process.h"

namespace kalah {

namespace {

using SteadyClock = std::chrono::steady_clock;

std::string board_text(const Variant& v, const Position& p) {
  const int m = v.pits;
  std::string s;
  for (int i = m + 1; i <= 2 * m + 1; ++i) s += std::to_string(p.cells[i]) + ",";
  for (int i = 0; i <= m; ++i) s += std::to_string(p.cells[i]) + (i < m ? "," : "");
  return s;
}

}  // namespace

std::optional<Fault> MankalahPlayer::new_game(const Variant& v, const std::optional<Position>& start,
                                              const TimeControl& time) {
  // Configs that would do this are refused at load (docs/PROTOCOL.md): the agents track the board
  // themselves from the standard start.
  if (start) return Fault{Termination::Startup, "a ManKalah agent can only play from the standard start"};
  // An agent plays one game: a fresh process each time.
  variant_ = v;
  started_ = false;
  me_ = -1;
  synced_ = 0;
  ping_ = std::chrono::milliseconds(time.ping_ms);
  use_clock(time);
  std::optional<Fault> f = spawn();
  use_clock(time);
  return f;
}

std::string MankalahPlayer::changes(const std::vector<Move>& moves, int me) {
  Position p = start_position(variant_);
  std::string out;
  for (size_t i = 0; i < moves.size(); ++i) {
    const int who = static_cast<int>(player_to_move(p));
    apply(variant_, p, moves[i]);
    if (i < synced_) continue;
    // An agent is not told about its own swap.
    if (moves[i].is_swap() && who == me) continue;
    const char* turn = p.over ? "END" : static_cast<int>(player_to_move(p)) == me ? "YOU" : "OPP";
    out += "CHANGE;" + (moves[i].is_swap() ? std::string("SWAP") : to_string(moves[i])) + ";" +
           board_text(variant_, p) + ";" + turn + "\n";
  }
  synced_ = moves.size();
  return out;
}

Reply MankalahPlayer::play(const std::vector<Move>& moves, const kep::Go& /*go*/, std::chrono::milliseconds allowed) {
  if (!process_) return Reply{Fault{Termination::Crash, "not running"}, {}, 0, {}};
  Position p = start_position(variant_);
  for (Move m : moves) apply(variant_, p, m);
  std::string request;
  if (!started_) {
    // The side this agent starts on: the side it plays now, unless a swap moved it.
    me_ = static_cast<int>(player_to_move(p));
    request = std::string("START;") + (me_ == 0 ? "South" : "North") + "\n";
    started_ = true;
  }
  request += changes(moves, me_);
  request.pop_back();  // send() ends the last line
  clock_->start(allowed);
  if (!send(request, clock_->wall_deadline())) return Reply{crash_fault("(on move request)", true), {}, 0, {}};
  return await_move(*clock_, [&](Reply& reply) {
    if (line_ == "SWAP") {
      reply.move = Move::swap();
      return true;
    }
    int pit = 0;
    if (line_.rfind("MOVE;", 0) == 0) {
      const char* first = line_.data() + 5;
      const char* last = line_.data() + line_.size();
      auto [end, ec] = std::from_chars(first, last, pit);
      if (ec == std::errc() && end == last && pit >= 1 && pit <= 255) {
        reply.move = Move::at(pit);
        return true;
      }
    }
    reply.fault = Fault{Termination::Protocol, "expected MOVE;<n> or SWAP, got: " + kep::shorten(line_)};
    return true;
  });
}

void MankalahPlayer::game_over(const std::vector<Move>& moves) {
  if (!process_) return;
  const auto deadline = SteadyClock::now() + ping_;
  // A finished game ends with CHANGE;...;END; a forfeit with END alone.
  Position p = start_position(variant_);
  for (Move m : moves) apply(variant_, p, m);
  const std::string tail = started_ && p.over ? changes(moves, me_) : "";
  send(tail + "END", deadline);
  stop();
}

}  // namespace kalah
