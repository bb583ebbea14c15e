// Big zeroed arrays (the transposition table, the databases) in transparent
// huge pages where the kernel allows it: the search reads them at random, and
// with 4 KiB pages nearly every read would also miss the TLB.
#pragma once

#include <cstddef>
#include <memory>

namespace kalah::endgame {

struct LargeFree {
  std::size_t bytes = 0;
  void operator()(void* p) const;
};

// Zero-filled, 2 MiB aligned; throws std::bad_alloc on failure.
std::unique_ptr<void, LargeFree> large_alloc(std::size_t bytes);

// Touches every page of [p, p + bytes) without changing its contents (safe
// while other threads use the memory), so that later reads and writes do not
// stop for page faults: zeroing fresh pages can take milliseconds each.
void prefault(void* p, std::size_t bytes);

template <class T>
struct LargeArray {
  std::unique_ptr<void, LargeFree> memory;
  T* get() const { return static_cast<T*>(memory.get()); }
  T& operator[](std::size_t i) const { return get()[i]; }
  static LargeArray make(std::size_t n) { return {large_alloc(n * sizeof(T))}; }
};

}  // namespace kalah::endgame
