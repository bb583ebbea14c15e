#include "bots/solver/engine.h"

#include <algorithm>
#include <cassert>
#include <chrono>

namespace kalah::solver {

using Clock = std::chrono::steady_clock;

namespace {

bool parse_size(const std::string& text, long long lo, long long hi, long long& out) {
  const std::optional<long long> v = bot::integer_value(text);
  if (!v || *v < lo || *v > hi) return false;
  out = *v;
  return true;
}

long long ms_since(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

}  // namespace

SolverBot::SolverBot(EngineOptions options) : options_(std::move(options)) {}

SolverBot::~SolverBot() { stop_database_build(); }

std::vector<kep::OptionDecl> SolverBot::options() const {
  return {
      {"Hash", "spin", std::to_string(options_.hash_mb), 1, 65536},
      {"DbMemoryMB", "spin", std::to_string(options_.db_memory_mb), 0, 65536},
      {"CacheDir", "string", options_.cache_dir.empty() ? "<empty>" : options_.cache_dir.string(), {}, {}},
      {"Threads", "spin", std::to_string(options_.threads), 1, 64},
  };
}

bool SolverBot::set_option(const std::string& name, const std::string& value) {
  long long v = 0;
  if (name == "Hash" && parse_size(value, 1, 65536, v)) {
    options_.hash_mb = static_cast<std::size_t>(v);
  } else if (name == "DbMemoryMB" && parse_size(value, 0, 65536, v)) {
    options_.db_memory_mb = static_cast<std::size_t>(v);
  } else if (name == "CacheDir") {
    options_.cache_dir = value == "<empty>" ? std::filesystem::path() : std::filesystem::path(value);
  } else if (name == "Threads" && parse_size(value, 1, 64, v)) {
    options_.threads = static_cast<int>(v);
  } else {
    return false;
  }
  prepared_ = false;  // rebuilt at the next game or search
  return true;
}

void SolverBot::stop_database_build() {
  if (db_thread_.joinable()) {
    db_cancel_ = true;
    db_thread_.join();
  }
  db_cancel_ = false;
}

void SolverBot::wait_for_database() {
  if (db_thread_.joinable()) db_thread_.join();
}

void SolverBot::prepare(const Variant& v) {
  if (prepared_ && v == variant_) return;
  stop_database_build();
  variant_ = v;
  prepared_ = true;
  // The exact table keeps its bounds across games of the same variant; a new
  // variant (or new options) starts afresh.
  exact_ = ExactSolver::supports(v) ? std::make_unique<ExactSolver>(v, options_.hash_mb, options_.threads) : nullptr;
  const DbKey key = DbKey::of(v);
  const int levels = std::min(
      levels_for_memory(v.pits, std::uint64_t(options_.db_memory_mb) << 20, Database::kMaxLevels), v.total_seeds());
  std::shared_ptr<Database> db = db_;
  if (v.majority || levels < 0 || !ExactSolver::supports(v))
    db = nullptr;
  else if (!db || !(db->key() == key) || db->target() < levels)
    db = std::make_shared<Database>(key, levels);
  const bool build = db && db != db_;
  db_ = db;
  oracle_ = std::make_unique<DatabaseOracle>(v, db_);
  alphabeta::Settings settings;
  settings.hash_mb = static_cast<int>(std::max<std::size_t>(1, options_.hash_mb / 4));
  heuristic_ = std::make_unique<alphabeta::Search>(v, settings);
  heuristic_->set_oracle(oracle_.get());
  // The exact table's pages now, before the engine answers readyok: a fresh
  // page can take milliseconds to fault in, which a search with a deadline
  // must not pay. (Done in the background, the first searches of a fresh
  // engine raced the page faults and overran a 50 ms move by 100 ms.)
  if (exact_) {
    exact_->prefault();
    exact_->set_database(db_);
  }
  // The database in the background, used by the searches as far as it is ready.
  if (build)
    db_thread_ = std::thread([db, dir = options_.cache_dir, threads = options_.threads, this] {
      db->load_or_build(dir, threads, &db_cancel_);
    });
}

void SolverBot::new_game(const Variant& v) {
  prepare(v);
  failed_at_seeds_ = -1;
}

long long SolverBot::bench() {
  Variant v;
  v.pits = 4;
  v.seeds = 3;
  ExactSolver exact(v, 16, 1);
  [[maybe_unused]] const std::optional<int> value = exact.value(start_position(v));
  assert(value);
  return static_cast<long long>(exact.stats().nodes);
}

Move SolverBot::choose(const bot::SearchContext& c) {
  const auto start = Clock::now();
  prepare(c.variant);
  oracle_->refresh();
  const std::optional<long long> budget = c.time_budget_ms();
  // Seeds still in the pits: how far the position is from the end.
  int in_pits = 0;
  for (int i = 0; i < c.variant.cells(); ++i)
    if (i != c.variant.south_store() && i != c.variant.north_store()) in_pits += c.position.cells[i];
  // A little slack for the answer itself; the budget is already a safe share of the clock.
  const long long usable = budget ? std::max(1LL, *budget - std::max(2LL, *budget / 10)) : 0;

  // The exact search first, for a share of the time: more while it may
  // succeed (it has not failed in this game, or fewer seeds are left than
  // when it last did), little otherwise. Its proved bounds stay in its table,
  // so even a failed attempt helps the next one. With a depth or node limit
  // it only gets a short look (the table or the database may already know).
  if (exact_ && !c.stop.load()) {
    const bool hopeful = failed_at_seeds_ < 0 || in_pits <= failed_at_seeds_ - 2;
    SolveLimits sl;
    sl.stop = &c.stop;
    sl.deadline = start + std::chrono::milliseconds(budget ? usable * (hopeful ? 40 : 15) / 100 : 5);
    exact_->reset_stats();
    const std::optional<MoveValue> best = exact_->best_move(c.position, sl);
    if (budget) failed_at_seeds_ = best ? -1 : in_pits;
    if (best) {
      kep::Info info;
      info.score = best->margin > 0 ? 1000 + best->margin : best->margin < 0 ? -1000 + best->margin : 0;
      info.nodes = static_cast<long long>(exact_->stats().nodes);
      info.time = ms_since(start);
      info.pv = {best->move};
      c.report(info);
      kep::Info note;
      note.text = "exact margin " + std::to_string(best->margin) + " proved";
      c.report(note);
      return best->move;
    }
  }

  // Otherwise alpha-beta with the database as its oracle, in the rest of the time.
  alphabeta::Limits limits;
  limits.stop = &c.stop;
  limits.depth = c.limits.depth;
  limits.nodes = c.limits.nodes;
  if (budget) limits.time_ms = std::max(1LL, usable - ms_since(start));
  const alphabeta::Result r = heuristic_->run(c.position, limits, [&](const alphabeta::Result& it) {
    kep::Info info;
    info.depth = it.depth;
    info.score = alphabeta::protocol_score(it.score);
    info.nodes = it.nodes;
    info.time = ms_since(start);
    info.pv = it.pv;
    c.report(info);
  });
  return r.best;
}

}  // namespace kalah::solver
