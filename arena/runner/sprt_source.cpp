#include "arena/runner/sprt_source.h"

#include <cassert>

namespace kalah::arena {

SprtSource::SprtSource(rating::SprtTally tally, SprtPairs pairs, int max_pairs, std::optional<Shard> shard,
                       std::vector<std::filesystem::path> peers)
    : pairs_(std::move(pairs)), scheduled_(tally), reported_(std::move(tally)), max_pairs_(max_pairs) {
  if (shard) {
    pair_ = shard->index - 1;
    stride_ = shard->count;
  }
  for (std::filesystem::path& p : peers) peers_.emplace_back(std::move(p));
}

SprtSource::SprtSource(const Config& config, std::vector<std::filesystem::path> peers)
    : SprtSource((assert(config.sprt&& config.engines.size() == 2),
                  rating::SprtTally(config.sprt->params, config.engines[0].name, config.engines[1].name)),
                 SprtPairs(config), config.sprt->max_pairs, config.shard, std::move(peers)) {}

void SprtSource::add_journaled(const GameRecord& r) {
  std::optional<std::pair<int, int>> where = rating::SprtTally::parse_id(r.id);
  if (!where || !journaled_.insert(r.id).second) return;
  journaled_pairs_.insert(where->first);
  scheduled_.add(r);
  reported_.add(r);
}

void SprtSource::refresh() {
  for (journal::JournalTail& peer : peers_) {
    Expected<std::size_t> read = peer.read_new([&](GameRecord&& r) {
      scheduled_.add(r);
      reported_.add(r);
    });
    if (!read && peer_error_.empty()) peer_error_ = read.error();
  }
}

bool SprtSource::stopped() const { return !may_start_new_pair(); }

bool SprtSource::may_start_new_pair() const {
  if (decision() != stats::Decision::Continue) return false;
  return max_pairs_ == 0 || pair_ < max_pairs_;
}

std::optional<GameSpec> SprtSource::next() {
  if (!peers_.empty() && game_ == 0) refresh();
  while (true) {
    if (game_ == 0 && !journaled_pairs_.contains(pair_) && !may_start_new_pair()) {
      // Only the missing games of pairs begun in an earlier run are left to hand out.
      auto later = journaled_pairs_.upper_bound(pair_);
      if (later == journaled_pairs_.end()) return std::nullopt;
      pair_ = *later;
    }
    GameSpec spec = pairs_.pair(pair_)[game_];
    if (++game_ == 2) {
      game_ = 0;
      pair_ += stride_;
    }
    if (journaled_.contains(spec.id)) continue;
    ++in_flight_;
    return spec;
  }
}

void SprtSource::finished(const GameSpec&, const GameRecord& record) {
  assert(in_flight_ > 0);
  --in_flight_;
  if (scheduled_.add(record)) unreported_.insert(record.id);
}

void SprtSource::reported(const GameSpec&, const GameRecord& record) {
  if (unreported_.erase(record.id) == 0) return;
  reported_.add(record);
}

int SprtSource::total() const { return max_pairs_ > 0 ? 2 * max_pairs_ : -1; }

}  // namespace kalah::arena
