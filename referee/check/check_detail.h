// What the checks of KEP and Manchester engines (conformance.cpp) and those of KGP agents (kgp_checks.cpp)
// share: the way a result is made, and the clock game.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "referee/check/conformance.h"
#include "referee/engine/engine_player.h"

namespace kalah::check::detail {

inline Result pass(std::string check, std::string detail) {
  return Result{std::move(check), Verdict::Pass, std::nullopt, std::move(detail)};
}
inline Result fail(std::string check, const Fault& f) {
  return Result{std::move(check), Verdict::Fail, f.kind, f.detail};
}
inline Result fail_tolerated(std::string check, std::string detail) {
  return Result{std::move(check), Verdict::Fail, std::nullopt, std::move(detail)};
}
inline Result skip(std::string check, std::string why) {
  return Result{std::move(check), Verdict::Skip, std::nullopt, std::move(why)};
}

// The check "clock": a whole game in `v` of `first` (an engine process of `engine`) against a second copy
// of `engine` under the settings' clock, by the game loop's own accounting.
Result clock_game(ProcessPlayer& first, const EngineSpec& engine, const Settings& s, const Variant& v);

// The KGP side of `referee check` for an agent (engine.kgp set; kgp_checks.cpp).
std::vector<Result> run_kgp_checks(const EngineSpec& engine, const Settings& s,
                                   const std::function<void(const Result&)>& report);

}  // namespace kalah::check::detail
