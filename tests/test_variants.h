// Every combination of the rule keys, for tests that sweep all variants.
#pragma once

#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "referee/rules/position.h"
#include "referee/rules/variant.h"

namespace kalah::test {

// The 32 combinations of capture, ending, remainder, majority and pie for one board size.
inline std::vector<Variant> rule_combinations(int pits, int seeds) {
  std::vector<Variant> all;
  for (int bits = 0; bits < 32; ++bits) {
    Variant v;
    v.pits = pits;
    v.seeds = seeds;
    v.capture = bits & 1 ? Capture::Empty : Capture::Standard;
    v.ending = bits & 2 ? Ending::NoMove : Ending::SideEmpty;
    v.remainder = bits & 4 ? Remainder::None : Remainder::Owner;
    v.majority = (bits & 8) != 0;
    v.pie = (bits & 16) != 0;
    all.push_back(v);
  }
  return all;
}

// A variant or position written in a test; a typo fails the test where it is used.
inline Variant V(std::string_view text) {
  Expected<Variant> v = parse_variant(text);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error());
  return v.ok() ? *v : Variant{};
}

inline Position P(const Variant& v, std::string_view notation) {
  Expected<Position> p = parse_notation(v, notation);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error());
  return p.ok() ? *p : Position{};
}

}  // namespace kalah::test
