#include "referee/check/conformance.h"

#include <algorithm>
#include <cassert>
#include <random>
#include <set>
#include <utility>

#include <fmt/core.h>
#include <fmt/format.h>

#include "referee/check/check_detail.h"
#include "referee/engine/engine_player.h"
#include "referee/game/game.h"
#include "referee/protocol/options.h"
#include "referee/protocol/protocol.h"
#include "referee/rules/position.h"

namespace kalah::check {

namespace {

using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;

long long ms_since(SteadyClock::time_point start) {
  return std::chrono::duration_cast<milliseconds>(SteadyClock::now() - start).count();
}

std::string moves_text(const std::vector<Move>& moves) {
  std::string text = "startpos";
  for (size_t i = 0; i < moves.size(); ++i) text += (i == 0 ? " moves " : " ") + to_string(moves[i]);
  return text;
}

std::string legal_text(const Variant& v, const Position& p) {
  std::string text;
  for (Move m : legal_moves(v, p)) text += (text.empty() ? "" : " ") + to_string(m);
  return text;
}

using detail::fail;
using detail::fail_tolerated;
using detail::pass;
using detail::skip;

// The run for one engine: one player kept between checks as a tournament keeps it between games, and
// restarted (with newgame) after a failure, as after a forfeit.
class Checker {
 public:
  Checker(const EngineSpec& engine, const Settings& s, const std::function<void(const Result&)>& report)
      : engine_(engine), s_(s), report_(report) {
    time_ = s.clock;
    time_.mode = TimeControl::Mode::MoveTime;
    time_.movetime_ms = s.movetime_ms;
  }

  std::vector<Result> run() {
    if (engine_.protocol == Protocol::Mankalah)
      run_mankalah();
    else
      run_kep();
    return std::move(results_);
  }

 private:
  void add(Result r) {
    report_(r);
    results_.push_back(std::move(r));
  }

  void run_kep() {
    player_ = std::make_unique<EnginePlayer>(engine_);
    if (!handshake()) return;
    options();
    isready();
    bench();
    for (const Variant& v : check_variants(Protocol::Kep)) {
      const bool ready = newgame(v);
      for (const Probe& probe : probes(v, s_.seed)) {
        if (ready)
          move(v, probe);
        else
          add(skip(move_check(v, probe), "the engine did not take this variant's newgame (above)"));
      }
    }
    start_positions();
    clock(check_variants(Protocol::Kep).front());
    stop();
    quit();
  }

  void run_mankalah() {
    const std::string why = "the Manchester protocol has none";
    add(skip("handshake", why + " (the agent's start-up time counts towards its first move)"));
    add(skip("options", why));
    add(skip("isready", why));
    add(skip("bench", why));
    player_ = make_player(engine_);
    for (const Variant& v : check_variants(Protocol::Mankalah)) {
      add(skip("newgame " + short_name(v), why + ": the agent is started afresh for every game"));
      // An agent plays one game per process: each position is a game of its own, ended with END.
      for (const Probe& probe : probes(v, s_.seed)) {
        if (!first_turn(v, probe.moves)) {
          add(skip(move_check(v, probe),
                   "an agent is started at its first turn and told the game so far, so a position after moves of its "
                   "own is not one it can be given; the clock game plays such positions"));
          continue;
        }
        if (std::optional<Fault> f = player_->new_game(v, std::nullopt, time_)) {
          add(fail(move_check(v, probe), *f));
          player_->forfeited();
          continue;
        }
        if (move(v, probe)) player_->game_over(probe.moves);
      }
    }
    add(skip("move " + short_name(check_variants(Protocol::Mankalah).front()) + " from-start",
             "agents only play from the standard start (a tournament with start positions refuses them)"));
    clock(check_variants(Protocol::Mankalah).front());
    add(skip("stop", why + " (there is no stop message)"));
    add(skip("quit", "the agent is told END after each game and stopped within the grace period"));
  }

  // True when the player to move after `moves` has not moved before in them.
  static bool first_turn(const Variant& v, const std::vector<Move>& moves) {
    Position p = start_position(v);
    std::vector<Seat> movers;
    for (Move m : moves) {
      movers.push_back(player_to_move(p));
      apply(v, p, m);
    }
    return std::find(movers.begin(), movers.end(), player_to_move(p)) == movers.end();
  }

  bool handshake() {
    auto* kep = static_cast<EnginePlayer*>(player_.get());
    const auto start = SteadyClock::now();
    if (std::optional<Fault> f = kep->start(milliseconds(time_.startup_ms))) {
      add(fail("handshake", *f));
      return false;
    }
    const long long took = ms_since(start);
    if (kep->engine_id_name().empty()) {
      add(fail_tolerated("handshake", "no 'id name' line before kepok (required by the protocol)"));
      return true;
    }
    add(pass("handshake",
             fmt::format("'{}', kepok after {} ms (deadline {} ms)", kep->identity(), took, time_.startup_ms)));
    return true;
  }

  void options() {
    auto* kep = static_cast<EnginePlayer*>(player_.get());
    std::vector<std::string> problems;
    for (const kep::Malformed& m : kep->malformed_handshake_lines())
      problems.push_back("'" + kep::shorten(m.line, 80) + "': " + m.why);
    std::set<std::string> names;
    std::vector<std::string> declared;
    EngineSpec with_defaults = engine_;
    with_defaults.options.clear();
    for (const kep::OptionDecl& o : kep->declared_options()) {
      declared.push_back(kep::describe(o));
      if (!names.insert(o.name).second) problems.push_back("option '" + o.name + "' is declared twice");
      if (std::string why = kep::declaration_problem(o); !why.empty())
        problems.push_back("option '" + o.name + "': " + why);
      with_defaults.options.push_back({o.name, o.default_value});
    }
    // What the command line sets must be something the engine takes (a misspelt name is not silently dropped).
    for (std::string& why : kep->option_problems()) problems.push_back(std::move(why));
    if (!problems.empty()) return add(fail_tolerated("options", fmt::format("{}", fmt::join(problems, "; "))));
    if (declared.empty()) return add(pass("options", "none declared"));
    // The engine started afresh, each option set to its own default, must still answer isready.
    EnginePlayer fresh(with_defaults);
    std::optional<Fault> f = fresh.start(milliseconds(time_.startup_ms));
    if (!f) f = fresh.ping(milliseconds(time_.ping_ms));
    if (f) return add(fail("options", Fault{f->kind, "after setoption of each default: " + f->detail}));
    add(pass("options", fmt::format("{} declared ({}); each set to its default, then readyok", declared.size(),
                                    fmt::join(declared, ", "))));
  }

  void isready() {
    auto* kep = static_cast<EnginePlayer*>(player_.get());
    const auto start = SteadyClock::now();
    if (std::optional<Fault> f = kep->ping(milliseconds(time_.ping_ms))) {
      add(fail("isready", *f));
      player_->forfeited();
      return;
    }
    add(pass("isready", fmt::format("readyok after {} ms (deadline {} ms)", ms_since(start), time_.ping_ms)));
  }

  // `bench` (docs/PROTOCOL.md, "Bench"), for an engine that announces it: a count within the deadline, and the
  // same count again, since it must name the build. No game forfeits for it: `arena sprt --bench` refuses the
  // engine instead.
  void bench() {
    auto* kep = static_cast<EnginePlayer*>(player_.get());
    if (s_.skip_bench) return add(skip("bench", s_.skip_bench));
    if (!kep->has_feature("bench"))
      return add(skip("bench",
                      "no 'feature bench' in the handshake: `arena sprt --bench` refuses the engine (nothing else "
                      "needs it)"));
    std::vector<EnginePlayer::BenchReply> replies;
    for (int i = 0; i < 2; ++i) {
      replies.push_back(kep->bench(s_.bench_allowed));
      if (const std::optional<Fault>& f = replies.back().fault) {
        player_->forfeited();  // it may still be benching: the checks after it start a fresh process
        return add(fail_tolerated(
            "bench", fmt::format("{}: {}{} (`arena sprt --bench` refuses the engine)", to_string(f->kind), f->detail,
                                 i == 1 ? " (on the second bench)" : "")));
      }
    }
    const long long first = replies[0].result->nodes, second = replies[1].result->nodes;
    if (first != second)
      return add(
          fail_tolerated("bench", fmt::format("two benches gave {} and then {} nodes: the count must be the same "
                                              "every time, or it cannot tell one build from another",
                                              first, second)));
    add(pass("bench", fmt::format("bench nodes {} twice, after {:.0f} and {:.0f} ms (deadline {} ms)", first,
                                  replies[0].elapsed_ms, replies[1].elapsed_ms, s_.bench_allowed.count())));
  }

  bool newgame(const Variant& v) {
    const auto start = SteadyClock::now();
    if (std::optional<Fault> f = player_->new_game(v, std::nullopt, time_)) {
      add(fail("newgame " + short_name(v), *f));
      player_->forfeited();
      broken_ = true;
      return false;
    }
    variant_ = v;
    broken_ = false;
    add(pass("newgame " + short_name(v), fmt::format("readyok after {} ms", ms_since(start))));
    return true;
  }

  static std::string move_check(const Variant& v, const Probe& probe) {
    return "move " + short_name(v) + " " + probe.label;
  }

  // The engine is playing `v` and ready: restarted with newgame after a failure (as for its next game).
  std::optional<Fault> ready_for(const Variant& v) {
    if (engine_.protocol == Protocol::Mankalah || (!broken_ && variant_ == v)) return std::nullopt;
    broken_ = false;
    variant_ = v;
    if (std::optional<Fault> f = player_->new_game(v, std::nullopt, time_)) {
      player_->forfeited();
      broken_ = true;
      unusable_ = true;
      return Fault{f->kind, "on restarting it with newgame: " + f->detail};
    }
    return std::nullopt;
  }

  // After an engine could not be restarted, the checks that need it are skipped: each would fail the same way.
  bool skipped_as_unusable(const std::string& check) {
    if (!unusable_) return false;
    add(skip(check, "the engine could not be restarted and made ready (above)"));
    return true;
  }

  // Judges a reply as the game loop does: a fault, then the time, then legality. Empty when it is good.
  std::optional<Fault> judge(const Variant& v, const std::vector<Move>& moves, const Reply& r, milliseconds allowed,
                             const std::optional<Position>& start = std::nullopt) {
    if (r.fault) return r.fault;
    if (r.elapsed_ms > static_cast<double>(allowed.count()))
      return Fault{Termination::Time,
                   fmt::format("answered after {:.0f} ms, allowed {} ms", r.elapsed_ms, allowed.count())};
    Position p = start ? *start : start_position(v);
    for (Move m : moves) apply(v, p, m);
    if (!is_legal(v, p, r.move))
      return Fault{Termination::Illegal, "bestmove " + to_string(r.move) + " (legal: " + legal_text(v, p) + ")"};
    return std::nullopt;
  }

  // True when the engine answered well.
  bool move(const Variant& v, const Probe& probe) {
    const std::string check = move_check(v, probe);
    if (skipped_as_unusable(check)) return false;
    const std::string where = " (position " + moves_text(probe.moves) + ")";
    if (std::optional<Fault> f = ready_for(v)) {
      add(fail(check, Fault{f->kind, f->detail + where}));
      return false;
    }
    kep::Go go;
    go.movetime = time_.movetime_ms;
    const milliseconds allowed(time_.movetime_ms + time_.margin_ms);
    const Reply r = player_->play(probe.moves, go, allowed);
    if (std::optional<Fault> f = judge(v, probe.moves, r, allowed)) {
      add(fail(check, Fault{f->kind, f->detail + where}));
      player_->forfeited();
      broken_ = true;
      return false;
    }
    add(pass(check, fmt::format("bestmove {} after {:.0f} ms{}", to_string(r.move), r.elapsed_ms, where)));
    return true;
  }

  // Games from other start positions (docs/PROTOCOL.md, "Start positions"), for an engine that announces
  // `feature positions`: a new game from each start, and the first move of it.
  void start_positions() {
    auto* kep = static_cast<EnginePlayer*>(player_.get());
    const Variant v = check_variants(Protocol::Kep).front();
    const std::string check = "move " + short_name(v) + " from-start";
    if (!kep->has_feature("positions"))
      return add(skip(check,
                      "no 'feature positions' in the handshake: a tournament that starts games from "
                      "positions refuses the engine"));
    for (const char* text : {"6,0,6,0,6,0/0,6,0,6,0,6 1-1 N", "2,0,0,0,0,1/0,0,0,3,0,0 20-22 S"}) {
      if (skipped_as_unusable(check)) return;
      const Expected<Position> start = parse_start(v, text);
      assert(start);
      const std::string where = fmt::format(" (position {})", text);
      broken_ = true;  // whatever happens, the next check begins with a new standard game
      if (std::optional<Fault> f = player_->new_game(v, *start, time_)) {
        add(fail(check, Fault{f->kind, f->detail + where}));
        player_->forfeited();
        continue;
      }
      kep::Go go;
      go.movetime = time_.movetime_ms;
      const milliseconds allowed(time_.movetime_ms + time_.margin_ms);
      const Reply r = player_->play({}, go, allowed);
      if (std::optional<Fault> f = judge(v, {}, r, allowed, *start)) {
        add(fail(check, Fault{f->kind, f->detail + where}));
        player_->forfeited();
        continue;
      }
      add(pass(check, fmt::format("bestmove {} after {:.0f} ms{}", to_string(r.move), r.elapsed_ms, where)));
    }
  }

  // A whole game against a second copy of itself under the clock.
  void clock(const Variant& v) {
    if (skipped_as_unusable("clock")) return;
    if (engine_.protocol == Protocol::Kep) broken_ = true;  // the game starts with a newgame of its own
    add(detail::clock_game(*player_, engine_, s_, v));
  }

  void stop() {
    if (skipped_as_unusable("stop")) return;
    auto* kep = static_cast<EnginePlayer*>(player_.get());
    const Variant v = check_variants(Protocol::Kep).front();
    const std::vector<Probe> set = probes(v, s_.seed);
    const Probe& probe = set.size() > 1 ? set[1] : set[0];
    if (std::optional<Fault> f = ready_for(v)) return add(fail("stop", *f));
    kep::Go go;
    go.depth = 1000;
    bool stop_sent = false;
    const Reply r = kep->play_until_stop(probe.moves, go, s_.stop_after, s_.stop_allowed, stop_sent);
    // elapsed_ms is from the stop, or from the request when the move came first.
    if (std::optional<Fault> f = judge(v, probe.moves, r, s_.stop_allowed)) {
      add(fail("stop", Fault{f->kind, f->detail + " (go depth 1000, stop after " +
                                          std::to_string(s_.stop_after.count()) + " ms)"}));
      player_->forfeited();
      broken_ = true;
      return;
    }
    if (!stop_sent)
      return add(pass("stop", fmt::format("go depth 1000 answered with bestmove {} after {:.0f} ms, before the stop "
                                          "was due (after {} ms): nothing to stop",
                                          to_string(r.move), r.elapsed_ms, s_.stop_after.count())));
    add(pass("stop", fmt::format("go depth 1000, stop after {} ms: bestmove {} {:.0f} ms later", s_.stop_after.count(),
                                 to_string(r.move), r.elapsed_ms)));
  }

  void quit() {
    if (skipped_as_unusable("quit")) return;
    if (std::optional<Fault> f = ready_for(check_variants(Protocol::Kep).front())) return add(fail("quit", *f));
    const milliseconds grace = engine_.quit_grace;
    const auto start = SteadyClock::now();
    std::optional<process::ExitInfo> exit = player_->quit_and_wait(grace);
    if (!exit)
      return add(fail_tolerated(
          "quit",
          fmt::format("still running {} ms after quit (the referee then kills it: SIGKILL to its process group)",
                      grace.count())));
    add(pass("quit",
             fmt::format("{} {} ms after quit (grace {} ms)", exit->describe(), ms_since(start), grace.count())));
  }

  const EngineSpec& engine_;
  const Settings& s_;
  const std::function<void(const Result&)>& report_;
  TimeControl time_;  // the settings' deadlines, with movetime for the positions
  std::unique_ptr<ProcessPlayer> player_;
  Variant variant_;        // the variant of the engine's last newgame
  bool broken_ = false;    // the engine was killed after a failure (or must be told a new game)
  bool unusable_ = false;  // restarting it failed: the checks that need it are skipped
  std::vector<Result> results_;
};

}  // namespace

Result detail::clock_game(ProcessPlayer& first, const EngineSpec& engine, const Settings& s, const Variant& v) {
  EngineSpec twin_spec = engine;
  twin_spec.name += "-2";
  std::unique_ptr<ProcessPlayer> twin = make_player(twin_spec);
  GameSettings game;
  game.id = "check";
  game.variant = v;
  game.time = s.clock;
  const GameRecord r = play_game(first, *twin, game);
  const std::string what = fmt::format("a game against itself in {} under {}", short_name(v), s.clock.describe());
  if (r.forfeit)
    return fail("clock", Fault{r.forfeit->reason, fmt::format("{}: the {} engine after {} plies: {}", what,
                                                              r.forfeit->engine == engine.name ? "first" : "second",
                                                              r.moves.size(), r.forfeit->detail)});
  double slowest = 0;
  for (const MoveInfo& m : r.move_info) slowest = std::max(slowest, m.time_ms);
  return pass("clock", fmt::format("{}: {} plies, {}, slowest move {:.0f} ms", what, r.moves.size(),
                                   to_string(r.result), slowest));
}

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "PASS";
    case Verdict::Fail: return "FAIL";
    case Verdict::Skip: return "SKIP";
  }
  return "?";
}

std::string short_name(const Variant& v) { return fmt::format("kalah({},{}){}", v.pits, v.seeds, v.pie ? " pie" : ""); }

std::vector<Variant> check_variants(Protocol protocol) {
  Variant standard;
  if (protocol == Protocol::Mankalah) {
    standard.pits = 7;
    standard.seeds = 7;
    standard.pie = true;
    return {standard};
  }
  Variant pie = standard;
  pie.pie = true;
  Variant small = standard;
  small.pits = 4;
  small.seeds = 3;
  return {standard, pie, small};
}

std::vector<Probe> probes(const Variant& v, std::uint64_t seed) {
  // The kinds in the order they are checked; each is the shortest position of its kind in the random games.
  const std::vector<std::string> kinds = {"start",      "ordinary",       "extra-turn", "pie-offer",
                                          "after-swap", "one-legal-move", "endgame"};
  std::vector<std::optional<std::vector<Move>>> found(kinds.size());
  found[0] = std::vector<Move>{};
  auto kind_of = [&](const Position& p, const Position& before, const std::vector<Move>& moves) {
    std::vector<size_t> kinds_here;
    const int count = legal_move_count(v, p);
    if (moves.size() >= 6 && count >= 3 && p.pie == Pie::None) kinds_here.push_back(1);
    if (!moves.empty() && !moves.back().is_swap() && player_to_move(p) == player_to_move(before))
      kinds_here.push_back(2);
    if (p.pie == Pie::Offer) kinds_here.push_back(3);
    if (!moves.empty() && moves.back().is_swap()) kinds_here.push_back(4);
    if (count == 1) kinds_here.push_back(5);
    const int on_board = seeds_on_side(v, p, Side::South) + seeds_on_side(v, p, Side::North);
    if (count >= 2 && on_board <= v.pits) kinds_here.push_back(6);
    return kinds_here;
  };
  std::mt19937_64 rng(seed);
  for (int game = 0; game < 200; ++game) {
    Position p = start_position(v);
    std::vector<Move> moves;
    while (!p.over && moves.size() < 400) {
      const MoveList legal = legal_moves(v, p);
      // The pie offer is taken now and then, so that a position after a swap turns up.
      Move m = legal.moves[std::uniform_int_distribution<int>(0, legal.size - 1)(rng)];
      if (p.pie == Pie::Offer) m = game % 2 == 0 ? Move::swap() : legal.moves[0];
      const Position before = p;
      apply(v, p, m);
      moves.push_back(m);
      if (p.over) break;
      // The shortest of each kind: a move list people can read in a failure.
      for (size_t k : kind_of(p, before, moves))
        if (!found[k] || found[k]->size() > moves.size()) found[k] = moves;
    }
  }
  std::vector<Probe> result;
  for (size_t k = 0; k < kinds.size(); ++k)
    if (found[k]) result.push_back({kinds[k], *found[k]});
  return result;
}

std::vector<Result> run_checks(const EngineSpec& engine, const Settings& settings,
                               const std::function<void(const Result&)>& report) {
  // A KGP agent is checked on its own protocol, with this process as its server. A sandboxed one (none that
  // `referee check` starts) reaches nothing outside its sandbox: it is checked as the KEP engine its host is.
  if (engine.kgp && engine.sandbox == SandboxMode::None) return detail::run_kgp_checks(engine, settings, report);
  return Checker(engine, settings, report).run();
}

}  // namespace kalah::check
