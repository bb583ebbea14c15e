// `arena slurm`: a tournament as a Slurm job array, one task per shard, and a merge job that
// depends on it (docs/SCALE.md). Slurm does the queueing, placement, retries (--requeue) and
// accounting; the arena only writes what sbatch reads. Nothing here talks to Slurm except
// submit(), which runs sbatch.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "referee/rules/expected.h"

namespace kalah::arena {

struct SlurmOptions {
  int shards = 0;                  // array tasks, 1..N
  std::string partition;           // --partition; empty: the cluster's default
  std::string time;                // --time (Slurm's forms: "30", "2:00:00", "1-12"); empty: the default
  int cpus_per_task = 0;           // --cpus-per-task and each task's concurrency; 0: the config's concurrency
  int throttle = 0;                // --array=1-N%K: at most K tasks at once; 0: no limit
  std::filesystem::path arena;     // this executable, absolute
  std::filesystem::path config;    // the config file, absolute
  std::filesystem::path work_dir;  // where the tasks run (the config's relative paths resolve from here)
  std::filesystem::path output;    // absolute [tournament] output: every task writes under it
};

// The three files `arena slurm` writes into <results>/slurm/.
struct SlurmScripts {
  std::filesystem::path dir;
  std::string run;     // run.sbatch: the job array
  std::string merge;   // merge.sbatch: `arena report` over every shard
  std::string submit;  // submit.sh: the array, then the merge with --dependency=afterany on it
};

// The scripts for `config` split `options.shards` ways. Errors (operator-facing): a bad option
// value, or a path that a #SBATCH line cannot hold (whitespace or quotes).
Expected<SlurmScripts> slurm_scripts(const Config& config, const SlurmOptions& options);

// Writes the scripts (each atomically; the shell scripts executable).
Expected<std::vector<std::filesystem::path>> write_slurm_scripts(const SlurmScripts& scripts);

struct SubmittedJobs {
  std::string array;  // job id of the array
  std::string merge;  // job id of the merge job
};

// Runs `sbatch --parsable` on run.sbatch, then on merge.sbatch with --dependency=afterany:<array>.
// `sbatch` is the executable to use. Errors carry sbatch's own message.
Expected<SubmittedJobs> submit_slurm_jobs(const SlurmScripts& scripts, const std::filesystem::path& sbatch);

}  // namespace kalah::arena
