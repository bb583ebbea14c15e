// Splitting text into words, the way every line format of the project does: at runs of spaces and
// tabs. Used by the variant keys, the protocol codec and the command-line options.
#pragma once

#include <string_view>
#include <vector>

namespace kalah {

// The words of `text`, views into it; none empty.
std::vector<std::string_view> split_words(std::string_view text);

}  // namespace kalah
