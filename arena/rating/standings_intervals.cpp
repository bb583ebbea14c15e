// The standings' rank intervals and fragility (docs/RANKING.md): the builder's counts turned into a
// RankProblem in the order the report ranks by.
#include <algorithm>

#include "arena/rating/standings.h"

namespace kalah::rating {

std::vector<PairingGames> StandingsBuilder::pairings() const {
  const int n = static_cast<int>(names_.size());
  std::vector<PairingGames> out;
  for (int x = 0; x < n; ++x)
    for (int y = x + 1; y < n; ++y) {
      const ColourCell& x_south = by_colour_[x][y];
      const ColourCell& y_south = by_colour_[y][x];
      if (x_south.games + y_south.games == 0) continue;
      PairingGames g;
      g.a = x;
      g.b = y;
      if (const auto it = pair_kinds_.find({x, y}); it != pair_kinds_.end()) g.pairs = it->second;
      // x's results in the paired games, by colour: [result] as South, as North.
      std::array<int, 3> paired_south{}, paired_north{};
      for (int k = 0; k < 9; ++k) {
        paired_south[static_cast<std::size_t>(k / 3)] += g.pairs[static_cast<std::size_t>(k)];
        paired_north[static_cast<std::size_t>(k % 3)] += g.pairs[static_cast<std::size_t>(k)];
      }
      // The games of each colour that are not in a finished pair are singles.
      const int x_wins = x_south.south_wins, x_draws = x_south.draws;
      g.singles[0] = {x_south.games - x_wins - x_draws - paired_south[kLoss], x_draws - paired_south[kDraw],
                      x_wins - paired_south[kWin]};
      const int y_wins = y_south.south_wins, y_draws = y_south.draws;
      g.singles[1] = {y_wins - paired_north[kLoss], y_draws - paired_north[kDraw],
                      y_south.games - y_wins - y_draws - paired_north[kWin]};
      out.push_back(g);
    }
  return out;
}

void StandingsBuilder::add_intervals(Standings& s, const Rating& fit, const std::vector<int>& order) const {
  const int n = static_cast<int>(names_.size());
  RankProblem p;
  p.engines = n;
  p.pairings = pairings();
  p.rank.assign(static_cast<std::size_t>(n), 0);
  p.cuts = cuts_;
  set_model(p, fit);
  // The published rank of each engine in the order the report ranks by; engines without a counted game, and
  // entrants not ranked, stay out of it.
  if (s.ranking) {
    p.by = OrderBy::Points;
    p.points = s.ranking->rules.points;
    for (const RankingRow& row : s.ranking->rows)
      if (const auto it = index_.find(row.name); it != index_.end() && row.rank > 0 && row.games > 0)
        p.rank[static_cast<std::size_t>(it->second)] = row.rank;
  } else {
    // A Swiss tournament ranks by points (a bye's included), a knockout by its bracket, the others by Elo.
    const bool swiss = s.form && s.form->by == "swiss";
    p.by = swiss ? OrderBy::Points : s.form ? OrderBy::Bracket : OrderBy::Elo;
    if (swiss) p.offset.assign(static_cast<std::size_t>(n), 0.0);
    for (std::size_t r = 0; r < order.size(); ++r) {
      const EngineStanding& e = s.engines[r];
      const auto i = static_cast<std::size_t>(order[r]);
      if (swiss) p.offset[i] = e.bye_points;
      if (e.games > 0) p.rank[i] = e.rank;
    }
  }
  RankUncertainty u = rank_intervals(p);
  u.first = fragility(p, 1);
  for (int k : p.cuts) u.cut_fragility.push_back(k == 1 ? u.first : fragility(p, k));
  for (std::size_t r = 0; r < order.size(); ++r) {
    const auto i = static_cast<std::size_t>(order[r]);
    if (p.rank[i] == 0) continue;
    EngineStanding& e = s.engines[r];
    const EngineInterval& interval = u.engines[i];
    // The row's own rank too (a place in a shared rank): the interval always holds every rank printed for it.
    e.rank_low = std::min({interval.low, p.rank[i], e.rank});
    e.rank_high = std::max({interval.high, p.rank[i], e.rank});
    e.tie_group = interval.group;
    e.top_share = interval.top;
  }
  u.engines.clear();
  s.uncertainty = std::move(u);
}

}  // namespace kalah::rating
