// What `GET /api/tournaments/NAME/live` streams (docs/SERVE.md, "The live stream"): one LiveFeed per
// tournament, shared by all its clients, turns what the arena writes into Server-Sent Events. The plies come
// from the live files of the workers (arena/runner/live_file.h), read as hostile (never through a link, never
// a special file, lines and files bounded); the finished games from the journals' new lines; the standings
// from the catalog. Each event has a number, `seq`, one more than the last of its feed; its SSE id is
// "EPOCH-SEQ", EPOCH drawn at random when the feed starts, so that an id from another server (or an earlier
// one) is never taken for one of this feed's. Pure of Asio and Beast; one thread at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kalah::serve {

// The events a feed keeps for clients that reconnect: one that resumes from an event older than these is
// sent what a new client gets (docs/SERVE.md).
inline constexpr std::size_t kRetainedEvents = 16384;
// The live files of one tournament looked at, at most.
inline constexpr std::size_t kMaxLiveFiles = 1024;
// After the live files and journals were read for a change, the watcher waits this long before it reads the
// changes again: the plies written meanwhile are read at once (inotify merges a file's repeated changes), so a
// watched arena wakes the server at most this often, not at each ply. The latency it adds is at most this.
inline constexpr std::chrono::milliseconds kLiveReadPause{20};
// New journal text read at one look, at most (the rest at the next).
inline constexpr std::uintmax_t kMaxJournalBytesPerLook = 16u << 20;

struct Event {
  std::uint64_t seq = 0;
  std::string kind;   // "ply", "game", "standings"
  std::string data;   // one line of compact JSON
  std::string frame;  // the whole SSE event: "id: ...\nevent: ...\ndata: ...\n\n"
};
using EventPtr = std::shared_ptr<const Event>;

// One SSE event's text. `data` must hold no line break.
std::string sse_frame(std::string_view id, std::string_view kind, std::string_view data);
// "EPOCH-SEQ", EPOCH as 16 hex digits.
std::string event_id(std::uint64_t epoch, std::uint64_t seq);
// The SEQ of a Last-Event-ID sent back, when it is one of the feed of `epoch` (exactly "EPOCH-SEQ", SEQ at most
// 19 decimal digits); none otherwise.
std::optional<std::uint64_t> resumed_seq(std::string_view last_event_id, std::uint64_t epoch);

// Whether `name` is a live file's name as arena/runner/live_file.h makes them ("all-worker-3.jsonl").
bool is_live_file_name(std::string_view name);

class LiveFeed {
 public:
  // `dir`: the tournament's results folder; nothing is read before start().
  LiveFeed(std::filesystem::path dir, std::uint64_t epoch) : dir_(std::move(dir)), epoch_(epoch) {}
  // Reads the live files, and where the journals end: the games already there are no events.
  void start();

  std::uint64_t epoch() const { return epoch_; }
  const std::filesystem::path& dir() const { return dir_; }

  // Reads the live file `name` of the live folder again (or every live file, with none) and returns the
  // new events, in order.
  std::vector<EventPtr> look_live(const std::optional<std::string>& name = std::nullopt);
  // Reads what the journals gained: a `game` event per new game (the first line of its id).
  std::vector<EventPtr> look_journals();
  // A `standings` event when `standings_json` (standings.json's text) differs from the last one sent.
  std::vector<EventPtr> standings(std::string_view standings_json);

  // What a client is sent first: with none (a new client), the plies so far of every game in flight and the
  // last standings, in the order of their seq; after `seq` (a client that resumes), every event after it, when
  // the feed still holds them all, else what a new client is sent.
  std::vector<EventPtr> replay(std::optional<std::uint64_t> after) const;

  // The ids of the games in flight, for tests and the log.
  std::vector<std::string> games_in_flight() const;

 private:
  struct Game;     // one live file's game in flight
  struct Journal;  // how far one journal was read
  EventPtr add(std::string kind, std::string data);
  void drop(const std::string& file);
  void read_live_file(const std::string& name, std::vector<EventPtr>& out);
  // The lines of `game`'s file not read yet, from NAME.jsonl.1 when that is the file `game` was read from.
  void read_rotated(const std::filesystem::path& path, std::shared_ptr<Game>& game, std::vector<EventPtr>& out);
  // The lines of the open file `fd` (`size` bytes) from game->offset; `game` becomes the file's next games.
  void read_lines(int fd, std::uintmax_t size, std::shared_ptr<Game>& game, std::vector<EventPtr>& out);
  void read_journal(Journal& journal, std::vector<EventPtr>& out);
  std::vector<std::filesystem::path> journal_files() const;

  std::filesystem::path dir_;
  std::uint64_t epoch_;
  std::uint64_t seq_ = 0;
  std::deque<EventPtr> retained_;
  std::map<std::string, std::shared_ptr<Game>> games_;  // by live file name
  std::map<std::filesystem::path, std::shared_ptr<Journal>> journals_;
  std::set<std::string> finished_;  // the ids of the games sent as `game` events
  std::string id_prefix_;           // "id: EPOCH-", every event's id up to its seq
  std::string standings_;           // the compact text of the last standings sent
  EventPtr standings_event_;
};

}  // namespace kalah::serve
