#include "bots/mcts/mcts.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace kalah::mcts {
namespace {

// Whether the player to move is the one who started the game (as South).
inline bool first_to_move(const Position& p) { return player_to_move(p) == Seat::First; }

double first_player_reward(Outcome o) { return o == Outcome::FirstWins ? 1.0 : o == Outcome::Draw ? 0.5 : 0.0; }

}  // namespace

Search::Search(const Variant& v, const Settings& settings)
    : variant_(v), settings_(settings), rng_state_(settings.seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL) {
  capacity_ = std::max<size_t>(1024, (static_cast<size_t>(std::max(1, settings_.memory_mb)) << 20) / sizeof(Node));
}

// splitmix64: small, fast and good enough for playouts.
void Search::reseed(std::uint32_t game_seed) {
  rng_state_ = (settings_.seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL) ^ (std::uint64_t{game_seed} << 17);
}

std::uint64_t Search::next_random() {
  std::uint64_t z = (rng_state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Move Search::playout_move(const Position& p) {
  const MoveList moves = legal_moves(variant_, p);
  if (settings_.policy == Policy::Random || moves.size == 1 ||
      (settings_.greedy_epsilon > 0 && static_cast<double>(next_random() >> 11) * 0x1p-53 < settings_.greedy_epsilon))
    return moves.moves[random_below(moves.size)];

  // Greedy: an extra turn (nearest the store first), else the biggest store
  // gain now, ties at random (reservoir sampling).
  const Side me = p.to_move;
  const int own = store(variant_, p, me);
  int best_key = -1;
  int ties = 0;
  Move best = moves.moves[0];
  for (Move m : moves) {
    int key = 0;
    if (!m.is_swap()) {
      const Position c = after(variant_, p, m);
      key = store(variant_, c, me) - own;
      if (!c.over && c.to_move == me) key = 1000 + m.pit;
    }
    if (key > best_key) {
      best_key = key, best = m, ties = 1;
    } else if (key == best_key && random_below(++ties) == 0) {
      best = m;
    }
  }
  return best;
}

double Search::playout(Position p) {
  while (!p.over) apply(variant_, p, playout_move(p));
  return first_player_reward(outcome(variant_, p));
}

bool Search::expand(std::uint32_t index, const Position& p) {
  const MoveList moves = legal_moves(variant_, p);
  if (nodes_.size() + moves.size > capacity_) return false;
  const auto first = static_cast<std::uint32_t>(nodes_.size());
  for (Move m : moves) {
    Node child;
    child.move = m.pit;
    nodes_.push_back(child);
  }
  // Unvisited children are tried in a random order.
  for (int i = moves.size - 1; i > 0; --i) std::swap(nodes_[first + i], nodes_[first + random_below(i + 1)]);
  nodes_[index].first_child = first;
  nodes_[index].child_count = static_cast<std::uint8_t>(moves.size);
  return true;
}

std::uint32_t Search::select_child(const Node& parent) {
  const double log_n = std::log(static_cast<double>(std::max<std::uint32_t>(1, parent.visits)));
  std::uint32_t best = parent.first_child;
  double best_value = -1;
  for (std::uint32_t i = parent.first_child; i < parent.first_child + parent.child_count; ++i) {
    const Node& c = nodes_[i];
    if (c.visits == 0) return i;
    const double value = 0.5 * c.half_points / c.visits + settings_.exploration * std::sqrt(log_n / c.visits);
    if (value > best_value) best_value = value, best = i;
  }
  return best;
}

Result Search::summary(const bot::SearchTimer& timer) const {
  Result r;
  r.playouts = playouts_;
  r.time_ms = timer.elapsed_ms();
  r.depth = max_depth_;
  // The most visited move is the most reliable one; follow it for the pv.
  std::uint32_t index = 0;
  while (nodes_[index].child_count > 0 && r.pv.size() < 64) {
    const Node& n = nodes_[index];
    std::uint32_t best = n.first_child;
    for (std::uint32_t i = n.first_child; i < n.first_child + n.child_count; ++i)
      if (nodes_[i].visits > nodes_[best].visits ||
          (nodes_[i].visits == nodes_[best].visits && nodes_[i].half_points > nodes_[best].half_points))
        best = i;
    if (nodes_[best].visits == 0) break;
    if (r.pv.empty()) r.win_rate = 0.5 * nodes_[best].half_points / nodes_[best].visits;
    r.pv.push_back(Move{nodes_[best].move});
    index = best;
  }
  // With no playout at all (a zero budget, or a clock already gone), any
  // legal move beats an illegal one.
  r.best = r.pv.empty() ? Move{nodes_[nodes_[0].first_child].move} : r.pv.front();
  return r;
}

Result Search::run(const Position& root, const Limits& limits, const std::function<void(const Result&)>& progress) {
  assert(!root.over);
  const bot::SearchTimer timer(limits.clock, limits.started);
  nodes_.clear();
  nodes_.reserve(capacity_);
  nodes_.push_back(Node{});
  playouts_ = 0;
  max_depth_ = 0;
  expand(0, root);
  if (nodes_[0].child_count == 1 && limits.time_ms && !limits.playouts) {
    Result r = summary(timer);
    r.best = Move{nodes_[1].move};
    return r;
  }

  const int per_leaf = std::max(1, settings_.playouts);
  long long next_report_ms = 1000;
  std::vector<std::uint32_t> path;
  std::vector<char> mover_first;  // for path[i]: the player who moved into it is the first player
  for (long long iteration = 0;; ++iteration) {
    if (limits.playouts && playouts_ >= *limits.playouts) break;
    if (iteration > 0 && (iteration & 7) == 0) {  // one playout at least, whatever the clock says
      if (limits.stop && limits.stop->load(std::memory_order_relaxed)) break;
      if (limits.time_ms || progress) {
        const long long t = timer.elapsed_ms();
        if (limits.time_ms && t >= *limits.time_ms) break;
        if (progress && t >= next_report_ms) {
          progress(summary(timer));
          next_report_ms = t + 1000;
        }
      }
    }

    // Selection and expansion.
    Position p = root;
    std::uint32_t index = 0;
    path.assign(1, 0);
    mover_first.assign(1, !first_to_move(root));  // root "reward" is kept for the player to move's opponent
    while (!p.over) {
      if (nodes_[index].child_count == 0 && (nodes_[index].visits == 0 || !expand(index, p))) break;
      const std::uint32_t child = select_child(nodes_[index]);
      mover_first.push_back(first_to_move(p));
      apply(variant_, p, Move{nodes_[child].move});
      path.push_back(child);
      index = child;
    }
    max_depth_ = std::max(max_depth_, static_cast<int>(path.size()) - 1);

    // Simulation: a finished game needs no playout.
    double first_reward = 0;
    if (p.over) {
      first_reward = per_leaf * first_player_reward(outcome(variant_, p));
    } else {
      for (int i = 0; i < per_leaf; ++i) first_reward += playout(p);
    }
    const auto first_half_points = static_cast<std::uint32_t>(std::lround(2 * first_reward));
    playouts_ += per_leaf;

    // Backpropagation.
    for (size_t i = 0; i < path.size(); ++i) {
      Node& n = nodes_[path[i]];
      n.visits += per_leaf;
      n.half_points += mover_first[i] ? first_half_points : 2 * per_leaf - first_half_points;
    }
  }
  Result r = summary(timer);
  if (progress) progress(r);
  return r;
}

// ---- the bot ---------------------------------------------------------------

std::vector<kep::OptionDecl> MctsBot::options() const {
  return {{"Exploration", "spin", std::to_string(std::lround(settings_.exploration * 100)), 0, 1000},
          {"Playouts", "spin", std::to_string(settings_.playouts), 1, 1000},
          {"Seed", "spin", std::to_string(settings_.seed), 0, 2147483647},
          {"Memory", "spin", std::to_string(settings_.memory_mb), 1, 4096},
          {"Policy", "string", settings_.policy == Policy::Random ? "random" : "greedy", std::nullopt, std::nullopt}};
}

bool MctsBot::set_option(const std::string& name, const std::string& value) {
  if (name == "Policy") {
    if (value == "random")
      settings_.policy = Policy::Random;
    else if (value == "greedy")
      settings_.policy = Policy::Greedy;
    else
      return false;
    search_.reset();
    return true;
  }
  const std::optional<long long> v = bot::integer_value(value);
  if (!v) return false;
  if (name == "Exploration" && *v >= 0 && *v <= 1000) {
    settings_.exploration = static_cast<double>(*v) / 100;
  } else if (name == "Playouts" && *v >= 1 && *v <= 1000) {
    settings_.playouts = static_cast<int>(*v);
  } else if (name == "Seed" && *v >= 0 && *v <= 2147483647) {
    settings_.seed = static_cast<unsigned long long>(*v);
  } else if (name == "Memory" && *v >= 1 && *v <= 4096) {
    settings_.memory_mb = static_cast<int>(*v);
  } else {
    return false;
  }
  search_.reset();  // rebuilt (and reseeded) on the next move
  return true;
}

void MctsBot::new_game(const Variant& v) {
  ensure_search(v);
  if (game_seed_) search_->reseed(*game_seed_);
}

long long MctsBot::bench() {
  return bench_nodes([](Search& search, const Position& p) {
    Limits limits;
    limits.playouts = kBenchPlayouts;
    search.run(p, limits);
    return static_cast<long long>(search.tree_nodes());
  });
}

Move MctsBot::choose(const bot::SearchContext& context) {
  ensure_search(context.variant);
  auto limits = timed_limits<Limits>(context);
  limits.playouts = context.limits.nodes;
  if (context.limits.depth && !limits.playouts && !limits.time_ms) {
    // "go depth d" has no meaning for MCTS; read it as a playout budget that
    // grows with d so that the command still finishes.
    limits.playouts = 1000LL << std::min(*context.limits.depth, 10);
  }
  const Result r = search_->run(context.position, limits, [&](const Result& it) {
    const int win_percent = static_cast<int>(std::lround(it.win_rate * 100));  // the score MCTS reports
    context.report(bot::search_info(it.depth, win_percent, it.playouts, it.time_ms, it.pv));
  });
  return r.best;
}

}  // namespace kalah::mcts
