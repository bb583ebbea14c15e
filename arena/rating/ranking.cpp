#include "arena/rating/ranking.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include <fmt/format.h>

namespace kalah::rating {
namespace {

// Values computed from the same counts in another order can differ in the last bits when the points
// rule is not a multiple of a power of two (0.1); closer than this they are equal.
bool same(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}); }

// The shortest text, to 4 decimals: "4.25", "3", "-12".
std::string number(double x) {
  const double r = std::round(x * 1e4) / 1e4;
  return fmt::format("{}", r == 0 ? 0.0 : r);
}

// "alpha", "alpha and beta", "alpha, beta and gamma"
std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

// Settles groups of active engines tied on points with the tie-breaks in order (docs/RANKING.md): each tie-break
// that splits a group is recorded as a TieStep in `ties`, the engines it leaves tied are settled by the next ones,
// and each final block (engines that stay tied share one) is appended to `blocks` in rank order.
class TieSettler {
 public:
  using Level = std::vector<std::pair<TieBreak, double>>;

  // `points_against(x, y)`: x's points in its games against y; `met(x, y)`: whether they played.
  TieSettler(std::vector<RankingRow>& rows, const std::vector<TieBreak>& tiebreaks, std::vector<TieStep>& ties,
             std::vector<std::vector<int>>& blocks, std::function<double(int, int)> points_against,
             std::function<bool(int, int)> met)
      : rows_(rows),
        tiebreaks_(tiebreaks),
        ties_(ties),
        blocks_(blocks),
        points_against_(std::move(points_against)),
        met_(std::move(met)) {}

  // Settles `group` (in name order) with the tie-breaks from index `next` on; `level`: the earlier ones, on
  // which the group is equal; `skipped`: head-to-head where not all of them met.
  void settle(const std::vector<int>& group, std::size_t next, const Level& level, std::vector<TieBreak> skipped) {
    const double points = rows_[group.front()].points;
    Level now = level;
    for (std::size_t k = next; k < tiebreaks_.size(); ++k) {
      const TieBreak t = tiebreaks_[k];
      std::vector<double> values(rows_.size());  // by engine
      if (t == TieBreak::HeadToHead) {
        bool all_met = true;
        for (int x : group)
          for (int y : group)
            if (x != y && !met_(x, y)) all_met = false;
        if (!all_met) {
          skipped.push_back(t);
          continue;
        }
        for (int x : group) {
          for (int y : group)
            if (x != y) values[x] += points_against_(x, y);
          rows_[x].tiebreaks[k] = values[x];
        }
      } else {
        for (int x : group) values[x] = *rows_[x].tiebreaks[k];
      }
      const double first = values[group.front()];
      if (std::all_of(group.begin(), group.end(), [&](int x) { return same(values[x], first); })) {
        now.emplace_back(t, first);
        continue;
      }
      std::vector<int> sorted = group;
      std::stable_sort(sorted.begin(), sorted.end(), [&](int x, int y) { return values[x] > values[y]; });
      // Runs of equal values, each in name order.
      std::vector<std::vector<int>> runs;
      for (int x : sorted) {
        if (runs.empty() || !same(values[runs.back().front()], values[x])) runs.emplace_back();
        runs.back().push_back(x);
      }
      for (std::vector<int>& run : runs)
        std::sort(run.begin(), run.end(), [&](int x, int y) { return rows_[x].name < rows_[y].name; });
      TieStep step{points, {}, now, skipped, t, {}, 0};
      for (const std::vector<int>& run : runs)
        for (int x : run) {
          step.engines.push_back(rows_[x].name);
          step.values.push_back(values[x]);
        }
      ties_.push_back(std::move(step));
      for (const std::vector<int>& run : runs) {
        if (run.size() == 1) {
          blocks_.push_back(run);
          continue;
        }
        Level inner = now;
        inner.emplace_back(t, values[run.front()]);
        settle(run, k + 1, inner, skipped);
      }
      return;
    }
    ties_.push_back(TieStep{points, names_of(group), now, skipped, std::nullopt, {}, 0});
    unbroken_.emplace_back(ties_.size() - 1, blocks_.size());
    blocks_.push_back(group);
  }

  // (index into ties, index into blocks) of each tie that nothing broke.
  const std::vector<std::pair<std::size_t, std::size_t>>& unbroken() const { return unbroken_; }

 private:
  std::vector<std::string> names_of(const std::vector<int>& group) const {
    std::vector<std::string> list;
    for (int i : group) list.push_back(rows_[i].name);
    return list;
  }

  std::vector<RankingRow>& rows_;
  const std::vector<TieBreak>& tiebreaks_;
  std::vector<TieStep>& ties_;
  std::vector<std::vector<int>>& blocks_;
  std::function<double(int, int)> points_against_;
  std::function<bool(int, int)> met_;
  std::vector<std::pair<std::size_t, std::size_t>> unbroken_;
};

// The rows in the blocks' order into `ranked_rows`, each with its rank, shared within a block (0: not ranked,
// a withdrawn or disqualified entrant); returns each block's rank.
std::vector<int> rank_blocks(const std::vector<std::vector<int>>& blocks, std::vector<RankingRow>& rows,
                             std::vector<RankingRow>& ranked_rows) {
  int position = 0;
  std::vector<int> block_rank(blocks.size(), 0);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const bool ranked = rows[blocks[b].front()].status == EntryStatus::Active;
    for (int i : blocks[b]) {
      rows[i].rank = ranked ? position + 1 : 0;
      rows[i].shared = ranked && blocks[b].size() > 1;
      ranked_rows.push_back(rows[i]);
    }
    block_rank[b] = position + 1;
    position += static_cast<int>(blocks[b].size());
  }
  return block_rank;
}

}  // namespace

const char* to_string(RankBy by) { return by == RankBy::Points ? "points" : "elo"; }

const char* to_string(TieBreak t) {
  switch (t) {
    case TieBreak::HeadToHead: return "head-to-head";
    case TieBreak::SonnebornBerger: return "sonneborn-berger";
    case TieBreak::Buchholz: return "buchholz";
    case TieBreak::Wins: return "wins";
    case TieBreak::SeedDifference: return "seed-difference";
  }
  return "?";
}

std::optional<TieBreak> parse_tiebreak(std::string_view name) {
  for (TieBreak t : kTieBreaks)
    if (name == to_string(t)) return t;
  return std::nullopt;
}

std::string tiebreak_names() {
  std::string out;
  for (TieBreak t : kTieBreaks) out += (out.empty() ? "" : ", ") + std::string(to_string(t));
  return out;
}

std::optional<std::string> check(const PointsRule& p) {
  for (double x : {p.win, p.draw, p.loss})
    if (!std::isfinite(x) || std::abs(x) > 1000) return "every value must be a finite number within ±1000";
  if (!(p.loss <= p.draw && p.draw <= p.win && p.loss < p.win))
    return "a win must be worth more than a loss, and a draw between the two (loss <= draw <= win)";
  return std::nullopt;
}

std::string describe(const PointsRule& p) {
  // Exactly (the shortest text that reads back as the same double): tournament.json carries the rule.
  auto exact = [](double x) { return fmt::format("{}", x == 0 ? 0.0 : x); };
  return fmt::format("win={} draw={} loss={}", exact(p.win), exact(p.draw), exact(p.loss));
}

const char* to_string(EntryStatus s) {
  return s == EntryStatus::Withdrawn ? "withdrawn" : s == EntryStatus::Disqualified ? "disqualified" : "active";
}

std::string RankingRow::rank_text() const {
  if (rank == 0) return "-";
  return std::to_string(rank) + (shared ? "=" : "");
}

std::string TieStep::describe() const {
  std::string out = join_names(engines) + " tied on " + number(points) + " point" + (same(points, 1) ? "" : "s");
  std::string level_text;
  for (const auto& [t, value] : level)
    level_text += (level_text.empty() ? "level on " : ", ") + std::string(to_string(t)) + " " + number(value);
  for (TieBreak t : skipped)
    level_text += (level_text.empty() ? "" : "; ") + std::string(to_string(t)) + " not applied: not all of them met";
  if (!level_text.empty()) out += " (" + level_text + ")";
  if (!decided_by)
    return out + ": no declared tie-break separates them, they share rank " + std::to_string(shared_rank);
  out += ": " + std::string(to_string(*decided_by)) + " ";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i == 0 ? "" : " vs ") + number(values[i]);
  return out;
}

RankingTally::RankingTally(RankingRules rules, Entries entries)
    : rules_(std::move(rules)), entries_(std::move(entries)) {}

int RankingTally::index_of(const std::string& name) {
  auto [it, inserted] = index_.emplace(name, static_cast<int>(names_.size()));
  if (inserted) {
    names_.push_back(name);
    engines_.emplace_back();
    for (std::vector<Counts>& row : pairs_) row.emplace_back();
    pairs_.emplace_back(names_.size());
  }
  return it->second;
}

void RankingTally::add(const GameRecord& g) {
  if (g.result == Outcome::Ongoing || g.south.empty() || g.north.empty() || g.south == g.north) return;
  auto is_void = [&](const std::string& name) {
    const auto it = entries_.find(name);
    return it != entries_.end() && it->second.games_void;
  };
  if (is_void(g.south) || is_void(g.north)) {
    ++voided_;
    return;
  }
  const int a = index_of(g.south), b = index_of(g.north);
  auto count = [](Counts& c, int result) { ++(result > 0 ? c.wins : result < 0 ? c.losses : c.draws); };
  const int south_result = g.result == Outcome::FirstWins ? 1 : g.result == Outcome::Draw ? 0 : -1;
  count(engines_[a].counts, south_result);
  count(engines_[b].counts, -south_result);
  count(pairs_[a][b], south_result);
  count(pairs_[b][a], -south_result);
  // After a pie swap the engine that started as South owns the North store (docs/FORMATS.md).
  const int south_margin = (g.swapped ? -1 : 1) * (g.store_south - g.store_north);
  engines_[a].seed_difference += south_margin;
  engines_[b].seed_difference -= south_margin;
}

double RankingTally::points(const std::string& name) const {
  const auto it = index_.find(name);
  if (it == index_.end()) return 0;
  const Counts& c = engines_[it->second].counts;
  return c.wins * rules_.points.win + c.draws * rules_.points.draw + c.losses * rules_.points.loss;
}

Ranking RankingTally::ranking(const std::vector<std::string>& names) const {
  // The engines to show: `names`, then those only the games know, in the order they were met.
  std::vector<std::string> all = names;
  for (const std::string& name : names_)
    if (std::find(names.begin(), names.end(), name) == names.end()) all.push_back(name);
  const int n = static_cast<int>(all.size());
  std::vector<int> tally_index(n, -1);  // into engines_ and pairs_; -1: no counted game
  for (int i = 0; i < n; ++i)
    if (const auto it = index_.find(all[i]); it != index_.end()) tally_index[i] = it->second;
  const PointsRule& rule = rules_.points;
  auto value = [&](const Counts& c) { return c.wins * rule.win + c.draws * rule.draw + c.losses * rule.loss; };
  auto pair = [&](int i, int j) {
    return tally_index[i] < 0 || tally_index[j] < 0 ? Counts{} : pairs_[tally_index[i]][tally_index[j]];
  };
  auto games = [](const Counts& c) { return c.wins + c.draws + c.losses; };

  Ranking out;
  out.rules = rules_;
  out.voided = voided_;
  std::vector<RankingRow> rows(n);
  for (int i = 0; i < n; ++i) {
    RankingRow& r = rows[i];
    r.name = all[i];
    if (tally_index[i] >= 0) {
      const Engine& e = engines_[tally_index[i]];
      r.wins = e.counts.wins;
      r.draws = e.counts.draws;
      r.losses = e.counts.losses;
      r.games = games(e.counts);
      r.points = value(e.counts);
    }
    if (const auto it = entries_.find(r.name); it != entries_.end()) {
      r.status = it->second.status;
      r.reason = it->second.reason;
    }
    r.tiebreaks.assign(rules_.tiebreaks.size(), std::nullopt);
  }
  // The tie-breaks that do not depend on the group, for every engine.
  auto fixed_value = [&](TieBreak t, int i) -> double {
    double sum = 0;
    switch (t) {
      case TieBreak::HeadToHead: return 0;
      case TieBreak::SonnebornBerger:
        for (int j = 0; j < n; ++j)
          if (j != i) sum += value(pair(i, j)) * rows[j].points;
        return sum;
      case TieBreak::Buchholz:
        for (int j = 0; j < n; ++j)
          if (j != i) sum += games(pair(i, j)) * rows[j].points;
        return sum;
      case TieBreak::Wins: return rows[i].wins;
      case TieBreak::SeedDifference:
        return tally_index[i] < 0 ? 0.0 : static_cast<double>(engines_[tally_index[i]].seed_difference);
    }
    return 0;
  };
  for (std::size_t k = 0; k < rules_.tiebreaks.size(); ++k)
    if (rules_.tiebreaks[k] != TieBreak::HeadToHead)
      for (int i = 0; i < n; ++i) rows[i].tiebreaks[k] = fixed_value(rules_.tiebreaks[k], i);

  // Active engines first, then those with games, then by points; the order of a group still tied is
  // settled below. Within a group, by name.
  auto active = [&](int i) { return rows[i].status == EntryStatus::Active; };
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  auto coarse_less = [&](int x, int y) {
    if (active(x) != active(y)) return active(x);
    if ((rows[x].games > 0) != (rows[y].games > 0)) return rows[x].games > 0;
    if (!same(rows[x].points, rows[y].points)) return rows[x].points > rows[y].points;
    return false;
  };
  std::sort(order.begin(), order.end(), [&](int x, int y) {
    if (coarse_less(x, y) || coarse_less(y, x)) return coarse_less(x, y);
    return rows[x].name < rows[y].name;
  });

  // The final order, one rank per block, and the ties that no tie-break broke.
  std::vector<std::vector<int>> blocks;
  TieSettler settler(
      rows, rules_.tiebreaks, out.ties, blocks, [&](int x, int y) { return value(pair(x, y)); },
      [&](int x, int y) { return games(pair(x, y)) > 0; });
  for (std::size_t from = 0; from < order.size();) {
    std::size_t to = from + 1;
    while (to < order.size() && !coarse_less(order[from], order[to])) ++to;
    const std::vector<int> group(order.begin() + static_cast<std::ptrdiff_t>(from),
                                 order.begin() + static_cast<std::ptrdiff_t>(to));
    // Withdrawn and disqualified entrants are not ranked, nor are engines without a counted game.
    if (group.size() == 1 || !active(group.front()) || rows[group.front()].games == 0)
      blocks.push_back(group);
    else
      settler.settle(group, 0, {}, {});
    from = to;
  }
  const std::vector<int> block_rank = rank_blocks(blocks, rows, out.rows);
  for (const auto& [step, block] : settler.unbroken()) out.ties[step].shared_rank = block_rank[block];
  return out;
}

}  // namespace kalah::rating
