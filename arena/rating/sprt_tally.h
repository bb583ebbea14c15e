// The state of an SPRT over the games it has counted: pairs of games between a base and a test engine
// ("sprt-p12-g0", "sprt-p12-g1", arena/schedule's SprtPairs), scored from the test engine's view.
//
// Only a pair whose two games have both finished counts for the test (pentanomial): with several workers,
// pairs finish out of order, and a half-finished pair says nothing about the opening's colour bias. The
// trinomial counts every finished game. Pure: the SPRT's game source (arena/runner/sprt_source.h) counts its
// games here while it plays, and the reports (arena/report/report_service.h) count a finished folder's journals.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "referee/record/record.h"
#include "referee/stats/sprt.h"
#include "referee/stats/stats.h"

namespace kalah::rating {

// Everything the SPRT knows at one moment (for printing, sprt.json and the reports).
struct SprtStatus {
  stats::Pentanomial pentanomial;  // finished pairs, test engine's view: [LL, LD, WL+DD, WD, WW]
  stats::Trinomial trinomial;      // every finished game (also of unfinished pairs), test engine's view
  stats::Summary summary;          // of the pentanomial
  stats::SprtState sprt;           // of the pentanomial
  int pairs = 0;                   // finished pairs
  int games = 0;                   // finished games
};

class SprtTally {
 public:
  // The test's parameters and the two engines' names (the base plays South in game 0 of each pair).
  SprtTally(const stats::SprtParams& params, std::string base, std::string test);

  // A finished game, scored from its engine names; a game whose id is not an SPRT game's, or one counted
  // before, is ignored (returns false).
  bool add(const GameRecord& record);
  // A finished game of `pair` (game 0 or 1) by its test score (0, 1/2, 1); each game once (asserted).
  void add_result(int pair, int game, double test_score);

  const SprtStatus& status() const { return status_; }
  const stats::SprtParams& params() const { return params_; }
  const std::string& base() const { return base_; }
  const std::string& test() const { return test_; }
  // The LLR after each finished pair, in the order the pairs finished.
  const std::vector<double>& llr_by_pair() const { return llr_by_pair_; }

  // The test engine's score (0, 1/2, 1) in a finished game, from the record's engine names.
  double test_score(const GameRecord& record) const;
  // The pair and game of an SPRT game id ("sprt-p12-g1"), or nullopt for any other id.
  static std::optional<std::pair<int, int>> parse_id(const std::string& id);

 private:
  stats::SprtParams params_;
  std::string base_, test_;
  SprtStatus status_;
  std::map<int, std::array<std::optional<double>, 2>> open_pairs_;  // pairs with one game finished
  std::unordered_set<std::string> counted_;                         // ids counted by add()
  std::vector<double> llr_by_pair_;
};

}  // namespace kalah::rating
