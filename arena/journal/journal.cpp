#include "arena/journal/journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <map>
#include <mutex>

#include "arena/journal/games_file.h"
#include "referee/record/record_json.h"
#include "referee/system/directory_lock.h"
#include "referee/system/files.h"
#include "referee/system/utc_time.h"

namespace kalah::journal {

namespace fs = std::filesystem;

struct Journal::State {
  std::optional<system::DirectoryLock> lock;  // first, so that it is released last
  fs::path dir;
  TournamentMeta meta;
  std::vector<std::string> warnings;

  mutable std::mutex mutex;  // guards everything below
  system::FileHandle fd;
  std::uintmax_t size = 0;  // bytes in games.jsonl, to undo a failed write
  std::size_t games = 0;
  SeenIds ids;
  std::size_t synced = 0;  // games known to be on the disk
  bool syncing = false;    // a caller of sync_through() is in fdatasync now
  std::condition_variable synced_changed;
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
      kGamesFile,       kMetaFile,     "standings.json", "standings.md", "standings.csv",
      "games.pgn",      "report.html", "sprt.json",      "config.toml",
      "analysis.jsonl",  // arena/analysis: an analysis of the old games only
  };
  return files;
}

Expected<Journal> Journal::open(const fs::path& dir, TournamentMeta meta, bool fresh, const GameVisitor& on_game) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{dir.string() + ": cannot create the results directory: " + ec.message()};

  auto state = std::make_unique<State>();
  state->dir = dir;
  // Nothing in the directory is touched before the lock is ours.
  Expected<system::DirectoryLock> lock = system::DirectoryLock::acquire(dir);
  if (!lock) return Error{lock.error()};
  state->lock.emplace(std::move(lock).value());
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
    if (state->meta.engines != meta.engines) {  // a contest that gained entrants
      state->meta.engines = meta.engines;
      if (auto error = system::write_file_atomically(meta_path, meta_to_text(state->meta))) return Error{*error};
    }
  } else {
    if (has_games && fs::file_size(games_path, ec) > 0)
      return Error{games_path.string() + " exists but " + meta_path.string() +
                   " does not, so the games cannot be checked against this configuration" + kFreshAdvice};
    meta.created_at = system::utc_now_iso8601();
    if (auto error = system::write_file_atomically(meta_path, meta_to_text(meta))) return Error{*error};
    state->meta = std::move(meta);
  }

  if (has_games) {
    Expected<ScanSummary> loaded = scan_games(
        games_path,
        [&](GameRecord&& g) {
          ++state->games;
          if (on_game) on_game(std::move(g));
        },
        state->ids);
    if (!loaded) return Error{loaded.error()};
    ScanSummary file = std::move(loaded).value();
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
  Expected<std::size_t> written = write(record);
  if (!written) return written;
  if (auto error = sync_through(*written)) return Error{*error};
  return written;
}

Expected<std::size_t> Journal::write(const GameRecord& record) {
  if (record.id.empty()) return Error{"a game without an id cannot be journaled"};
  if (record.result == Outcome::Ongoing) return Error{"game '" + record.id + "' has no result"};
  std::string line = to_json_line(record);
  line += '\n';

  const fs::path path = games_path();
  std::lock_guard lock(state_->mutex);
  if (state_->ids.contains(record.id)) return Error{"game '" + record.id + "' is already in " + path.string()};
  if (auto error = system::write_all(state_->fd.get(), line, path)) {
    // Take back a partial line so that later appends do not follow garbage.
    if (::ftruncate(state_->fd.get(), static_cast<off_t>(state_->size)) != 0) {
      // Nothing more to do: the next open() drops the torn line.
    }
    return Error{*error};
  }
  state_->size += line.size();
  ++state_->games;
  state_->ids.first_seen(record.id, path.string(), static_cast<int>(state_->games));
  return state_->games;
}

std::optional<std::string> Journal::sync_through(std::size_t count) {
  std::unique_lock lock(state_->mutex);
  while (state_->synced < count) {
    if (state_->syncing) {  // a sync is under way: it may cover these games, or the next one will
      state_->synced_changed.wait(lock);
      continue;
    }
    // This caller syncs for everyone: every game written until now.
    state_->syncing = true;
    const std::size_t target = state_->games;
    const int fd = state_->fd.get();
    lock.unlock();
    const bool ok = ::fdatasync(fd) == 0;
    const int error = errno;
    lock.lock();
    state_->syncing = false;
    if (ok) state_->synced = std::max(state_->synced, target);
    state_->synced_changed.notify_all();
    // The lines are in the file either way; if the sync fails their durability is unknown, which the
    // caller must hear about (but no game is lost or repeated).
    if (!ok) {
      errno = error;
      return system::system_error_text(games_path(), "cannot sync");
    }
  }
  return std::nullopt;
}

bool Journal::is_completed(const std::string& id) const {
  std::lock_guard lock(state_->mutex);
  return state_->ids.contains(id);
}

std::size_t Journal::size() const {
  std::lock_guard lock(state_->mutex);
  return state_->games;
}

std::optional<std::string> Journal::update_settings(const std::map<std::string, std::string>& changes) {
  std::lock_guard lock(state_->mutex);
  bool changed = false;
  for (const auto& [key, value] : changes) {
    std::string& slot = state_->meta.settings[key];
    changed = changed || slot != value;
    slot = value;
  }
  if (!changed) return std::nullopt;
  return system::write_file_atomically(state_->dir / kMetaFile, meta_to_text(state_->meta));
}

const std::vector<std::string>& Journal::warnings() const { return state_->warnings; }
const TournamentMeta& Journal::meta() const { return state_->meta; }
const fs::path& Journal::dir() const { return state_->dir; }

namespace {

// "2-of-4" -> {2, 4}; nullopt for any other name.
std::optional<std::pair<int, int>> shard_folder(const std::string& name) {
  const std::size_t of = name.find("-of-");
  if (of == std::string::npos || of == 0 || of + 4 >= name.size()) return std::nullopt;
  const std::string i = name.substr(0, of), n = name.substr(of + 4);
  if (i.find_first_not_of("0123456789") != std::string::npos ||
      n.find_first_not_of("0123456789") != std::string::npos || i.size() > 6 || n.size() > 6)
    return std::nullopt;
  return std::pair{std::stoi(i), std::stoi(n)};
}

// What a path is, without following a link: nullopt for a regular file or nothing, else what it is.
std::optional<std::string> not_a_plain_file(const fs::path& path) {
  std::error_code ec;
  const fs::file_status s = fs::symlink_status(path, ec);
  switch (s.type()) {
    case fs::file_type::not_found:
    case fs::file_type::regular: return std::nullopt;
    case fs::file_type::symlink: return "a symbolic link (never followed in a results folder)";
    case fs::file_type::directory: return "a folder";
    case fs::file_type::fifo: return "a FIFO";
    case fs::file_type::block:
    case fs::file_type::character: return "a device";
    case fs::file_type::socket: return "a socket";
    default: return ec ? "unreadable: " + ec.message() : "not a regular file";
  }
}

std::optional<std::string> check_folder_files(const fs::path& dir) {
  // analysis.jsonl is left to its own reader, which refuses the same (a warning in the reports).
  static const char* const kRead[] = {kGamesFile,      kMetaFile,   "standings.json",
                                      "standings.csv", "sprt.json", "list.json"};
  for (const char* name : kRead)
    if (std::optional<std::string> what = not_a_plain_file(dir / name))
      return (dir / name).string() + ": " + *what + ", not a file a run writes: refused";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_results_files(const fs::path& dir) {
  if (auto error = check_folder_files(dir)) return error;
  std::error_code ec;
  const fs::path shards = dir / "shards";
  const fs::file_type type = fs::symlink_status(shards, ec).type();
  if (type == fs::file_type::not_found) return std::nullopt;
  if (type != fs::file_type::directory) return shards.string() + ": not a folder (a link is never followed): refused";
  std::size_t count = 0;
  for (fs::directory_iterator it(shards, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (++count > 100'000) return shards.string() + ": more than 100000 entries: refused";
    const fs::file_type t = it->symlink_status(ec).type();
    if (t == fs::file_type::symlink)
      return it->path().string() + ": a symbolic link (never followed in a results folder): refused";
    if (t == fs::file_type::directory)
      if (auto error = check_folder_files(it->path())) return error;
  }
  if (ec) return shards.string() + ": cannot list it: " + ec.message();
  return std::nullopt;
}

Expected<StoredResults> read_results(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Error{dir.string() + ": no such results directory"};
  if (std::optional<std::string> refused = check_results_files(dir)) return Error{*refused};
  StoredResults out;
  out.dir = dir;
  const fs::path meta_path = dir / kMetaFile;
  if (path_exists(meta_path)) {
    Expected<TournamentMeta> meta = read_meta(meta_path);
    if (!meta) return Error{meta.error()};
    out.meta = *meta;
    out.has_meta = true;
  }
  if (path_exists(dir / kGamesFile)) out.journals.push_back({dir / kGamesFile, dir.string(), std::nullopt});

  // The shards, by index; every one must belong to this tournament and to one split.
  std::map<int, StoredJournal> shards;
  std::string count_from;  // the folder that fixed shard_count
  const fs::path shards_dir = dir / "shards";
  if (fs::is_directory(shards_dir, ec)) {
    std::vector<fs::path> folders;
    for (const auto& entry : fs::directory_iterator(shards_dir, ec))
      if (entry.is_directory(ec)) folders.push_back(entry.path());
    std::sort(folders.begin(), folders.end());
    for (const fs::path& folder : folders) {
      const std::string name = folder.filename().string();
      const std::optional<std::pair<int, int>> where = shard_folder(name);
      if (!where || where->first < 1 || where->first > where->second) {
        out.warnings.push_back(folder.string() + ": not a shard folder (I-of-N); ignored");
        continue;
      }
      if (!path_exists(folder / kMetaFile)) {
        if (!path_exists(folder / kGamesFile)) continue;  // a shard that never started
        return Error{folder.string() + ": a shard journal without its " + kMetaFile +
                     ", so it cannot be checked against the others; move the folder away to merge the rest"};
      }
      Expected<TournamentMeta> meta = read_meta(folder / kMetaFile);
      if (!meta) return Error{meta.error()};
      if (!meta->shard || meta->shard->index != where->first || meta->shard->count != where->second)
        return Error{folder.string() + ": its " + kMetaFile + " does not describe shard " + name};
      TournamentMeta plain = *meta;
      plain.shard.reset();
      if (!out.has_meta) {
        out.meta = plain;
        out.has_meta = true;
      } else if (!same_tournament(out.meta, plain)) {
        return Error{folder.string() + ": a shard of a different configuration (" +
                     describe_difference(out.meta, plain) + "); merge only the shards of one tournament"};
      }
      if (out.shard_count == 0) {
        out.shard_count = where->second;
        count_from = name;
      } else if (out.shard_count != where->second) {
        return Error{shards_dir.string() + ": shards of two splits (" + count_from + " and " + name +
                     "); a tournament is merged from one split only: move the other split's folders away"};
      }
      if (!path_exists(folder / kGamesFile)) continue;
      shards[where->first] = {folder / kGamesFile,
                              "shard " + std::to_string(where->first) + "/" + std::to_string(where->second),
                              meta->shard};
    }
  }
  for (auto& [index, journal] : shards) out.journals.push_back(std::move(journal));
  for (int i = 1; i <= out.shard_count; ++i)
    if (!shards.contains(i)) out.missing_shards.push_back(i);
  if (out.journals.empty())
    return Error{dir.string() + ": no journal in this directory (neither " + kGamesFile + " nor shards/I-of-N/" +
                 kGamesFile + ")"};
  return out;
}

}  // namespace kalah::journal
