#include "arena/journal/journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>

#include "arena/journal/games_file.h"
#include "referee/record/record_json.h"
#include "referee/system/files.h"
#include "referee/system/utc_time.h"

namespace kalah::journal {

namespace fs = std::filesystem;

struct Journal::State {
  fs::path dir;
  TournamentMeta meta;
  std::vector<std::string> warnings;

  mutable std::mutex mutex;  // guards everything below
  system::FileHandle fd;
  std::uintmax_t size = 0;  // bytes in games.jsonl, to undo a failed write
  std::vector<GameRecord> games;
  std::unordered_set<std::string> ids;
};

namespace {

// fs::exists without the exception: an unreadable path counts as absent here
// and the open() that follows reports the real problem.
bool path_exists(const fs::path& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

std::string backup_suffix(int k) { return k == 1 ? ".bak" : ".bak" + std::to_string(k); }

// Moves every existing results file to <name>.bak<k>, one k for all of them,
// the smallest that overwrites nothing.
std::optional<std::string> move_aside(const fs::path& dir, std::vector<std::string>& warnings) {
  std::vector<std::string> existing;
  for (const std::string& name : results_files())
    if (path_exists(dir / name)) existing.push_back(name);
  if (existing.empty()) return std::nullopt;
  int k = 1;
  while (std::any_of(existing.begin(), existing.end(),
                     [&](const std::string& name) { return path_exists(dir / (name + backup_suffix(k))); }))
    ++k;
  std::string moved;
  for (const std::string& name : existing) {
    std::error_code ec;
    fs::rename(dir / name, dir / (name + backup_suffix(k)), ec);
    if (ec) return (dir / name).string() + ": cannot move it aside: " + ec.message();
    moved += (moved.empty() ? "" : ", ") + name + " -> " + name + backup_suffix(k);
  }
  warnings.push_back("--fresh: moved the previous results in " + dir.string() + " aside: " + moved);
  return system::sync_directory(dir);
}

std::optional<std::string> append_newline(const fs::path& file) {
  system::FileHandle fd(::open(file.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC));
  if (!fd.is_open()) return system::system_error_text(file, "cannot open");
  if (auto error = system::write_all(fd.get(), "\n", file)) return error;
  if (::fdatasync(fd.get()) != 0) return system::system_error_text(file, "cannot sync");
  return std::nullopt;
}

constexpr const char* kFreshAdvice = "; use --fresh to start over (the old files are moved aside, not deleted)";

}  // namespace

const std::vector<std::string>& results_files() {
  static const std::vector<std::string> files = {
      kGamesFile, kMetaFile, "standings.json", "standings.md", "standings.csv", "games.pgn", "report.html", "sprt.json",
  };
  return files;
}

Expected<Journal> Journal::open(const fs::path& dir, TournamentMeta meta, bool fresh) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{dir.string() + ": cannot create the results directory: " + ec.message()};

  auto state = std::make_unique<State>();
  state->dir = dir;
  // Half-written replacements of tournament.json, reports or sprt.json from a killed run.
  for (const std::string& name : system::remove_stale_temporaries(dir))
    state->warnings.push_back("removed " + (dir / name).string() + ", left by a run that was killed while writing it");
  if (fresh)
    if (auto error = move_aside(dir, state->warnings)) return Error{*error};

  const fs::path games_path = dir / kGamesFile;
  const fs::path meta_path = dir / kMetaFile;
  const bool has_games = path_exists(games_path);
  if (path_exists(meta_path)) {
    Expected<TournamentMeta> stored = read_meta(meta_path);
    if (!stored) return Error{stored.error() + kFreshAdvice};
    if (!same_tournament(*stored, meta))
      return Error{dir.string() + " was written by a different configuration (" + describe_difference(*stored, meta) +
                   ")" + kFreshAdvice};
    state->meta = *stored;
  } else {
    if (has_games && fs::file_size(games_path, ec) > 0)
      return Error{games_path.string() + " exists but " + meta_path.string() +
                   " does not, so the games cannot be checked against this configuration" + kFreshAdvice};
    meta.created_at = system::utc_now_iso8601();
    if (auto error = system::write_file_atomically(meta_path, meta_to_text(meta))) return Error{*error};
    state->meta = std::move(meta);
  }

  if (has_games) {
    Expected<GamesFile> loaded = read_games(games_path);
    if (!loaded) return Error{loaded.error()};
    GamesFile file = std::move(loaded).value();
    for (std::string& w : file.warnings) state->warnings.push_back(std::move(w));
    if (file.torn) {
      if (auto error = system::truncate_file(games_path, file.torn->offset)) return Error{*error};
      state->warnings.push_back(games_path.string() + ":" + std::to_string(file.torn->line) +
                                ": removed an incomplete last line, left by a run that was stopped while "
                                "writing it (" +
                                file.torn->error + "); that game will be played again");
    } else if (file.missing_final_newline) {
      if (auto error = append_newline(games_path)) return Error{*error};
      state->warnings.push_back(games_path.string() + ": the last line had no newline; added one");
    }
    state->games = std::move(file.games);
    for (const GameRecord& g : state->games) state->ids.insert(g.id);
  }

  state->fd = system::FileHandle(::open(games_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
  if (!state->fd.is_open()) return Error{system::system_error_text(games_path, "cannot open for appending")};
  struct stat info {};
  if (::fstat(state->fd.get(), &info) != 0) return Error{system::system_error_text(games_path, "cannot stat")};
  state->size = static_cast<std::uintmax_t>(info.st_size);
  if (!has_games)
    if (auto error = system::sync_directory(dir)) return Error{*error};
  return Journal(std::move(state));
}

Journal::Journal(std::unique_ptr<State> state) : state_(std::move(state)) {}
Journal::Journal(Journal&&) noexcept = default;
Journal& Journal::operator=(Journal&&) noexcept = default;
Journal::~Journal() = default;

Expected<std::size_t> Journal::append(const GameRecord& record) {
  if (record.id.empty()) return Error{"a game without an id cannot be journaled"};
  if (record.result == Outcome::Ongoing) return Error{"game '" + record.id + "' has no result"};
  std::string line = to_json_line(record);
  line += '\n';

  const fs::path path = games_path();
  std::lock_guard lock(state_->mutex);
  if (state_->ids.count(record.id)) return Error{"game '" + record.id + "' is already in " + path.string()};
  if (auto error = system::write_all(state_->fd.get(), line, path)) {
    // Take back a partial line so that later appends do not follow garbage.
    if (::ftruncate(state_->fd.get(), static_cast<off_t>(state_->size)) != 0) {
      // Nothing more to do: the next open() drops the torn line.
    }
    return Error{*error};
  }
  state_->size += line.size();
  state_->games.push_back(record);
  state_->ids.insert(record.id);
  // The line is in the file either way; if the sync fails its durability is
  // unknown, which the caller must hear about (but the game is not lost or repeated).
  if (::fdatasync(state_->fd.get()) != 0) return Error{system::system_error_text(path, "cannot sync")};
  return state_->games.size();
}

std::vector<GameRecord> Journal::games() const {
  std::lock_guard lock(state_->mutex);
  return state_->games;
}

std::unordered_set<std::string> Journal::completed_ids() const {
  std::lock_guard lock(state_->mutex);
  return state_->ids;
}

bool Journal::is_completed(const std::string& id) const {
  std::lock_guard lock(state_->mutex);
  return state_->ids.count(id) != 0;
}

std::size_t Journal::size() const {
  std::lock_guard lock(state_->mutex);
  return state_->games.size();
}

const std::vector<std::string>& Journal::warnings() const { return state_->warnings; }
const TournamentMeta& Journal::meta() const { return state_->meta; }
const fs::path& Journal::dir() const { return state_->dir; }

Expected<StoredResults> read_results(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Error{dir.string() + ": no such results directory"};
  StoredResults out;
  const fs::path meta_path = dir / kMetaFile;
  if (path_exists(meta_path)) {
    Expected<TournamentMeta> meta = read_meta(meta_path);
    if (!meta) return Error{meta.error()};
    out.meta = *meta;
    out.has_meta = true;
  }
  const fs::path games_path = dir / kGamesFile;
  if (!path_exists(games_path)) return Error{games_path.string() + ": no journal in this directory"};
  Expected<GamesFile> loaded = read_games(games_path);
  if (!loaded) return Error{loaded.error()};
  GamesFile file = std::move(loaded).value();
  out.warnings = std::move(file.warnings);
  if (file.torn)
    out.warnings.push_back(games_path.string() + ":" + std::to_string(file.torn->line) +
                           ": incomplete last line ignored (" + file.torn->error + ")");
  out.games = std::move(file.games);
  if (!out.has_meta) {
    auto add = [&](const std::string& name) {
      if (std::find(out.meta.engines.begin(), out.meta.engines.end(), name) == out.meta.engines.end())
        out.meta.engines.push_back(name);
    };
    for (const GameRecord& g : out.games) add(g.south), add(g.north);
  }
  return out;
}

}  // namespace kalah::journal
