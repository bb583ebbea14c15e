#include "arena/formats/staged/stage_rule.h"

#include <algorithm>
#include <cassert>
#include <map>

namespace kalah::staged {

std::vector<EngineTally> tally_stage(const std::vector<std::string>& engines, const std::vector<GameRecord>& games) {
  std::vector<EngineTally> out;
  std::map<std::string, std::size_t> index;
  for (const std::string& name : engines) {
    index.emplace(name, out.size());
    EngineTally t;
    t.name = name;
    out.push_back(t);
  }
  for (const GameRecord& g : games) {
    const auto south = index.find(g.south), north = index.find(g.north);
    if (south == index.end() || north == index.end()) continue;
    EngineTally& s = out[south->second];
    EngineTally& n = out[north->second];
    switch (g.result) {
      case Outcome::FirstWins: ++s.wins, ++n.losses; break;
      case Outcome::SecondWins: ++n.wins, ++s.losses; break;
      case Outcome::Draw: ++s.draws, ++n.draws; break;
      case Outcome::Ongoing: break;  // a journal holds finished games only
    }
  }
  return out;
}

std::vector<std::string> dropped(const std::vector<EngineTally>& tallies) {
  std::vector<std::string> out;
  for (const EngineTally& t : tallies)
    if (t.drops()) out.push_back(t.name);
  assert(out.size() < tallies.size() || tallies.empty());
  return out;
}

std::vector<Placing> final_order(const std::vector<StageTallies>& stages) {
  if (stages.empty()) return {};
  // Each engine's half-points stage by stage, as far as it got.
  struct Entry {
    std::string name;
    std::vector<int> points;
  };
  std::vector<Entry> entries;
  for (const EngineTally& t : stages.front().tallies) entries.push_back({t.name, {}});
  for (const StageTallies& stage : stages)
    for (const EngineTally& t : stage.tallies)
      for (Entry& e : entries)
        if (e.name == t.name) e.points.push_back(t.half_points());
  // Later stage first, then the points from the last stage back: a key compared lexicographically.
  auto key = [](const Entry& e) {
    std::vector<int> k{static_cast<int>(e.points.size())};
    k.insert(k.end(), e.points.rbegin(), e.points.rend());
    return k;
  };
  std::stable_sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) { return key(a) > key(b); });
  std::vector<Placing> out;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    const int place = i > 0 && key(entries[i - 1]) == key(e) ? out.back().place : static_cast<int>(i) + 1;
    out.push_back({.place = place,
                   .name = e.name,
                   .stage = static_cast<int>(e.points.size()),
                   .half_points = e.points.empty() ? 0 : e.points.back()});
  }
  return out;
}

}  // namespace kalah::staged
