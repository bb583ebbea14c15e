// The rule variant: every rule key of docs/RULES.md, always explicit.
#pragma once

#include <string>
#include <string_view>

#include "referee/rules/expected.h"

namespace kalah {

enum class Capture : unsigned char { Standard, Empty };
enum class Ending : unsigned char { SideEmpty, NoMove };
enum class Remainder : unsigned char { Owner, None };

struct Variant {
  static constexpr int kMaxPits = 16;
  static constexpr int kMaxSeeds = 16;

  int pits = 6;
  int seeds = 4;  // per pit at the start
  Capture capture = Capture::Standard;
  Ending ending = Ending::SideEmpty;
  Remainder remainder = Remainder::Owner;
  bool majority = false;
  bool pie = false;

  int total_seeds() const { return 2 * pits * seeds; }
  // Cells on the board: both rows of pits and both stores.
  int cells() const { return 2 * pits + 2; }
  int south_store() const { return pits; }
  int north_store() const { return 2 * pits + 1; }

  friend bool operator==(const Variant&, const Variant&) = default;
};

// All keys, in protocol order: "pits=6 seeds=4 capture=standard ending=side-empty
// remainder=owner majority=off pie=off". This is the text sent to engines.
std::string to_string(const Variant& v);

// Parses whitespace-separated key=value tokens; missing keys keep the standard
// value, unknown keys, repeated keys and out-of-range values are errors.
Expected<Variant> parse_variant(std::string_view text);

}  // namespace kalah
