// The games of a season's ladder (docs/SEASON.md, "The ladder"): open-ended colour-swapped pairs among the engines
// that play now, each pair chosen when a worker asks by choose_ladder_pair (arena/schedule/ladder.h) from every game
// so far. A pair's second game is handed out before a new pair is chosen. The games already in the journal count
// from the start, and a pair the journal holds one game of has its other game played first (when both engines still
// play), so a ladder cut off anywhere goes on without playing a finished game again. close() (from any thread) stops
// the handing out: the run then ends once its games in flight have finished, and the ladder starts the next run
// with the entrants as they are then.
#pragma once

#include <atomic>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "arena/runner/game_source.h"
#include "arena/schedule/ladder.h"
#include "referee/record/record.h"

namespace kalah::arena {

// The id of game `game_in_pair` of the ladder's pair `pair` (0-based): "l{pair + 1}-{south}v{north}-g{game}", engine
// indices; the record's round is pair + 1.
std::string ladder_game_id(int pair, int south, int north, int game_in_pair);
// That game: its id, round, engines and the opening of its pair from `openings` (over the same config).
GameSpec ladder_game(const OpeningSource& openings, int pair, int south, int north, int game_in_pair);

class LadderSource : public GameSource {
 public:
  // `config` (its engines: the sparring partners, then the entrants) must outlive the source.
  explicit LadderSource(const Config& config);
  // A game already in the journal, before the first next(). A game of an engine the config does not name is left out.
  void add_journaled(const GameRecord& record);

  std::optional<GameSpec> next() override;
  void finished(const GameSpec& spec, const GameRecord& record) override;
  bool more_later() const override { return in_flight_ > 0; }
  int total() const override { return -1; }

  // Hands out nothing more; safe from any thread.
  void close() { closed_ = true; }
  // The pairs begun so far (the journal's and this run's).
  int pairs() const { return next_pair_; }

 private:
  // A pair the journal holds one game of: that game's engines and its number in the pair.
  struct Half {
    int south = 0;
    int north = 0;
    int game_in_pair = 0;
  };
  GameSpec game(int pair, int south, int north, int game_in_pair) const;
  void due(GameSpec spec);
  // The other games of the pairs the journal holds one game of, due first.
  void resume_halves();

  const Config& config_;
  OpeningSource openings_;
  LadderTally tally_;
  std::vector<LadderEngine> engines_;
  std::vector<int> busy_;       // per engine: its games due or in flight
  std::map<int, Half> halves_;  // by pair number, until the first next()
  std::deque<GameSpec> due_;    // handed out before a new pair is chosen
  int next_pair_ = 0;
  int in_flight_ = 0;
  bool resumed_ = false;
  std::atomic<bool> closed_{false};
};

}  // namespace kalah::arena
