// The rules of a staged tournament (docs/CONFIG.md, "Staged"), pure: a stage's tally of wins, draws and losses from
// its games, who leaves after it (more losses than wins), and the final order over every stage played.
#pragma once

#include <string>
#include <vector>

#include "referee/record/record.h"

namespace kalah::staged {

struct EngineTally {
  std::string name;
  int wins = 0, draws = 0, losses = 0;

  int games() const { return wins + draws + losses; }
  int half_points() const { return 2 * wins + draws; }  // a win 2, a draw 1: points without fractions
  // The drop rule: more losses than wins in the stage. A draw counts for neither; a forfeit is a loss.
  bool drops() const { return losses > wins; }
  friend bool operator==(const EngineTally&, const EngineTally&) = default;
};

// One tally per engine of `engines`, in that order, from `games` (each between two of them; a game naming another
// engine is not counted).
std::vector<EngineTally> tally_stage(const std::vector<std::string>& engines, const std::vector<GameRecord>& games);

// Those of `tallies` who leave, in tally order. Never all of them: every decisive game gives one engine a win and
// one a loss, so the wins and the losses of a stage are equally many, and not every engine can have more losses.
std::vector<std::string> dropped(const std::vector<EngineTally>& tallies);

// What the final order reads of one stage: its tallies (every engine that played it).
struct StageTallies {
  std::vector<EngineTally> tallies;
};

struct Placing {
  int place = 0;  // 1-based; engines that compare equal share one
  std::string name;
  int stage = 0;        // the last stage it played, 1-based
  int half_points = 0;  // in that stage
  friend bool operator==(const Placing&, const Placing&) = default;
};

// The final order of the engines of stage 1 over the stages played (in order, each complete): the later the last
// stage an engine played, the better; then its points in that stage, then in the stage before, and so on back to
// stage 1; engines equal in all of it share a place and are listed in their stage-1 order.
std::vector<Placing> final_order(const std::vector<StageTallies>& stages);

}  // namespace kalah::staged
