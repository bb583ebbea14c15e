// [variant] (docs/CONFIG.md): the rules every game is played by, and where games start.
#include "arena/config/readers.h"

#include <algorithm>

namespace kalah::arena::detail {

void read_variant(const Reader& r, const toml::table& table, Config& c) {
  Table t(r.loc(), table, "variant", "[variant]",
          {"pits", "seeds", "capture", "ending", "remainder", "majority", "pie", "start"});
  Variant& v = c.variant;
  v.pits = static_cast<int>(t.integer("pits", 1, Variant::kMaxPits).value_or(v.pits));
  v.seeds = static_cast<int>(t.integer("seeds", 1, Variant::kMaxSeeds).value_or(v.seeds));
  v.capture =
      t.choice<Capture>("capture", {{"standard", Capture::Standard}, {"empty", Capture::Empty}}).value_or(v.capture);
  v.ending =
      t.choice<Ending>("ending", {{"side-empty", Ending::SideEmpty}, {"no-move", Ending::NoMove}}).value_or(v.ending);
  v.remainder =
      t.choice<Remainder>("remainder", {{"owner", Remainder::Owner}, {"none", Remainder::None}}).value_or(v.remainder);
  v.majority = t.on_off("majority").value_or(v.majority);
  v.pie = t.on_off("pie").value_or(v.pie);
  if (std::optional<std::string> text = t.string("start")) {
    Expected<Position> start = parse_start(v, *text);
    if (!start) t.fail_at("start", "variant.start: " + start.error());
    // Without `seeds`, the standard board that holds as many seeds: what engines are told in `newgame`.
    if (!t.has("seeds")) v.seeds = std::min(Variant::kMaxSeeds, seeds_to_hold(Variant{v.pits, 1}, *start));
    // The standard start written out is no start position: engines are sent `startpos` as always.
    if (!(*start == start_position(v))) c.start = *start;
  }
}

}  // namespace kalah::arena::detail
