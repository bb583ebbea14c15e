// The secret that a tournament's game seeds are derived with (docs/PROTOCOL.md, "Seeds"). A seed sent with
// `newgame` must not tell an engine which game it is in: derived from public facts alone (the tournament's
// seed and the game's id, which names the engines), an engine could work out its opponent, or that it plays
// the contest's gate, from the number. Keyed with 256 random bits that no engine sees, the seeds of any two
// games look alike; anyone holding the secret (the results folder, its archive) recomputes them exactly.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "referee/rules/expected.h"

namespace kalah {

class SeedSecret {
 public:
  static constexpr std::size_t kBytes = 32;

  // 256 bits from the operating system's random source (getrandom).
  static SeedSecret random();
  // From the 64 lowercase hex digits hex() writes; anything else is an error naming what is wrong.
  static Expected<SeedSecret> from_hex(std::string_view text);

  std::string hex() const;

  // A number 0..2^31-1 for `label` (a game id, ...): HMAC-SHA-256 of the label under the secret, its first
  // four bytes big-endian, the top bit cleared. Without the secret the numbers of two labels are unrelated.
  std::uint32_t seed_for(std::string_view label) const;
  // The same with 64 bits (the top bit cleared too, so it fits a TOML integer).
  std::uint64_t number_for(std::string_view label) const;

  bool operator==(const SeedSecret&) const = default;

 private:
  std::array<unsigned char, kBytes> key_{};
};

}  // namespace kalah
