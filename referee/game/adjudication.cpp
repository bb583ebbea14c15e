#include "referee/game/adjudication.h"

#include <algorithm>
#include <cstdlib>

namespace kalah {
namespace {

// The result when the player on board side `winner` has won (nullopt: a draw).
Outcome side_wins(const Position& p, std::optional<Side> winner) {
  if (!winner) return Outcome::Draw;
  return (*winner == Side::South) != p.swapped ? Outcome::FirstWins : Outcome::SecondWins;
}

Outcome seat_loses(Seat loser) { return loser == Seat::First ? Outcome::SecondWins : Outcome::FirstWins; }

}  // namespace

std::optional<Ruling> adjudicate_position(const AdjudicationRules& rules, const Variant& v, const Position& p) {
  // A pending pie decision can still hand either side to either player.
  if (p.over || p.pie != Pie::None) return std::nullopt;
  if (rules.database && rules.database_seeds >= 0) {
    const int levels = std::min(rules.database_seeds, rules.database->ready());
    if (const std::optional<int> mover = endgame::final_margin(*rules.database, levels, v, p)) {
      const int south = p.to_move == Side::South ? *mover : -*mover;
      const std::optional<Side> winner =
          south == 0 ? std::nullopt : std::optional<Side>(south > 0 ? Side::South : Side::North);
      return Ruling{side_wins(p, winner), {AdjudicationReason::Database, south}};
    }
  }
  if (rules.store_majority && !v.majority) {
    // Every seed in the position, not the variant's count: a custom start may hold any number.
    int total = 0;
    for (int c = 0; c < v.cells(); ++c) total += p.cells[static_cast<std::size_t>(c)];
    for (Side s : {Side::South, Side::North})
      if (2 * store(v, p, s) > total) return Ruling{side_wins(p, s), {AdjudicationReason::StoreMajority, {}}};
  }
  return std::nullopt;
}

std::optional<Ruling> ScoreWatch::after_move(Seat seat, std::optional<int> score, int plies) {
  const int me = static_cast<int>(seat);
  if (draw_) {
    if (score && std::abs(*score) <= draw_->score)
      ++level_[me];
    else
      level_ = {0, 0};  // the level run is broken for both
    if (plies >= draw_->move_number && level_[0] >= draw_->move_count && level_[1] >= draw_->move_count)
      return Ruling{Outcome::Draw, {AdjudicationReason::Draw, {}}};
  }
  if (resign_) {
    losing_[me] = score && *score <= -resign_->score ? losing_[me] + 1 : 0;
    winning_[me] = score && *score >= resign_->score ? winning_[me] + 1 : 0;
    // With two_sided the opponent's agreement may be the move that completes it: check both seats.
    for (int who : {me, 1 - me}) {
      const bool agreed = !resign_->two_sided || winning_[1 - who] >= resign_->move_count;
      if (losing_[who] >= resign_->move_count && agreed)
        return Ruling{seat_loses(static_cast<Seat>(who)), {AdjudicationReason::Resign, {}}};
    }
  }
  return std::nullopt;
}

}  // namespace kalah
