// [analysis] (docs/ANALYSIS.md): the perfect-play analysis at the end of a run.
#include "arena/config/readers.h"

namespace kalah::arena::detail {

// [analysis]: a perfect-play analysis of every game when the run ends (docs/ANALYSIS.md).
void read_analysis(const Reader& r, const toml::table& table, Config& c) {
  Table t(r.loc(), table, "analysis", "[analysis]", {"budget_ms", "threads", "db_only", "db_mb", "hash_mb"});
  AnalysisConfig a;
  if (auto v = t.integer("budget_ms", 1, 3'600'000)) a.budget_ms = static_cast<int>(*v);
  if (auto v = t.integer("threads", 1, 1024)) a.threads = static_cast<int>(*v);
  if (auto v = t.on_off("db_only")) a.db_only = *v;
  if (auto v = t.integer("db_mb", 0, 1 << 20)) a.db_mb = static_cast<int>(*v);
  if (auto v = t.integer("hash_mb", 1, 1 << 20)) a.hash_mb = static_cast<int>(*v);
  c.analysis = a;
}

}  // namespace kalah::arena::detail
