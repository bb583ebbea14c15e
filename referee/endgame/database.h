// Endgame databases: the exact value of every position with up to K seeds
// left in the pits, as the best future change of the store difference for
// the side to move (so a value does not depend on the stores, and positions
// of every start size with the same pits share it). Built by the program on
// first use, level by level (k = 0, 1, ..., K seeds), and cached on disk.
//
// Within a level the only moves that keep every seed in the pits sow a few
// seeds forward on the mover's own side without reaching the store; such a
// move brings every moved seed nearer its owner's store, so these moves
// cannot cycle and a level is filled by a memoised recursion over them.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "referee/endgame/index.h"
#include "referee/endgame/memory.h"
#include "referee/rules/position.h"
#include "referee/rules/variant.h"

namespace kalah::endgame {

// The variant keys that change database values. The seeds per pit, the pie
// rule and the majority rule do not (with the majority rule no database is
// used: the stores would have to be part of the key).
struct DbKey {
  int pits = 6;
  Capture capture = Capture::Standard;
  Ending ending = Ending::SideEmpty;
  Remainder remainder = Remainder::Owner;

  static DbKey of(const Variant& v) { return {v.pits, v.capture, v.ending, v.remainder}; }
  // "p6-standard-side-empty-owner": part of the cache file name.
  std::string name() const;
  friend bool operator==(const DbKey&, const DbKey&) = default;
};

// The largest K whose database takes at most `bytes`, capped at `max_levels`
// (values are stored in one signed byte, so K <= 126).
int levels_for_memory(int pits, std::uint64_t bytes, int max_levels);

// How a database came to be in memory, for the statistics.
struct DbStats {
  int levels = -1;         // K: positions with 0..K seeds are complete
  int loaded_levels = -1;  // of which read from the cache file
  std::uint64_t entries = 0;
  double load_seconds = 0;
  double build_seconds = 0;
  bool saved = false;
  std::string file;  // the cache file, if any
  std::string note;  // e.g. "cache file corrupt (checksum), rebuilt"
};

class Database {
 public:
  static constexpr int kMaxLevels = 126;
  static constexpr std::int8_t kUnknown = -128;  // stored as 0

  // Allocates room for levels 0..target (all unknown). target >= 0.
  Database(DbKey key, int target);

  const DbKey& key() const { return key_; }
  const CompositionIndex& index() const { return index_; }
  int target() const { return target_; }
  // Levels complete so far; grows while a build runs in another thread.
  int ready() const { return ready_.load(std::memory_order_acquire); }
  const DbStats& stats() const { return stats_; }

  // The value of a position with at most ready() seeds, by its index.
  // Bytes hold value ^ 0x80, so that fresh (zero) memory reads as kUnknown and
  // a database needs no filling before it is built.
  int value(std::uint64_t index) const { return static_cast<std::int8_t>(data_[index] ^ 0x80); }
  const std::uint8_t* data() const { return data_.get(); }

  // Loads what a valid cache file in `dir` holds (up to target), builds the
  // rest with `threads` threads and saves the result when it built anything.
  // An empty dir means no cache. A file that is truncated, has the wrong
  // header or a bad checksum is ignored (and replaced). Returns early, with
  // ready() < target, when *cancel becomes true. `on_level`, when set, hears
  // of a build as it goes: once before it starts, with ready() (the levels
  // loaded, -1 for none), then after each level built, with that level.
  using OnLevel = std::function<void(int level)>;
  // `load_threads` (0: `threads`) read the file.
  void load_or_build(const std::filesystem::path& dir, int threads, const std::atomic<bool>* cancel = nullptr,
                     const OnLevel& on_level = {}, int load_threads = 0);

  // The pieces of load_or_build, for tests.
  // Reads levels 0..min(target, file levels) from `file`; false (with a
  // reason in stats().note) if the file is missing, a symbolic link, not a
  // regular file or not a valid database. `threads` read and check it.
  bool load(const std::filesystem::path& file, int threads = 1);
  void build(int threads, const std::atomic<bool>* cancel = nullptr, const OnLevel& on_level = {});
  bool save(const std::filesystem::path& file) const;
  std::filesystem::path file_in(const std::filesystem::path& dir) const;

 private:
  DbKey key_;
  int target_;
  CompositionIndex index_;
  bool read_levels(int fd, std::uint64_t offset, std::uint64_t bytes, int threads);
  bool levels_match(int levels, const std::vector<std::uint64_t>& sums, int threads);

  LargeArray<std::uint8_t> data_;
  bool read_ok_ = true;  // the last load's read and first bad level, for its note
  int bad_level_ = -1;
  std::atomic<int> ready_{-1};
  DbStats stats_;
};

// The final store difference with perfect play from p, for the side to move (its store minus the
// other's, the seeds already in the stores included), when `db` knows it: p has at most `levels`
// (<= db.ready()) seeds in the pits, the variant has the database's key and no majority rule, and
// no pie decision is pending. nullopt otherwise.
std::optional<int> final_margin(const Database& db, int levels, const Variant& v, const Position& p);
inline std::optional<int> final_margin(const Database& db, const Variant& v, const Position& p) {
  return final_margin(db, db.ready(), v, p);
}

// The default cache directory: $XDG_CACHE_HOME/kalah-arena or ~/.cache/kalah-arena
// (empty if neither variable is set).
std::filesystem::path default_cache_dir();

// A 64-bit checksum of a byte range (for the cache files).
std::uint64_t checksum(const void* data, std::uint64_t size);

}  // namespace kalah::endgame
