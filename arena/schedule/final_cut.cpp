#include "arena/schedule/final_cut.h"

#include <algorithm>
#include <cassert>
#include <set>
#include <utility>

namespace kalah::arena {

bool straddles(const RankSpan& span, const std::vector<int>& boundaries) {
  return std::any_of(boundaries.begin(), boundaries.end(), [&](int k) { return span.low <= k && k < span.high; });
}

std::vector<Pairing> final_pairs(const std::vector<int>& order, const std::vector<RankSpan>& spans,
                                 const std::vector<int>& boundaries) {
  assert(order.size() == spans.size());
  const int n = static_cast<int>(order.size());
  std::vector<Pairing> out;
  std::set<std::pair<int, int>> known;  // by the lower engine index first
  for (int k : boundaries) {
    if (k < 1 || k >= n) continue;  // nobody on one side: nothing to decide
    std::vector<int> above, below;  // the engines straddling k, placed above it and below it now, best first
    for (int place = 1; place <= n; ++place) {
      const int e = order[static_cast<std::size_t>(place - 1)];
      const RankSpan& s = spans[static_cast<std::size_t>(e)];
      if (s.low <= k && k < s.high) (place <= k ? above : below).push_back(e);
    }
    if (above.empty() && below.empty()) continue;
    // All on one side: the other side is the engine just across the boundary (at place k or k + 1).
    if (above.empty()) above.push_back(order[static_cast<std::size_t>(k - 1)]);
    if (below.empty()) below.push_back(order[static_cast<std::size_t>(k)]);
    for (int a : above)
      for (int b : below)
        if (known.insert({std::min(a, b), std::max(a, b)}).second) out.push_back({a, b});
  }
  return out;
}

void pair_idle(const std::vector<int>& order, const std::vector<RankSpan>& spans, const std::vector<int>& boundaries,
               std::vector<Pairing>& boards) {
  std::vector<char> busy(order.size(), 0);
  for (const Pairing& b : boards)
    busy[static_cast<std::size_t>(b.first)] = busy[static_cast<std::size_t>(b.second)] = 1;
  for (int k : boundaries) {
    int waiting = -1;  // an idle straddler of k without a partner yet
    for (int e : order) {
      const RankSpan& s = spans[static_cast<std::size_t>(e)];
      if (busy[static_cast<std::size_t>(e)] || !(s.low <= k && k < s.high)) continue;
      if (waiting < 0) {
        waiting = e;
        continue;
      }
      boards.push_back({waiting, e});
      busy[static_cast<std::size_t>(waiting)] = busy[static_cast<std::size_t>(e)] = 1;
      waiting = -1;
    }
  }
}

}  // namespace kalah::arena
