#include "arena/rating/sprt_tally.h"

#include <cassert>
#include <charconv>
#include <string_view>

namespace kalah::rating {

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

SprtTally::SprtTally(const stats::SprtParams& params, std::string base, std::string test)
    : params_(params), base_(std::move(base)), test_(std::move(test)) {
  // With no finished pair yet: the bounds, LLR 0 and the (finite) statistics of an empty sample.
  status_.summary = stats::summarize(status_.pentanomial);
  status_.sprt = stats::sprt(status_.pentanomial, params_);
}

std::optional<std::pair<int, int>> SprtTally::parse_id(const std::string& id) {
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

double SprtTally::test_score(const GameRecord& record) const {
  const double south = record.result == Outcome::FirstWins ? 1.0 : record.result == Outcome::Draw ? 0.5 : 0.0;
  return record.south == test_ ? south : 1.0 - south;
}

bool SprtTally::add(const GameRecord& record) {
  const std::optional<std::pair<int, int>> where = parse_id(record.id);
  if (!where || !counted_.insert(record.id).second) return false;
  add_result(where->first, where->second, test_score(record));
  return true;
}

void SprtTally::add_result(int pair, int game, double score) {
  ++status_.games;
  status_.trinomial.add(score);
  std::array<std::optional<double>, 2>& slot = open_pairs_[pair];
  assert(!slot[game]);
  slot[game] = score;
  if (!slot[0] || !slot[1]) return;
  status_.pentanomial.add(*slot[0], *slot[1]);
  open_pairs_.erase(pair);
  ++status_.pairs;
  status_.summary = stats::summarize(status_.pentanomial);
  status_.sprt = stats::sprt(status_.pentanomial, params_);
  llr_by_pair_.push_back(status_.sprt.llr);
}

}  // namespace kalah::rating
