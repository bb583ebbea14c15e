#include "referee/endgame/index.h"

#include <limits>

namespace kalah::endgame {

CompositionIndex::CompositionIndex(int n, int max_total)
    : n_(n), max_total_(max_total), table_(static_cast<std::size_t>(n) * (max_total + 2)) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  // Pascal's rule on the table itself: C(P + j, j + 1) = C(P - 1 + j, j + 1) + C(P - 1 + j, j),
  // that is term(j, P) = term(j, P - 1) + term(j - 1, P), with term(-1, P) = 1. Sums
  // saturate at 2^64 - 1, and fits() says whether any did.
  const int cols = columns();
  for (int j = 0; j < n; ++j) {
    std::uint64_t* t = table_.data() + j * cols;
    const std::uint64_t* below = j == 0 ? nullptr : t - cols;
    t[0] = 0;
    for (int p = 1; p < cols; ++p) {
      const std::uint64_t add = below ? below[p] : 1;
      t[p] = t[p - 1] > kMax - add ? kMax : t[p - 1] + add;
    }
  }
  // Every index is below size(), and every partial sum of a rank is too.
  fits_ = size() < kMax;
}

}  // namespace kalah::endgame
