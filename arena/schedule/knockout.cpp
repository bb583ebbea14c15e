#include "arena/schedule/knockout.h"

#include <cassert>

namespace kalah::arena {
namespace {

// Counts the pairs of a match whose engines are known, and decides it when the results allow.
void play_match(KnockoutMatch& m, int rounds, int tiebreak_pairs, const GameResults& results) {
  // The points of pair `p` for (high, low), or false when one of its games has not finished.
  auto pair_points = [&](int p, double& high, double& low) {
    const std::array<std::string, 2> ids = knockout_game_ids(m.round, m.high, m.low, p);
    auto g0 = results.find(ids[0]);
    auto g1 = results.find(ids[1]);
    if (g0 == results.end() || g1 == results.end()) return false;
    high = g0->second + (1.0 - g1->second);
    low = (1.0 - g0->second) + g1->second;
    return true;
  };
  for (int p = 0; p < rounds; ++p) {
    double high = 0, low = 0;
    if (!pair_points(p, high, low)) {
      m.due.push_back(p);
      continue;
    }
    m.high_points += high;
    m.low_points += low;
    ++m.pairs;
  }
  if (!m.due.empty()) return;
  if (m.high_points != m.low_points) {
    m.winner = m.high_points > m.low_points ? m.high : m.low;
    m.decision = KnockoutDecision::Points;
    return;
  }
  for (int t = 0; t < tiebreak_pairs; ++t) {
    double high = 0, low = 0;
    if (!pair_points(rounds + t, high, low)) {
      m.due.push_back(rounds + t);
      return;
    }
    m.high_points += high;
    m.low_points += low;
    ++m.pairs;
    if (high != low) {
      m.winner = high > low ? m.high : m.low;
      m.decision = KnockoutDecision::Tiebreak;
      return;
    }
  }
  m.winner = m.high;
  m.decision = KnockoutDecision::Seed;
}

}  // namespace

const char* to_string(KnockoutDecision d) {
  switch (d) {
    case KnockoutDecision::Pending: return "pending";
    case KnockoutDecision::Bye: return "bye";
    case KnockoutDecision::Points: return "points";
    case KnockoutDecision::Tiebreak: return "tie-break";
    case KnockoutDecision::Seed: return "seed";
  }
  return "?";
}

std::vector<int> bracket_seeds(int size) {
  assert(size >= 1 && (size & (size - 1)) == 0);
  std::vector<int> order{1};
  while (static_cast<int>(order.size()) < size) {
    const int next = 2 * static_cast<int>(order.size());
    std::vector<int> grown;
    for (int s : order) {
      grown.push_back(s);
      grown.push_back(next + 1 - s);
    }
    order = std::move(grown);
  }
  return order;
}

std::array<std::string, 2> knockout_game_ids(int round, int high, int low, int pair) {
  const std::string r = "r" + std::to_string(round) + "-";
  const std::string h = std::to_string(high);
  const std::string l = std::to_string(low);
  const std::string p = "-p" + std::to_string(pair);
  return {r + h + "v" + l + p + "-g0", r + l + "v" + h + p + "-g1"};
}

std::vector<KnockoutPlace> KnockoutProgress::ranking() const {
  std::vector<KnockoutPlace> places(static_cast<std::size_t>(engines));
  for (int e = 0; e < engines; ++e) places[static_cast<std::size_t>(e)].engine = e;
  for (const std::vector<KnockoutMatch>& round : rounds)
    for (const KnockoutMatch& m : round)
      for (const int e : {m.high, m.low}) {
        if (e < 0) continue;
        KnockoutPlace& p = places[static_cast<std::size_t>(e)];
        p.reached = m.round;  // the rounds come in order, and an engine is in one match of each
        p.out = m.winner >= 0 && m.winner != e;
      }
  auto better = [](const KnockoutPlace& a, const KnockoutPlace& b) {
    return a.reached != b.reached ? a.reached > b.reached : !a.out && b.out;
  };
  std::stable_sort(places.begin(), places.end(), better);  // config order, which is the seed, within a rank
  for (std::size_t i = 0; i < places.size(); ++i) {
    const bool same_as_previous = i > 0 && !better(places[i - 1], places[i]);
    places[i].rank = same_as_previous ? places[i - 1].rank : static_cast<int>(i) + 1;
    places[i].shared = same_as_previous || (i + 1 < places.size() && !better(places[i], places[i + 1]));
  }
  return places;
}

KnockoutProgress replay_knockout(int engines, int rounds, int tiebreak_pairs, const GameResults& results) {
  assert(engines >= 2);
  KnockoutProgress out;
  out.engines = engines;
  out.bracket_size = 1;
  while (out.bracket_size < engines) out.bracket_size *= 2;
  const std::vector<int> seeds = bracket_seeds(out.bracket_size);
  // The engines entering each slot of the current round: an engine, -1 for a bye (round 1 only) or -2
  // for the winner of a match not decided yet.
  constexpr int kUnknown = -2;
  std::vector<int> slots;
  for (int s : seeds) slots.push_back(s <= engines ? s - 1 : -1);
  for (int r = 1; slots.size() >= 2; ++r) {
    std::vector<KnockoutMatch>& matches = out.rounds.emplace_back();
    std::vector<int> winners;
    for (std::size_t i = 0; i + 1 < slots.size(); i += 2) {
      KnockoutMatch& m = matches.emplace_back();
      m.round = r;
      m.index = static_cast<int>(i / 2);
      const int a = slots[i];
      const int b = slots[i + 1];
      if (a != kUnknown && b != kUnknown) {
        // Two byes never meet: the byes are the last seeds, and each meets one of the first.
        assert(a >= 0 || b >= 0);
        m.high = a < 0 ? b : b < 0 ? a : std::min(a, b);
        m.low = a < 0 || b < 0 ? -1 : std::max(a, b);
        if (m.low < 0) {
          m.winner = m.high;
          m.decision = KnockoutDecision::Bye;
        } else {
          play_match(m, rounds, tiebreak_pairs, results);
        }
      } else {
        // One side is known: show it in the bracket while the other is decided.
        m.high = a == kUnknown ? (b == kUnknown ? -1 : b) : a;
      }
      winners.push_back(m.winner >= 0 ? m.winner : kUnknown);
    }
    slots = std::move(winners);
  }
  out.champion = slots.empty() || slots[0] == kUnknown ? -1 : slots[0];
  return out;
}

}  // namespace kalah::arena
