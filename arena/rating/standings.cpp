#include "arena/rating/standings.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "arena/rating/rating.h"
#include "arena/rating/tally.h"
#include "referee/stats/stats.h"

namespace kalah::rating {
namespace {

// Where a forfeit reason is counted in EngineStanding::forfeits_by_reason.
std::size_t reason_index(Termination reason) {
  for (std::size_t i = 0; i < kForfeitReasons.size(); ++i)
    if (kForfeitReasons[i] == reason) return i;
  return kForfeitReasons.size();
}

// Score of the engine that started as South.
double south_points(Outcome o) { return o == Outcome::FirstWins ? 1.0 : o == Outcome::Draw ? 0.5 : 0.0; }

// What makes two games the same game (Standings::repeated), hashed: both names, the variant, the start,
// every move and how it ended.
std::uint64_t game_digest(const GameRecord& g) {
  std::string text;
  text.reserve(g.south.size() + g.north.size() + g.moves.size() + 64);
  text += g.south;
  text += '\0';
  text += g.north;
  text += '\0';
  text += to_string(g.variant);
  text += '\0';
  if (g.start) text += to_start_notation(g.variant, *g.start);
  text += '\0';
  for (Move m : g.moves) text += static_cast<char>(m.pit);
  text += '\0';
  text += static_cast<char>(g.result);
  text += static_cast<char>(g.termination);
  return std::hash<std::string>{}(text);
}

double finite_or(double x, double fallback) { return std::isfinite(x) ? x : fallback; }

// Credits each timed move to the engine that chose it, replaying the game to
// know who was to move (extra turns keep the mover; after a pie swap the
// first player sits North). Stops at a move the rules reject.
void add_move_times(const GameRecord& g, EngineStanding& south, EngineStanding& north) {
  Position p = g.initial_position();
  const std::size_t first_timed = g.opening.size();
  for (std::size_t k = 0; k < g.moves.size() && !p.over; ++k) {
    if (!is_legal(g.variant, p, g.moves[k])) return;
    if (k >= first_timed && k - first_timed < g.move_info.size()) {
      EngineStanding& mover = player_to_move(p) == Seat::First ? south : north;
      const MoveInfo& info = g.move_info[k - first_timed];
      if (info.depth) {
        mover.mean_depth += *info.depth;  // a sum until compute_standings divides it
        ++mover.moves_with_depth;
      }
      const double t = info.time_ms;
      if (std::isfinite(t) && t >= 0) {
        mover.mean_move_ms += t;  // a sum until compute_standings divides it
        mover.max_move_ms = std::max(mover.max_move_ms, t);
        ++mover.moves_timed;
      }
      if (const std::optional<double> wall = info.wall_ms; wall && std::isfinite(*wall) && *wall >= 0) {
        mover.mean_wall_ms += *wall;  // a sum until compute_standings divides it
        mover.max_wall_ms = std::max(mover.max_wall_ms, *wall);
        ++mover.moves_wall_timed;
      }
    }
    apply(g.variant, p, g.moves[k]);
  }
}

void add_result(EngineStanding& e, double points) {
  ++e.games;
  e.points += points;
  if (points == 1.0)
    ++e.wins;
  else if (points == 0.5)
    ++e.draws;
  else
    ++e.losses;
}

// Which colour-swapped pair a game belongs to, from the schedule's ids (arena/schedule/schedule.cpp):
// "r3-1v0-p2-g1" and "r3-0v1-p2-g0" are the two games of one pair, as are "sprt-p7-g0" and "sprt-p7-g1".
// The engines' names are part of the key. Empty for an id of another shape: no pair.
std::string pair_key(const GameRecord& g) {
  const std::string& id = g.id;
  const std::size_t game = id.rfind("-g");
  if (game == std::string::npos || game + 2 >= id.size() ||
      id.find_first_not_of("0123456789", game + 2) != std::string::npos)
    return {};
  std::string key = id.substr(0, game);
  // "r3-1v0-p2": order the two engine numbers, which swap with the colours.
  const std::size_t dash = key.find('-'), v = key.find('v', dash + 1), dash2 = key.find('-', dash + 1);
  if (dash != std::string::npos && v != std::string::npos && dash2 != std::string::npos && v < dash2) {
    std::string x = key.substr(dash + 1, v - dash - 1), y = key.substr(v + 1, dash2 - v - 1);
    if (y < x) std::swap(x, y);
    key = key.substr(0, dash + 1) + x + "v" + y + key.substr(dash2);
  }
  const bool ordered = g.south < g.north;
  return key + '\n' + (ordered ? g.south : g.north) + '\n' + (ordered ? g.north : g.south);
}

}  // namespace

StandingsBuilder::StandingsBuilder(const std::vector<std::string>& engine_names) {
  for (const std::string& name : engine_names) index_of(name);
}

int StandingsBuilder::index_of(const std::string& name) {
  auto [it, inserted] = index_.emplace(name, static_cast<int>(names_.size()));
  if (inserted) {
    names_.push_back(name);
    engines_.emplace_back();
    engines_.back().name = name;
    for (std::vector<ColourCell>& row : by_colour_) row.emplace_back();
    by_colour_.emplace_back(names_.size());
    for (auto& row : penta_) row.emplace_back();
    penta_.emplace_back(names_.size());
  }
  return it->second;
}

void StandingsBuilder::set_ranking(const RankingSetup& setup) {
  assert(counted_ + ignored_ + voided_ == 0);
  void_.clear();
  inactive_.clear();
  cuts_ = setup.rules.cuts;
  for (const auto& [name, entry] : setup.entries) {
    if (entry.games_void) void_.insert(name);
    if (entry.status != EntryStatus::Active) inactive_[name] = entry.status;
  }
  if (setup.rules.by == RankBy::Points)
    ranking_.emplace(setup.rules, setup.entries);
  else
    ranking_.reset();
}

void StandingsBuilder::set_form(FormRanker ranker) {
  assert(counted_ + ignored_ + voided_ == 0);
  form_ = std::move(ranker);
  results_.clear();
}

void StandingsBuilder::add(const GameRecord& g) {
  if (ranking_) ranking_->add(g);
  // Every record, as the schedule's replay reads a journal (arena/report/reports.cpp does the same).
  if (form_) results_.emplace(g.id, south_points(g.result));
  if (g.result == Outcome::Ongoing || g.south.empty() || g.north.empty() || g.south == g.north) {
    ++ignored_;
    return;
  }
  if (void_.count(g.south) > 0 || void_.count(g.north) > 0) {
    ++voided_;
    return;
  }
  ++counted_;
  if (!seen_games_.insert(game_digest(g)).second) ++repeated_;
  const int a = index_of(g.south);
  const int b = index_of(g.north);
  const double p = south_points(g.result);
  south_games_.add(p);
  add_result(engines_[a], p);
  add_result(engines_[b], 1.0 - p);
  by_colour_[a][b].games += 1;
  by_colour_[a][b].south_points += p;
  by_colour_[a][b].south_wins += g.result == Outcome::FirstWins ? 1 : 0;
  by_colour_[a][b].draws += g.result == Outcome::Draw ? 1 : 0;
  add_move_times(g, engines_[a], engines_[b]);
  if (std::string key = pair_key(g); !key.empty()) {
    auto [it, first] = open_pairs_.try_emplace(std::move(key), HalfPair{a, p});
    if (!first) {
      const HalfPair half = it->second;
      open_pairs_.erase(it);
      const int other = half.first == a ? b : a;
      const double second = half.first == a ? p : 1.0 - p;  // the first engine's points in this game
      const std::size_t bin = stats::pentanomial_bin(half.first_points, second);
      ++penta_[half.first][other][bin];
      ++penta_[other][half.first][4 - bin];
      if (half.first != a) {  // colours swapped: the lower index's result as South, then as North
        const int low = std::min(a, b);
        const int as_south = static_cast<int>(2 * (low == half.first ? half.first_points : p));
        const int as_north = static_cast<int>(2 * (low == half.first ? 1.0 - p : 1.0 - half.first_points));
        ++pair_kinds_[{low, std::max(a, b)}][static_cast<std::size_t>(as_south * 3 + as_north)];
      }
    }
  }
  ++terminations_[static_cast<std::size_t>(g.termination)];
  if (g.forfeit) {
    // A forfeit names the engine that lost it; anything else is not a forfeit of ours.
    auto it = index_.find(g.forfeit->engine);
    if (it != index_.end() && (it->second == a || it->second == b)) {
      EngineStanding& loser = engines_[it->second];
      ++loser.forfeits;
      if (const std::size_t r = reason_index(g.forfeit->reason); r < kForfeitReasons.size())
        ++loser.forfeits_by_reason[r];
      if (g.forfeit->overrun_ms)
        loser.worst_overrun_ms = std::max(loser.worst_overrun_ms.value_or(0), *g.forfeit->overrun_ms);
    }
  }
}

std::vector<std::string> never_started_notes(const Standings& s) {
  std::vector<std::string> notes;
  const std::size_t startup = reason_index(Termination::Startup);
  for (const EngineStanding& e : s.engines)
    if (e.games > 0 && e.forfeits_by_reason[startup] == e.games)
      notes.push_back(e.name + " never started: " +
                      (e.games == 1 ? "its game is" : "each of its " + std::to_string(e.games) + " games is") +
                      " a start-up forfeit (the reasons are in games.jsonl and on its bot page)");
  return notes;
}

std::string repeated_note(const Standings& s) {
  if (s.repeated <= 0) return {};
  return std::to_string(s.repeated) + " of " + std::to_string(s.games) +
         " games repeat an earlier game move for move (the same engines in the same colours, start, moves and "
         "result): engines that play alike from the same start or opening replay their games, and the Elo intervals "
         "count each copy as new evidence, so they are narrower than the games justify. More distinct openings "
         "(a book: docs/CONFIG.md, \"[openings]\") or engines seeded per game avoid it.";
}

bool charged_cpu_time(const Standings& s) {
  return std::any_of(s.engines.begin(), s.engines.end(),
                     [](const EngineStanding& e) { return e.moves_wall_timed > 0; });
}

namespace {

// The first mover's advantage: South's games as counted, and as the fit's first-mover term.
FirstMover first_mover(const stats::Trinomial& south_games, int games, const Rating& fit) {
  FirstMover fm;
  fm.games = games;
  fm.wins = static_cast<int>(south_games.wins);
  fm.draws = static_cast<int>(south_games.draws);
  fm.losses = static_cast<int>(south_games.losses);
  fm.score_pct = games > 0 ? 100.0 * (south_games.wins + 0.5 * south_games.draws) / games : 50.0;
  fm.elo = finite_or(fit.first_mover_elo, 0.0);
  fm.ci95 = finite_or(fit.first_mover_ci95, 0.0);
  const stats::Summary raw = stats::summarize(south_games);
  fm.raw_elo = finite_or(raw.elo, 0.0);
  fm.raw_ci95 = finite_or(raw.elo95, 0.0);
  fm.los = finite_or(raw.los, 0.5);
  return fm;
}

// Each engine's place in the tournament's own order, by name: a contest's ranking, or a Swiss or knockout
// tournament's form.
std::unordered_map<std::string, int> own_places(const Standings& s) {
  std::unordered_map<std::string, int> place;
  if (s.ranking)
    for (std::size_t i = 0; i < s.ranking->rows.size(); ++i)
      place.emplace(s.ranking->rows[i].name, static_cast<int>(i));
  if (s.form)
    for (std::size_t i = 0; i < s.form->places.size(); ++i) place.emplace(s.form->places[i].name, static_cast<int>(i));
  return place;
}

// An engine's place in that order; `unplaced` (after every place) for an engine it does not list.
int place_in(const std::unordered_map<std::string, int>& place, const EngineStanding& e, int unplaced) {
  const auto it = place.find(e.name);
  return it == place.end() ? unplaced : it->second;
}

// The rows' order (indexes into `engines`): by place, then active entrants first (`inactive`: the withdrawn and
// disqualified ones), then engines with games first, by Elo, then points, then name.
std::vector<int> rank_order(const std::vector<EngineStanding>& engines,
                            const std::unordered_map<std::string, int>& place,
                            const std::map<std::string, EntryStatus>& inactive) {
  const int n = static_cast<int>(engines.size());
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int x, int y) {
    const EngineStanding& a = engines[x];
    const EngineStanding& b = engines[y];
    if (place_in(place, a, n) != place_in(place, b, n)) return place_in(place, a, n) < place_in(place, b, n);
    if (inactive.contains(a.name) != inactive.contains(b.name)) return !inactive.contains(a.name);
    if ((a.games > 0) != (b.games > 0)) return a.games > 0;
    if (a.elo != b.elo) return a.elo > b.elo;
    if (a.points != b.points) return a.points > b.points;
    return a.name < b.name;
  });
  return order;
}

// An engine's figures once every game is counted: its fitted Elo, its score and its means.
void finish_engine(EngineStanding& e, const Rating& fit, int i) {
  e.elo = finite_or(fit.elo[i], 0.0);
  e.ci95 = finite_or(fit.ci95[i], 0.0);
  e.score_pct = e.games > 0 ? 100.0 * e.points / e.games : 0.0;
  e.mean_move_ms = e.moves_timed > 0 ? e.mean_move_ms / e.moves_timed : 0.0;
  e.mean_wall_ms = e.moves_wall_timed > 0 ? e.mean_wall_ms / e.moves_wall_timed : 0.0;
  e.mean_depth = e.moves_with_depth > 0 ? e.mean_depth / e.moves_with_depth : 0.0;
}

// A ranking by points shows each engine's Elo too.
void copy_elo_into_ranking(Standings& s) {
  for (RankingRow& row : s.ranking->rows)
    for (const EngineStanding& e : s.engines)
      if (e.name == row.name) {
        row.elo = e.elo;
        row.ci95 = e.ci95;
      }
}

}  // namespace

Standings compute_standings(const std::vector<GameRecord>& games, const std::vector<std::string>& engine_names,
                            Intervals intervals) {
  StandingsBuilder builder(engine_names);
  for (const GameRecord& g : games) builder.add(g);
  return builder.standings(intervals);
}

Standings StandingsBuilder::standings(Intervals intervals) const {
  Standings s;
  s.games = counted_;
  s.ignored = ignored_;
  s.voided = voided_;
  s.repeated = repeated_;
  s.terminations = terminations_;
  std::vector<EngineStanding> engines = engines_;
  const int n = static_cast<int>(engines.size());
  std::vector<std::vector<CrossCell>> cross(n, std::vector<CrossCell>(n));
  Tally tally(n);
  const stats::Trinomial& south_games = south_games_;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      const ColourCell& c = by_colour_[a][b];
      if (c.games == 0) continue;
      cross[a][b].games += c.games;
      cross[a][b].points += c.south_points;
      cross[a][b].wins += c.south_wins;
      cross[a][b].draws += c.draws;
      cross[a][b].losses += c.games - c.south_wins - c.draws;
      cross[b][a].wins += c.games - c.south_wins - c.draws;
      cross[b][a].draws += c.draws;
      cross[b][a].losses += c.south_wins;
      cross[b][a].games += c.games;
      cross[b][a].points += c.games - c.south_points;
      tally.add_games(a, b, c.games, c.south_points);
    }
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) cross[a][b].penta = penta_[a][b];
  const std::vector<PairResult> results = tally.results();
  FitOptions options;
  options.first_mover = true;
  if (anchor_)
    if (const auto it = index_.find(anchor_->engine); it != index_.end()) {
      options.anchor = it->second;
      options.anchor_elo = anchor_->elo;
      s.anchor = anchor_;
    }
  const Rating fit = rating::fit(n, results, options);
  s.prior_used = fit.prior_used;
  for (int i = 0; i < n; ++i) finish_engine(engines[i], fit, i);

  // Rank order: the tournament's own (one order in every table, Elo a column: docs/RANKING.md,
  // docs/SCHEDULE.md), which is a contest's ranking by points or a Swiss or knockout tournament's order;
  // engines it does not list after it. Otherwise, and among those, engines with games first, by Elo, then
  // points, then name. A form's place (before engines with games: a Swiss bye or a knockout's first-round
  // bye ranks an engine that has not played yet) also sets the rank and adds the bye's points.
  // The config refuses a ranking by points for a Swiss or knockout; should a hand-edited tournament.json
  // still ask for both, the contest's ranking is the one order.
  if (ranking_) s.ranking = ranking_->ranking(names_);
  if (form_ && !ranking_) s.form = form_(results_);
  const std::unordered_map<std::string, int> place = own_places(s);
  auto place_of = [&](const EngineStanding& e) { return place_in(place, e, n); };
  const std::vector<int> order = rank_order(engines, place, inactive_);
  // Ordered by Elo, a withdrawn or disqualified entrant (a season's superseded revision) is listed after the
  // active ones, unranked, with its status: a ranking by points or a form says so in its own rows.
  const bool by_elo = !s.ranking && !s.form;
  for (int r = 0; r < n; ++r) {
    EngineStanding e = engines[order[r]];
    e.rank = r + 1;
    if (const auto it = inactive_.find(e.name); by_elo && it != inactive_.end()) {
      e.rank = 0;
      e.status = it->second;
    }
    if (const int p = place_of(e); s.form && p < n) {
      const FormPlace& form_place = s.form->places[static_cast<std::size_t>(p)];
      e.rank = form_place.rank;
      e.rank_shared = form_place.shared;
      e.bye_points = form_place.bye_points;
      e.points += form_place.bye_points;
    }
    // No Elo without a counted game (the fit's value is only its prior): nothing to compare it with either.
    if (r + 1 < n && e.games > 0 && engines[order[r + 1]].games > 0) {
      e.los_next = finite_or(los(fit, order[r], order[r + 1]), 0.5);
      e.diff_next = finite_or(fit.elo[order[r]] - fit.elo[order[r + 1]], 0.0);
      e.diff_next_ci95 = finite_or(difference_ci95(fit, order[r], order[r + 1]), 0.0);
    }
    s.engines.push_back(std::move(e));
  }
  s.crosstable.assign(n, std::vector<CrossCell>(n));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) s.crosstable[r][c] = cross[order[r]][order[c]];

  s.first_mover = first_mover(south_games, s.games, fit);
  if (s.ranking) copy_elo_into_ranking(s);
  if (intervals == Intervals::With) add_intervals(s, fit, order);
  return s;
}

}  // namespace kalah::rating
