// `arena plan CONFIG --shards N`: how a tournament splits into shards, before anything runs; and
// `arena slurm CONFIG --shards N`: the Slurm job array that plays them (docs/SCALE.md).
#include <unistd.h>

#include <memory>
#include <string>

#include <fmt/core.h>
#include <fmt/format.h>

#include "arena/app/commands.h"
#include "arena/cluster/slurm.h"
#include "arena/config/config.h"
#include "arena/contest/entries.h"
#include "arena/formats/registry.h"
#include "arena/schedule/schedule.h"
#include "referee/system/executable.h"

namespace kalah::arena_app {
namespace {

namespace fs = std::filesystem;

// `plan_only`: one "shard" of a Swiss or knockout tournament is the tournament itself, which plan describes.
arena::Config load(const std::string& path, int shards, bool plan_only = false) {
  Expected<arena::Config> loaded = arena::load_with_entrants(path);
  if (!loaded) throw UsageError(loaded.error());
  for (const std::string& warning : loaded->warnings) fmt::print(stderr, "arena: warning: {}\n", warning);
  if (plan_only && shards == 1 && arena::paired_from_results(loaded->tournament.type)) return std::move(loaded).value();
  if (std::optional<std::string> problem = arena::shard_problem(*loaded, shards)) throw UsageError(*problem);
  return std::move(loaded).value();
}

struct PlanOptions {
  std::string config;
  int shards = 0;
  bool ids = false;
};

int plan(const PlanOptions& o) {
  const arena::Config config = load(o.config, o.shards, true);
  return formats::format_of(config).plan(config, o.shards, o.ids);
}

struct SlurmCommandOptions {
  std::string config;
  int shards = 0;
  std::string partition, time;
  int cpus_per_task = 0;
  int throttle = 0;
  std::string out;
  bool submit = false;
};

// This executable as an absolute path: the tasks call exactly the arena that wrote the script.
fs::path self() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw UsageError("cannot find this executable's path (/proc/self/exe): " + ec.message());
  return exe;
}

int slurm(const SlurmCommandOptions& o) {
  arena::Config config = load(o.config, o.shards);
  if (!o.out.empty()) config.tournament.output = o.out;
  // Checked before anything is written: a missing sbatch is an operator mistake.
  fs::path sbatch;
  if (o.submit) {
    Expected<fs::path> found = system::find_executable("sbatch", system::path_variable(), fs::current_path());
    if (!found)
      throw UsageError("--submit needs Slurm's sbatch, which is not on PATH (" + found.error() +
                       "); install slurm-client or run without --submit and submit the scripts elsewhere");
    sbatch = *found;
  }
  arena::SlurmOptions so;
  so.shards = o.shards;
  so.partition = o.partition;
  so.time = o.time;
  so.cpus_per_task = o.cpus_per_task;
  so.throttle = o.throttle;
  so.arena = self();
  so.config = fs::absolute(o.config).lexically_normal();
  so.work_dir = fs::current_path();
  so.output = fs::absolute(config.tournament.output).lexically_normal();
  Expected<arena::SlurmScripts> scripts = arena::slurm_scripts(config, so);
  if (!scripts) throw UsageError(scripts.error());
  Expected<std::vector<fs::path>> written = arena::write_slurm_scripts(*scripts);
  if (!written) throw UsageError(written.error());
  for (const fs::path& p : *written) fmt::print("wrote {}\n", p.string());
  if (!o.submit) {
    fmt::print("submit with: {}\n", (scripts->dir / "submit.sh").string());
    return 0;
  }
  std::fflush(stdout);
  Expected<arena::SubmittedJobs> jobs = arena::submit_slurm_jobs(*scripts, sbatch);
  if (!jobs) throw UsageError(jobs.error());
  fmt::print("submitted: array job {} ({} shards), merge job {}\n", jobs->array, o.shards, jobs->merge);
  fmt::print("results: {}/ when the merge job has run (squeue -j {},{})\n",
             (so.output / config.tournament.name).string(), jobs->array, jobs->merge);
  return 0;
}

}  // namespace

void add_plan_command(cli::Commands& commands) {
  auto [cmd, o] = commands.add<PlanOptions>("plan", "Show how a tournament splits into shards", plan);
  cmd->add_option("config", o->config, "The tournament's TOML file")->required();
  cmd->add_option("--shards", o->shards, "Number of shards")->required()->check(CLI::Range(1, 100000));
  cmd->add_flag("--ids", o->ids, "Also list every game id with its shard");
}

void add_slurm_command(cli::Commands& commands) {
  auto [cmd, o] = commands.add<SlurmCommandOptions>(
      "slurm", "Write (and with --submit, submit) a Slurm job array of shards and its merge job", slurm);
  cmd->add_option("config", o->config, "The tournament's TOML file")->required();
  cmd->add_option("--shards", o->shards, "Number of shards: one array task each")
      ->required()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--partition", o->partition, "Slurm partition (default: the cluster's)");
  cmd->add_option("--time", o->time, "Time limit per task, in Slurm's form (e.g. 2:00:00)");
  cmd->add_option("--cpus-per-task", o->cpus_per_task,
                  "CPUs per task, and games at once (default: the config's concurrency)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--throttle", o->throttle, "At most this many tasks at once (--array=1-N%K)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--out", o->out, "Output folder (overrides [tournament] output)")->check(cli::non_empty());
  cmd->add_flag("--submit", o->submit, "Submit the array and the merge job with sbatch and print their job ids");
}

}  // namespace kalah::arena_app
