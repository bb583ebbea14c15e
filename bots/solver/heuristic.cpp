#include "bots/solver/heuristic.h"

#include <algorithm>

namespace kalah::solver {

using Clock = std::chrono::steady_clock;

namespace {
constexpr int kInfinity = 30000;
enum Bound : std::uint8_t { kNone, kLower, kUpper, kExact };

int own_diff(const Variant& v, const Position& p) {
  return store(v, p, p.to_move) - store(v, p, opponent(p.to_move));
}
}  // namespace

struct HeuristicSearch::Entry {
  std::uint64_t key = 0;
  std::int16_t score = 0;
  std::uint8_t depth = 0;
  std::uint8_t bound = kNone;
  Move move;
};

HeuristicSearch::HeuristicSearch(const Variant& v, std::size_t hash_mb) : variant_(v) {
  std::size_t n = 1;
  while (n * 2 * sizeof(Entry) <= (hash_mb << 20)) n *= 2;
  table_ = LargeArray<Entry>::make(n);  // zero: empty (no hash is 0)
  table_size_ = n;
}

void HeuristicSearch::prefault() { kalah::solver::prefault(table_.get(), table_size_ * sizeof(Entry)); }

HeuristicSearch::~HeuristicSearch() = default;

void HeuristicSearch::set_database(std::shared_ptr<const Database> db) {
  if (db && !(db->key() == DbKey::of(variant_))) db = nullptr;
  db_ = std::move(db);
}

std::uint64_t HeuristicSearch::hash(const Position& p) const {
  std::uint64_t h = 0x6a09e667f3bcc909ULL ^ (static_cast<unsigned>(p.to_move) | static_cast<unsigned>(p.pie) << 1);
  for (int i = 0; i < variant_.cells(); ++i) {
    h = (h ^ p.cells[i]) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
  }
  return h | 1;  // never 0: 0 marks an empty slot
}

int HeuristicSearch::evaluate(const Position& p) {
  const int diff = own_diff(variant_, p);
  if (db_levels_ < 0 || p.pie != Pie::None) return diff;
  const int m = variant_.pits;
  const int own = p.to_move == Side::South ? 0 : m + 1;
  const int other = p.to_move == Side::South ? m + 1 : 0;
  std::uint8_t pits[2 * Variant::kMaxPits];
  int seeds = 0;
  for (int i = 0; i < m; ++i) {
    pits[i] = static_cast<std::uint8_t>(p.cells[own + i]);
    pits[m + i] = static_cast<std::uint8_t>(p.cells[other + i]);
    seeds += p.cells[own + i] + p.cells[other + i];
  }
  if (seeds > db_levels_) return diff;
  return diff + db_->value(db_->index().rank(pits));
}

bool HeuristicSearch::out_of_time() {
  if (nodes_ >= limits_->max_nodes) return true;
  if (nodes_ < next_check_) return false;
  next_check_ = nodes_ + 1024;
  if (limits_->stop && limits_->stop->load(std::memory_order_relaxed)) return true;
  return Clock::now() >= limits_->hard;
}

int HeuristicSearch::search(const Position& p, int depth, int alpha, int beta, int ply) {
  ++nodes_;
  if (p.over) return own_diff(variant_, p);
  if (depth <= 0) return evaluate(p);
  if (out_of_time()) aborted_ = true;
  if (aborted_) return 0;

  Entry& e = table_[hash(p) & (table_size_ - 1)];
  const std::uint64_t key = hash(p);
  Move tt_move = Move::at(0xff);
  if (e.key == key) {
    tt_move = e.move;
    if (e.depth >= depth && ply > 0) {
      if (e.bound == kExact) return e.score;
      if (e.bound == kLower && e.score >= beta) return e.score;
      if (e.bound == kUpper && e.score <= alpha) return e.score;
    }
  }

  // Order: the table's move, moves that earn another turn (nearest the store
  // first), captures and other gains, the rest.
  MoveList moves = legal_moves(variant_, p);
  struct Scored {
    Move move;
    int order;
    Position child;
  };
  Scored list[Variant::kMaxPits + 1];
  const int before = own_diff(variant_, p);
  for (int i = 0; i < moves.size; ++i) {
    const Move m = moves.moves[i];
    Scored& s = list[i];
    s.move = m;
    s.child = after(variant_, p, m);
    const bool same = (s.child.to_move == p.to_move) != m.is_swap();
    const int gain = (same ? own_diff(variant_, s.child) : -own_diff(variant_, s.child)) - before;
    s.order = m == tt_move ? 1 << 20 : (same && !s.child.over && !m.is_swap()) ? (1 << 16) + m.pit : gain * 64 + m.pit;
  }
  std::sort(list, list + moves.size, [](const Scored& a, const Scored& b) { return a.order > b.order; });

  const int alpha0 = alpha;
  int best = -kInfinity;
  Move best_move = list[0].move;
  for (int i = 0; i < moves.size; ++i) {
    const Scored& s = list[i];
    const bool same = (s.child.to_move == p.to_move) != s.move.is_swap();
    const int v = same ? search(s.child, depth - 1, alpha, beta, ply + 1)
                       : -search(s.child, depth - 1, -beta, -alpha, ply + 1);
    if (aborted_) return 0;
    if (v > best) {
      best = v;
      best_move = s.move;
      if (v > alpha) alpha = v;
      if (alpha >= beta) break;
    }
  }
  if (e.key != key || e.depth <= depth) {
    e.key = key;
    e.score = static_cast<std::int16_t>(best);
    e.depth = static_cast<std::uint8_t>(std::min(depth, 255));
    e.bound = best >= beta ? kLower : best <= alpha0 ? kUpper : kExact;
    e.move = best_move;
  }
  return best;
}

std::vector<Move> HeuristicSearch::principal_variation(Position p, int depth) {
  std::vector<Move> pv;
  for (int i = 0; i < depth && !p.over; ++i) {
    const Entry& e = table_[hash(p) & (table_size_ - 1)];
    if (e.key != hash(p) || !is_legal(variant_, p, e.move)) break;
    pv.push_back(e.move);
    apply(variant_, p, e.move);
  }
  return pv;
}

Iteration HeuristicSearch::run(const Position& p, const HeuristicLimits& limits,
                               const std::function<void(const Iteration&)>& on_iteration) {
  limits_ = &limits;
  nodes_ = 0;
  next_check_ = 0;
  db_levels_ = db_ && !variant_.majority ? db_->ready() : -1;
  Iteration best;
  best.best = legal_moves(variant_, p).moves[0];
  for (int depth = 1; depth <= limits.max_depth; ++depth) {
    aborted_ = false;
    const int score = search(p, depth, -kInfinity, kInfinity, 0);
    // Depth 1 is cheap and always kept, so there is always a move.
    if (aborted_ && depth > 1) break;
    best.depth = depth;
    best.score = score;
    best.pv = principal_variation(p, depth);
    if (!best.pv.empty()) best.best = best.pv[0];
    best.nodes = nodes_;
    if (on_iteration) on_iteration(best);
    if (aborted_ || Clock::now() >= limits.soft || nodes_ >= limits.max_nodes) break;
    if (limits.stop && limits.stop->load()) break;
  }
  limits_ = nullptr;
  return best;
}

}  // namespace kalah::solver
