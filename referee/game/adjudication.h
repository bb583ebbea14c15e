// When the referee may end a game before the rules do (docs/CONFIG.md, `adjudicate`): a store
// holding more than half of all seeds, the endgame database, and cutechess-style draw and resign
// rules on the scores the engines report. All off unless configured.
#pragma once

#include <array>
#include <memory>
#include <optional>

#include "referee/endgame/database.h"
#include "referee/record/record.h"
#include "referee/rules/position.h"

namespace kalah {

// The plies after which a game still running is adjudicated by material: the default of a config's
// tournament.max_plies, of `referee match --max-plies` and of a game's settings, written here only.
inline constexpr int kDefaultMaxPlies = 1000;

// A draw once the game has `move_number` plies or more and each engine has reported a score
// within [-score, score] on each of its last `move_count` moves.
struct DrawRule {
  int move_number = 0;
  int move_count = 1;
  int score = 0;
  friend bool operator==(const DrawRule&, const DrawRule&) = default;
};

// An engine loses once it has reported a score <= -score on each of its last `move_count`
// moves; with `two_sided`, only if its opponent has reported >= score on each of its own last
// `move_count` moves as well.
struct ResignRule {
  int move_count = 1;
  int score = 0;
  bool two_sided = false;
  friend bool operator==(const ResignRule&, const ResignRule&) = default;
};

struct AdjudicationRules {
  bool store_majority = false;  // ignored under the majority rule, which ends such games itself
  int database_seeds = -1;      // >= 0: look positions with at most this many seeds in the pits up
  // The database to look them up in: of the game's variant (DbKey), with ready() >= database_seeds.
  std::shared_ptr<const endgame::Database> database;
  std::optional<DrawRule> draw;
  std::optional<ResignRule> resign;
};

// An adjudicator's ruling: how the game ends, from the view of the player who started as South
// (Seat::First). ("Verdict" is what a check concludes: referee check's PASS/FAIL/SKIP, arena verify's.)
struct Ruling {
  Outcome result = Outcome::Draw;
  Adjudication adjudication;
};

// The position-based rules, before the player to move is asked: a ruling, or nullopt to play on.
std::optional<Ruling> adjudicate_position(const AdjudicationRules& rules, const Variant& v, const Position& p);

// The score rules: fed each engine move's reported score in order, it keeps the counters.
class ScoreWatch {
 public:
  explicit ScoreWatch(const AdjudicationRules& rules) : draw_(rules.draw), resign_(rules.resign) {}

  // After `seat` moved with `score` (nullopt: none reported, which resets that engine's counters
  // and the draw run); `plies` is the number of plies played so far, opening included.
  std::optional<Ruling> after_move(Seat seat, std::optional<int> score, int plies);

 private:
  std::optional<DrawRule> draw_;
  std::optional<ResignRule> resign_;
  // Per seat: consecutive own moves with |score| <= draw score, <= -resign score, >= resign score.
  std::array<int, 2> level_{};
  std::array<int, 2> losing_{};
  std::array<int, 2> winning_{};
};

}  // namespace kalah
