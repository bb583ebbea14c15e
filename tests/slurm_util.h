// Whether the end-to-end tests can use Slurm here: a one-node Slurm that tools/slurm-local.sh starts (as root), as CI
// does. A test that cannot skips itself with the reason.
#pragma once

#include <cstdlib>
#include <string>

namespace kalah::e2e {

// Why Slurm cannot be used here, or "" when a controller answers.
inline std::string slurm_unavailable() {
  for (const char* tool : {"sbatch", "srun", "squeue", "scancel", "scontrol"})
    if (std::system(("command -v " + std::string(tool) + " >/dev/null 2>&1").c_str()) != 0)
      return std::string(tool) + " is not installed (as root: tools/slurm-local.sh start)";
  if (std::system("scontrol ping >/dev/null 2>&1") != 0)
    return "no Slurm controller answers `scontrol ping` (as root: tools/slurm-local.sh start)";
  return "";
}

}  // namespace kalah::e2e
