// The live files (docs/SERVE.md, "The live files"): each worker of `arena run` publishes the plies of the game
// it plays, as they are played, in a file of its own, `<results>/live/<shard>-worker-<N>.jsonl`, for `arena
// serve` to push to browsers. The worker's thread only adds a ply's line to a buffer; a thread of the publisher
// writes what the buffer holds at most kBatch after its first line came, with one write() (docs/SERVE.md, "The
// live files"); no fsync: the journal stays the only record of a game, and a live file is never read back by
// the arena. A file holds the worker's
// games one after the other: per game a header line when it starts, a line per ply, an end line; it is written
// anew (truncated first) at the worker's first game; at a game that starts once it holds kRewriteBytes it is
// renamed NAME.jsonl.1 (a reader reads the lines it has not read there) and a new file starts. Every
// line carries the game's key, new for each game a worker starts, so that a reader can tell one game's lines
// from the next's, and a file written anew (its first line's key) from one it read.
// The codec of the lines is here too, for both sides; the reader treats every line as hostile.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <variant>

#include "arena/config/config.h"
#include "referee/game/game.h"

namespace kalah::arena::live {

inline constexpr const char* kFolder = "live";  // under the results folder
// A line is at most this long (a header names two engines: at most 1 KiB), and a file at most kMaxFileBytes
// (the writer publishes no ply beyond it; 1000 plies take about 80 KiB).
inline constexpr std::size_t kMaxLineBytes = 4096;
inline constexpr std::uintmax_t kMaxFileBytes = 1u << 20;
// A game that starts when the file holds this much writes it anew: so every game has at least kMaxFileBytes -
// kRewriteBytes (about 6,000 plies) to itself.
inline constexpr std::uintmax_t kRewriteBytes = kMaxFileBytes / 2;
// Appended to a file's name: the previous file of the worker (NAME.jsonl.1), moved there whole when the new one
// started; the new one while it is made, before it is renamed NAME.jsonl.
inline constexpr const char* kRotatedSuffix = ".1";
inline constexpr const char* kFreshSuffix = ".new";

// "<shard>-worker-<N>.jsonl": "all" unsharded, "2-of-4" for shard 2 of 4 (several arenas write into one folder).
std::string file_name(const std::optional<Shard>& shard, int worker);
// The prefix of every file of one shard's workers ("2-of-4-worker-").
std::string file_prefix(const std::optional<Shard>& shard);

// A game's first line: {"live":1,"key":K,"game":ID,"south":NAME,"north":NAME}.
struct Header {
  std::string key, game, south, north;
};
// {"key":K,"ply":I,"move":M,"mover":P,"clocks_ms":[A,B],"elapsed_ms":T}: ply I (0-based, the opening's
// counted) was move M (a pit 1..16, or 0 for the pie swap), made by player P (0: the one who started
// South); each player's Fischer clock after it (null without one); the time it was charged (null for an
// opening move).
struct Ply {
  std::string key;
  int ply = 0;
  int move = 0;
  int mover = 0;
  std::array<std::optional<double>, 2> clocks_ms;
  std::optional<double> elapsed_ms;
};
// {"key":K,"end":"played"} when the game was played to its end, "abandoned" when the run stopped it.
struct End {
  std::string key;
  bool played = true;
};
struct Invalid {};
using Line = std::variant<Invalid, Header, Ply, End>;

std::string to_line(const Header& header);  // each with its '\n'
std::string to_line(const Ply& ply);
void append_line(std::string& out, const Ply& ply);  // the same line, appended to `out`
std::string to_line(const End& end);
// One line as read from a file (without its '\n'): Invalid for anything longer than kMaxLineBytes, not
// JSON, or without the fields and types above.
Line parse_line(std::string_view text);

// One worker's live file. Publishing is best effort: a file that cannot be written publishes nothing more
// (said once on stderr), and the games go on.
// The longest a published line waits in the buffer: a viewer sees a ply at most this much later, and a worker
// whose engines answer in microseconds makes one write() per kBatch instead of one per ply.
inline constexpr std::chrono::milliseconds kBatch{20};

class Publisher final : public PlyWatch {
 public:
  // `batch`: how long lines gather before they are written; zero writes each line at once on the caller's
  // thread (no thread of the publisher's own).
  Publisher(const std::filesystem::path& results_dir, const std::optional<Shard>& shard, int worker,
            std::chrono::milliseconds batch = kBatch);
  ~Publisher() override;
  Publisher(const Publisher&) = delete;
  Publisher& operator=(const Publisher&) = delete;

  // A new game: its header appended, or written into the file truncated (the first game), or into a new file
  // (past kRewriteBytes, the full one moved to NAME.jsonl.1).
  void start(const std::string& game, const std::string& south, const std::string& north);
  void ply(const GameRecord& so_far, int mover, const std::array<std::optional<double>, 2>& clock_ms) override;
  void end(bool played);
  // Writes what the buffer holds now (the destructor does too).
  void flush();
  // From now on a full file is moved to NAME.jsonl.1 by rename(2) instead of getting that second name by link(2),
  // as the publisher does by itself on a file system without hard links (docs/SERVE.md, "The live files"); for
  // tests.
  void rotate_by_rename() { links_ = false; }

 private:
  void put(const std::string& line, bool rewrite = false);
  // The buffer's text into the file (truncated first for `rewrite`); false, and the file closed, on an error.
  bool write_out(const std::string& text, bool rewrite);
  // The full file moved to NAME.jsonl.1 and a new one started (under write_mutex_, the buffer written first).
  void rotate();
  void fail(const char* error);  // said on stderr; the file closed, nothing more published
  void write_batches();          // the writing thread
  std::filesystem::path path_;
  std::chrono::milliseconds batch_;
  int fd_ = -1;                     // written under write_mutex_ (by the caller alone with no batch)
  std::atomic<bool> failed_{true};  // no file, or a write failed: nothing more is published
  std::string key_;
  std::uint64_t nonce_ = 0;
  std::uint64_t games_ = 0;
  std::uintmax_t size_ = 0;  // what the file holds once the buffer is written
  bool links_ = true;        // the file system takes a second name for a file (link(2)); under write_mutex_
  std::mutex write_mutex_;   // held from taking the buffer's text to having written it
  std::mutex mutex_;         // guards the five below
  std::condition_variable wake_;
  Ply ply_;           // the game in flight's key and its last ply (ply())
  std::string line_;  // ply()'s line, its buffer kept from ply to ply
  std::string pending_;
  bool rewrite_ = false;  // truncate the file before pending_ is written
  bool armed_ = false;    // the writing thread was woken for pending_ and writes it within kBatch
  bool stopping_ = false;
  std::thread writer_;
};

// Removes the live files a previous run of this shard left (its workers may have been more than this run's).
void remove_stale(const std::filesystem::path& results_dir, const std::optional<Shard>& shard);

}  // namespace kalah::arena::live
