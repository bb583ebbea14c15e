// The games of a Swiss, knockout or adaptive tournament, round by round: what games_due() says is due now,
// less the games finished or handed out. When everything due is in flight, next() says nullopt and
// more_later() true, and the runner waits for a game to finish: that may complete a round (a Swiss
// round is paired, a knockout match decided or given a tie-break pair). The results come from the
// journal at the start and from each finished game, so a resumed run pairs exactly as before.
#pragma once

#include <optional>
#include <unordered_set>

#include "arena/config/config.h"
#include "arena/runner/game_source.h"
#include "arena/schedule/rounds.h"
#include "referee/record/record.h"

namespace kalah::arena {

class RoundSource : public GameSource {
 public:
  // `config` is a Swiss, knockout or adaptive tournament (asserted) and must outlive the source.
  explicit RoundSource(const Config& config);
  // A game already in the journal, before the first next(). A record whose engines are not those its
  // id names (a journal edited by hand) still counts, with its South engine's score.
  void add_journaled(const GameRecord& record);

  std::optional<GameSpec> next() override;
  void finished(const GameSpec& spec, const GameRecord& record) override;
  bool more_later() const override { return in_flight_ > 0; }
  // Swiss: every game of every round; adaptive: its budget; knockout: -1 (tie-breaks make it open), see
  // least_games().
  int total() const override;

  const GameResults& results() const { return results_; }
  // An adaptive tournament's rounds as far as the results go (asserted adaptive): kept between calls, so asking
  // at the end of a run costs no replay of the journal.
  const AdaptiveProgress& adaptive_progress();

 private:
  const Config& config_;
  GameResults results_;
  std::unordered_set<std::string> handed_out_;  // ids of games in flight
  std::vector<GameSpec> due_;                   // the games due, as last computed
  std::size_t next_ = 0;                        // the next of due_ to look at
  std::optional<AdaptiveReplay> adaptive_;      // an adaptive tournament's rounds, kept between replays
  int in_flight_ = 0;
};

// The South engine's score of a finished game: 1, 1/2 or 0.
double south_points(const GameRecord& record);

}  // namespace kalah::arena
