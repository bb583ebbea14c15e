#include "referee/record/record.h"

#include <array>
#include <string>
#include <string_view>

namespace kalah {
namespace {

// Index = the enum's value; the words are the journal's `termination` values.
constexpr std::array<const char*, kTerminations> kTerminationNames = {
    "normal",   "majority", "adjudicated", "time",   "crash",  "illegal",
    "protocol", "startup",  "file-size",   "output", "memory",
};

constexpr std::array<const char*, 5> kAdjudicationNames = {"max-plies", "store-majority", "database", "resign", "draw"};

}  // namespace

const char* to_string(AdjudicationReason r) { return kAdjudicationNames[static_cast<std::size_t>(r)]; }

std::optional<AdjudicationReason> parse_adjudication_reason(std::string_view text) {
  for (std::size_t i = 0; i < kAdjudicationNames.size(); ++i)
    if (text == kAdjudicationNames[i]) return static_cast<AdjudicationReason>(i);
  return std::nullopt;
}

std::string describe(const Adjudication& a) {
  std::string text = to_string(a.reason);
  switch (a.reason) {
    case AdjudicationReason::MaxPlies: return text + ": the ply limit, each side's seeds counted for its owner";
    case AdjudicationReason::StoreMajority: return text + ": a store holds more than half of all seeds";
    case AdjudicationReason::Database:
      if (!a.margin) return text;
      if (*a.margin == 0) return text + ": with perfect play the stores end level";
      return text + ": with perfect play " + (*a.margin > 0 ? "South" : "North") + " ends " +
             std::to_string(*a.margin > 0 ? *a.margin : -*a.margin) + " seeds ahead";
    case AdjudicationReason::Resign: return text + ": the loser's own scores said it was lost";
    case AdjudicationReason::Draw: return text + ": both engines' scores said it was level";
  }
  return text;
}

const char* to_string(Termination t) { return kTerminationNames[static_cast<std::size_t>(t)]; }

std::optional<Termination> parse_termination(std::string_view text) {
  for (std::size_t i = 0; i < kTerminationNames.size(); ++i)
    if (text == kTerminationNames[i]) return static_cast<Termination>(i);
  return std::nullopt;
}

}  // namespace kalah
