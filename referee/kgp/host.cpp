#include "referee/kgp/host.h"

#include <random>

#include "referee/kgp/board.h"

namespace kalah::kgp {

namespace {

// A client whose handshake failed: it loses the game by that fault as the game starts.
class Refused : public Player {
 public:
  Refused(std::string name, Fault fault) : name_(std::move(name)), fault_(std::move(fault)) {}
  const std::string& name() const override { return name_; }
  std::optional<Fault> new_game(const Variant&, const std::optional<Position>&, const TimeControl&) override {
    return fault_;
  }
  Reply play(const std::vector<Move>&, const kep::Go&, std::chrono::milliseconds) override {
    Reply r;
    r.fault = fault_;
    return r;
  }

 private:
  std::string name_;
  Fault fault_;
};

std::string player_name(const ClientInfo& info, const char* fallback) {
  return info.name.empty() ? fallback : info.name;
}

}  // namespace

Expected<HostedGame> host_game(LineListener& listener, const GameSettings& settings, std::chrono::milliseconds wait,
                               NoMove no_move) {
  // Each client is greeted as it comes: one waiting for the other has had its handshake.
  const auto until = std::chrono::steady_clock::now() + wait;
  const auto startup = std::chrono::milliseconds(settings.time.startup_ms);
  std::optional<LineSocket> first = listener.accept(until);
  if (!first) return Error{"no KGP client connected within " + std::to_string(wait.count()) + " ms"};
  ServerSession south(std::move(*first));
  const std::optional<Fault> south_fault = south.handshake(std::chrono::steady_clock::now() + startup);
  std::optional<LineSocket> second = listener.accept(until);
  if (!second) {
    south.goodbye(std::chrono::steady_clock::now() + std::chrono::seconds(1));
    return Error{"only one KGP client connected within " + std::to_string(wait.count()) + " ms"};
  }
  ServerSession north(std::move(*second));
  const std::optional<Fault> north_fault = north.handshake(std::chrono::steady_clock::now() + startup);
  const std::string south_name = player_name(south.info(), "kgp-south");
  std::string north_name = player_name(north.info(), "kgp-north");
  if (north_name == south_name) north_name += " (2)";
  SessionPlayer south_player(south_name, south, no_move, 1);
  SessionPlayer north_player(north_name, north, no_move, 2);
  Refused south_refused(south_name, south_fault.value_or(Fault{}));
  Refused north_refused(north_name, north_fault.value_or(Fault{}));
  Player& s = south_fault ? static_cast<Player&>(south_refused) : south_player;
  Player& n = north_fault ? static_cast<Player&>(north_refused) : north_player;
  HostedGame hosted{play_game(s, n, settings), south.info(), north.info()};
  const auto bye = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  south.goodbye(bye);
  north.goodbye(bye);
  return hosted;
}

VerifyResult verify_client(ServerSession& session, const Variant& rules, int problems, std::uint32_t seed,
                           std::chrono::milliseconds per_problem) {
  VerifyResult result;
  std::mt19937 rng(seed);
  Variant v = rules;
  v.pie = false;
  while (result.passed < problems) {
    // A position some random plies into a random game, and a random legal move there.
    Position p = start_position(v);
    const int plies = std::uniform_int_distribution<int>(0, 4 * v.pits)(rng);
    for (int i = 0; i < plies && !p.over; ++i) {
      const MoveList legal = legal_moves(v, p);
      apply(v, p, legal.moves[std::uniform_int_distribution<int>(0, legal.size - 1)(rng)]);
    }
    if (p.over) continue;
    const MoveList legal = legal_moves(v, p);
    const Move m = legal.moves[std::uniform_int_distribution<int>(0, legal.size - 1)(rng)];
    const Side mover = p.to_move;
    const Position next = after(v, p, m);
    const bool repeat = !next.over && next.to_move == mover;
    const Board problem = board_for(v, p, mover);
    ServerSession::Checked c = session.verify(problem, m.pit, board_for(v, next, mover), repeat,
                                              std::chrono::steady_clock::now() + per_problem);
    if (c.fault) {
      result.fault = c.fault;
      return result;
    }
    if (c.wrong) {
      result.wrong = "problem " + board_text(problem) + " " + std::to_string(m.pit) + ": " + *c.wrong;
      return result;
    }
    ++result.passed;
  }
  return result;
}

}  // namespace kalah::kgp
