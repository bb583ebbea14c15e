// CPU isolation (docs/SECURITY.md): under [tournament] pin or cpus, each concurrent game slot (a worker of
// the runner) gets its own CPUs, and both engines of its games run there.
#pragma once

#include <vector>

#include "arena/config/config.h"
#include "referee/rules/expected.h"

namespace kalah::arena {

// The CPUs of each game slot (worker) under `pin`/`cpus`: concurrency disjoint, equal sets taken in
// order from the CPUs the arena may run on (sched_getaffinity, so a Slurm or taskset cpuset is
// honoured) or from `cpus`. Empty without pinning. Errors: fewer CPUs than game slots, or `cpus`
// naming a CPU the arena may not use.
Expected<std::vector<std::vector<int>>> cpu_slots(const Config& config);

}  // namespace kalah::arena
