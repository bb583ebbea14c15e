// The exact search's transposition table: proven lower and upper bounds of
// the future store-difference change, keyed by the position (pits seen from
// the side to move). Bounds never go stale, so the table keeps its value
// across searches, moves and games of the same variant.
//
// Buckets of four 16-byte entries, one cache line each. An entry is two
// words, (key ^ data, data), written and read with relaxed atomics, so that
// threads can share the table without locks: a torn entry fails the key check.
// Replacement keeps the entries that cost most to compute (log2 of the nodes).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "referee/endgame/memory.h"

namespace kalah::solver {

// The endgame database, its board and its index live in referee/endgame (the arena uses them too).
using namespace kalah::endgame;

struct TTData {
  std::int16_t lower = -32768;
  std::int16_t upper = 32767;
  std::uint8_t move = 0xff;  // the best pit (0-based) found, or 0xff
  std::uint8_t work = 0;     // 1 + log2 of the nodes that proved the bounds; 0 = empty

  std::uint64_t pack() const {
    return std::uint64_t(std::uint16_t(lower)) | std::uint64_t(std::uint16_t(upper)) << 16 | std::uint64_t(move) << 32 |
           std::uint64_t(work) << 40;
  }
  static TTData unpack(std::uint64_t w) {
    TTData d;
    d.lower = static_cast<std::int16_t>(w & 0xffff);
    d.upper = static_cast<std::int16_t>((w >> 16) & 0xffff);
    d.move = static_cast<std::uint8_t>(w >> 32);
    d.work = static_cast<std::uint8_t>(w >> 40);
    return d;
  }
};

class TranspositionTable {
 public:
  // Rounds down to a power of two buckets; at least one bucket.
  explicit TranspositionTable(std::size_t megabytes);

  std::size_t buckets() const { return mask_ + 1; }
  std::size_t bytes() const { return buckets() * sizeof(Bucket); }
  void clear();
  void prefault() { kalah::solver::prefault(table_.get(), bytes()); }
  // Entries in use, counted over a sample of buckets (scaled up).
  std::uint64_t used_estimate() const;

  bool probe(std::uint64_t key, TTData& out) const {
    const Bucket& b = bucket(key);
    for (const Entry& e : b.entries) {
      const std::uint64_t data = e.data.load(std::memory_order_relaxed);
      const std::uint64_t check = e.check.load(std::memory_order_relaxed);
      if ((check ^ data) == key && (data >> 40 & 0xff) != 0) {
        out = TTData::unpack(data);
        return true;
      }
    }
    return false;
  }

  // Adds bounds (merged with those already known for the key).
  void store(std::uint64_t key, int lower, int upper, int move, int work);

  void prefetch(std::uint64_t key) const { __builtin_prefetch(&bucket(key)); }

 private:
  struct Entry {
    std::atomic<std::uint64_t> check{0};
    std::atomic<std::uint64_t> data{0};
  };
  struct alignas(64) Bucket {
    Entry entries[4];
  };

  Bucket& bucket(std::uint64_t key) const { return table_[(key * 0x9e3779b97f4a7c15ULL) >> shift_ & mask_]; }

  LargeArray<Bucket> table_;
  std::size_t mask_ = 0;
  int shift_ = 0;
};

}  // namespace kalah::solver
