// The endgame database as an oracle for kalah-alphabeta's search, which is
// the solver engine's play when the exact search cannot finish in time: every
// position the database covers is scored as a finished game with its exact
// margin, so the search is exact wherever all its leaves are covered.
#pragma once

#include <memory>
#include <optional>

#include "bots/alphabeta/alphabeta.h"
#include "referee/endgame/database.h"

namespace kalah::solver {

// The endgame database, its board and its index live in referee/endgame (the arena uses them too).
using namespace kalah::endgame;

class DatabaseOracle final : public alphabeta::Oracle {
 public:
  // A database of another variant, or none, knows nothing.
  DatabaseOracle(const Variant& v, std::shared_ptr<const Database> db);

  // Takes in the levels the database has finished so far (it may still be
  // building); call before each search.
  void refresh() { levels_ = db_ ? db_->ready() : -1; }
  int levels() const { return levels_; }

  std::optional<int> final_margin(const Position& p) const override;

 private:
  Variant variant_;
  std::shared_ptr<const Database> db_;
  int levels_ = -1;
};

}  // namespace kalah::solver
