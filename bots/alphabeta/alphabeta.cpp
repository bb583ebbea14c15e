#include "bots/alphabeta/alphabeta.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <random>

namespace kalah::alphabeta {
namespace {

constexpr std::uint8_t kNoMove = 0xff;

// The player to move changes after a swap (the board stays, identities move)
// and after every move that does not earn an extra turn.
inline bool mover_changes(const Position& parent, Move m, const Position& child) {
  return m.is_swap() || child.to_move != parent.to_move;
}

}  // namespace

int protocol_score(int internal) {
  if (internal >= kWin) return 1000 + (internal - kWin) / kSeed;
  if (internal <= -kWin) return -1000 - (-internal - kWin) / kSeed;
  // Round to the nearest seed, halves away from zero.
  return internal >= 0 ? (internal + kSeed / 2) / kSeed : -((-internal + kSeed / 2) / kSeed);
}

Search::Search(const Variant& v, const Settings& settings) : settings_(settings) {
  const size_t bytes = static_cast<size_t>(std::max(1, settings_.hash_mb)) << 20;
  const size_t buckets = std::bit_floor(bytes / (sizeof(Entry) * kBucket));
  table_.assign(buckets * kBucket, Entry{});
  mask_ = buckets - 1;
  set_variant(v);
}

void Search::rebind(const Variant& v) {
  clear_table();
  generation_ = 0;
  set_variant(v);
}

void Search::set_variant(const Variant& v) {
  variant_ = v;
  std::mt19937_64 rng(0x6b616c6168ULL);  // fixed: hashes are reproducible run to run
  zobrist_.assign(static_cast<size_t>(v.cells()) * (v.total_seeds() + 1), 0);
  for (std::uint64_t& z : zobrist_) z = rng();
  zobrist_side_ = rng();
  for (std::uint64_t& z : zobrist_pie_) z = rng();
}

void Search::clear_table() {
  std::fill(table_.begin(), table_.end(), Entry{});
  for (auto& side : history_) std::fill(std::begin(side), std::end(side), 0u);
}

std::uint64_t Search::hash(const Position& p) const {
  const int stride = variant_.total_seeds() + 1;
  std::uint64_t h = p.to_move == Side::North ? zobrist_side_ : 0;
  h ^= zobrist_pie_[static_cast<int>(p.pie)];
  for (int c = 0, n = variant_.cells(); c < n; ++c) {
    assert(p.cells[c] < stride);  // seeds are conserved
    h ^= zobrist_[c * stride + p.cells[c]];
  }
  return h;
}

const Search::Entry* Search::probe(std::uint64_t key) const {
  const Entry* bucket = &table_[(key & mask_) * kBucket];
  for (int i = 0; i < kBucket; ++i)
    if (bucket[i].bound != kNone && bucket[i].key == key) return &bucket[i];
  return nullptr;
}

void Search::store(std::uint64_t key, int score, int depth, Bound bound, Move move) {
  Entry* bucket = &table_[(key & mask_) * kBucket];
  Entry* victim = nullptr;
  int victim_worth = 1 << 30;
  for (int i = 0; i < kBucket; ++i) {
    Entry& e = bucket[i];
    if (e.bound == kNone || e.key == key) {
      victim = &e;
      break;
    }
    // Keep entries of this search and deep ones; a finished search's entries
    // are still valid (values do not depend on the history) but go first.
    const int worth = (e.generation == generation_ ? 256 : 0) + e.depth;
    if (worth < victim_worth) victim = &e, victim_worth = worth;
  }
  assert(score > -kInfinity && score < kInfinity);
  victim->key = key;
  victim->score = static_cast<std::int16_t>(score);
  victim->depth = static_cast<std::uint8_t>(depth);
  victim->bound = bound;
  victim->move = move.pit;
  victim->generation = generation_;
}

int Search::evaluate(const Position& p) const {
  const Side me = p.to_move;
  const Side you = opponent(me);
  int score = kSeed * (kalah::store(variant_, p, me) - kalah::store(variant_, p, you));
  if (settings_.side_weight != 0 && variant_.remainder == Remainder::Owner)
    score += settings_.side_weight * (seeds_on_side(variant_, p, me) - seeds_on_side(variant_, p, you));
  return score;
}

int Search::terminal_score(const Position& p) const {
  return margin_score(kalah::store(variant_, p, p.to_move) - kalah::store(variant_, p, opponent(p.to_move)));
}

int Search::order_moves(const Position& p, Move tt_move, bool skip_tt, Move* moves, Position* children) const {
  const Side me = p.to_move;
  const int own = kalah::store(variant_, p, me);
  int keys[Variant::kMaxPits + 1];
  int n = 0;
  for (Move m : legal_moves(variant_, p)) {
    if (skip_tt && m == tt_move) continue;
    Position child = after(variant_, p, m);
    int key;
    if (m == tt_move) {
      key = 1 << 30;
    } else if (!m.is_swap() && !child.over && child.to_move == me) {
      // Extra turns first, the pit nearest the store first: sowing it does not
      // disturb the other pits that would also end in the store.
      key = (1 << 28) + m.pit;
    } else {
      const int gain = m.is_swap() ? 0 : kalah::store(variant_, child, me) - own;
      key = (gain << 16) + static_cast<int>(std::min<std::uint32_t>(history_[static_cast<int>(me)][m.pit], 0xffff));
    }
    // Insertion sort, best first (at most 17 moves).
    int i = n++;
    for (; i > 0 && keys[i - 1] < key; --i) {
      keys[i] = keys[i - 1];
      moves[i] = moves[i - 1];
      children[i] = children[i - 1];
    }
    keys[i] = key;
    moves[i] = m;
    children[i] = child;
  }
  return n;
}

bool Search::out_of_budget() {
  if (aborted_) return true;
  if (limits_.nodes && nodes_ >= *limits_.nodes) return aborted_ = true;
  if ((nodes_ & 1023) == 0) {
    if (limits_.stop && limits_.stop->load(std::memory_order_relaxed)) return aborted_ = true;
    if (limits_.time_ms && timer_.elapsed_ms() >= *limits_.time_ms) return aborted_ = true;
  }
  return false;
}

int Search::search(const Position& p, int depth, int alpha, int beta) {
  ++nodes_;
  if (out_of_budget()) return 0;
  if (p.over) return terminal_score(p);
  if (const std::optional<int> known = known_score(p)) return *known;
  if (depth <= 0) {
    horizon_ = true;
    return settings_.quiescence ? quiesce(p, alpha, beta) : evaluate(p);
  }

  const std::uint64_t key = hash(p);
  Move tt_move{kNoMove};
  if (const Entry* e = probe(key)) {
    tt_move = Move{e->move};
    if (e->depth >= depth) {
      const int s = e->score;
      if (e->bound == kExact || (e->bound == kLower && s >= beta) || (e->bound == kUpper && s <= alpha)) {
        if (e->depth != kComplete) horizon_ = true;
        return s;
      }
    }
  }

  // Whether this subtree reaches the depth horizon anywhere: if not, its value
  // is exact for any depth and is stored as such.
  const bool outer_horizon = horizon_;
  horizon_ = false;
  const int alpha0 = alpha;
  int best = -kInfinity;
  Move best_move{kNoMove};
  int searched = 0;
  // Principal-variation search of one child; true on a cutoff (or an abort).
  auto visit = [&](Move m, const Position& c) {
    const bool flip = mover_changes(p, m, c);
    auto child_value = [&](int d, int a, int b) { return flip ? -search(c, d, -b, -a) : search(c, d, a, b); };
    int s;
    if (searched++ == 0) {
      s = child_value(depth - 1, alpha, beta);
    } else {
      s = child_value(depth - 1, alpha, alpha + 1);
      if (s > alpha && s < beta && !aborted_) s = child_value(depth - 1, alpha, beta);
    }
    if (aborted_) return true;
    if (s > best) {
      best = s;
      best_move = m;
      if (s > alpha) {
        alpha = s;
        if (s >= beta) {
          if (!m.is_swap()) history_[static_cast<int>(p.to_move)][m.pit] += depth * depth;
          return true;
        }
      }
    }
    return false;
  };

  // The table's move first, before the others are even generated: it often
  // cuts off at once.
  bool cutoff = is_legal(variant_, p, tt_move) && visit(tt_move, after(variant_, p, tt_move));
  if (!cutoff) {
    Move moves[Variant::kMaxPits + 1];
    Position children[Variant::kMaxPits + 1];
    const int n = order_moves(p, tt_move, true, moves, children);
    for (int i = 0; i < n && !cutoff; ++i) cutoff = visit(moves[i], children[i]);
  }
  if (aborted_) return 0;
  const bool complete = !horizon_;
  horizon_ = outer_horizon || horizon_;
  const Bound bound = best >= beta ? kLower : best > alpha0 ? kExact : kUpper;
  store(key, best, complete ? kComplete : depth, bound, best_move);
  return best;
}

// Only the moves that change the material at once: extra turns and captures.
// Every one of them puts seeds into the mover's store for good, so this ends.
int Search::quiesce(const Position& p, int alpha, int beta) {
  if (const std::optional<int> known = known_score(p)) return *known;
  const int stand = evaluate(p);
  if (stand >= beta) return stand;
  alpha = std::max(alpha, stand);
  int best = stand;
  const Side me = p.to_move;
  const int own = kalah::store(variant_, p, me);
  for (Move m : legal_moves(variant_, p)) {
    if (m.is_swap()) continue;
    const Position c = after(variant_, p, m);
    const bool extra = !c.over && c.to_move == me;
    if (!extra && !c.over && kalah::store(variant_, c, me) - own < 2) continue;
    ++nodes_;
    if (out_of_budget()) return 0;
    int s;
    if (c.over)
      s = mover_changes(p, m, c) ? -terminal_score(c) : terminal_score(c);
    else if (extra)
      s = quiesce(c, alpha, beta);
    else
      s = -quiesce(c, -beta, -alpha);
    if (aborted_) return 0;
    if (s > best) {
      best = s;
      if (s > alpha) {
        alpha = s;
        if (s >= beta) break;
      }
    }
  }
  return best;
}

int Search::search_root(const Position& root, int depth, std::vector<Move>& root_moves, Move& best_move) {
  ++nodes_;
  int alpha = -kInfinity;
  const int beta = kInfinity;
  int best = -kInfinity;
  for (size_t i = 0; i < root_moves.size(); ++i) {
    const Move m = root_moves[i];
    const Position c = after(variant_, root, m);
    const bool flip = mover_changes(root, m, c);
    int s;
    if (i == 0) {
      s = flip ? -search(c, depth - 1, -beta, -alpha) : search(c, depth - 1, alpha, beta);
    } else {
      s = flip ? -search(c, depth - 1, -alpha - 1, -alpha) : search(c, depth - 1, alpha, alpha + 1);
      if (s > alpha && !aborted_) s = flip ? -search(c, depth - 1, -beta, -alpha) : search(c, depth - 1, alpha, beta);
    }
    if (aborted_) break;
    if (s > best) {
      best = s;
      best_move = m;
      alpha = std::max(alpha, s);
      // The best move so far is searched first next time.
      std::rotate(root_moves.begin(), root_moves.begin() + static_cast<long>(i),
                  root_moves.begin() + static_cast<long>(i) + 1);
    }
  }
  if (!aborted_) store(hash(root), best, horizon_ ? depth : kComplete, kExact, best_move);
  return best;
}

std::vector<Move> Search::principal_variation(const Position& root, int max_length) const {
  std::vector<Move> pv;
  Position p = root;
  while (static_cast<int>(pv.size()) < max_length && !p.over) {
    const Entry* e = probe(hash(p));
    if (!e || e->move == kNoMove || !is_legal(variant_, p, Move{e->move})) break;
    pv.push_back(Move{e->move});
    apply(variant_, p, pv.back());
  }
  return pv;
}

Result Search::run(const Position& root, const Limits& limits, const std::function<void(const Result&)>& on_iteration) {
  assert(!root.over);
  limits_ = limits;
  timer_ = bot::SearchTimer(limits.clock, limits.started);
  nodes_ = 0;
  aborted_ = false;
  ++generation_;
  for (auto& side : history_)
    for (auto& h : side) h /= 8;

  Move moves[Variant::kMaxPits + 1];
  Position children[Variant::kMaxPits + 1];
  const Entry* e = probe(hash(root));
  const int n = order_moves(root, e ? Move{e->move} : Move{kNoMove}, false, moves, children);
  std::vector<Move> root_moves(moves, moves + n);

  Result result;
  result.best = root_moves.front();
  const int max_depth = std::clamp(std::min(settings_.max_depth, limits.depth.value_or(kMaxDepth)), 1, kMaxDepth);
  const bool timed_only = limits.time_ms && !limits.depth && !limits.nodes;
  for (int depth = 1; depth <= max_depth; ++depth) {
    horizon_ = false;
    Move best = root_moves.front();
    const Move previous = best;
    const int score = search_root(root, depth, root_moves, best);
    if (aborted_) {
      // A move that beat the previous best in the unfinished iteration was
      // searched to the full depth: take it.
      if (best != previous) result.best = best;
      break;
    }
    result.best = best;
    result.score = score;
    result.depth = depth;
    result.exact = !horizon_;
    result.nodes = nodes_;
    result.time_ms = timer_.elapsed_ms();
    result.pv = principal_variation(root, depth);
    if (result.pv.empty() || result.pv.front() != best) result.pv = {best};
    if (on_iteration) on_iteration(result);
    if (result.exact) break;
    if (timed_only && (n == 1 || 100 * result.time_ms >= settings_.soft_time_percent * *limits.time_ms)) break;
  }
  result.nodes = nodes_;
  result.time_ms = timer_.elapsed_ms();
  return result;
}

// ---- the bot ---------------------------------------------------------------

std::vector<kep::OptionDecl> AlphaBetaBot::options() const {
  return {{"Hash", "spin", std::to_string(settings_.hash_mb), 1, 4096},
          {"Depth", "spin", std::to_string(settings_.max_depth), 1, kMaxDepth}};
}

bool AlphaBetaBot::set_option(const std::string& name, const std::string& value) {
  const std::optional<long long> v = bot::integer_value(value);
  if (!v) return false;
  if (name == "Hash" && *v >= 1 && *v <= 4096) {
    settings_.hash_mb = static_cast<int>(*v);
  } else if (name == "Depth" && *v >= 1 && *v <= kMaxDepth) {
    settings_.max_depth = static_cast<int>(*v);
  } else {
    return false;
  }
  rebuild_search();  // now, while no clock runs (options are set between games)
  return true;
}

void AlphaBetaBot::new_game(const Variant& v) {
  // The table is built here, not in the first `go`, whose clock is running.
  if (!ensure_search(v)) search_->clear_table();
}

long long AlphaBetaBot::bench() {
  return bench_nodes([](Search& search, const Position& p) {
    Limits limits;
    limits.depth = kBenchDepth;
    return search.run(p, limits).nodes;
  });
}

Move AlphaBetaBot::choose(const bot::SearchContext& context) {
  ensure_search(context.variant);
  auto limits = timed_limits<Limits>(context);
  limits.depth = context.limits.depth;
  limits.nodes = context.limits.nodes;
  const Result r = search_->run(context.position, limits, [&](const Result& it) {
    context.report(bot::search_info(it.depth, protocol_score(it.score), it.nodes, it.time_ms, it.pv));
  });
  return r.best;
}

}  // namespace kalah::alphabeta
