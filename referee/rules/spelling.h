// "Did you mean": the known word a mistyped one was most likely meant to be, for every message that
// refuses an unknown name: an engine option (the protocol codec), a flag, a command or a config key (the
// arena's and the referee's alike). Pure string work, so the lowest layer holds it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kalah {

// The number of single-character insertions, deletions, substitutions and swaps of two neighbours that
// turn `a` into `b` (optimal string alignment distance), ignoring ASCII case.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `word` when it is near enough to be a typo of it (one edit for a word of up
// to 5 characters, two up to 8, three beyond); of equally near ones, the one sharing the longest beginning
// with `word`; none when nothing is near or two candidates tie even so.
std::optional<std::string> nearest_word(std::string_view word, const std::vector<std::string>& candidates);

// "; did you mean '--fresh'?" for the nearest candidate, or "" when none is near.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace kalah
