#include "bots/solver/oracle.h"

namespace kalah::solver {

DatabaseOracle::DatabaseOracle(const Variant& v, std::shared_ptr<const Database> db) : variant_(v) {
  if (db && db->key() == DbKey::of(v) && !v.majority) db_ = std::move(db);
  refresh();
}

std::optional<int> DatabaseOracle::final_margin(const Position& p) const {
  if (levels_ < 0 || p.pie != Pie::None) return std::nullopt;
  const int m = variant_.pits;
  const int own = p.to_move == Side::South ? 0 : m + 1;
  const int other = p.to_move == Side::South ? m + 1 : 0;
  // The database's order: the mover's pits, then the opponent's.
  std::uint8_t pits[2 * Variant::kMaxPits];
  int seeds = 0;
  for (int i = 0; i < m; ++i) {
    pits[i] = static_cast<std::uint8_t>(p.cells[own + i]);
    pits[m + i] = static_cast<std::uint8_t>(p.cells[other + i]);
    seeds += p.cells[own + i] + p.cells[other + i];
    if (seeds > levels_) return std::nullopt;
  }
  const int now = store(variant_, p, p.to_move) - store(variant_, p, opponent(p.to_move));
  return now + db_->value(db_->index().rank(pits));
}

}  // namespace kalah::solver
