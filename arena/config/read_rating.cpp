// [rating] (docs/RATING.md, "Anchors"): the engine the reports' rating list is anchored on.
#include "arena/config/readers.h"

#include <cmath>

namespace kalah::arena::detail {

// [rating]: the reports' rating list can be anchored on one engine (read after the engines).
void read_rating(const Reader& r, const toml::table& table, Config& c) {
  Table t(r.loc(), table, "rating", "[rating]", {"anchor", "anchor_elo"});
  auto anchor = t.string("anchor");
  auto elo = t.number("anchor_elo");
  if (!anchor && elo) t.fail_at("anchor_elo", "rating.anchor_elo needs rating.anchor (the engine held at that Elo)");
  if (!anchor) return;
  if (c.engine_index(*anchor) < 0) {
    std::string names;
    for (const EngineSpec& e : c.engines) names += (names.empty() ? "" : ", ") + e.name;
    t.fail_at("anchor",
              "rating.anchor " + in_quotes(*anchor) + " is not an engine of this tournament (they are: " + names + ")");
  }
  if (elo && (!std::isfinite(*elo) || std::abs(*elo) > 100'000))
    t.fail_at("anchor_elo",
              "rating.anchor_elo must be a finite number within ±100000, not " + detail::format_number(*elo));
  c.rating.anchor = *anchor;
  c.rating.anchor_elo = elo.value_or(0);
}

}  // namespace kalah::arena::detail
