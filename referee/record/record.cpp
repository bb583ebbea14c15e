#include "referee/record/record.h"

#include <array>
#include <string_view>

namespace kalah {
namespace {

// Index = the enum's value; the words are the journal's `termination` values.
constexpr std::array<const char*, kTerminations> kTerminationNames = {
    "normal", "majority", "adjudicated", "time", "crash", "illegal", "protocol", "startup", "file-size", "output",
};

}  // namespace

const char* to_string(Termination t) { return kTerminationNames[static_cast<std::size_t>(t)]; }

std::optional<Termination> parse_termination(std::string_view text) {
  for (std::size_t i = 0; i < kTerminationNames.size(); ++i)
    if (text == kTerminationNames[i]) return static_cast<Termination>(i);
  return std::nullopt;
}

}  // namespace kalah
