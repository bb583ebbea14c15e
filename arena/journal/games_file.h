// Reading a games.jsonl journal (docs/FORMATS.md), streamed: one record in memory at a time, so
// that a million-game journal is read in bounded memory. Read-only: Journal::open decides what to
// do with a torn last line.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "referee/record/record.h"
#include "referee/rules/expected.h"

namespace kalah::journal {

// The last line of the file when it cannot be a finished write: it does not
// parse (a run killed in the middle of a write, a crash that left zeros, or a
// line another process is writing right now).
struct TornLine {
  int line = 0;               // 1-based
  std::uintmax_t offset = 0;  // where it starts: the file's good prefix ends here
  std::string error;          // why it does not parse
};

// What a scan saw besides the records it handed out.
struct ScanSummary {
  std::size_t games = 0;               // records handed out
  std::size_t duplicates = 0;          // lines skipped because their id came earlier in this file
  std::size_t elsewhere = 0;           // lines skipped because an earlier file (a merge) had their id
  std::vector<std::string> warnings;   // one per duplicate in this file ("games.jsonl:12: ...")
  std::optional<TornLine> torn;        // an unparsable last line (not handed out)
  bool missing_final_newline = false;  // the last line parsed but has no '\n' after it
};

// Where each id was first seen, shared by the scans of several journals (a merge of shards) so
// that a game is counted once whichever file holds it.
class SeenIds {
 public:
  struct Seen {
    std::string file;
    int line = 0;
  };
  // Where `id` was first seen, or nullopt after recording it as seen at `file`:`line`.
  std::optional<Seen> first_seen(const std::string& id, const std::string& file, int line);
  std::size_t size() const { return ids_.size(); }
  bool contains(const std::string& id) const { return ids_.contains(id); }

 private:
  std::vector<std::string> files_;
  std::unordered_map<std::string, std::pair<int, int>> ids_;  // id -> (index in files_, line)
};

using GameVisitor = std::function<void(GameRecord&&)>;

// A journal is untrusted input (a published folder, an archive): it is opened never through a link and
// only as a regular file (never a FIFO, a device or a socket, which could hang the reader), and no line
// may be longer than this: the reader holds one line at a time.
inline constexpr std::size_t kMaxJournalLine = 16u << 20;

// Hands each line of the journal `file` (without its '\n'; `terminated`: a '\n' followed it) to `line`,
// in order, until `line` returns false or the file ends. Errors: the file is a link or not a regular
// file, cannot be read, or holds a line longer than kMaxJournalLine.
std::optional<std::string> read_journal_lines(const std::filesystem::path& file,
                                              const std::function<bool(std::string_view, bool)>& line);

// Hands every record of `file` to `visit`, in file order, skipping (with a warning) an id that
// `seen` already holds. Every line must hold one record (record_from_json); blank lines are
// skipped. A bad line before the last one is an error "games.jsonl:LINE: message"; a bad last
// line is reported in `torn` instead.
Expected<ScanSummary> scan_games(const std::filesystem::path& file, const GameVisitor& visit, SeenIds& seen);
// The same over text already in memory; `file_name` names it in messages.
Expected<ScanSummary> scan_games_text(std::string_view content, const std::string& file_name, const GameVisitor& visit,
                                      SeenIds& seen);

// Follows a journal that another process is appending to (the other shards of an SPRT): each
// read_new() hands out the records of the complete lines written since the last call. A line is
// consumed only once it ends in '\n' and parses, so a line being written, or a torn line that its
// writer will cut off and write again, is read again next time from the same offset. The file need
// not exist yet.
class JournalTail {
 public:
  explicit JournalTail(std::filesystem::path file) : file_(std::move(file)) {}
  // Returns the number of records handed out, or an error if the file exists but cannot be read.
  Expected<std::size_t> read_new(const GameVisitor& visit);
  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  std::uintmax_t offset_ = 0;  // the end of the last line consumed
};

// Every record of a small journal at once (tests, tools): scan_games into a vector.
struct GamesFile {
  std::vector<GameRecord> games;  // file order; the first line of each id only
  std::vector<std::string> warnings;
  std::optional<TornLine> torn;
  bool missing_final_newline = false;
};
Expected<GamesFile> parse_games(std::string_view content, const std::string& file_name);
Expected<GamesFile> read_games(const std::filesystem::path& file);

}  // namespace kalah::journal
