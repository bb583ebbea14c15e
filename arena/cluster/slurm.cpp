#include "arena/cluster/slurm.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <variant>

#include <fmt/core.h>

#include "referee/process/tool_run.h"
#include "referee/system/clean_text.h"
#include "referee/system/files.h"
#include "referee/system/utc_time.h"

namespace kalah::arena {
namespace {

namespace fs = std::filesystem;

// A path or value that goes into a #SBATCH line or a shell word as it is.
bool plain(std::string_view text) {
  return !text.empty() && text.find_first_of(" \t\n\r'\"\\$`;&|<>*?()[]{}#~!") == std::string_view::npos;
}

std::optional<std::string> check_plain(const fs::path& path, std::string_view what) {
  if (plain(path.string())) return std::nullopt;
  return fmt::format(
      "{} '{}' has whitespace, quotes or shell characters, which a #SBATCH line cannot hold; "
      "use a path without them",
      what, path.string());
}

std::string header(const Config& config, const SlurmOptions& o) {
  return fmt::format(
      "#!/bin/bash\n"
      "# Written by `arena slurm` at {} for {}:\n"
      "# tournament '{}' as {} shards (docs/SCALE.md). Submit with submit.sh beside this file.\n",
      system::utc_now_iso8601(), o.config.string(), config.tournament.name, o.shards);
}

}  // namespace

Expected<SlurmScripts> slurm_scripts(const Config& config, const SlurmOptions& o) {
  if (o.shards < 1) return Error{"--shards must be at least 1"};
  if (o.cpus_per_task < 0 || o.throttle < 0) return Error{"--cpus-per-task and --throttle must not be negative"};
  for (const auto& [value, what] : {std::pair{&o.partition, "--partition"}, std::pair{&o.time, "--time"}})
    if (!value->empty() && value->find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                                    "_.:,-") != std::string::npos)
      return Error{fmt::format("{} '{}': only letters, digits and _ . : , - are allowed", what, *value)};
  const fs::path results = o.output / config.tournament.name;
  for (const auto& [path, what] :
       {std::pair{&o.arena, "the arena executable"}, std::pair{&o.config, "the config"},
        std::pair{&o.work_dir, "the working directory"}, std::pair{&results, "the results folder"}})
    if (auto problem = check_plain(*path, what)) return Error{*problem};

  const int cpus = o.cpus_per_task > 0 ? o.cpus_per_task : config.tournament.concurrency;
  SlurmScripts s;
  s.dir = results / "slurm";
  const std::string job = "arena-" + config.tournament.name;

  s.run = header(config, o);
  s.run += fmt::format("#SBATCH --job-name={}\n", job);
  s.run += fmt::format("#SBATCH --array=1-{}{}\n", o.shards, o.throttle > 0 ? fmt::format("%{}", o.throttle) : "");
  s.run += "#SBATCH --ntasks=1\n";
  s.run += fmt::format("#SBATCH --cpus-per-task={}\n", cpus);
  if (!o.partition.empty()) s.run += fmt::format("#SBATCH --partition={}\n", o.partition);
  if (!o.time.empty()) s.run += fmt::format("#SBATCH --time={}\n", o.time);
  s.run += "#SBATCH --requeue\n";
  s.run += fmt::format("#SBATCH --chdir={}\n", o.work_dir.string());
  // %a: the task's index. Appended, so that a requeued task's second life follows its first.
  s.run += fmt::format("#SBATCH --output={}/shard-%a-of-{}.out\n", s.dir.string(), o.shards);
  s.run += "#SBATCH --open-mode=append\n";
  s.run += fmt::format(
      "\n"
      "# One shard per task, in its own journal (results/<name>/shards/I-of-N/); a requeued task resumes it.\n"
      "# No more games at once than the CPUs Slurm gave the task.\n"
      "set -eu\n"
      "exec {} run {} --shard \"${{SLURM_ARRAY_TASK_ID}}/{}\" --concurrency \"${{SLURM_CPUS_PER_TASK:-{}}}\" "
      "--out {}\n",
      o.arena.string(), o.config.string(), o.shards, cpus, o.output.string());

  s.merge = header(config, o);
  s.merge += fmt::format("#SBATCH --job-name={}-merge\n", job);
  s.merge += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
  if (!o.partition.empty()) s.merge += fmt::format("#SBATCH --partition={}\n", o.partition);
  s.merge += fmt::format("#SBATCH --chdir={}\n", o.work_dir.string());
  s.merge += fmt::format("#SBATCH --output={}/merge.out\n", s.dir.string());
  s.merge += fmt::format(
      "\n"
      "# Submitted with --dependency=afterany on the array: it runs when every task has ended, however it ended,\n"
      "# and the reports say which shards are incomplete.\n"
      "set -eu\n"
      "exec {} report {}\n",
      o.arena.string(), results.string());

  s.submit = fmt::format(
      "#!/bin/bash\n"
      "# Submits the shards of '{0}' as a job array, then the merge job that waits for all of them.\n"
      "set -euo pipefail\n"
      "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
      "array=$(sbatch --parsable \"$here/run.sbatch\")\n"
      "array=${{array%%;*}}\n"
      "merge=$(sbatch --parsable --dependency=afterany:\"$array\" \"$here/merge.sbatch\")\n"
      "merge=${{merge%%;*}}\n"
      "echo \"submitted: array job $array ({1} shards), merge job $merge\"\n",
      config.tournament.name, o.shards);
  return s;
}

Expected<std::vector<fs::path>> write_slurm_scripts(const SlurmScripts& s) {
  std::error_code ec;
  fs::create_directories(s.dir, ec);
  if (ec) return Error{s.dir.string() + ": cannot create the directory: " + ec.message()};
  std::vector<fs::path> written;
  for (const auto& [name, text] :
       {std::pair{"run.sbatch", &s.run}, std::pair{"merge.sbatch", &s.merge}, std::pair{"submit.sh", &s.submit}}) {
    const fs::path path = s.dir / name;
    if (auto error = system::write_file_atomically(path, *text)) return Error{*error};
    ::chmod(path.c_str(), 0755);
    written.push_back(path);
  }
  return written;
}

namespace {

// Runs `sbatch args...` (through referee/process, as every child of the arena) and returns its stdout;
// what it writes to stderr (warnings, the reason it refused) is shown on the arena's stderr, cleaned.
Expected<std::string> run_sbatch(const fs::path& sbatch, const std::vector<std::string>& args) {
  process::SpawnSpec spec;
  spec.command = sbatch.string();
  spec.args = args;
  spec.relay_stderr = true;
  spec.stderr_tail_bytes = std::size_t{16} << 10;
  // sbatch answers at once, or within its own message timeout when the controller is slow.
  process::ToolRun run = process::run_tool(spec, process::Clock::now() + std::chrono::minutes(2));
  const std::string said = system::clean_text(run.err_tail, /*keep_newlines=*/true);
  if (!said.empty()) fmt::print(stderr, "{}{}", said, said.back() == '\n' ? "" : "\n");
  switch (run.outcome) {
    case process::ToolRun::Outcome::CouldNotStart: return Error{sbatch.string() + ": cannot start: " + run.detail};
    case process::ToolRun::Outcome::Timeout:
      return Error{fmt::format("sbatch {} did not finish within 2 minutes (is slurmctld up?)", args.back())};
    case process::ToolRun::Outcome::Unreadable:
      return Error{fmt::format("sbatch {}: its output could not be read ({})", args.back(), run.detail)};
    case process::ToolRun::Outcome::Exited: break;
  }
  if (!run.succeeded())
    return Error{fmt::format("sbatch {} failed ({}); its message is above", args.back(), run.exit->describe())};
  std::string text = std::move(run.out);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text.substr(0, text.find(';'));  // --parsable: "jobid[;cluster]"
}

}  // namespace

Expected<SubmittedJobs> submit_slurm_jobs(const SlurmScripts& s, const fs::path& sbatch) {
  Expected<std::string> array = run_sbatch(sbatch, {"--parsable", (s.dir / "run.sbatch").string()});
  if (!array) return Error{array.error()};
  Expected<std::string> merge =
      run_sbatch(sbatch, {"--parsable", "--dependency=afterany:" + *array, (s.dir / "merge.sbatch").string()});
  if (!merge) return Error{merge.error() + " (the array job " + *array + " was submitted)"};
  return SubmittedJobs{*array, *merge};
}

}  // namespace kalah::arena
