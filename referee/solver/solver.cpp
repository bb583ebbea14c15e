#include "referee/solver/solver.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "referee/endgame/dispatch.h"
#include "referee/solver/search.h"

namespace kalah::solver {

using Clock = std::chrono::steady_clock;

// The part that depends on the board size: MTD(f) over the search of search.h
// for positions without a pie decision pending.
class ExactSolver::Impl {
 public:
  virtual ~Impl() = default;
  // The future change of the store difference for the side to move.
  // `hint`: a guess of it, if known.
  virtual std::optional<int> future(const Position& p, SearchShared& shared, int threads, SolveStats& stats,
                                    std::optional<int> hint) = 0;
  // The pits (0-based) whose moves keep the value `future` (as returned
  // above): the first found, or all of them.
  virtual std::optional<std::vector<int>> best_pits(const Position& p, int future, bool all, SearchShared& shared,
                                                    SolveStats& stats) = 0;
  virtual bool exact_keys() const = 0;
  virtual const CompositionIndex& index() const = 0;
};

namespace {

template <int M>
class SizedImpl final : public ExactSolver::Impl {
 public:
  explicit SizedImpl(const Variant& v) : variant_(v), index_(2 * M, v.total_seeds()) {
    exact_ = index_.fits();
    if (v.majority) {
      const unsigned __int128 n = static_cast<unsigned __int128>(index_.size()) * (v.total_seeds() + 1);
      exact_ = exact_ && n < ~std::uint64_t{0};
    }
  }

  bool exact_keys() const override { return exact_; }
  const CompositionIndex& index() const override { return index_; }

  std::optional<int> future(const Position& p, SearchShared& shared, int threads, SolveStats& stats,
                            std::optional<int> hint) override {
    const Board<M> b = from_position<M>(variant_, p);
    prepare(shared);
    const int k = b.seeds;
    if (k <= shared.db_levels) return Search<M>(shared, 0).db_value(b);
    const int step = shared.rules.step();
    int lower = -k, upper = k;
    int guess = 0;
    if (hint) {
      guess = *hint;
    } else {
      // A shallow search, as deep as some ten thousand nodes allow.
      Search<M> quick(shared, 0);
      for (int depth = 2; depth <= 40; depth += 2) {
        const int e = quick.estimate(b, depth, -1000, 1000, 30000);
        if (quick.aborted()) break;
        guess = e;
      }
      stats.nodes += quick.nodes();
      if (shared.stop && shared.stop->load()) return std::nullopt;
    }
    int g = std::clamp(guess, lower, upper);
    if (step == 2 && ((g - k) & 1)) ++g;
    while (lower < upper) {
      const int gamma = g == lower ? g + step : g;
      const std::optional<int> r = pass(b, gamma, shared, threads, stats);
      if (!r) return std::nullopt;
      if (*r >= gamma)
        lower = *r;
      else
        upper = *r;
      g = *r;
    }
    return lower;
  }

  std::optional<std::vector<int>> best_pits(const Position& p, int future, bool all, SearchShared& shared,
                                            SolveStats& stats) override {
    const Board<M> b = from_position<M>(variant_, p);
    prepare(shared);
    Search<M> search(shared, 0);
    // The table's move first: usually the one that proved the value.
    int first = -1;
    TTData d;
    if (b.seeds > shared.db_levels && shared.tt->probe(search.key(b), d) && d.move < M) first = d.move;
    std::vector<int> result;
    for (int t = -1; t < M && (all || result.empty()); ++t) {
      const int i = t < 0 ? first : t;
      if (i < 0 || (t >= 0 && i == first) || b.pits[i] == 0) continue;
      Board<M> child;
      const MoveResult r = play(shared.rules, b, i, child);
      bool best;
      if (r.over) {
        best = r.gain >= future;
      } else if (r.again) {
        const int need = future - r.gain;  // child >= need
        best = search.test(child, need, 1) >= need;
      } else {
        const int gamma = r.gain - future + 1;  // child <= gain - future
        best = search.test(child, gamma, 1) < gamma;
      }
      if (search.aborted()) break;
      if (best) result.push_back(i);
    }
    std::sort(result.begin(), result.end());
    stats.nodes += search.nodes();
    if (search.aborted()) return std::nullopt;
    return result;
  }

 private:
  void prepare(SearchShared& shared) {
    shared.index = &index_;
    shared.exact_keys = exact_;
  }

  std::optional<int> pass(const Board<M>& b, int gamma, SearchShared& shared, int threads, SolveStats& stats) {
    ++stats.passes;
    const auto start = Clock::now();
    const std::uint64_t nodes_before = stats.nodes;
    std::atomic<bool> done{false};
    shared.pass_done = threads > 1 ? &done : nullptr;
    std::unique_ptr<BusySet> busy = threads > 1 ? std::make_unique<BusySet>() : nullptr;
    shared.busy = busy.get();
    struct Slot {
      int value = 0;
      bool ok = false;
      std::uint64_t nodes = 0;
    };
    std::vector<Slot> slots(threads);
    auto run = [&](int t) {
      Search<M> search(shared, t);
      const int v = search.test(b, gamma, 0);
      slots[t].nodes = search.nodes();
      if (!search.aborted()) {
        slots[t].value = v;
        slots[t].ok = true;
        done.store(true, std::memory_order_relaxed);
      }
    };
    std::vector<std::thread> helpers;
    for (int t = 1; t < threads; ++t) helpers.emplace_back(run, t);
    run(0);
    done.store(true);
    for (std::thread& h : helpers) h.join();
    shared.pass_done = nullptr;
    shared.busy = nullptr;
    std::optional<int> result;
    for (const Slot& s : slots) {
      stats.nodes += s.nodes;
      // Any finished thread's answer is exact; a fail-soft bound may differ
      // between threads, all are valid. Take the tightest useful one.
      if (s.ok) {
        if (!result)
          result = s.value;
        else if (s.value >= gamma)
          result = std::max(*result, s.value);
        else
          result = std::min(*result, s.value);
      }
    }
    if (result) {
      stats.log.push_back(
          {gamma, *result, stats.nodes - nodes_before, std::chrono::duration<double>(Clock::now() - start).count()});
      const SolveStats::Pass& p = stats.log.back();
      if (shared.on_pass) (*shared.on_pass)(p.gamma, p.result, p.nodes, p.seconds);
    }
    return result;
  }

  Variant variant_;
  CompositionIndex index_;
  bool exact_ = true;
};

int own_diff(const Variant& v, const Position& p) { return store(v, p, p.to_move) - store(v, p, opponent(p.to_move)); }

}  // namespace

ExactSolver::ExactSolver(const Variant& v, std::size_t hash_mb, int threads)
    : variant_(v), threads_(threads < 1 ? 1 : threads), tt_(std::make_unique<TranspositionTable>(hash_mb)) {
  // The near table: 16 MB (an eighth of the main table for small ones), for
  // nodes up to 8 seeds above the database; measured on Kalah(6,4), see docs/SOLVER.md.
  set_near_table(8, std::clamp<std::size_t>((hash_mb << 10) / 8, 1024, 16 << 10));
  if (supports(v))
    impl_ = dispatch_pits(v.pits, [&]<int M>() -> std::unique_ptr<Impl> { return std::make_unique<SizedImpl<M>>(v); });
}

ExactSolver::~ExactSolver() = default;

bool ExactSolver::exact_keys() const { return impl_ && impl_->exact_keys(); }

void ExactSolver::set_database(std::shared_ptr<const Database> db) {
  if (db && !(db->key() == DbKey::of(variant_))) db = nullptr;
  db_ = std::move(db);
}

void ExactSolver::set_near_table(int near_margin, std::size_t near_kb) {
  near_margin_ = near_margin;
  near_tt_ = near_margin > 0 ? std::make_unique<TranspositionTable>(std::max<std::size_t>(1, near_kb >> 10)) : nullptr;
}

void ExactSolver::set_margins(int etc_margin, int store_margin) {
  etc_margin_ = etc_margin;
  store_margin_ = store_margin;
}

SearchShared ExactSolver::shared_for(const SolveLimits& limits) const {
  SearchShared shared;
  shared.rules = Rules::of(variant_);
  shared.tt = tt_.get();
  shared.near_tt = near_tt_.get();
  shared.near_margin = near_margin_;
  shared.db = db_.get();
  shared.db_levels = db_levels();
  shared.stop = limits.stop;
  shared.deadline = limits.deadline;
  shared.etc_margin = etc_margin_;
  shared.store_margin = store_margin_;
  shared.on_pass = on_pass_ ? &on_pass_ : nullptr;
  return shared;
}

int ExactSolver::db_levels() const {
  if (!db_ || variant_.majority || !impl_) return -1;
  // The database's index must agree with ours: it does (same formula), but
  // only positions up to its ready levels are in it.
  return db_->ready();
}

namespace {

struct Context {
  ExactSolver::Impl& impl;
  SearchShared shared;
  int threads;
  SolveStats& stats;
};

// The margin of the player to move, without a pie decision pending.
std::optional<int> plain_margin(const Variant& v, const Position& p, Context& c) {
  if (p.over) return own_diff(v, p);
  const std::optional<int> f = c.impl.future(p, c.shared, c.threads, c.stats, std::nullopt);
  if (!f) return std::nullopt;
  return own_diff(v, p) + *f;
}

std::optional<int> margin(const Variant& v, const Position& p, Context& c);

// The margin, for the player who makes it, of every legal move.
std::optional<std::vector<MoveValue>> all_moves(const Variant& v, const Position& p, Context& c) {
  std::vector<MoveValue> out;
  for (Move m : legal_moves(v, p)) {
    const Position child = after(v, p, m);
    const std::optional<int> cm = margin(v, child, c);
    if (!cm) return std::nullopt;
    // After a swap the same seat moves but another player sits there.
    const bool same_player = (child.to_move == p.to_move) != m.is_swap();
    out.push_back({m, same_player ? *cm : -*cm});
  }
  return out;
}

std::optional<int> margin(const Variant& v, const Position& p, Context& c) {
  if (p.over) return own_diff(v, p);
  if (p.pie == Pie::None) return plain_margin(v, p, c);
  if (p.pie == Pie::Offer) {
    // Playing on keeps the board's value for North; swapping hands North's
    // side to the first player, who is then to move: the negation.
    Position plain = p;
    plain.pie = Pie::None;
    const std::optional<int> keep = plain_margin(v, plain, c);
    if (!keep) return std::nullopt;
    return std::abs(*keep);
  }
  const auto moves = all_moves(v, p, c);
  if (!moves) return std::nullopt;
  int best = -100000;
  for (const MoveValue& mv : *moves) best = std::max(best, mv.margin);
  return best;
}

}  // namespace

std::optional<int> ExactSolver::value(const Position& p, const SolveLimits& limits) {
  if (!impl_) return std::nullopt;
  const auto start = Clock::now();
  Context c{*impl_, shared_for(limits), threads_, stats_};
  std::optional<int> r;
  if (limits.hint && p.pie == Pie::None && !p.over) {
    const int now = own_diff(variant_, p);
    if (const std::optional<int> f = impl_->future(p, c.shared, threads_, stats_, *limits.hint - now)) r = now + *f;
  } else {
    r = margin(variant_, p, c);
  }
  stats_.seconds += std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

std::optional<std::vector<MoveValue>> ExactSolver::move_values(const Position& p, const SolveLimits& limits) {
  if (!impl_) return std::nullopt;
  const auto start = Clock::now();
  Context c{*impl_, shared_for(limits), threads_, stats_};
  auto r = all_moves(variant_, p, c);
  stats_.seconds += std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

std::optional<MoveValue> ExactSolver::best_move(const Position& p, const SolveLimits& limits) {
  if (!impl_ || p.over) return std::nullopt;
  const auto start = Clock::now();
  Context c{*impl_, shared_for(limits), threads_, stats_};
  std::optional<MoveValue> result;
  auto done = [&] {
    stats_.seconds += std::chrono::duration<double>(Clock::now() - start).count();
    return result;
  };
  if (p.pie == Pie::FirstMove) {
    const auto moves = all_moves(variant_, p, c);
    if (!moves) return done();
    for (const MoveValue& mv : *moves)
      if (!result || mv.margin > result->margin) result = mv;
    return done();
  }
  Position plain = p;
  plain.pie = Pie::None;
  if (plain.over) return done();
  std::optional<int> hint;
  if (limits.hint && p.pie == Pie::None) hint = *limits.hint - own_diff(variant_, plain);
  const std::optional<int> f = impl_->future(plain, c.shared, threads_, stats_, hint);
  if (!f) return done();
  const int keep = own_diff(variant_, plain) + *f;
  if (p.pie == Pie::Offer && keep < 0) {
    result = MoveValue{Move::swap(), -keep};
    return done();
  }
  const auto pits = impl_->best_pits(plain, *f, false, c.shared, stats_);
  if (pits && !pits->empty()) result = MoveValue{Move::at(pits->front() + 1), keep};
  return done();
}

std::optional<std::vector<MoveValue>> ExactSolver::best_moves(const Position& p, const SolveLimits& limits) {
  if (!impl_ || p.over) return std::nullopt;
  if (p.pie != Pie::None) {
    auto moves = move_values(p, limits);
    if (!moves) return std::nullopt;
    int best = -100000;
    for (const MoveValue& mv : *moves) best = std::max(best, mv.margin);
    std::erase_if(*moves, [&](const MoveValue& mv) { return mv.margin != best; });
    return moves;
  }
  const auto start = Clock::now();
  Context c{*impl_, shared_for(limits), threads_, stats_};
  std::optional<std::vector<MoveValue>> result;
  std::optional<int> hint;
  if (limits.hint) hint = *limits.hint - own_diff(variant_, p);
  const std::optional<int> f = impl_->future(p, c.shared, threads_, stats_, hint);
  if (f) {
    const int keep = own_diff(variant_, p) + *f;
    if (const auto pits = impl_->best_pits(p, *f, true, c.shared, stats_)) {
      result.emplace();
      for (int pit : *pits) result->push_back({Move::at(pit + 1), keep});
    }
  }
  stats_.seconds += std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace kalah::solver
