// What a published report says about where it came from: the arena's version and the machine.
#pragma once

#include <string>
#include <string_view>

namespace kalah::system {

// `git describe --always --dirty` of the source tree at build time ("5bdd7a9", "v1.2-3-g5bdd7a9-dirty"),
// or "unknown" when it was not built from a git checkout.
const char* arena_version();

// What `arena --version` and `referee --version` print, two lines:
//   arena 0.1.0
//   built from git commit 5bdd7a9... (5bdd7a9-dirty: with changes not committed)
// or, built from a source tree that is not a git checkout (a tarball), "built from a source tree without
// git: the commit is not known".
std::string version_text(std::string_view program);

// "Intel(R) Xeon(R) CPU @ 2.20GHz, 2 CPUs": the CPU model from /proc/cpuinfo and the CPUs this process
// may run on (its affinity mask). "unknown CPU" when /proc/cpuinfo says nothing.
std::string machine_description();

}  // namespace kalah::system
