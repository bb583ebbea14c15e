#include "bots/solver/oracle.h"

namespace kalah::solver {

DatabaseOracle::DatabaseOracle(const Variant& v, std::shared_ptr<const Database> db) : variant_(v) {
  if (db && db->key() == DbKey::of(v) && !v.majority) db_ = std::move(db);
  refresh();
}

std::optional<int> DatabaseOracle::final_margin(const Position& p) const {
  if (!db_) return std::nullopt;
  return endgame::final_margin(*db_, levels_, variant_, p);
}

}  // namespace kalah::solver
