#include "arena/season/ladder_slurm.h"

#include <fmt/core.h>

#include <variant>

#include "arena/journal/seed_secret_file.h"
#include "arena/runner/ladder_source.h"
#include "arena/season/ladder.h"
#include "referee/engine/engine_player.h"
#include "referee/game/game.h"
#include "referee/process/engine_process.h"
#include "referee/process/tool_run.h"
#include "referee/record/record_json.h"
#include "referee/system/clean_text.h"

namespace kalah::season {

namespace fs = std::filesystem;

std::string ladder_job_name(const SeasonConfig& season) {
  return fmt::format("arena-ladder-{:08x}", static_cast<std::uint32_t>(arena::fnv1a(season.dir.string())));
}

std::vector<std::string> ladder_srun_args(const SeasonConfig& season, const arena::Config& config,
                                          const arena::GameSpec& spec, const fs::path& arena) {
  std::vector<std::string> args = {"--quiet", "--ntasks=1", "--cpus-per-task=1",
                                   "--job-name=" + ladder_job_name(season), "--chdir=" + fs::current_path().string()};
  if (!season.ladder_slurm_partition.empty()) args.push_back("--partition=" + season.ladder_slurm_partition);
  // Slurm ends a job at its time limit: without one of the season's, the server's wait for it.
  args.push_back("--time=" + (season.ladder_slurm_time.empty() ? std::to_string(season.ladder_slurm_wait_minutes)
                                                               : season.ladder_slurm_time));
  for (std::string word : {arena.string(), std::string("season"), std::string("ladder-game"),
                           (season.dir / kSeasonFile).string(), std::string("--pair"), std::to_string(spec.pair),
                           std::string("--game-in-pair"), std::to_string(spec.game_in_pair), std::string("--south"),
                           config.engines[static_cast<std::size_t>(spec.south)].name, std::string("--north"),
                           config.engines[static_cast<std::size_t>(spec.north)].name})
    args.push_back(std::move(word));
  return args;
}

Expected<GameRecord> ladder_job_record(const arena::Config& config, const arena::GameSpec& spec,
                                       const std::string& out) {
  // The record is the job's last line; srun --quiet says nothing on stdout of its own.
  std::string_view text = out;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  const std::size_t start = text.rfind('\n');
  const std::string_view line = start == std::string_view::npos ? text : text.substr(start + 1);
  if (line.empty()) return Error{"the job printed no game record"};
  Expected<GameRecord> record = record_from_json(line);
  if (!record) return Error{"the job's game record is unreadable: " + record.error()};
  const std::string& south = config.engines[static_cast<std::size_t>(spec.south)].name;
  const std::string& north = config.engines[static_cast<std::size_t>(spec.north)].name;
  if (record->id != spec.id || record->south != south || record->north != north || record->round != spec.round)
    return Error{fmt::format("the job played game {} ({} v {}, round {}), not {} ({} v {}, round {})",
                             system::clean_text(record->id, false), system::clean_text(record->south, false),
                             system::clean_text(record->north, false), record->round, spec.id, south, north,
                             spec.round)};
  return record;
}

LadderSlurm::LadderSlurm(const SeasonConfig& season, fs::path srun, fs::path arena)
    : season_(season), srun_(std::move(srun)), arena_(std::move(arena)) {}

LadderSlurm::~LadderSlurm() = default;

arena::PlayElsewhere LadderSlurm::elsewhere(const arena::Config& config) {
  return {[this, &config](const arena::GameSpec& spec) { return play(config, spec); }, [this] { abort(); }};
}

void LadderSlurm::abort() {
  const std::lock_guard lock(mutex_);
  aborted_ = true;
  killed_ = killed_ || !running_.empty();
  for (const auto& [number, kill] : running_) kill.fire();
}

bool LadderSlurm::killed_any() {
  const std::lock_guard lock(mutex_);
  return killed_;
}

namespace {

// Reads the job's standard output to its end (a few lines at most) and waits for srun's exit, up to `deadline`.
Expected<std::string> job_output(process::EngineProcess& srun, process::Deadline deadline) {
  std::string out;
  for (int lines = 0;; ++lines) {
    process::ReadResult read = srun.read_line(deadline);
    if (read.status == process::Status::Eof) {
      out += read.line;
      break;
    }
    if (read.status == process::Status::Timeout) return Error{"timeout"};
    if (read.status != process::Status::Ok || lines >= 64)
      return Error{fmt::format("its output could not be read ({})",
                               lines >= 64 ? "more than 64 lines" : process::to_string(read.status))};
    out += read.line + "\n";
  }
  const std::optional<process::ExitInfo> exit = srun.wait_for_exit(deadline);
  if (!exit) return Error{"timeout"};
  if (!(exit->exited() && exit->value == 0)) {
    const std::string said = system::clean_text(srun.take_stderr_tail().text, false);
    return Error{fmt::format("srun {}{}", exit->describe(), said.empty() ? "" : ": " + said)};
  }
  return out;
}

}  // namespace

Expected<GameRecord> LadderSlurm::play(const arena::Config& config, const arena::GameSpec& spec) {
  process::SpawnSpec s;
  s.command = srun_.string();
  s.args = ladder_srun_args(season_, config, spec, arena_);
  s.relay_stderr = true;
  s.stderr_tail_bytes = 2048;
  s.max_line_bytes = std::size_t{8} << 20;  // a game's record on a large board
  auto spawned = process::EngineProcess::spawn(s);
  if (auto* error = std::get_if<process::SpawnError>(&spawned)) return Error{srun_.string() + ": " + error->message};
  process::EngineProcess& srun = *std::get<std::unique_ptr<process::EngineProcess>>(spawned);
  int number = 0;
  {
    const std::lock_guard lock(mutex_);
    number = next_job_++;
    running_.emplace(number, srun.kill_switch());
    if (aborted_) running_.at(number).fire();
  }
  const process::Deadline deadline = process::Clock::now() + std::chrono::minutes(season_.ladder_slurm_wait_minutes);
  Expected<std::string> out = job_output(srun, deadline);
  srun.kill();  // reaped (and its group) before its switch goes
  {
    const std::lock_guard lock(mutex_);
    running_.erase(number);
    killed_ = killed_ || (!out && out.error() == "timeout");
  }
  if (!out && out.error() == "timeout")
    return Error{fmt::format("its Slurm job was not back within ladder_slurm_wait_minutes = {}: killed",
                             season_.ladder_slurm_wait_minutes)};
  if (!out) return Error{"its Slurm job failed: " + out.error()};
  return ladder_job_record(config, spec, *out);
}

std::string LadderSlurm::cancel_leftovers(const fs::path& scancel) const {
  process::SpawnSpec s;
  s.command = scancel.string();
  s.args = {"--name=" + ladder_job_name(season_)};
  s.relay_stderr = true;
  s.stderr_tail_bytes = 1024;
  const process::ToolRun run = process::run_tool(s, process::Clock::now() + std::chrono::minutes(1));
  if (run.succeeded())
    return "ladder: cancelled the Slurm jobs named " + ladder_job_name(season_) +
           " (any left: their games are not recorded)";
  return "ladder: could not cancel the Slurm jobs left from before (" + scancel.string() + ": " +
         (run.exit             ? run.exit->describe()
          : run.detail.empty() ? "timeout"
                               : run.detail) +
         ")";
}

Expected<GameRecord> play_ladder_game(const SeasonConfig& season, const LadderGameRequest& request) {
  Expected<arena::Config> loaded = ladder_config(season);
  if (!loaded) return Error{loaded.error()};
  const arena::Config& config = *loaded;
  const int south = config.engine_index(request.south), north = config.engine_index(request.north);
  if (south < 0 || north < 0 || south == north || request.pair < 0 || request.game_in_pair < 0 ||
      request.game_in_pair > 1)
    return Error{fmt::format("no game of the ladder: pair {}, game {}, {} v {}", request.pair, request.game_in_pair,
                             request.south, request.north)};
  const arena::OpeningSource openings(config);
  const arena::GameSpec spec = arena::ladder_game(openings, request.pair, south, north, request.game_in_pair);
  Expected<SeedSecret> secret = journal::load_or_make_seed_secret(config.results_dir());
  if (!secret) return Error{secret.error()};
  const auto database = arena::adjudication_database(config, 1);
  std::unique_ptr<Player> a = make_player(config.engine_for_game(south, spec.id));
  std::unique_ptr<Player> b = make_player(config.engine_for_game(north, spec.id));
  return play_game(*a, *b, arena::Runner::settings_for(config, spec, *secret, database));
}

}  // namespace kalah::season
