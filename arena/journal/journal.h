// The append-only record of a tournament: results/<name>/games.jsonl plus
// tournament.json (docs/FORMATS.md). Every finished game is one line, written
// with a single write(2) to an O_APPEND file and fdatasync'ed before it is reported
// (append(), or write() and sync_through() apart: group commit), so a killed arena loses
// at most the games still being played and a resumed run never plays a finished game twice.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "arena/journal/games_file.h"
#include "arena/journal/meta.h"
#include "referee/record/record.h"
#include "referee/rules/expected.h"

namespace kalah::journal {

inline constexpr const char* kGamesFile = "games.jsonl";
inline constexpr const char* kMetaFile = "tournament.json";

class Journal {
 public:
  // Opens (creating it if needed) the results directory `dir` for a run of the
  // tournament described by `meta` (its created_at is filled in here), first taking the
  // directory's lock (system::DirectoryLock) for as long as the Journal lives.
  // - No journal yet: writes tournament.json and starts an empty games.jsonl.
  // - A journal of the same tournament (same fingerprint and engines): loads it.
  //   Each game in it is handed to `on_game` (if given), in file order, one at a time: the
  //   journal itself keeps only the ids. A torn last line is cut off and reported in
  //   warnings(); a last line without its newline gets one; duplicate ids keep their first line.
  // - A journal of a different tournament: an error saying what differs,
  //   unless `fresh`.
  // - `fresh`: every file the arena writes in `dir` that exists is first moved
  //   aside to <file>.bak (or .bak2, .bak3, ... : never overwritten, never deleted).
  // Errors: unreadable or unwritable files, a bad line before the last one
  // ("games.jsonl:17: ..."), a journal without tournament.json.
  static Expected<Journal> open(const std::filesystem::path& dir, TournamentMeta meta, bool fresh,
                                const GameVisitor& on_game = {});

  Journal(Journal&&) noexcept;
  Journal& operator=(Journal&&) noexcept;
  ~Journal();

  // Appends one finished game and makes it durable: write() then sync_through(). Safe to call from
  // several threads. Returns the number of games now in the journal.
  Expected<std::size_t> append(const GameRecord& record);

  // Appends one finished game with one write(2) and returns at once, before it is on the disk. Safe
  // to call from several threads. Refused (nothing written): an empty id, an id already in the
  // journal, a game without a result. Returns the number of games written so far, this one
  // included: its place for sync_through(). A game written is in the file, so a killed arena keeps
  // it; only a crash of the machine can lose what was not synced yet.
  Expected<std::size_t> write(const GameRecord& record);

  // Returns once the first `count` games written are on the disk (fdatasync). Group commit: one sync
  // covers every game written before it started, so callers that wait at the same time share it, and
  // a caller whose games an earlier sync covered does not sync at all. An error when the sync failed
  // (the games are in the file, their durability unknown).
  std::optional<std::string> sync_through(std::size_t count);

  bool is_completed(const std::string& id) const;
  std::size_t size() const;

  // Sets readable settings (TournamentMeta::settings) that a run learns or that change between resumed
  // runs without changing the tournament (the arena version, the engines' announced names), and rewrites
  // tournament.json atomically. The fingerprint and the engines never change here.
  std::optional<std::string> update_settings(const std::map<std::string, std::string>& changes);

  // What open() noticed and repaired (torn line, duplicates, files moved aside).
  const std::vector<std::string>& warnings() const;
  const TournamentMeta& meta() const;
  const std::filesystem::path& dir() const;
  std::filesystem::path games_path() const { return dir() / kGamesFile; }

 private:
  struct State;
  explicit Journal(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// The files of a results directory that `fresh` moves aside: the journal, its
// meta file, every report (names as in arena/report/reports.h) and the analysis.
const std::vector<std::string>& results_files();

// What is in a results directory, read without changing anything (for `arena report DIR`):
// its own journal (an unsharded run) and/or the journals of its shards, shards/I-of-N/, each
// checked against the others (docs/SCALE.md). tournament.json is optional for an unsharded
// journal; without any, the engines are the names found in the games.
struct StoredJournal {
  std::filesystem::path games;     // the games.jsonl
  std::string label;               // "results/x" or "shard 2/4"
  std::optional<ShardMeta> shard;  // for a shard's journal
};
struct StoredResults {
  std::filesystem::path dir;  // the folder read (a sharded run's top folder, which holds analysis.jsonl)
  TournamentMeta meta;        // the tournament's (without shard); engines empty when no meta file exists
  bool has_meta = false;
  std::vector<StoredJournal> journals;  // the directory's own first, then the shards by index
  int shard_count = 0;                  // 0: not sharded
  std::vector<int> missing_shards;      // 1-based indexes of shards with no journal yet
  std::vector<std::string> warnings;
};
// Every file read is opened as untrusted input (never through a link, never a FIFO, a device or a socket,
// bounded), and the shards' folders are never links: check_results_files.
// Errors: no such directory; no journal at all; check_results_files' refusal; a shard from another configuration or
// split into a different number of shards; a shard folder without its tournament.json.
Expected<StoredResults> read_results(const std::filesystem::path& dir);

// Whether the files a results folder's readers open (the journals, tournament.json, the reports
// verify compares, sprt.json, list.json, in `dir` and in each shards/I-of-N/) are regular files or absent,
// and `shards` and its folders real folders: an error naming the first that is a symbolic link, a
// FIFO, a device or a socket. A published folder is untrusted input; read as root, a link could show
// a file outside it and a FIFO hang the reader.
std::optional<std::string> check_results_files(const std::filesystem::path& dir);

}  // namespace kalah::journal
