#include "referee/endgame/memory.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace kalah::endgame {

namespace {
constexpr std::size_t kHuge = std::size_t{2} << 20;
std::size_t rounded(std::size_t bytes) { return (bytes + kHuge - 1) / kHuge * kHuge; }
}  // namespace

void LargeFree::operator()(void* p) const {
  if (p) munmap(p, rounded(bytes));
}

std::unique_ptr<void, LargeFree> large_alloc(std::size_t bytes) {
  if (bytes == 0) bytes = 1;
  const std::size_t size = rounded(bytes);
  // Map one huge page more than needed and trim, so the start is 2 MiB aligned.
  void* raw = mmap(nullptr, size + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto base = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (base + kHuge - 1) / kHuge * kHuge;
  if (aligned > base) munmap(raw, aligned - base);
  const std::uintptr_t end = base + size + kHuge;
  if (end > aligned + size) munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
  void* p = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(p, size, MADV_HUGEPAGE);
#endif
  return std::unique_ptr<void, LargeFree>(p, LargeFree{bytes});
}

void prefault(void* p, std::size_t bytes) {
  auto* bytes_ptr = static_cast<unsigned char*>(p);
  for (std::size_t i = 0; i < bytes; i += 4096) __atomic_fetch_or(bytes_ptr + i, 0, __ATOMIC_RELAXED);
}

}  // namespace kalah::endgame
