// The registry of tournament kinds: one row each (kinds.h). A new kind is one row here and a folder of its own
// under arena/formats/ (docs/ARCHITECTURE.md, "How to add a format").
#include "arena/config/kinds.h"

#include <array>
#include <cassert>

namespace kalah::arena {
namespace {

constexpr std::string_view kOwnRules = " tournament ranks by its own rules (docs/SCHEDULE.md, docs/RANKING.md)";

const std::array<TournamentKind, 5> kKinds{{
    {.type = TournamentType::RoundRobin,
     .name = "round-robin",
     .article = "a",
     .noun = "a tournament",
     .every_pair = true,
     .from_results = false,
     .round_waits = false,
     .form = KindForm::None,
     .rounds = RoundsCount::PairsPerPairing,
     .seed_engines = false,
     .tiebreak_pairs = false,
     .budget = false,
     .contest = true,
     .no_points = "",
     .repeats = ""},
    {.type = TournamentType::Gauntlet,
     .name = "gauntlet",
     .article = "a",
     .noun = "a tournament",
     .every_pair = false,
     .from_results = false,
     .round_waits = false,
     .form = KindForm::None,
     .rounds = RoundsCount::PairsPerPairing,
     .seed_engines = true,
     .tiebreak_pairs = false,
     .budget = false,
     .contest = false,
     .no_points = "",
     .repeats = ""},
    {.type = TournamentType::Swiss,
     .name = "swiss",
     .article = "a",
     .noun = "a Swiss tournament",
     .every_pair = false,
     .from_results = true,
     .round_waits = true,
     .form = KindForm::SwissTable,
     .rounds = RoundsCount::SwissRounds,
     .seed_engines = false,
     .tiebreak_pairs = false,
     .budget = false,
     .contest = false,
     .no_points = kOwnRules,
     .repeats = ""},
    {.type = TournamentType::Knockout,
     .name = "knockout",
     .article = "a",
     .noun = "a knockout",
     .every_pair = false,
     .from_results = true,
     .round_waits = false,
     .form = KindForm::Bracket,
     .rounds = RoundsCount::PairsPerMatch,
     .seed_engines = false,
     .tiebreak_pairs = true,
     .budget = false,
     .contest = false,
     .no_points = kOwnRules,
     .repeats = ""},
    {.type = TournamentType::Adaptive,
     .name = "adaptive",
     .article = "an",
     .noun = "a tournament",
     .every_pair = false,
     .from_results = true,
     .round_waits = true,
     .form = KindForm::None,
     .rounds = RoundsCount::NotRead,
     .seed_engines = false,
     .tiebreak_pairs = false,
     .budget = true,
     .contest = false,
     .no_points = " tournament pairs engines of unlike strength unequally often, so points are not comparable: it "
                  "ranks by Elo (docs/RANKING.md)",
     .repeats = "an adaptive tournament pairs the engines whose order is open again and again"},
}};

}  // namespace

std::span<const TournamentKind> tournament_kinds() { return kKinds; }

const TournamentKind& kind_of(TournamentType t) {
  const TournamentKind& k = kKinds.at(static_cast<std::size_t>(t));
  assert(k.type == t);
  return k;
}

const TournamentKind* kind_named(std::string_view name) {
  for (const TournamentKind& k : kKinds)
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace kalah::arena
