// Ranking by a contest's rules (docs/RANKING.md): points per game under a declared points rule, then the
// declared tie-breaks in order, with the values that decided each tie. Pure: no I/O. The Elo of the rating
// fit stays beside it as information (StandingsBuilder fills it in).
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "referee/record/record.h"
#include "referee/rules/expected.h"

namespace kalah::rating {

enum class RankBy { Elo, Points };
const char* to_string(RankBy by);  // "elo", "points"

enum class TieBreak { HeadToHead, SonnebornBerger, Buchholz, Wins, SeedDifference };
inline constexpr std::array<TieBreak, 5> kTieBreaks = {TieBreak::HeadToHead, TieBreak::SonnebornBerger,
                                                       TieBreak::Buchholz, TieBreak::Wins, TieBreak::SeedDifference};
// "head-to-head", "sonneborn-berger", "buchholz", "wins", "seed-difference"
const char* to_string(TieBreak t);
std::optional<TieBreak> parse_tiebreak(std::string_view name);
// "head-to-head, sonneborn-berger, buchholz, wins, seed-difference": for messages.
std::string tiebreak_names();

// What a game is worth to each side.
struct PointsRule {
  double win = 1, draw = 0.5, loss = 0;
  friend bool operator==(const PointsRule&, const PointsRule&) = default;
};
// An error text, or none: finite, loss <= draw <= win, loss < win, each within ±1000.
std::optional<std::string> check(const PointsRule& p);
std::string describe(const PointsRule& p);  // "win=3 draw=1 loss=0"

struct RankingRules {
  RankBy by = RankBy::Elo;
  std::vector<TieBreak> tiebreaks;  // in the order they are applied; each at most once
  PointsRule points;
  // Top k whose chance and fragility the reports give, ascending, each >= 1 (docs/RANKING.md); with any `by`.
  std::vector<int> cuts;
  friend bool operator==(const RankingRules&, const RankingRules&) = default;
};

// A contest entrant's status (recorded in tournament.json: arena/config/description.h).
enum class EntryStatus { Active, Withdrawn, Disqualified };
const char* to_string(EntryStatus s);  // "active", "withdrawn", "disqualified"
struct Entry {
  EntryStatus status = EntryStatus::Active;
  std::string reason;
  bool games_void = false;  // every game of this engine counts for nothing
};
using Entries = std::map<std::string, Entry>;  // by engine name; an engine not in it is active, its games kept

struct RankingSetup {
  RankingRules rules;
  Entries entries;
};

struct RankingRow {
  std::string name;
  int rank = 0;         // 1 = best; 0 for a withdrawn or disqualified entrant, which is not ranked
  bool shared = false;  // another row has the same rank
  double points = 0;
  int games = 0, wins = 0, draws = 0, losses = 0;  // counted games only (voided ones left out)
  // One per RankingRules::tiebreaks, in that order. Head-to-head depends on the group it is applied to,
  // so it is none unless it was applied to a tie this engine was in.
  std::vector<std::optional<double>> tiebreaks;
  double elo = 0, ci95 = 0;  // from the rating fit, as information
  EntryStatus status = EntryStatus::Active;
  std::string reason;

  std::string rank_text() const;  // "3", "3=" (shared), "-" (not ranked)
};

// One tie among active engines on equal points and how it was settled.
struct TieStep {
  double points = 0;
  std::vector<std::string> engines;                // in the order the tie-break put them
  std::vector<std::pair<TieBreak, double>> level;  // earlier tie-breaks on which all of them had this value
  std::vector<TieBreak> skipped;                   // head-to-head, when not all of them played each other
  std::optional<TieBreak> decided_by;              // none: nothing split them, they share a rank
  std::vector<double> values;                      // decided_by's value for each of `engines`
  int shared_rank = 0;                             // when not decided

  // "alpha and beta tied on 4.5 points: sonneborn-berger 10.25 vs 9.75"
  std::string describe() const;
};

struct Ranking {
  RankingRules rules;
  std::vector<RankingRow> rows;  // active engines in rank order, then the withdrawn and disqualified ones
  std::vector<TieStep> ties;     // in the order of the rows they settle
  int voided = 0;                // games left out because an entrant's games are void
};

// Sums games one at a time (memory grows with the number of engines only), like StandingsBuilder.
class RankingTally {
 public:
  RankingTally(RankingRules rules, Entries entries);

  // A game without a result, against itself or with an empty name is ignored; one of an engine whose
  // games are void is counted in Ranking::voided only.
  void add(const GameRecord& game);
  // The points of this engine so far under the rules (0 without a counted game).
  double points(const std::string& name) const;
  // Engines are `names` (in that order) plus any other met in the games. Elo is left at 0.
  Ranking ranking(const std::vector<std::string>& names) const;

 private:
  struct Counts {
    int wins = 0, draws = 0, losses = 0;
  };
  struct Engine {
    Counts counts;
    long long seed_difference = 0;
  };
  int index_of(const std::string& name);

  RankingRules rules_;
  Entries entries_;
  std::vector<std::string> names_;
  std::unordered_map<std::string, int> index_;
  std::vector<Engine> engines_;
  std::vector<std::vector<Counts>> pairs_;  // [engine][opponent], from the engine's view
  int voided_ = 0;
};

}  // namespace kalah::rating
