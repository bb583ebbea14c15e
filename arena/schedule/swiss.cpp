#include "arena/schedule/swiss.h"

#include <algorithm>
#include <cassert>

namespace kalah::arena {
namespace {

// The backtracking search for one number of allowed repeats gives up after this many steps in all
// (shared by the bye candidates, each getting at least kLeastSteps) and the next number is tried, so that
// a round that cannot avoid repeats among many engines is still paired quickly. A small field is searched
// exhaustively within the bounds (10 engines have 945 pairings, searched in about 1,300 steps).
constexpr long kSearchSteps = 5'000;
constexpr long kLeastSteps = 500;
constexpr long kUnlimited = 1L << 62;

bool have_met(const SwissRecord& a, int b) {
  return std::find(a.opponents.begin(), a.opponents.end(), b) != a.opponents.end();
}

// Engines better placed first: more points, then the lower initial seed.
std::vector<int> ranked(const std::vector<SwissRecord>& records) {
  std::vector<int> order(records.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return records[a].points > records[b].points; });
  return order;
}

class PairingSearch {
 public:
  explicit PairingSearch(const std::vector<SwissRecord>& records) : records_(records) {}

  // Pairs `players` (ranked, an even number) with at most `repeats` repeat pairings; false when that
  // is impossible or the search ran out of steps. The pairs found go to `out` (better-ranked first).
  bool pair(const std::vector<int>& players, int repeats, long steps, std::vector<Pairing>& out) {
    steps_ = steps;
    out.clear();
    return solve(players, repeats, out);
  }

 private:
  // The opponents to try for players[0], the best-ranked engine still unpaired, in the Dutch order:
  // its score group (the unpaired engines with its points) is split into a top half and a bottom
  // half, and the i-th of the top half meets the i-th of the bottom half. Since the engines above it
  // in the group are paired already, that is the first engine of the bottom half; then the ones below
  // it in the group, then the ones above it (transpositions), then the engines of lower score groups
  // in rank order (it floats down).
  std::vector<int> candidates(const std::vector<int>& players) const {
    const double points = records_[players[0]].points;
    std::vector<int> group, lower;
    for (std::size_t i = 1; i < players.size(); ++i)
      (records_[players[i]].points == points ? group : lower).push_back(players[i]);
    std::vector<int> out;
    if (!group.empty()) {
      const int size = static_cast<int>(group.size()) + 1;  // with players[0]
      const int ideal = size / 2 - 1;                       // the first of the bottom half, in `group`
      for (int i = ideal; i < static_cast<int>(group.size()); ++i) out.push_back(group[i]);
      for (int i = ideal - 1; i >= 0; --i) out.push_back(group[i]);
    }
    out.insert(out.end(), lower.begin(), lower.end());
    return out;
  }

  bool solve(const std::vector<int>& players, int repeats, std::vector<Pairing>& out) {
    if (players.empty()) return true;
    if (--steps_ < 0) return false;
    const int top = players[0];
    for (int c : candidates(players)) {
      const bool repeat = have_met(records_[top], c);
      if (repeat && repeats == 0) continue;
      std::vector<int> rest;
      rest.reserve(players.size() - 2);
      for (std::size_t i = 1; i < players.size(); ++i)
        if (players[i] != c) rest.push_back(players[i]);
      out.push_back({top, c});
      if (solve(rest, repeats - (repeat ? 1 : 0), out)) return true;
      out.pop_back();
      if (steps_ < 0) return false;
    }
    return false;
  }

  const std::vector<SwissRecord>& records_;
  long steps_ = 0;
};

// Who is South in the first game of the pair: the engine that has been first less often (firsts minus
// seconds); when equal, the one that was second in its last pair; when still equal, the better-ranked
// one (`a`).
Pairing colours(const std::vector<SwissRecord>& records, int a, int b) {
  const SwissRecord& ra = records[a];
  const SwissRecord& rb = records[b];
  const int balance_a = ra.firsts - ra.seconds;
  const int balance_b = rb.firsts - rb.seconds;
  if (balance_a != balance_b) return balance_a < balance_b ? Pairing{a, b} : Pairing{b, a};
  if (ra.last != rb.last) return ra.last < rb.last ? Pairing{a, b} : Pairing{b, a};
  return {a, b};
}

}  // namespace

SwissRound pair_swiss_round(int round, const std::vector<SwissRecord>& records) {
  assert(records.size() >= 2);
  const std::vector<int> order = ranked(records);
  // The bye candidates: the fewest byes first, and among those the lowest-ranked first.
  std::vector<int> bye_candidates;
  if (order.size() % 2 == 1) {
    bye_candidates.assign(order.rbegin(), order.rend());
    std::stable_sort(bye_candidates.begin(), bye_candidates.end(),
                     [&](int a, int b) { return records[a].byes < records[b].byes; });
  } else {
    bye_candidates.push_back(-1);
  }
  PairingSearch search(records);
  std::vector<Pairing> found;
  const int boards = static_cast<int>(order.size() / 2);
  const long steps = std::max(kLeastSteps, kSearchSteps / static_cast<long>(bye_candidates.size()));
  for (int repeats = 0; repeats <= boards; ++repeats) {
    for (int bye : bye_candidates) {
      std::vector<int> players;
      for (int e : order)
        if (e != bye) players.push_back(e);
      // With every board allowed to repeat, the first candidate of each engine is taken: no search limit.
      if (!search.pair(players, repeats, repeats == boards ? kUnlimited : steps, found)) continue;
      SwissRound out;
      out.round = round;
      out.bye = bye;
      for (const Pairing& p : found) {
        out.boards.push_back(colours(records, p.first, p.second));
        if (have_met(records[p.first], p.second)) ++out.repeats;
      }
      return out;
    }
  }
  assert(false && "a pairing with every board a repeat always exists");
  return {};
}

std::array<std::string, 2> swiss_game_ids(int round, const Pairing& board) {
  const std::string r = "r" + std::to_string(round) + "-";
  const std::string a = std::to_string(board.first);
  const std::string b = std::to_string(board.second);
  return {r + a + "v" + b + "-p0-g0", r + b + "v" + a + "-p0-g1"};
}

std::vector<double> SwissProgress::buchholz() const {
  std::vector<double> out(records.size(), 0.0);
  for (std::size_t e = 0; e < records.size(); ++e)
    for (int o : records[e].opponents) out[e] += records[static_cast<std::size_t>(o)].points;
  return out;
}

std::vector<int> SwissProgress::ranking() const {
  const std::vector<double> tiebreak = buchholz();
  std::vector<int> order(records.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (records[a].points != records[b].points) return records[a].points > records[b].points;
    return tiebreak[a] > tiebreak[b];
  });
  return order;
}

SwissProgress replay_swiss(int engines, int rounds, const GameResults& results) {
  SwissProgress out;
  out.records.resize(static_cast<std::size_t>(engines));
  std::vector<SwissRecord>& rec = out.records;
  for (int r = 1; r <= rounds; ++r) {
    SwissRound round = pair_swiss_round(r, rec);
    bool complete = true;
    for (const Pairing& b : round.boards) {
      SwissRecord& first = rec[b.first];
      SwissRecord& second = rec[b.second];
      first.opponents.push_back(b.second);
      second.opponents.push_back(b.first);
      ++first.firsts;
      ++second.seconds;
      first.last = 1;
      second.last = -1;
      const std::array<std::string, 2> ids = swiss_game_ids(r, b);
      for (int g = 0; g < 2; ++g) {
        auto it = results.find(ids[g]);
        if (it == results.end()) {
          complete = false;
          continue;
        }
        (g == 0 ? first : second).points += it->second;
        (g == 0 ? second : first).points += 1.0 - it->second;
      }
    }
    if (round.bye >= 0) {
      ++rec[round.bye].byes;
      rec[round.bye].points += kSwissByePoints;
    }
    out.rounds.push_back(std::move(round));
    if (!complete) return out;
  }
  out.complete = true;
  return out;
}

}  // namespace kalah::arena
