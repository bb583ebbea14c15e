// A build check by bench signature, as fishtest does it (docs/SPRT.md, "A build check by bench"): before the
// first game of an SPRT with [sprt] bench, each engine is started once and asked for `bench`
// (docs/PROTOCOL.md, "Bench"); its node count is recorded in tournament.json, checked against the count the
// config declares, and compared with the recorded one when the run resumes. It acts on the engines of the
// config, wherever they came from (a command line, a file, a build of a commit).
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "arena/config/description.h"
#include "referee/rules/expected.h"

namespace kalah::arena {

// How long an engine may take to answer `bench`.
inline constexpr std::chrono::milliseconds kBenchAllowed{60000};

// Each engine's bench count, by name (recorded in its description: EngineDescription::bench).
using BenchCounts = std::map<std::string, long long>;

// For an SPRT with bench on (else nothing): each engine's count. An error, naming the engine, when it does not
// start, does not announce `feature bench`, its bench fails, or its count is not the one declared (base_bench,
// test_bench).
Expected<BenchCounts> measure_benches(const Config& config);

// For a resumed run: a line per engine whose count recorded in `stored` differs from the one measured `now`.
std::vector<std::string> changed_benches(const TournamentDescription& stored, const BenchCounts& now);

}  // namespace kalah::arena
