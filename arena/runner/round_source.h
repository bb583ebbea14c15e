// The games of a Swiss, knockout or adaptive tournament, round by round: what its format's RoundPairing says is
// due now, less the games finished or handed out. When everything due is in flight, next() says nullopt and
// more_later() true, and the runner waits for a game to finish: that may complete a round (a Swiss
// round is paired, a knockout match decided or given a tie-break pair). The results come from the
// journal at the start and from each finished game, so a resumed run pairs exactly as before.
#pragma once

#include <memory>
#include <optional>
#include <unordered_set>
#include <vector>

#include "arena/config/config.h"
#include "arena/runner/game_source.h"
#include "arena/schedule/rounds.h"
#include "referee/record/record.h"

namespace kalah::arena {

// What a kind paired from its results plays: its format's (arena/formats/<kind>/), over the pure pairing rules of
// arena/schedule (rounds.h).
class RoundPairing {
 public:
  virtual ~RoundPairing() = default;
  // The games that can be played now given every result so far (finished ones included: the source skips those);
  // empty when the tournament is over. The same results give the same games, ids and openings.
  virtual std::vector<GameSpec> due(const GameResults& results) = 0;
  // The games of a complete tournament, at least (a knockout's tie-break pairs not counted).
  virtual int least_games() const = 0;
  // Whether the results decide how many games it plays beyond least_games (a knockout's tie-breaks).
  virtual bool open_ended() const = 0;
};

class RoundSource : public GameSource {
 public:
  // `config` is a Swiss, knockout or adaptive tournament (asserted) and must outlive the source; `pairing` is its
  // format's.
  RoundSource(const Config& config, std::unique_ptr<RoundPairing> pairing);
  // A game already in the journal, before the first next(). A record whose engines are not those its
  // id names (a journal edited by hand) still counts, with its South engine's score.
  void add_journaled(const GameRecord& record);

  std::optional<GameSpec> next() override;
  void finished(const GameSpec& spec, const GameRecord& record) override;
  bool more_later() const override { return in_flight_ > 0; }
  // Swiss: every game of every round; adaptive: its budget; knockout: -1 (tie-breaks make it open), see
  // RoundPairing::least_games.
  int total() const override;

  const GameResults& results() const { return results_; }
  RoundPairing& pairing() { return *pairing_; }

 private:
  const Config& config_;
  std::unique_ptr<RoundPairing> pairing_;
  GameResults results_;
  std::unordered_set<std::string> handed_out_;  // ids of games in flight
  std::vector<GameSpec> due_;                   // the games due, as last computed
  std::size_t next_ = 0;                        // the next of due_ to look at
  int in_flight_ = 0;
};

// The South engine's score of a finished game: 1, 1/2 or 0.
double south_points(const GameRecord& record);

}  // namespace kalah::arena
