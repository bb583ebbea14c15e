#include "arena/report/elo_history.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <utility>

namespace kalah::report {
namespace {

double fit_cost(std::size_t engines) {
  const double n = static_cast<double>(engines);
  return n * n * n;
}

}  // namespace

std::size_t EloHistoryRecorder::fit_points(std::size_t engines) {
  // A quarter of the budget for the checkpoints kept: the rest pays for the doublings after them.
  const double affordable = kFitBudget / 4 / std::max(1.0, fit_cost(engines));
  return static_cast<std::size_t>(std::clamp(affordable, 2.0, static_cast<double>(kMaxPoints)));
}

void EloHistoryRecorder::game_added(const rating::StandingsBuilder& builder) {
  if (builder.games() < next_) return;
  const double cost = fit_cost(builder.names().size());
  if (spent_ + cost > kFitBudget) {  // spent: the final standings close the chart
    next_ = std::numeric_limits<int>::max();
    return;
  }
  spent_ += cost;
  ++fits_done_;
  record(builder);
  next_ = builder.games() + step_;
  // A journal may name more engines as it goes: each new one can lower the points kept.
  while (games_.size() > fit_points(builder.names().size())) thin();
}

void EloHistoryRecorder::thin() {
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
