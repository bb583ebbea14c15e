// The standings of a tournament, computed from the game records and the engine
// names alone (pure: no I/O): results, the Elo fit, the crosstable, time use. Every
// reporter formats this one value.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "arena/rating/rank_interval.h"
#include "arena/rating/ranking.h"
#include "referee/record/record.h"
#include "referee/stats/stats.h"

namespace kalah::rating {

struct EngineStanding {
  std::string name;
  int rank = 0;  // 1 = best; 0: not ranked (a withdrawn or disqualified entrant in an order by Elo)
  EntryStatus status = EntryStatus::Active;  // set in an order by Elo (a ranking by points has its own rows)
  bool rank_shared = false;                  // another engine has the same rank (engines out in one knockout round)
  double elo = 0;                            // Bradley–Terry MLE, mean 0 over all engines
  double ci95 = 0;                           // +- half-width of the 95% interval
  int games = 0;
  double points = 0;      // a win 1, a draw 1/2, plus bye_points
  double bye_points = 0;  // a Swiss tournament's byes (docs/SCHEDULE.md): points without a game
  double score_pct = 0;   // 100 * the points of the games (byes left out) / games; 0 without games
  int wins = 0, draws = 0, losses = 0;
  int forfeits = 0;                                              // games lost by forfeit (also counted in losses)
  std::array<int, kForfeitReasons.size()> forfeits_by_reason{};  // in the order of kalah::kForfeitReasons
  std::optional<double> worst_overrun_ms;  // the largest overrun of its time forfeits, where the records have one
  std::optional<double> los_next;          // P(stronger than the next engine in the ranking); none for the last
  // Elo above the next engine in the ranking and the 95% half-width of that
  // difference (from the fit's covariance); none for the last.
  std::optional<double> diff_next;
  std::optional<double> diff_next_ci95;
  // How sure its place is (docs/RANKING.md, "Rank intervals"), when the standings were asked for it
  // (Intervals::With): its 95% rank interval in the order the report ranks by (0 0: outside that order), its
  // tie group (0: outside) and, per declared cut k, the share of resampled tournaments with it in the top k.
  int rank_low = 0, rank_high = 0, tie_group = 0;
  std::vector<double> top_share;
  // Thinking time as the referee measured it, over the moves the engine chose
  // (openings excluded), from the records' move times.
  int moves_timed = 0;
  double mean_move_ms = 0;  // 0 without moves
  double max_move_ms = 0;
  // On the CPU clock (`[time] clock = "cpu"`) the time above is the CPU time charged, and the records also hold
  // each move's wall time (MoveInfo::wall_ms): the wall time of the same moves, over those that have one.
  int moves_wall_timed = 0;
  double mean_wall_ms = 0;  // 0 without such moves
  double max_wall_ms = 0;
  // The depth the engine reported (its last info line) for its moves, where it reported one.
  int moves_with_depth = 0;
  double mean_depth = 0;  // 0 without such moves
};

// The games of the row engine against the column engine, both colours.
struct CrossCell {
  int games = 0;
  double points = 0;                    // scored by the row engine
  int wins = 0, draws = 0, losses = 0;  // of the row engine
  // Colour-swapped game pairs (the two games of one opening, docs/CONFIG.md "Schedule") by the row engine's
  // points in the pair: [0] = 0 (LL) ... [4] = 2 (WW). A pair counts once both its games are in.
  std::array<int, 5> penta{};
  int pairs() const { return penta[0] + penta[1] + penta[2] + penta[3] + penta[4]; }
};

// How the engine that started as South did. `elo` is the first-move advantage
// as fitted together with the ratings; `raw_*` come from South's score alone
// (W/D/L from South's view), which is the same thing when colours are balanced.
struct FirstMover {
  int games = 0;
  int wins = 0, draws = 0, losses = 0;  // of South
  double score_pct = 0;                 // 50 without games
  double elo = 0, ci95 = 0;
  double raw_elo = 0, raw_ci95 = 0;
  double los = 0.5;  // P(moving first is an advantage), from South's W/D/L
};

// A rating list's fixed point: this engine's Elo is held at `elo` and every other rating is relative
// to it (docs/RATING.md, "Anchors"); without one the ratings have mean 0.
struct Anchor {
  std::string engine;
  double elo = 0;
  friend bool operator==(const Anchor&, const Anchor&) = default;
};

// The order of a tournament form that ranks by its own rules (docs/SCHEDULE.md): a Swiss tournament's
// standings, a knockout's rounds reached. The schedule's replay computes it (arena/report/form_report.h,
// form_ranker); the standings follow it in every table.
struct FormPlace {
  std::string name;
  int rank = 0;  // 1 = best
  bool shared = false;
  double bye_points = 0;  // points it has without a game (a Swiss bye)
};
struct FormOrder {
  std::string by;                 // "swiss", "knockout"
  std::string rule;               // the order in words, one sentence for the reports
  std::vector<FormPlace> places;  // best first
};
// The South engine's score (1, 1/2, 0) of every game added, by game id -> the form's order.
using FormRanker = std::function<FormOrder(const std::unordered_map<std::string, double>& results)>;

struct Standings {
  std::vector<EngineStanding> engines;             // in rank order
  std::vector<std::vector<CrossCell>> crosstable;  // [row][column], both in rank order
  std::array<int, kTerminations> terminations{};   // indexed by Termination
  FirstMover first_mover;
  int games = 0;    // games counted
  int ignored = 0;  // records not counted: no result, an engine against itself, or an empty name
  int voided = 0;   // games left out because a contest entrant's games are void (docs/RANKING.md)
  // Counted games that repeat an earlier counted game move for move: the same two engines in the same
  // colours, the same variant and start, the same moves (opening included) and the same result. Four
  // identical games are three repeats. Deterministic engines without openings replay their games, and the
  // Elo interval, which takes every game as independent evidence, is then too narrow (repeated_note()).
  int repeated = 0;
  bool prior_used = false;       // no finite plain MLE, so the fit added a weak prior (docs/RATING.md)
  std::optional<Anchor> anchor;  // the anchor the fit used; none: mean 0
  // The contest's ranking (docs/RANKING.md) when it ranks by points; none: the Elo order above is the ranking.
  std::optional<Ranking> ranking;
  // A Swiss or knockout tournament's order (StandingsBuilder::set_form), which `engines` follow; its places
  // are in `engines` (rank, rank_shared, bye_points).
  std::optional<FormOrder> form;
  // With Intervals::With: how the intervals above were made (order, replicates, seed, cuts) and the fragility
  // of the first place and of each cut; its `engines` is left empty (they are in `engines` above).
  std::optional<RankUncertainty> uncertainty;
};

// Whether standings() also computes rank intervals and fragility (the reports do; a progress table or the
// Elo history need not pay for them).
enum class Intervals { Without, With };

// The standings built one game at a time, so that a journal of any length is summed in memory
// that grows with the number of engines only (counts per engine and per ordered pair, never the
// games themselves). Feed it each game once; standings() can be asked at any point.
class StandingsBuilder {
 public:
  explicit StandingsBuilder(const std::vector<std::string>& engine_names);

  void add(const GameRecord& game);
  // Fit with this engine held at a fixed Elo (ignored while no engine of that name is known).
  void set_anchor(std::optional<Anchor> anchor) { anchor_ = std::move(anchor); }
  // Also rank by these rules (from the first game on: call it before add()); by Elo: no Standings::ranking.
  // Either way, a game of an entrant whose games are void counts nowhere (Standings::voided says how many).
  void set_ranking(const RankingSetup& setup);
  // Order the standings as a Swiss or knockout tournament ranks (none: not such a tournament). The builder
  // then keeps each game's result by id (a few per engine and round) to replay the form from; call before
  // add(). A contest's ranking by points and a form exclude each other (a config error); given both, the
  // ranking is the order.
  void set_form(FormRanker ranker);
  // The cuts k whose top-k share and fragility the reports give ([ranking] cuts); the first place is always
  // given.
  void set_cuts(std::vector<int> cuts) { cuts_ = std::move(cuts); }

  // Engines are the names given (in that order) plus any other name found in the games.
  // Order (Standings::engines, the crosstable, "next"): the ranking's when it ranks by points, the form's
  // for a Swiss or knockout, engines they do not list after them; else engines with games first, by Elo,
  // then points, then name.
  Standings standings(Intervals intervals = Intervals::Without) const;

  int games() const { return counted_ + ignored_ + voided_; }  // every game added
  // Points so far of each engine, by index in names(): a win 1, a draw 1/2, or the ranking's points rule
  // (voided games left out) when ranking by points.
  const std::vector<std::string>& names() const { return names_; }
  double points(std::size_t engine) const {
    return ranking_ ? ranking_->points(names_[engine]) : engines_[engine].points;
  }

 private:
  // Games between two engines with `south` moving first.
  struct ColourCell {
    int games = 0;
    double south_points = 0;
    int south_wins = 0, draws = 0;
  };
  int index_of(const std::string& name);
  // The games by pairing, as the rank intervals take them.
  std::vector<PairingGames> pairings() const;
  // Fills the rank intervals, tie groups, top-k shares and fragility into `s` (standings_intervals.cpp);
  // `order`: builder indexes in rank order.
  void add_intervals(Standings& s, const Rating& fit, const std::vector<int>& order) const;

  std::vector<std::string> names_;
  std::unordered_map<std::string, int> index_;
  std::vector<EngineStanding> engines_;             // counts only; ranked in standings()
  std::vector<std::vector<ColourCell>> by_colour_;  // [south][north]
  // Game pairs: the first game of a pair waits here for its partner (keyed by pair_key); a finished
  // pair is counted in penta_ of the engine that was South in the first game.
  struct HalfPair {
    int first = 0;            // engine index
    double first_points = 0;  // its points in the first game
  };
  std::unordered_map<std::string, HalfPair> open_pairs_;
  std::vector<std::vector<std::array<int, 5>>> penta_;  // [engine][opponent]
  // Finished colour-swapped pairs by pairing (lower index first), as PairingGames::pairs from the lower's view.
  std::map<std::pair<int, int>, std::array<int, 9>> pair_kinds_;
  std::vector<int> cuts_;
  std::array<int, kTerminations> terminations_{};
  // A 64-bit digest of every counted game (repeated): 8 bytes a game, the one part of the builder that
  // grows with the number of games.
  std::unordered_set<std::uint64_t> seen_games_;
  int repeated_ = 0;
  stats::Trinomial south_games_;  // South's W/D/L
  int counted_ = 0;
  int ignored_ = 0;
  int voided_ = 0;
  std::unordered_set<std::string> void_;         // engines whose games are void
  std::map<std::string, EntryStatus> inactive_;  // withdrawn and disqualified entrants
  std::optional<Anchor> anchor_;
  std::optional<RankingTally> ranking_;
  FormRanker form_;
  std::unordered_map<std::string, double> results_;  // by game id, the South engine's score; with form_ only
};

// Whether the moves were charged CPU time (the CPU clock): some move of the games read has a wall time beside
// the time charged, which the referee records on the CPU clock only. The reports then say so and show both.
bool charged_cpu_time(const Standings& s);

// A StandingsBuilder fed with `games`.
// "3 of 24 games repeat an earlier game move for move (...)": the sentence every report prints when
// s.repeated > 0; empty otherwise.
std::string repeated_note(const Standings& s);
// For each engine whose every game is its own start-up forfeit (it never started: a contest's entrant that
// passed its checks and later cannot start plays on this way, docs/PROTOCOL.md), a note saying so.
std::vector<std::string> never_started_notes(const Standings& s);

Standings compute_standings(const std::vector<GameRecord>& games, const std::vector<std::string>& engine_names,
                            Intervals intervals = Intervals::Without);

}  // namespace kalah::rating
