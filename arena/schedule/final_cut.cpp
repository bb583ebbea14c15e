#include "arena/schedule/final_cut.h"

#include <algorithm>
#include <cassert>

namespace kalah::arena {

bool straddles(const RankSpan& span, const std::vector<int>& boundaries) {
  return std::any_of(boundaries.begin(), boundaries.end(), [&](int k) { return span.low <= k && k < span.high; });
}

std::vector<Pairing> final_pairs(const std::vector<int>& order, const std::vector<RankSpan>& spans,
                                 const std::vector<int>& boundaries) {
  assert(order.size() == spans.size());
  const int n = static_cast<int>(order.size());
  std::vector<Pairing> out;
  auto add = [&out](int above, int below) {
    const bool known = std::any_of(out.begin(), out.end(), [&](const Pairing& p) {
      return (p.first == above && p.second == below) || (p.first == below && p.second == above);
    });
    if (!known) out.push_back({above, below});
  };
  for (int k : boundaries) {
    if (k < 1 || k >= n) continue;  // nobody on one side: nothing to decide
    std::vector<int> at;            // the places (0-based) of the engines straddling k, best first
    for (int place = 0; place < n; ++place) {
      const RankSpan& s = spans[static_cast<std::size_t>(order[static_cast<std::size_t>(place)])];
      if (s.low <= k && k < s.high) at.push_back(place);
    }
    if (at.size() == 1) {
      // Alone: against the engine just across the boundary (0-based place k is place k + 1).
      const int place = at[0], across = place < k ? k : k - 1;
      add(order[static_cast<std::size_t>(std::min(place, across))],
          order[static_cast<std::size_t>(std::max(place, across))]);
      continue;
    }
    for (std::size_t i = 0; i + 1 < at.size(); ++i)
      add(order[static_cast<std::size_t>(at[i])], order[static_cast<std::size_t>(at[i + 1])]);
  }
  return out;
}

}  // namespace kalah::arena
