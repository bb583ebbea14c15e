// What a sandboxed build may take: the one limits type of a contest's submissions ([submissions]) and of a
// git SPRT's commits ([sprt], docs/SPRT.md "From git"). A header of its own, so that the config, which
// holds it, reads none of the build's headers.
#pragma once

#include "referee/engine/engine_spec.h"

namespace kalah::sandbox_build {

struct BuildLimits {
  int timeout_s = 300;                       // wall time of one build (build_timeout_s)
  long long memory_mb = 2048;                // its processes' memory (build_memory_mb)
  long long disk_mb = 256;                   // what it may leave in its folder and write to its /tmp (build_disk_mb)
  SandboxMode sandbox = SandboxMode::Bwrap;  // build_sandbox
  friend bool operator==(const BuildLimits&, const BuildLimits&) = default;
};

}  // namespace kalah::sandbox_build
