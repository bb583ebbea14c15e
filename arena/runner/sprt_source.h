// The games of an SPRT match: colour-swapped pairs between engine 0 (base) and engine 1 (test),
// handed out pair by pair until the sequential test decides or the pair limit is reached.
//
// The test is computed on game pairs (pentanomial), from the test engine's point of view, and only
// a pair whose two games have both finished counts: with several workers, pairs finish out of order
// and a half-finished pair says nothing about the opening's colour bias. Once the decision is made
// no new pair is started, but the games of pairs already handed out still finish and count (their
// engines have been started and the result is real data).
//
// Resuming: games already in the journal are never handed out again, and their results count from
// the start. A pair with one game in the journal gets its other game first, whatever the decision.
//
// A shard (Config::shard, I of N) plays pairs I-1, I-1+N, I-1+2N, ... and, before each new pair,
// reads what the other shards appended to their journals since it last looked (JournalTail), so the
// test runs on the pairs of all shards together and every shard stops when it decides
// (docs/SCALE.md). The pair limit is global: no shard starts a pair numbered max_pairs or more.
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "arena/config/config.h"
#include "arena/journal/games_file.h"
#include "arena/rating/sprt_tally.h"
#include "arena/runner/game_source.h"
#include "arena/schedule/schedule.h"
#include "referee/record/record.h"
#include "referee/stats/sprt.h"
#include "referee/stats/stats.h"

namespace kalah::arena {

using rating::SprtStatus;

class SprtSource : public GameSource {
 public:
  // The test (its parameters and the engines' names, in `tally`), the games of each pair, the pair limit
  // (0: none) and, for a shard, which pairs it plays. `peers`: the journals of the other shards, read before
  // each new pair.
  SprtSource(rating::SprtTally tally, SprtPairs pairs, int max_pairs, std::optional<Shard> shard = std::nullopt,
             std::vector<std::filesystem::path> peers = {});
  // The SPRT a config plays: `config` must have an [sprt] table and two engines, base then test (asserted), and
  // outlive the source.
  explicit SprtSource(const Config& config, std::vector<std::filesystem::path> peers = {});
  // A game already in the journal, before the first next(); games with other ids are ignored.
  void add_journaled(const GameRecord& record);
  // Reads the peers' new games now (next() does it before each new pair). A peer that cannot be
  // read is skipped this time; the first such error is kept in peer_error().
  void refresh();
  const std::string& peer_error() const { return peer_error_; }

  std::optional<GameSpec> next() override;
  void finished(const GameSpec& spec, const GameRecord& record) override;
  void reported(const GameSpec& spec, const GameRecord& record) override;
  // 2 * max_pairs with a pair limit, -1 without.
  int total() const override;

  // The games reported so far (and those of the journals and the peers): what is shown and written.
  const SprtStatus& status() const { return reported_.status(); }
  const rating::SprtTally& tally() const { return reported_; }
  // The decision on every game finished so far, on the disk or not yet: what next() goes by.
  stats::Decision decision() const { return scheduled_.status().sprt.decision; }
  // No new pair will be started: decided, or the pair limit reached.
  bool stopped() const;
  // Games handed out by next() that have not finished yet.
  int in_flight() const { return in_flight_; }

 private:
  bool may_start_new_pair() const;

  SprtPairs pairs_;
  // What next() goes by (every game finished) and what status() shows (the games reported): the same
  // once the runner has reported every game written. Both count the journals' and the peers' games.
  rating::SprtTally scheduled_;
  rating::SprtTally reported_;
  int max_pairs_ = 0;
  std::unordered_set<std::string> journaled_;   // ids already in the journal at the start
  std::set<int> journaled_pairs_;               // pairs with at least one game in the journal
  std::unordered_set<std::string> unreported_;  // own games counted by finished(), not yet reported()
  int pair_ = 0;                                // next game to consider: pair_ / game_
  int game_ = 0;
  int stride_ = 1;  // the number of shards: this source plays every stride_-th pair
  int in_flight_ = 0;
  std::vector<journal::JournalTail> peers_;
  std::string peer_error_;
};

}  // namespace kalah::arena
