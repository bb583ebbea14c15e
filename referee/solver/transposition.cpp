#include "referee/solver/transposition.h"

#include <algorithm>
#include <bit>

namespace kalah::solver {

TranspositionTable::TranspositionTable(std::size_t megabytes) {
  const std::size_t want = std::max<std::size_t>(1, (megabytes << 20) / sizeof(Bucket));
  const std::size_t n = std::bit_floor(want);
  table_ = LargeArray<Bucket>::make(n);  // zero-filled: every entry empty
  mask_ = n - 1;
  // The bucket comes from the top bits of the multiplied key.
  shift_ = 64 - std::max(1, std::countr_zero(n));
  if (n == 1) shift_ = 63;
}

void TranspositionTable::clear() {
  for (std::size_t i = 0; i <= mask_; ++i)
    for (Entry& e : table_[i].entries) {
      e.check.store(0, std::memory_order_relaxed);
      e.data.store(0, std::memory_order_relaxed);
    }
}

std::uint64_t TranspositionTable::used_estimate() const {
  const std::size_t sample = std::min<std::size_t>(buckets(), 1 << 16);
  const std::size_t stride = buckets() / sample;
  std::uint64_t used = 0;
  for (std::size_t i = 0; i < sample; ++i)
    for (const Entry& e : table_[i * stride].entries)
      used += (e.data.load(std::memory_order_relaxed) >> 40 & 0xff) != 0;
  return used * (buckets() / sample);
}

void TranspositionTable::store(std::uint64_t key, int lower, int upper, int move, int work) {
  Bucket& b = bucket(key);
  Entry* victim = nullptr;
  int victim_work = 256;
  for (Entry& e : b.entries) {
    const std::uint64_t data = e.data.load(std::memory_order_relaxed);
    const std::uint64_t check = e.check.load(std::memory_order_relaxed);
    const TTData d = TTData::unpack(data);
    if (d.work != 0 && (check ^ data) == key) {
      // Same position: keep the tighter of each bound.
      TTData merged = d;
      merged.lower = static_cast<std::int16_t>(std::max<int>(d.lower, lower));
      merged.upper = static_cast<std::int16_t>(std::min<int>(d.upper, upper));
      if (move != 0xff) merged.move = static_cast<std::uint8_t>(move);
      merged.work = static_cast<std::uint8_t>(std::max<int>(d.work, work));
      const std::uint64_t w = merged.pack();
      e.data.store(w, std::memory_order_relaxed);
      e.check.store(key ^ w, std::memory_order_relaxed);
      return;
    }
    if (d.work < victim_work) {
      victim_work = d.work;
      victim = &e;
    }
  }
  TTData d;
  d.lower = static_cast<std::int16_t>(lower);
  d.upper = static_cast<std::int16_t>(upper);
  d.move = static_cast<std::uint8_t>(move);
  d.work = static_cast<std::uint8_t>(work);
  const std::uint64_t w = d.pack();
  victim->data.store(w, std::memory_order_relaxed);
  victim->check.store(key ^ w, std::memory_order_relaxed);
}

}  // namespace kalah::solver
