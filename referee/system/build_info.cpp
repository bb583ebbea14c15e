#include "referee/system/build_info.h"

#include <sched.h>

#include <fstream>

#include "kalah_version.h"

namespace kalah::system {

const char* arena_version() { return KALAH_ARENA_VERSION; }

std::string version_text(std::string_view program) {
  std::string text = std::string(program) + " " + KALAH_PROJECT_VERSION + "\n";
  const std::string commit = KALAH_GIT_COMMIT, described = KALAH_ARENA_VERSION;
  if (commit.empty()) return text + "built from a source tree without git: the commit is not known";
  text += "built from git commit " + commit + " (" + described;
  if (described.ends_with("-dirty")) text += ": with changes not committed";
  return text + ")";
}

std::string machine_description() {
  std::string model;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; model.empty() && std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::size_t start = line.find_first_not_of(" \t", colon + 1);
    if (start != std::string::npos) model = line.substr(start);
  }
  if (model.empty()) model = "unknown CPU";
  cpu_set_t set;
  CPU_ZERO(&set);
  const int cpus = ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
  return model + ", " + std::to_string(cpus) + (cpus == 1 ? " CPU" : " CPUs");
}

}  // namespace kalah::system
