// `referee check`: the conformance run an engine's author makes before entering a tournament. Every check
// drives the engine through the referee's own players (referee/engine) and rules, so the deadlines and the
// way a misbehaviour is classified are those of a real game: a failure names the forfeit reason (startup,
// protocol, time, illegal, crash, output) that a tournament would record. docs/PROTOCOL.md, "Checking your
// engine", lists the checks.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "referee/engine/engine_spec.h"
#include "referee/game/time_control.h"
#include "referee/record/record.h"
#include "referee/rules/variant.h"

namespace kalah::check {

enum class Verdict { Pass, Fail, Skip };
const char* to_string(Verdict v);  // "PASS", "FAIL", "SKIP"

struct Result {
  std::string check;  // "handshake", "move kalah(6,4) extra-turn", ...
  Verdict verdict = Verdict::Pass;
  // A failure the referee forfeits a game for: its reason. Unset for a pass, a skip, and a failure the
  // referee tolerates in a game (a missing `id name`, a malformed option, a slow `quit`).
  std::optional<Termination> forfeit;
  std::string detail;  // what the engine did, why it failed, or why the check was skipped
};

struct Settings {
  TimeControl clock;                               // a Fischer clock for the self-play game; with its margin,
                                                   // start-up and ping deadlines, which every check uses
  std::int64_t movetime_ms = 100;                  // `go movetime` of every position
  std::chrono::milliseconds stop_after{300};       // thinking time before `stop` is sent
  std::chrono::milliseconds stop_allowed{1000};    // from `stop` to `bestmove`
  std::chrono::milliseconds bench_allowed{60000};  // from `bench` to its answer, for `feature bench`
  // Whether `bench` is checked at all: off where nothing will ask for it (a contest build), so that a bot
  // whose bench is broken is not kept out for what its games never use, and a hanging one costs no time.
  const char* skip_bench = nullptr;  // the reason to skip it; nullptr: checked
  std::uint64_t seed = 1;            // of the random games the positions are taken from
};

// One position of the set, reached from the start by `moves`.
struct Probe {
  std::string label;  // "start", "ordinary", "extra-turn", "pie-offer", "after-swap", "one-legal-move", "endgame"
  std::vector<Move> moves;
};

// The positions every engine must answer with a legal move in `v`, the shortest of each kind in 200 seeded
// random games: the start,
// an ordinary middle game, an extra turn pending (the same side moves again), the pie offer and the move after
// a swap (with pie=on), only one legal move, and an endgame with few seeds left. A kind the random games do
// not reach in this variant is left out.
std::vector<Probe> probes(const Variant& v, std::uint64_t seed);

// The variants the checks use for an engine speaking `protocol`: Kalah(6,4), with pie=on, and Kalah(4,3) for
// KEP engines; Kalah(7,7) with pie=on, what Manchester agents assume, for them.
std::vector<Variant> check_variants(Protocol protocol);
// "kalah(6,4)", "kalah(6,4) pie": the variant's short name in a check's name.
std::string short_name(const Variant& v);

// Runs every check on `engine` in order, handing each result to `report` as soon as it is known, and
// returns them all. Never throws for anything the engine does. A failed handshake ends the run (nothing
// else can be checked).
std::vector<Result> run_checks(const EngineSpec& engine, const Settings& settings,
                               const std::function<void(const Result&)>& report);

}  // namespace kalah::check
