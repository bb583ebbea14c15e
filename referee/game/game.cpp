#include "referee/game/game.h"

#include <array>
#include <cassert>
#include <chrono>
#include <cmath>

#include "referee/system/utc_time.h"

namespace kalah {

namespace {

std::string legal_list(const Variant& v, const Position& p) {
  std::string s;
  for (Move m : legal_moves(v, p)) s += (s.empty() ? "" : " ") + to_string(m);
  return s;
}

// True if the rules would not have ended the game without the majority rule.
bool ended_by_majority(const Variant& v, const Position& before, Move m) {
  if (!v.majority) return false;
  Variant without = v;
  without.majority = false;
  return !after(without, before, m).over;
}

class Game {
 public:
  Game(Player& south, Player& north, const GameSettings& s) : players_{&south, &north}, s_(s), scores_(s.adjudicate) {
    record_.id = s.id;
    record_.round = s.round;
    record_.south = south.name();
    record_.north = north.name();
    record_.variant = s.variant;
    record_.opening = s.opening;
    record_.started_at = system::utc_now_iso8601();
    clock_ms_ = {static_cast<double>(s.time_of(0).base_ms), static_cast<double>(s.time_of(1).base_ms)};
    record_.start = s.start;
    pos_ = s.start ? *s.start : start_position(s.variant);
  }

  GameRecord play() {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    record_.duration_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (Player* p : players_) p->game_over(record_.moves);
    record_.store_south = store(s_.variant, pos_, Side::South);
    record_.store_north = store(s_.variant, pos_, Side::North);
    record_.swapped = pos_.swapped;
    return std::move(record_);
  }

 private:
  // Index of the player (0 = started as South) who owns the side to move.
  int mover() const { return static_cast<int>(player_to_move(pos_)); }

  void run() {
    for (int i = 0; i < 2; ++i) {
      players_[i]->set_seed(s_.seed);
      if (std::optional<Fault> f = players_[i]->new_game(s_.variant, s_.start, s_.time_of(i))) return forfeit(i, *f);
    }
    for (Move m : s_.opening) {
      assert(is_legal(s_.variant, pos_, m));
      const int who = mover();
      apply(s_.variant, pos_, m);
      record_.moves.push_back(m);
      tell(who);
    }
    Move last{};
    Position before = pos_;
    while (!pos_.over) {
      if (std::optional<Ruling> v = adjudicate_position(s_.adjudicate, s_.variant, pos_)) return adjudicate(*v);
      if (static_cast<int>(record_.moves.size()) >= s_.max_plies) return adjudicate_max_plies();
      const int who = mover();
      const std::chrono::milliseconds allowed = allowance(who);
      Reply reply = players_[who]->play(record_.moves, go_command(), allowed);
      if (reply.fault) return forfeit(who, *reply.fault, overrun(reply, allowed));
      // A move that arrives after the deadline loses on time, legal or not.
      const ClockKind clock = s_.time_of(who).clock;
      if (reply.elapsed_ms > static_cast<double>(allowed.count()))
        return forfeit(who, {Termination::Time, late_detail(reply, allowed, clock)}, overrun(reply, allowed));
      if (!is_legal(s_.variant, pos_, reply.move))
        return forfeit(who, {Termination::Illegal,
                             "bestmove " + to_string(reply.move) + " (legal: " + legal_list(s_.variant, pos_) + ")"});
      charge(who, reply.elapsed_ms);
      before = pos_;
      last = reply.move;
      apply(s_.variant, pos_, reply.move);
      record_.moves.push_back(reply.move);
      record_.move_info.push_back({reply.elapsed_ms, reply.info.depth, reply.info.score, reply.info.nodes,
                                   clock == ClockKind::Cpu ? std::optional(reply.wall_ms) : std::nullopt});
      tell(who);
      if (pos_.over) break;
      const int plies = static_cast<int>(record_.moves.size());
      if (std::optional<Ruling> v = scores_.after_move(static_cast<Seat>(who), reply.info.score, plies))
        return adjudicate(*v);
    }
    record_.result = outcome(s_.variant, pos_);
    const bool engines_moved = record_.moves.size() > s_.opening.size();
    record_.termination =
        engines_moved && ended_by_majority(s_.variant, before, last) ? Termination::Majority : Termination::Normal;
  }

  // The watch (if any) hears of the ply just recorded, made by player `who`.
  void tell(int who) const {
    if (!s_.watch) return;
    std::array<std::optional<double>, 2> clocks;
    for (int i = 0; i < 2; ++i)
      if (s_.time_of(i).mode == TimeControl::Mode::Fischer) clocks[static_cast<std::size_t>(i)] = clock_ms_[i];
    s_.watch->ply(record_, who, clocks);
  }

  kep::Go go_command() const {
    kep::Go go;
    const int who = mover();
    const TimeControl& t = s_.time_of(who);
    switch (t.mode) {
      case TimeControl::Mode::Fischer: {
        // stime/ntime are the clocks of the players on the South and North sides now. A player
        // without a clock (time odds against a fixed depth, say) is shown with the mover's.
        const int south_player = pos_.swapped ? 1 : 0;
        auto shown = [&](int player) {
          const int from = s_.time_of(player).mode == TimeControl::Mode::Fischer ? player : who;
          return std::pair{static_cast<long long>(clock_ms_[from]), static_cast<long long>(s_.time_of(from).inc_ms)};
        };
        const auto [stime, sinc] = shown(south_player);
        const auto [ntime, ninc] = shown(1 - south_player);
        go.clock = kep::Go::Clock{stime, ntime, sinc, ninc};
        if (t.moves > 0) go.movestogo = t.moves - moves_made_[who] % t.moves;
        if (t.delay_ms > 0) go.delay = kep::Go::Delay{t.delay_ms, t.delay};
        break;
      }
      case TimeControl::Mode::MoveTime: go.movetime = t.movetime_ms; break;
      case TimeControl::Mode::Depth: go.depth = t.depth; break;
      case TimeControl::Mode::Nodes: go.nodes = t.nodes; break;
    }
    return go;
  }

  std::chrono::milliseconds allowance(int who) const {
    const TimeControl& t = s_.time_of(who);
    switch (t.mode) {
      case TimeControl::Mode::Fischer: {
        // A simple delay runs before the clock starts; a Bronstein delay is given back after the move.
        const std::int64_t before_clock = t.delay == DelayKind::Simple ? t.delay_ms : 0;
        return std::chrono::milliseconds(static_cast<long long>(clock_ms_[who]) + before_clock + t.margin_ms);
      }
      case TimeControl::Mode::MoveTime: return std::chrono::milliseconds(t.movetime_ms + t.margin_ms);
      default: return std::chrono::milliseconds(t.hard_limit_ms);
    }
  }

  // The clock loses the time used beyond the delay (never below zero) and gains the increment; with moves
  // per period, the base time again after the last move of each period.
  void charge(int who, double elapsed_ms) {
    const TimeControl& t = s_.time_of(who);
    ++moves_made_[who];
    if (t.mode != TimeControl::Mode::Fischer) return;
    const double charged = std::max(0.0, elapsed_ms - static_cast<double>(t.delay_ms));
    clock_ms_[who] = std::max(0.0, clock_ms_[who] - charged) + static_cast<double>(t.inc_ms);
    if (t.moves > 0 && moves_made_[who] % t.moves == 0) clock_ms_[who] += static_cast<double>(t.base_ms);
  }

  static std::string late_detail(const Reply& reply, std::chrono::milliseconds allowed, ClockKind clock) {
    const std::string limit = ", allowed " + std::to_string(allowed.count()) + " ms";
    // On the CPU clock a move is charged its CPU time, but at least a third of its wall time.
    if (clock == ClockKind::Cpu && reply.elapsed_ms * 3 <= reply.wall_ms + 0.5)
      return "charged " + std::to_string(static_cast<long long>(reply.elapsed_ms)) + " ms" + limit +
             " (CPU clock: a third of its " + std::to_string(static_cast<long long>(reply.wall_ms)) +
             " ms on the wall clock, more than the CPU time it used)";
    if (clock == ClockKind::Cpu)
      return "used " + std::to_string(static_cast<long long>(reply.elapsed_ms)) + " ms of CPU time" + limit +
             " (CPU clock; " + std::to_string(static_cast<long long>(reply.wall_ms)) + " ms on the wall clock)";
    return "answered after " + std::to_string(static_cast<long long>(reply.elapsed_ms)) + " ms" + limit;
  }

  // A time fault's overrun: the time charged past the allowance, to a tenth of a millisecond.
  static std::optional<double> overrun(const Reply& reply, std::chrono::milliseconds allowed) {
    if (reply.fault && reply.fault->kind != Termination::Time) return std::nullopt;
    const double past = std::max(0.0, reply.elapsed_ms - static_cast<double>(allowed.count()));
    return std::round(past * 10) / 10;
  }

  void forfeit(int who, const Fault& f, std::optional<double> overrun_ms = std::nullopt) {
    record_.termination = f.kind;
    record_.forfeit = Forfeit{players_[who]->name(), f.kind, f.detail, players_[who]->stderr_tail(), overrun_ms};
    record_.result = who == 0 ? Outcome::SecondWins : Outcome::FirstWins;
    players_[who]->forfeited();
  }

  void adjudicate(const Ruling& v) {
    record_.termination = Termination::Adjudicated;
    record_.result = v.result;
    record_.adjudication = v.adjudication;
  }

  // Too long: decided as if the game ended now, each side's seeds to its owner.
  void adjudicate_max_plies() {
    const int south = store(s_.variant, pos_, Side::South) + seeds_on_side(s_.variant, pos_, Side::South);
    const int north = store(s_.variant, pos_, Side::North) + seeds_on_side(s_.variant, pos_, Side::North);
    record_.termination = Termination::Adjudicated;
    record_.adjudication = Adjudication{AdjudicationReason::MaxPlies, {}};
    if (south == north)
      record_.result = Outcome::Draw;
    else
      record_.result = (south > north) != pos_.swapped ? Outcome::FirstWins : Outcome::SecondWins;
  }

  std::array<Player*, 2> players_;
  const GameSettings& s_;
  GameRecord record_;
  Position pos_;
  std::array<double, 2> clock_ms_{};
  std::array<int, 2> moves_made_{};  // each player's own moves (plies) so far, the opening's not counted
  ScoreWatch scores_;
};

}  // namespace

std::uint32_t game_seed(std::uint64_t tournament_seed, std::string_view game_id) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a, 64 bits
  for (unsigned char c : game_id) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  std::uint64_t z = h ^ (tournament_seed + 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<std::uint32_t>(z & 0x7fffffffU);
}

GameRecord play_game(Player& south, Player& north, const GameSettings& settings) {
  return Game(south, north, settings).play();
}

}  // namespace kalah
