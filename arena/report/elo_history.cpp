#include "arena/report/elo_history.h"

#include <unordered_map>
#include <utility>

namespace kalah::report {

void EloHistoryRecorder::game_added(const rating::StandingsBuilder& builder) {
  if (builder.games() < next_) return;
  record(builder);
  next_ = builder.games() + step_;
  if (games_.size() <= kMaxPoints) return;
  // Keep every other checkpoint (the latest among them), and space the next ones twice as far apart.
  std::vector<int> games;
  std::vector<rating::Standings> fits;
  for (std::size_t i = games_.size() % 2 == 0 ? 1 : 0; i < games_.size(); i += 2) {
    games.push_back(games_[i]);
    fits.push_back(std::move(fits_[i]));
  }
  games_ = std::move(games);
  fits_ = std::move(fits);
  step_ *= 2;
  next_ = games_.back() + step_;
}

void EloHistoryRecorder::record(const rating::StandingsBuilder& builder) {
  rating::Standings s = builder.standings();
  // The chart needs the ratings only: drop the crosstable (engines squared) before keeping the fit.
  s.crosstable.clear();
  games_.push_back(builder.games());
  fits_.push_back(std::move(s));
}

EloHistory EloHistoryRecorder::finish(const rating::StandingsBuilder& builder, const rating::Standings& final) {
  EloHistory h;
  if (games_.empty() || games_.back() != builder.games()) {
    games_.push_back(builder.games());
    rating::Standings last = final;
    last.crosstable.clear();
    fits_.push_back(std::move(last));
  }
  std::unordered_map<std::string, std::size_t> index;
  for (const rating::EngineStanding& e : final.engines) {
    index[e.name] = h.names.size();
    h.names.push_back(e.name);
  }
  h.games = games_;
  h.series.assign(h.names.size(), std::vector<EloPoint>(games_.size()));
  for (std::size_t k = 0; k < fits_.size(); ++k)
    for (const rating::EngineStanding& e : fits_[k].engines)
      if (auto it = index.find(e.name); it != index.end())
        h.series[it->second][k] = EloPoint{e.elo, e.ci95, e.games > 0};
  return h;
}

}  // namespace kalah::report
