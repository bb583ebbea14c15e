#include "arena/runner/sprt_source.h"

#include <cassert>
#include <charconv>

#include "arena/runner/round_source.h"

namespace kalah::arena {

namespace {

// Reads a non-negative decimal number at the front of `text`, advancing it.
std::optional<int> read_int(std::string_view& text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end == text.data() || value < 0) return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

}  // namespace

std::optional<std::pair<int, int>> SprtSource::parse_id(const std::string& id) {
  std::string_view rest = id;
  if (!rest.starts_with("sprt-p")) return std::nullopt;
  rest.remove_prefix(6);
  std::optional<int> pair = read_int(rest);
  if (!pair || !rest.starts_with("-g")) return std::nullopt;
  rest.remove_prefix(2);
  std::optional<int> game = read_int(rest);
  if (!game || *game > 1 || !rest.empty()) return std::nullopt;
  return std::pair{*pair, *game};
}

double SprtSource::test_score(const Config& config, const GameRecord& record) {
  const double south = south_points(record);
  return record.south == config.engines[1].name ? south : 1.0 - south;
}

SprtSource::SprtSource(const Config& config, std::vector<std::filesystem::path> peers)
    : config_(config), pairs_(config) {
  assert(config.sprt && config.engines.size() == 2);
  if (config.shard) {
    pair_ = config.shard->index - 1;
    stride_ = config.shard->count;
  }
  for (std::filesystem::path& p : peers) peers_.emplace_back(std::move(p));
  // With no finished pair yet: the bounds, LLR 0 and the (finite) statistics of an empty sample.
  for (Tally* t : {&scheduled_, &reported_}) {
    t->status.summary = stats::summarize(t->status.pentanomial);
    t->status.sprt = stats::sprt(t->status.pentanomial, config_.sprt->params);
  }
}

void SprtSource::add_journaled(const GameRecord& r) {
  std::optional<std::pair<int, int>> where = parse_id(r.id);
  if (!where || !journaled_.insert(r.id).second) return;
  journaled_pairs_.insert(where->first);
  count(r);
}

void SprtSource::count(const GameRecord& r) {
  std::optional<std::pair<int, int>> where = parse_id(r.id);
  if (!where || !counted_.insert(r.id).second) return;
  record_result(where->first, where->second, test_score(config_, r));
}

void SprtSource::refresh() {
  for (journal::JournalTail& peer : peers_) {
    Expected<std::size_t> read = peer.read_new([&](GameRecord&& r) { count(r); });
    if (!read && peer_error_.empty()) peer_error_ = read.error();
  }
}

bool SprtSource::stopped() const { return !may_start_new_pair(); }

bool SprtSource::may_start_new_pair() const {
  if (decision() != stats::Decision::Continue) return false;
  const int max_pairs = config_.sprt->max_pairs;
  return max_pairs == 0 || pair_ < max_pairs;
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

void SprtSource::finished(const GameSpec& spec, const GameRecord& record) {
  assert(in_flight_ > 0);
  --in_flight_;
  if (!counted_.insert(record.id).second) return;
  const double south = south_points(record);
  scheduled_.add(spec.pair, spec.game_in_pair, spec.south == 1 ? south : 1.0 - south, config_.sprt->params);
  unreported_.insert(record.id);
}

void SprtSource::reported(const GameSpec& spec, const GameRecord& record) {
  if (unreported_.erase(record.id) == 0) return;
  const double south = south_points(record);
  reported_.add(spec.pair, spec.game_in_pair, spec.south == 1 ? south : 1.0 - south, config_.sprt->params);
}

void SprtSource::record_result(int pair, int game, double score) {
  scheduled_.add(pair, game, score, config_.sprt->params);
  reported_.add(pair, game, score, config_.sprt->params);
}

void SprtSource::Tally::add(int pair, int game, double score, const stats::SprtParams& params) {
  ++status.games;
  status.trinomial.add(score);
  std::array<std::optional<double>, 2>& slot = open_pairs[pair];
  assert(!slot[game]);
  slot[game] = score;
  if (!slot[0] || !slot[1]) return;
  status.pentanomial.add(*slot[0], *slot[1]);
  open_pairs.erase(pair);
  ++status.pairs;
  status.summary = stats::summarize(status.pentanomial);
  status.sprt = stats::sprt(status.pentanomial, params);
}

int SprtSource::total() const {
  const int max_pairs = config_.sprt->max_pairs;
  return max_pairs > 0 ? 2 * max_pairs : -1;
}

}  // namespace kalah::arena
