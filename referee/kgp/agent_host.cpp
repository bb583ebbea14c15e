#include "referee/kgp/agent_host.h"

#include <algorithm>
#include <random>
#include <variant>

#include "referee/kgp/board.h"
#include "referee/protocol/protocol.h"

namespace kalah::kgp {

namespace {

using std::chrono::milliseconds;

class AgentHost {
 public:
  AgentHost(ServerSession& session, const AgentHostSettings& settings, const AgentHostIo& io)
      : session_(session), settings_(settings), io_(io), rng_(settings.seed) {}

  int run() {
    std::string line;
    while (io_.read_line(line)) {
      Expected<kep::Command> c = kep::parse_command(line);
      if (!c) {
        io_.note("kgp-host: ignored a line from the arena: " + kep::shorten(line));
        continue;
      }
      if (std::holds_alternative<kep::Quit>(*c)) break;
      if (!handle(*c)) return 1;
    }
    session_.goodbye(std::chrono::steady_clock::now() + milliseconds(100));
    return 0;
  }

 private:
  void say(const kep::EngineMessage& m) { io_.write_line(kep::format(m)); }

  // One command of the arena; false when the agent is lost.
  bool handle(const kep::Command& c) {
    if (std::holds_alternative<kep::Hello>(c)) {
      const ClientInfo& info = session_.info();
      say(kep::IdName{info.name.empty() ? "kgp-agent" : info.name});
      if (!info.authors.empty()) say(kep::IdAuthor{info.authors});
      say(kep::Feature{"positions"});
      say(kep::KepOk{});
    } else if (std::holds_alternative<kep::IsReady>(c)) {
      // A game under the pie rule gets no readyok: the arena records why (config loaders refuse it first).
      if (!variant_.pie) say(kep::ReadyOk{});
    } else if (const auto* n = std::get_if<kep::NewGame>(&c)) {
      variant_ = n->variant;
      position_ = start_position(variant_);
      ++games_;
      if (variant_.pie) io_.note("kgp-host: KGP has no pie rule (no swap move): this game cannot be played");
    } else if (const auto* p = std::get_if<kep::PositionCmd>(&c)) {
      set_position(*p);
    } else if (const auto* g = std::get_if<kep::Go>(&c)) {
      return go(*g);
    }
    return true;  // setoption (the host declares no option), stop outside a turn (nothing to stop), bench
  }

  void set_position(const kep::PositionCmd& p) {
    Position at = start_position(variant_);
    if (!p.start.empty()) {
      Expected<Position> start = parse_start(variant_, p.start);
      if (!start) {
        io_.note("kgp-host: " + start.error());
        return;
      }
      at = *start;
    }
    for (Move m : p.moves) {
      if (!is_legal(variant_, at, m)) {
        io_.note("kgp-host: the arena's move " + to_string(m) + " is not legal here");
        return;
      }
      apply(variant_, at, m);
    }
    position_ = at;
  }

  bool go(const kep::Go& go) {
    if (position_.over || variant_.pie) {
      io_.note("kgp-host: asked to move in a game that is over or under the pie rule");
      return true;
    }
    const Side mover = position_.to_move;
    const milliseconds budget =
        std::max(milliseconds(1), turn_budget(go, mover, settings_.hard_limit) - settings_.margin);
    ServerSession::Hints hints;
    hints.time_mode = "relative";
    hints.clock_ms = budget.count();
    hints.game_id = std::to_string(games_);
    bool stopped = false;  // by the arena's `stop`, before the turn's own time
    const std::function<bool()> stop_now = [&] { return stopped = io_.stop_requested && io_.stop_requested(); };
    const ServerSession::Answer a = session_.ask(board_for(variant_, position_, mover), hints,
                                                 std::chrono::steady_clock::now() + budget, std::nullopt, stop_now);
    if (a.fault) {
      // Garbage from the agent is the arena's protocol forfeit (a line that is no KEP answer); a lost
      // connection its crash forfeit (the host exits).
      const std::string what = "the agent is lost: " + std::string(to_string(a.fault->kind)) + ": " + a.fault->detail;
      if (a.fault->kind == Termination::Protocol) io_.write_line("kgp-host: " + what);
      io_.note("kgp-host: " + what);
      return false;
    }
    if (a.move) {
      if (*a.move < 1 || *a.move > variant_.pits)
        io_.note("kgp-host: the agent's move " + std::to_string(*a.move) + " is off the board");
      io_.write_line("bestmove " + std::to_string(*a.move));
      return true;
    }
    const std::string why =
        a.yielded ? "the agent yielded without a move"
        : stopped ? "no move from the agent before the arena's stop"
                  : "no move from the agent before the stop after " + std::to_string(budget.count()) + " ms";
    if (settings_.no_move == NoMove::Forfeit) {
      io_.note("kgp-host: " + why + ": no answer (kgp_no_move = \"forfeit\")");
      return true;
    }
    const MoveList legal = legal_moves(variant_, position_);
    const Move m = legal.moves[std::uniform_int_distribution<int>(0, legal.size - 1)(rng_)];
    io_.note("kgp-host: " + why + ": a random move, " + to_string(m) + " (kgp_no_move = \"random\")");
    kep::Info info;
    info.text = "kgp random move";
    say(info);
    say(kep::BestMove{m});
    return true;
  }

  ServerSession& session_;
  const AgentHostSettings& settings_;
  const AgentHostIo& io_;
  std::mt19937 rng_;
  Variant variant_;
  Position position_ = start_position(variant_);
  int games_ = 0;
};

}  // namespace

int run_agent_host(ServerSession& session, const AgentHostSettings& settings, const AgentHostIo& io) {
  AgentHost host(session, settings, io);
  return host.run();
}

}  // namespace kalah::kgp
