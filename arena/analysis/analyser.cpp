#include "arena/analysis/analyser.h"

#include <algorithm>
#include <chrono>

#include <fmt/core.h>

namespace kalah::analysis {

std::shared_ptr<const endgame::Database> Databases::for_variant(const Variant& v) {
  if (v.majority || !solver::ExactSolver::supports(v)) return nullptr;
  const endgame::DbKey key = endgame::DbKey::of(v);
  const int levels = std::min(
      endgame::levels_for_memory(v.pits, options_.database_mb << 20, endgame::Database::kMaxLevels), v.total_seeds());
  if (levels < 0) return nullptr;
  // Held while loading or building: the other threads would wait for the same database anyway.
  std::lock_guard lock(mutex_);
  std::shared_ptr<endgame::Database>& db = by_key_[key.name()];
  if (!db || db->target() < levels) {
    db = std::make_shared<endgame::Database>(key, levels);
    endgame::Database::OnLevel on_level;
    if (options_.database_progress) {
      const auto start = std::chrono::steady_clock::now();
      on_level = [&, start, told = start, built = db.get()](int level) mutable {
        const auto now = std::chrono::steady_clock::now();
        const bool starting = level == built->stats().loaded_levels, done = level == built->target();
        if (!starting && !done && now - told < std::chrono::seconds(2)) return;
        told = now;
        DatabaseProgress p;
        p.name = key.name();
        p.target = built->target();
        p.loaded = built->stats().loaded_levels;
        p.ready = level;
        const endgame::CompositionIndex& index = built->index();
        const std::uint64_t first = index.offset(p.loaded + 1), all = index.offset(p.target + 1) - first;
        p.share = all == 0 ? 1.0 : static_cast<double>(index.offset(level + 1) - first) / static_cast<double>(all);
        p.seconds = std::chrono::duration<double>(now - start).count();
        options_.database_progress(p);
      };
    }
    db->load_or_build(options_.cache_dir, options_.database_threads, options_.stop, on_level);
  }
  return db;
}

std::string describe(const DatabaseProgress& p) {
  if (p.ready == p.loaded)
    return fmt::format("endgame database {}: building positions with up to {} seeds in the pits{}", p.name, p.target,
                       p.loaded >= 0 ? fmt::format(" (up to {} read from the cache)", p.loaded) : std::string());
  return fmt::format("endgame database {}: {}/{} seeds, {:.1f}% of its positions, {:.0f} s", p.name, p.ready, p.target,
                     100 * p.share, p.seconds);
}

std::vector<std::string> Databases::describe() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [name, db] : by_key_) {
    const endgame::DbStats& s = db->stats();
    std::string how;
    if (s.loaded_levels >= s.levels)
      how = fmt::format("loaded from the cache in {:.1f} s", s.load_seconds);
    else
      how = fmt::format("built in {:.1f} s{}", s.build_seconds + s.load_seconds, s.saved ? ", cached" : "");
    out.push_back(fmt::format("{}: positions with up to {} seeds in the pits ({})", name, db->ready(), how));
  }
  return out;
}

std::optional<std::optional<int>> SearchedPositions::claim(const std::string& key) {
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return !in_progress_.contains(key); });
  if (auto it = results_.find(key); it != results_.end()) return it->second;
  in_progress_.insert(key);
  return std::nullopt;
}

void SearchedPositions::finish(const std::string& key, std::optional<int> result, bool record) {
  {
    std::lock_guard lock(mutex_);
    in_progress_.erase(key);
    if (record) {
      if (results_.size() >= kMaxPositions) results_.clear();
      results_.emplace(key, result);
    }
  }
  done_.notify_all();
}

void SharedPositions::add(const GameRecord& game) {
  const std::string variant = to_string(game.variant);
  Position p = game.initial_position();
  for (std::size_t i = 0; i < game.moves.size() && i < static_cast<std::size_t>(kPlies); ++i) {
    if (!is_legal(game.variant, p, game.moves[i])) return;
    std::string key = variant + '|' + to_notation(game.variant, p);
    if (auto it = games_.find(key); it != games_.end())
      ++it->second;
    else if (games_.size() < kMaxPositions)
      games_.emplace(std::move(key), 1);
    apply(game.variant, p, game.moves[i]);
  }
}

int SharedPositions::games_through(const Variant& v, const Position& p) const {
  const auto it = games_.find(to_string(v) + '|' + to_notation(v, p));
  return it == games_.end() ? 0 : it->second;
}

Analyser::Solver& Analyser::solver_for(const Variant& v) {
  const std::string name = to_string(v);
  auto it = solvers_.find(name);
  if (it != solvers_.end()) return it->second;
  Solver s;
  s.database = databases_.for_variant(v);
  if (!options_.database_only && solver::ExactSolver::supports(v)) {
    s.exact = std::make_unique<solver::ExactSolver>(v, options_.hash_mb, 1);
    s.exact->set_database(s.database);
  }
  return solvers_.emplace(name, std::move(s)).first->second;
}

namespace {

// Positions whose search result an analyser keeps (about 100 bytes each).
constexpr std::size_t kMaxRemembered = 1 << 20;

int own_difference(const Variant& v, const Position& p) {
  return store(v, p, p.to_move) - store(v, p, opponent(p.to_move));
}
}  // namespace

std::optional<int> Analyser::value(const Variant& v, const Position& p, GameCost* cost, std::optional<int> hint) {
  if (cost) ++cost->positions;
  std::optional<int> result;
  if (p.over) {
    result = own_difference(v, p);
  } else {
    Solver& s = solver_for(v);
    if (s.database) result = endgame::final_margin(*s.database, v, p);
    if (!result && s.exact) {
      std::string key = to_notation(v, p);
      std::optional<std::optional<int>> known;
      if (options_.searched) {
        known = options_.searched->claim(to_string(v) + '|' + key);
      } else if (auto it = s.searched.find(key); it != s.searched.end()) {
        known = it->second;
      }
      if (known) {
        result = *known;
      } else {
        solver::SolveLimits limits;
        const int through = options_.shared ? options_.shared->games_through(v, p) : 0;
        const int factor = std::clamp(through / 2, 1, std::max(1, options_.max_budget_factor));
        limits.deadline = std::chrono::steady_clock::now() + options_.budget * factor;
        limits.stop = options_.stop;
        limits.hint = hint;
        const std::uint64_t before = s.exact->stats().nodes;
        result = s.exact->value(p, limits);
        if (cost) cost->nodes += s.exact->stats().nodes - before;
        // A search cut short by a stop is no verdict on the position.
        const bool record = !(options_.stop && options_.stop->load());
        if (options_.searched) {
          options_.searched->finish(to_string(v) + '|' + key, result, record);
        } else if (record) {
          if (s.searched.size() >= kMaxRemembered) s.searched.clear();
          s.searched.emplace(std::move(key), result);
        }
      }
    }
  }
  if (cost && result) ++cost->proved;
  return result;
}

GameAnalysis Analyser::analyse(const GameRecord& game, GameCost* cost) {
  GameAnalysis out;
  out.id = game.id;
  const std::size_t n = game.moves.size();
  out.value.assign(n, std::nullopt);
  out.loss.assign(n, std::nullopt);
  const Variant& v = game.variant;
  // The positions first; a move the rules refuse ends the game there.
  std::vector<Position> positions{game.initial_position()};
  for (std::size_t i = 0; i < n && is_legal(v, positions.back(), game.moves[i]); ++i)
    positions.push_back(after(v, positions.back(), game.moves[i]));
  const std::size_t plies = positions.size() - 1;
  if (plies == 0) return out;
  // Then backwards from the end: a position's value is at least what its played move keeps, and usually
  // just that, so the value after each ply is the search's first guess (MTD(f) then needs few passes),
  // and the positions nearer the end, searched first, leave their bounds in the table for the earlier.
  std::optional<int> then = value(v, positions[plies], cost);
  for (std::size_t i = plies; i-- > 0;) {
    if (options_.stop && options_.stop->load()) return out;
    const Position& p = positions[i];
    const Move m = game.moves[i];
    // The same player moves again after an extra turn; after a swap the same side moves but another
    // player sits there.
    const bool same_player = (positions[i + 1].to_move == p.to_move) != m.is_swap();
    const std::optional<int> kept = then ? std::optional<int>(same_player ? *then : -*then) : std::nullopt;
    const std::optional<int> now = value(v, p, cost, kept);
    out.value[i] = now;
    // A move cannot gain on perfect play; should the figures say so, the ply stays unproved.
    if (now && kept && *now - *kept >= 0) out.loss[i] = *now - *kept;
    then = now;
  }
  return out;
}

}  // namespace kalah::analysis
