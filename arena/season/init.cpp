#include "arena/season/init.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <fmt/core.h>

#include "arena/season/roster.h"
#include "arena/season/season_config.h"
#include "arena/season/tokens.h"
#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::season {
namespace fs = std::filesystem;

std::string season_toml(const fs::path& dir) {
  return fmt::format(R"(# A practice season (docs/SEASON.md), written by `arena season init`. Authors upload any time:
#   curl -H "Authorization: Bearer TOKEN" -F file=@bot.py http://HOST:PORT/api/submissions
# served by:  arena serve --season {dir}/season.toml --listen ADDR:PORT
# Every table but [season] is an ordinary arena config (docs/CONFIG.md): the contest the entrants play.

[season]
# deadline = 2027-02-15T23:59:00Z  # after it (or `arena season freeze`), uploads are refused
pseudonyms = false       # true: the public pages show pseudonyms instead of the authors' names
max_upload_kb = 1024     # the uploaded file: one source file, a .tar.gz or a .zip
max_files = 100          # files in an archive
max_unpacked_kb = 8192   # an archive's files together, unpacked
final = "round-robin"    # or "adaptive" (final_boundaries, final_budget_games), "staged" (final_stages): `arena season final`
ladder_concurrency = 1   # the ladder's games at once; the builds and gates of new revisions share the machine
ladder_analysis = true   # the ladder's games valued with perfect play for each author's page (an endgame database
                         # of [analysis] db_mb, 1024 by default, built once and held in memory)
# ladder_runner = "slurm" # each ladder game a Slurm job, ladder_concurrency at once (ladder_slurm_partition,
                         # ladder_slurm_time, ladder_slurm_wait_minutes: docs/CONFIG.md); "local" by default

[tournament]
name = "season"
output = "{dir}/results"
pairs = 2
concurrency = 2
seed = 1
sandbox = "bwrap"        # every entrant builds and plays in a sandbox (docs/SECURITY.md)
memory_mb = 512
max_file_mb = 16
max_output_kb = 256
restart = "always"

[variant]                # Kalah(6,4)
pits = 6
seeds = 4

[time]
base_ms = 1000
inc_ms = 10

[openings]
random_plies = 4         # each colour-swapped pair from a random start of its own: no game repeats another

[submissions]
dir = "submissions"      # in this folder
build_timeout_s = 60
build_memory_mb = 1024
build_disk_mb = 64
gate = {{ opponent = "kalah-random", games = 20, min_score = 0.6 }}  # first-legal-move bots score about 50%

# The bundled bots: sparring partners every entrant meets.
[[engine]]
name = "random"
cmd = "kalah-random"

[[engine]]
name = "greedy"
cmd = "kalah-greedy"
)",
                     fmt::arg("dir", dir.string()));
}

namespace {

// Creates a regular file that must not exist yet with `mode`, writes `content` and syncs it.
std::optional<std::string> create_new_file(const fs::path& path, std::string_view content, mode_t mode) {
  system::FileHandle fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
  if (!fd.is_open()) return system::system_error_text(path, "cannot create");
  if (auto error = system::write_all(fd.get(), content, path)) return error;
  if (::fsync(fd.get()) != 0) return system::system_error_text(path, "cannot sync");
  return std::nullopt;
}

}  // namespace

Expected<InitSummary> init_season(const fs::path& dir, const fs::path& roster_file) {
  Expected<std::string> roster_text = system::read_regular_file(roster_file, kMaxRosterBytes, true);
  if (!roster_text) return Error{"--roster: " + roster_text.error()};
  Expected<std::vector<std::string>> authors = parse_roster(*roster_text, roster_file.string());
  if (!authors) return Error{authors.error()};
  std::error_code ec;
  if (fs::symlink_status(dir, ec).type() != fs::file_type::not_found)
    return Error{dir.string() +
                 ": already exists; a season is made in a new folder (its tokens are never written over)"};
  std::string tokens = "# AUTHOR TOKEN: hand each author their line; the season keeps only tokens.sha256\n";
  std::vector<std::pair<std::string, std::string>> hashes;
  for (const std::string& author : *authors) {
    Expected<std::string> token = new_token();
    if (!token) return Error{token.error()};
    tokens += author + " " + *token + "\n";
    hashes.emplace_back(author, token_hash(*token));
  }
  const fs::path absolute = fs::absolute(dir).lexically_normal();
  for (char c : absolute.string())
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      return Error{dir.string() +
                   ": a season's folder has no '\"', '\\' or control character in its path (season.toml names it)"};
  if (!fs::create_directory(dir, ec) || ec) return Error{system::system_error_text(dir, "cannot create")};
  for (const char* folder : {kSubmissionsFolder, kRevisionsFolder, kResultsFolder})
    if (auto error = system::make_own_folder(absolute / folder)) return Error{*error};
  if (auto error = create_new_file(absolute / kSeasonFile, season_toml(absolute), 0644)) return Error{*error};
  if (auto error = create_new_file(absolute / kTokenHashesFile, TokenTable::text(hashes), 0644)) return Error{*error};
  if (auto error = create_new_file(absolute / kTokensFile, tokens, 0600)) return Error{*error};
  if (auto error = system::sync_directory(absolute)) return Error{*error};
  return InitSummary{absolute, std::move(authors).value()};
}

}  // namespace kalah::season
