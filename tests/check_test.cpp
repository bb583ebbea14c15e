// The position set of `referee check` (referee/check/conformance.h): every kind of position is what its
// label says, in every variant the checks use, and the set is the same for the same seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "referee/check/conformance.h"
#include "referee/rules/position.h"

namespace kalah::check {
namespace {

struct Played {
  Position before;  // before the last move
  Position now;
};

Played play(const Variant& v, const std::vector<Move>& moves) {
  Played p{start_position(v), start_position(v)};
  for (Move m : moves) {
    EXPECT_TRUE(is_legal(v, p.now, m)) << to_string(m);
    p.before = p.now;
    apply(v, p.now, m);
  }
  return p;
}

std::vector<Variant> every_variant() {
  std::vector<Variant> all = check_variants(Protocol::Kep);
  const std::vector<Variant> mankalah = check_variants(Protocol::Mankalah);
  all.insert(all.end(), mankalah.begin(), mankalah.end());
  return all;
}

TEST(CheckProbes, EachPositionIsOfItsKindAndTheGameGoesOn) {
  for (const Variant& v : every_variant()) {
    const std::vector<Probe> set = probes(v, 1);
    std::vector<std::string> labels;
    for (const Probe& probe : set) {
      labels.push_back(probe.label);
      const Played p = play(v, probe.moves);
      ASSERT_FALSE(p.now.over) << short_name(v) << " " << probe.label;
      const int legal = legal_move_count(v, p.now);
      // Each kind's property; true for the kinds without one.
      const bool holds = probe.label == "start"            ? probe.moves.empty()
                         : probe.label == "ordinary"       ? legal >= 3
                         : probe.label == "extra-turn"     ? player_to_move(p.now) == player_to_move(p.before)
                         : probe.label == "pie-offer"      ? is_legal(v, p.now, Move::swap())
                         : probe.label == "after-swap"     ? probe.moves.back().is_swap()
                         : probe.label == "one-legal-move" ? legal == 1
                         : probe.label == "endgame"
                             ? seeds_on_side(v, p.now, Side::South) + seeds_on_side(v, p.now, Side::North) <= v.pits
                             : false;
      EXPECT_TRUE(holds) << short_name(v) << " " << probe.label;
    }
    // Every kind turns up; the pie kinds only with pie=on.
    std::vector<std::string> expected = {"start", "ordinary", "extra-turn", "one-legal-move", "endgame"};
    if (v.pie) expected.insert(expected.begin() + 3, {"pie-offer", "after-swap"});
    EXPECT_EQ(labels, expected) << short_name(v);
  }
}

TEST(CheckProbes, TheSameSeedGivesTheSameSet) {
  const Variant v = check_variants(Protocol::Kep)[1];
  const std::vector<Probe> a = probes(v, 7), b = probes(v, 7);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].label, b[i].label);
    EXPECT_EQ(a[i].moves, b[i].moves) << a[i].label;
  }
}

}  // namespace
}  // namespace kalah::check
