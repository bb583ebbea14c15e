// DIR/season.toml (docs/SEASON.md, docs/CONFIG.md "[season]"): the config of the contest the authors play (every
// table of an arena config, read by load_config) and its [season] table: the deadline, pseudonyms, the upload
// limits and the final's format (docs/SEASON.md, "Deadline and final"). Strict like every config: unknown keys and
// wrong types are refused with file:line:column.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "referee/rules/expected.h"

namespace kalah::season {

inline constexpr const char* kSeasonFile = "season.toml";

// What an upload may be (docs/SECURITY.md): the bytes sent, and for an archive its files and their sizes unpacked.
struct UploadLimits {
  std::uintmax_t max_upload_bytes = 1u << 20;    // max_upload_kb = 1024
  std::size_t max_files = 100;                   // max_files
  std::uintmax_t max_unpacked_bytes = 8u << 20;  // max_unpacked_kb = 8192
};

// The final's format: a round robin of the frozen revisions, T's progressive cutoff (the adaptive kind with
// boundaries: game pairs only where a declared place is still open, docs/SCHEDULE.md "Finals that stop themselves"),
// or stages over boards where the engines with more losses than wins leave (arena/formats/staged).
enum class FinalFormat { RoundRobin, Adaptive, Staged };
const char* to_string(FinalFormat f);  // "round-robin", "adaptive", "staged"

struct SeasonConfig {
  std::filesystem::path dir;  // the season's folder: season.toml's own, absolute
  std::optional<std::chrono::system_clock::time_point> deadline;
  std::string deadline_text;  // as an ISO 8601 UTC text, for messages; empty without a deadline
  bool pseudonyms = false;    // the public pages show pseudonyms, not the authors' names (pseudonyms.h)
  std::string pseudonyms_at;  // "season.toml:8:14: ", where pseudonyms is written (or the [season] table's place)
  // Each author's pseudonym, filled by the server from open_public_names (pseudonyms.h); empty without pseudonyms.
  std::map<std::string, std::string> pseudonym_of;
  UploadLimits limits;
  FinalFormat final_format = FinalFormat::RoundRobin;
  std::vector<int> final_boundaries;             // adaptive: ascending places
  int final_budget_games = 0;                    // adaptive: the most games, even
  bool final_sparring = false;                   // the [[engine]] tables play in the final too
  std::string final_boundaries_at;               // "season.toml:9:20: ", where final_boundaries is written
  std::vector<arena::StageConfig> final_stages;  // staged: the stages in order, their rounds the contest's unless given
  int ladder_concurrency = 1;                    // the ladder's games at once (docs/SEASON.md, "The ladder")
  bool ladder_analysis = true;  // the ladder's games analysed for the authors' pages (ladder_analyst.h)
  // Where the ladder's games are played (docs/SEASON.md, "The ladder on Slurm"): here, or each game as a Slurm job
  // (srun), ladder_concurrency jobs at once, with --partition and --time when given (empty: the cluster's default).
  bool ladder_slurm = false;           // ladder_runner = "slurm"
  std::string ladder_slurm_partition;  // letters, digits and _ . : , - only
  std::string ladder_slurm_time;       // Slurm's forms: "30", "2:00:00", "1-12"
  int ladder_slurm_wait_minutes = 60;  // a job's game not back by then: the job is killed, the game redone
  // The watched submissions folder (docs/SEASON.md, "A watched folder"): absolute, from `watch` (relative to `dir`);
  // empty when the season watches none.
  std::filesystem::path watch;
  arena::Config contest;  // the whole file read as an arena config

  // The name the public pages know `author` by: their pseudonym, or their own name without pseudonyms.
  const std::string& public_name(const std::string& author) const;
};

// The final as declared, one line: "round-robin", "adaptive boundaries=1,3 budget_games=200",
// "staged stages=[pits=4 seeds=3 ... rounds=1; pits=5 seeds=4 ... rounds=2]", with " sparring" when
// the sparring partners play. A freeze records it: the final is declared before the revisions are fixed.
std::string describe_final(const SeasonConfig& season);

// Reads `file` (season.toml): the contest's config first, then [season], which must be there.
Expected<SeasonConfig> load_season(const std::filesystem::path& file);
// The same from text; `dir` is where the season's files are.
Expected<SeasonConfig> parse_season(std::string_view text, std::string_view path_for_messages,
                                    const std::filesystem::path& dir);

}  // namespace kalah::season
