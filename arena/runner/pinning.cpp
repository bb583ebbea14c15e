// Each game slot's CPUs under [tournament] pin / cpus (docs/SECURITY.md, "CPU isolation").
#include "arena/runner/pinning.h"

#include <sched.h>

#include <algorithm>
#include <string>

namespace kalah::arena {

namespace {

std::string cpu_text(const std::vector<int>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(cpus[i]) + (j > i ? "-" + std::to_string(cpus[j]) : "");
    i = j;
  }
  return out;
}

}  // namespace

Expected<std::vector<std::vector<int>>> cpu_slots(const Config& config) {
  const TournamentConfig& t = config.tournament;
  if (!t.pin && t.cpus.empty()) return std::vector<std::vector<int>>{};
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (::sched_getaffinity(0, sizeof mine, &mine) != 0) return Error{"cannot read the arena's CPU affinity"};
  std::vector<int> allowed;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &mine)) allowed.push_back(c);
  std::vector<int> pool = allowed;
  if (!t.cpus.empty()) {
    for (int c : t.cpus)
      if (!CPU_ISSET(c, &mine))
        return Error{"tournament.cpus names CPU " + std::to_string(c) + ", which the arena may not use (it may use " +
                     cpu_text(allowed) + ")"};
    pool = t.cpus;
  }
  const int slots = std::max(1, t.concurrency);
  if (static_cast<int>(pool.size()) < slots)
    return Error{"concurrency " + std::to_string(slots) + " needs at least " + std::to_string(slots) +
                 " CPUs to give each game its own, but only " + std::to_string(pool.size()) + " (" + cpu_text(pool) +
                 ") are available: lower the concurrency or give more CPUs"};
  const std::size_t each = pool.size() / static_cast<std::size_t>(slots);
  std::vector<std::vector<int>> out;
  for (int i = 0; i < slots; ++i)
    out.emplace_back(pool.begin() + static_cast<long>(i * each), pool.begin() + static_cast<long>((i + 1) * each));
  return out;
}

}  // namespace kalah::arena
