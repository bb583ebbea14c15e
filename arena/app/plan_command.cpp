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
#include "arena/schedule/rounds.h"
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

// A Swiss, knockout or adaptive tournament: what is known before it starts.
int plan_by_rounds(const arena::Config& config, bool ids) {
  const arena::TournamentConfig& t = config.tournament;
  const std::vector<arena::GameSpec> first = arena::first_games(config);
  const bool swiss = t.type == arena::TournamentType::Swiss;
  if (t.type == arena::TournamentType::Adaptive && !t.boundaries.empty()) {
    fmt::print(
        "{}: adaptive final {} engines, boundaries {}, at most {} games, paired round by round (not shardable)\n",
        t.name, config.engines.size(), fmt::join(t.boundaries, ", "), t.budget_games);
    fmt::print(
        "round 1 has {} games (below: the first of each pair; --ids: both), every later round pairs the engines whose "
        "95% rank interval straddles a boundary, from the results of the rounds before it (docs/SCHEDULE.md)\n",
        first.size());
  } else if (t.type == arena::TournamentType::Adaptive) {
    fmt::print("{}: adaptive {} engines, at most {} games, paired round by round (not shardable)\n", t.name,
               config.engines.size(), t.budget_games);
    fmt::print(
        "round 1 has {} games (below: the first of each pair; --ids: both), every later round pairs engines adjacent "
        "in the Elo order whose order is still open, from the results of the rounds before it (docs/SCHEDULE.md)\n",
        first.size());
  } else {
    fmt::print("{}: {} {} engines, {}{} games, paired round by round (not shardable)\n", t.name,
               arena::to_string(t.type), config.engines.size(), swiss ? "" : "at least ", arena::least_games(config));
  }
  if (swiss)
    fmt::print(
        "{} rounds of one colour-swapped game pair each; round 1 has {} games (below: the first of each pair; "
        "--ids: both), every later round is paired from the results of the rounds before it (docs/SCHEDULE.md)\n",
        t.rounds, first.size());
  else if (t.type == arena::TournamentType::Knockout)
    fmt::print(
        "matches of {} colour-swapped game pair{} and up to {} tie-break pair{}; {} games are known before any "
        "result (below: the first of each pair; --ids: both; byes may bring a second-round match forward), the "
        "rest depend on results (docs/SCHEDULE.md)\n",
        t.rounds, t.rounds == 1 ? "" : "s", t.tiebreak_pairs, t.tiebreak_pairs == 1 ? "" : "s", first.size());
  for (const arena::GameSpec& g : first)
    if (ids || g.game_in_pair == 0)
      fmt::print("{} {} v {}\n", g.id, config.engines[static_cast<std::size_t>(g.south)].name,
                 config.engines[static_cast<std::size_t>(g.north)].name);
  return 0;
}

int plan(const PlanOptions& o) {
  const arena::Config config = load(o.config, o.shards, true);
  if (arena::paired_from_results(config.tournament.type)) return plan_by_rounds(config, o.ids);
  if (config.sprt) {
    fmt::print("{}: SPRT '{}' (test) vs '{}' (base), open-ended, as {} streams\n", config.tournament.name,
               config.engines[1].name, config.engines[0].name, o.shards);
    fmt::print(
        "game pair k (ids sprt-pK-g0, sprt-pK-g1) is played by shard k mod {} + 1; every shard reads the "
        "others' journals and all stop when the test decides\n",
        o.shards);
    for (int i = 1; i <= o.shards; ++i)
      fmt::print("shard {}/{}: pairs {}, {}, {}, ...\n", i, o.shards, i - 1, i - 1 + o.shards, i - 1 + 2 * o.shards);
    return 0;
  }
  const std::vector<arena::GameSpec> all = arena::make_schedule(config);
  fmt::print("{}: {} {} engines, {} games in {} colour-swapped pairs, as {} shards\n", config.tournament.name,
             arena::to_string(config.tournament.type), config.engines.size(), all.size(), arena::count_pairs(all),
             o.shards);
  fmt::print("{:<9} {:>7} {:>7}  {}\n", "shard", "pairs", "games", "first game");
  std::vector<std::vector<arena::GameSpec>> parts;
  for (int i = 1; i <= o.shards; ++i) {
    parts.push_back(arena::shard_games(all, arena::Shard{i, o.shards}));
    const auto& part = parts.back();
    fmt::print("{:<9} {:>7} {:>7}  {}\n", fmt::format("{}/{}", i, o.shards), part.size() / 2, part.size(),
               part.front().id);
  }
  if (o.ids)
    for (int i = 1; i <= o.shards; ++i)
      for (const arena::GameSpec& g : parts[static_cast<std::size_t>(i - 1)])
        fmt::print("{}/{} {}\n", i, o.shards, g.id);
  return 0;
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
