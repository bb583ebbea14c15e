// A season's ladder on Slurm (docs/SEASON.md, "The ladder on Slurm"): with `ladder_runner = "slurm"` each game the
// ladder chooses is played by a Slurm job instead of the server's own workers. The ladder stays one tournament
// played by the one flow on the server: its source chooses the pairs (fewest games first, close ranks), and each of
// its `ladder_concurrency` workers runs `srun ... arena season ladder-game` for its game and waits for it. The job
// plays the game on its node (the season's folder on a shared file system, as for `arena slurm`) and prints its
// record as one JSON line; the server reads it (one bounded line), checks that it is the game it asked for, and
// journals it as a game played here. So the journal has one writer, no game is recorded twice, and everything
// downstream (the standings, the pages, the analysis) sees the game as a local one.
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "arena/runner/runner.h"
#include "arena/season/season_config.h"
#include "referee/record/record.h"
#include "referee/rules/expected.h"

namespace kalah::process {
class KillSwitch;
}

namespace kalah::season {

// The job name of a season's ladder jobs: "arena-ladder-" and 8 hex digits of the season's folder.
std::string ladder_job_name(const SeasonConfig& season);

// The srun command line of `spec` (engines named from `config`): srun's options, then `arena season ladder-game`.
std::vector<std::string> ladder_srun_args(const SeasonConfig& season, const arena::Config& config,
                                          const arena::GameSpec& spec, const std::filesystem::path& arena);

// What the server makes of a job's output: the record of `spec`, or why there is none. `out` is what the job wrote
// to its standard output.
Expected<GameRecord> ladder_job_record(const arena::Config& config, const arena::GameSpec& spec,
                                       const std::string& out);

// The server's side: the ladder's games as srun jobs, for Runner::set_play_elsewhere.
class LadderSlurm {
 public:
  // `srun` is the executable that runs a job (a path, or a name looked up in PATH); `arena` this executable.
  LadderSlurm(const SeasonConfig& season, std::filesystem::path srun, std::filesystem::path arena);
  ~LadderSlurm();
  LadderSlurm(const LadderSlurm&) = delete;
  LadderSlurm& operator=(const LadderSlurm&) = delete;

  // `config` must outlive the runner it is given to.
  arena::PlayElsewhere elsewhere(const arena::Config& config);
  // Plays `spec` as a job and waits, up to ladder_slurm_wait_minutes from now, for its record.
  Expected<GameRecord> play(const arena::Config& config, const arena::GameSpec& spec);
  // The jobs in flight are killed (srun with them); play() calls then return an error. Any thread.
  void abort();
  // Whether a job of this object's was killed (abort(), or one not back in time): srun killed with SIGKILL leaves its
  // job's allocation to Slurm until the job's time limit, so the ladder then cancels its jobs by name.
  bool killed_any();
  // Cancels every job of this season's name (scancel --name): those whose srun was killed, and the leftovers of a
  // server killed with its jobs in flight, whose games it never recorded. Best effort; says what happened as a line
  // for the season's log.
  std::string cancel_leftovers(const std::filesystem::path& scancel) const;

 private:
  const SeasonConfig& season_;
  std::filesystem::path srun_;
  std::filesystem::path arena_;
  std::mutex mutex_;
  bool aborted_ = false;
  bool killed_ = false;
  std::map<int, process::KillSwitch> running_;  // by the job's number in this server's life
  int next_job_ = 0;
};

// The job's side, `arena season ladder-game SEASON --pair P --game-in-pair G --south A --north B`: the game of the
// ladder's pair P as the server would play it (the ladder's config now, its seed secret, its opening), played here.
struct LadderGameRequest {
  int pair = 0;
  int game_in_pair = 0;
  std::string south;
  std::string north;
};
Expected<GameRecord> play_ladder_game(const SeasonConfig& season, const LadderGameRequest& request);

}  // namespace kalah::season
