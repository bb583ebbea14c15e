// kalah-solver: a KEP engine that plays perfectly when it can prove it, and a
// command line that solves a variant from the start.
//
//   kalah-solver [kep] [--hash-mb N] [--db-mb N] [--cache-dir DIR] [--threads N]
//   kalah-solver solve --variant "pits=4 seeds=3 capture=empty" [--position NOTATION]
//                      [--moves] [--hash-mb N] [--db-mb N] [--cache-dir DIR | --no-cache] [--threads N]
//   kalah-solver book --variant "..." --plies 6 --count 100 [--max-margin 0] [--seed 1] [--limit-ms N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

#include "bots/solver/book.h"
#include "bots/solver/certify.h"
#include "bots/solver/engine.h"
#include "referee/rules/certificate.h"
#include "referee/system/files.h"

namespace {

using namespace kalah;
using namespace kalah::solver;

struct SolveOptions {
  std::string variant = "pits=6 seeds=4";
  std::string position;
  bool moves = false;
  bool no_cache = false;
  bool verbose = false;
  bool db_only = false;
  int etc_margin = 2;
  int store_margin = 1;
  std::optional<int> near_margin;
  int near_mb = 16;
  std::optional<int> guess;
  // The database's memory: more than the engine's default (512 MB, K = 21 for six pits), because a solve
  // is one long search that every database level shortens by about a third: 800 MB is K = 23 for six
  // pits (796 MiB), about half the nodes of K = 21 for Kalah(6,4). docs/SOLVER.md, "Performance".
  std::size_t db_mb = 800;
};

std::string signed_number(int v) { return (v > 0 ? "+" : "") + std::to_string(v); }

std::string human_bytes(double b) {
  char buf[32];
  if (b >= 1 << 30)
    std::snprintf(buf, sizeof buf, "%.1f GiB", b / (1 << 30));
  else if (b >= 1 << 20)
    std::snprintf(buf, sizeof buf, "%.1f MiB", b / (1 << 20));
  else
    std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024);
  return buf;
}

void print_database(const Database* db, const Variant& v) {
  if (!db) {
    std::printf("database: none%s\n", v.majority ? " (majority rule: the stores would be part of the key)" : "");
    return;
  }
  const DbStats& d = db->stats();
  std::printf("database: %d seeds, %llu positions (%s); ", d.levels, static_cast<unsigned long long>(d.entries),
              human_bytes(static_cast<double>(d.entries)).c_str());
  if (d.loaded_levels >= 0) std::printf("levels 0-%d loaded from the cache in %.3f s", d.loaded_levels, d.load_seconds);
  if (d.loaded_levels < d.levels)
    std::printf("%sbuilt in %.3f s", d.loaded_levels >= 0 ? ", the rest " : "", d.build_seconds);
  if (d.saved) std::printf(", saved to %s", d.file.c_str());
  std::printf("\n");
  if (!d.note.empty() && d.note != "no cache file") std::printf("database note: %s\n", d.note.c_str());
}

// The database: no use beyond the seeds in play, none with the majority rule.
std::shared_ptr<Database> open_database(const Variant& v, const EngineOptions& eo, bool no_cache) {
  const int levels = std::min(levels_for_memory(v.pits, std::uint64_t(eo.db_memory_mb) << 20, Database::kMaxLevels),
                              v.total_seeds() - 1);
  if (v.majority || levels < 0) return nullptr;
  auto db = std::make_shared<Database>(DbKey::of(v), levels);
  // Reading the cache file is mostly the kernel clearing and filling fresh pages: every core helps, however
  // many threads the search uses.
  const int load_threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
  db->load_or_build(no_cache ? std::filesystem::path() : eo.cache_dir, eo.threads, nullptr, {},
                    std::max(eo.threads, load_threads));
  return db;
}

int solve(const SolveOptions& so, const EngineOptions& eo) {
  const Expected<Variant> v = parse_variant(so.variant);
  if (!v) {
    std::fprintf(stderr, "kalah-solver: %s\n", v.error().c_str());
    return 2;
  }
  Position start = start_position(*v);
  if (!so.position.empty()) {
    const Expected<Position> p = parse_notation(*v, so.position);
    if (!p) {
      std::fprintf(stderr, "kalah-solver: %s\n", p.error().c_str());
      return 2;
    }
    start = *p;
  }
  if (!ExactSolver::supports(*v)) {
    std::fprintf(stderr, "kalah-solver: the exact search supports at most 255 seeds (this variant has %d)\n",
                 v->total_seeds());
    return 2;
  }
  if (start.over) {
    std::printf("%s\nthe game is over\n",
                signed_number(store(*v, start, start.to_move) - store(*v, start, opponent(start.to_move))).c_str());
    return 0;
  }

  if (so.db_only) {
    std::shared_ptr<Database> db = open_database(*v, eo, so.no_cache);
    print_database(db.get(), *v);
    return 0;
  }

  ExactSolver solver(*v, eo.hash_mb, eo.threads);
  solver.set_margins(so.etc_margin, so.store_margin);
  if (so.near_margin) solver.set_near_table(*so.near_margin, std::size_t(so.near_mb) << 10);
  // Fault the table in before the search starts (on some machines a fresh page costs milliseconds, which is
  // allocation, not search), beside the database load: both are mostly the kernel clearing fresh pages.
  double prefault_seconds = 0;
  std::thread pager([&] {
    const auto t0 = std::chrono::steady_clock::now();
    solver.prefault();
    prefault_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  });
  std::shared_ptr<Database> db = open_database(*v, eo, so.no_cache);
  pager.join();
  solver.set_database(db);
  if (so.verbose)
    solver.on_pass([](int gamma, int result, std::uint64_t nodes, double seconds) {
      std::printf("pass: future >= %+d? %s %+d, %llu nodes, %.3f s\n", gamma, result >= gamma ? "yes," : "no,", result,
                  static_cast<unsigned long long>(nodes), seconds);
      std::fflush(stdout);
    });
  // The value first, printed as soon as it is proved; then every best first
  // move, which costs a search of each move that might keep it.
  SolveLimits limits;
  limits.hint = so.guess;
  const std::optional<int> value = solver.value(start, limits);
  if (!value) {
    std::fprintf(stderr, "kalah-solver: no result\n");
    return 1;
  }
  const double value_seconds = solver.stats().seconds;
  std::printf("%s\n", signed_number(*value).c_str());
  std::fflush(stdout);
  limits.hint = *value;
  const auto best = solver.best_moves(start, limits);
  if (!best || best->empty() || best->front().margin != *value) {
    std::fprintf(stderr, "kalah-solver: no result\n");
    return 1;
  }
  const SolveStats search = solver.stats();
  std::string moves;
  for (const MoveValue& mv : *best) moves += (moves.empty() ? "" : " ") + to_string(mv.move);
  std::printf("best moves: %s\n", moves.c_str());
  if (so.moves) {
    const auto all = solver.move_values(start);
    std::string line;
    for (const MoveValue& mv : *all) line += " " + to_string(mv.move) + ":" + signed_number(mv.margin);
    std::printf("move values:%s\n", line.c_str());
  }
  std::printf("variant: %s\n", to_string(*v).c_str());
  std::printf("position: %s (%s to move)\n", to_notation(*v, start).c_str(), to_string(start.to_move));
  std::printf(
      "search: %.3f s (the value after %.3f s), %llu nodes, %d null-window passes, %d thread%s, %.1f M nodes/s\n",
      search.seconds, value_seconds, static_cast<unsigned long long>(search.nodes), search.passes, eo.threads,
      eo.threads == 1 ? "" : "s", search.seconds > 0 ? search.nodes / search.seconds / 1e6 : 0.0);
  std::printf("table: %llu of %llu entries used (%s, paged in in %.3f s)%s\n",
              static_cast<unsigned long long>(solver.table().used_estimate()),
              static_cast<unsigned long long>(solver.table().buckets() * 4),
              human_bytes(static_cast<double>(solver.table().bytes())).c_str(), prefault_seconds,
              solver.exact_keys() ? "" : ", hashed keys");
  print_database(db.get(), *v);
  return 0;
}

struct BookCommand {
  std::string variant = "pits=6 seeds=4";
  BookOptions options;
  std::optional<long long> limit_ms;
  bool no_cache = false;
  std::string check;  // a book to re-certify
};

// `book --check FILE`: every line re-solved; 0 when every claim holds, 1 when one does not (or was not
// proved within --limit-ms), 2 for a file that cannot be read or a line the format or the rules reject.
int check_book_file(ExactSolver& solver, const BookCommand& bc) {
  std::string text;
  if (const auto error = system::read_file(bc.check, text)) {
    std::fprintf(stderr, "kalah-solver: %s\n", error->c_str());
    return 2;
  }
  std::optional<std::chrono::milliseconds> per_line;
  if (bc.limit_ms) per_line = std::chrono::milliseconds(*bc.limit_ms);
  int failed = 0;
  const auto checked = check_book(solver, text, bc.check, per_line, [&](const CheckedLine& line) {
    if (!line.ok()) ++failed;
    const std::string got = line.got ? signed_number(*line.got) : "not proved in time";
    const std::string problem = line.problem.empty() ? "" : "; " + line.problem;
    std::printf("%s line %d: claims South %s, exact %s%s\n", line.ok() ? "ok" : "FAIL", line.line_number,
                signed_number(line.claimed).c_str(), got.c_str(), problem.c_str());
    std::fflush(stdout);
  });
  if (!checked) {
    std::fprintf(stderr, "%s\n", checked.error().c_str());
    return 2;
  }
  std::printf("%zu lines checked, %zu certified, %d not\n", checked->size(), checked->size() - failed, failed);
  return failed == 0 ? 0 : 1;
}

int book(const BookCommand& bc, const EngineOptions& eo) {
  const Expected<Variant> v = parse_variant(bc.variant);
  if (!v) {
    std::fprintf(stderr, "kalah-solver: %s\n", v.error().c_str());
    return 2;
  }
  if (!ExactSolver::supports(*v)) {
    std::fprintf(stderr, "kalah-solver: the exact search supports at most 255 seeds (this variant has %d)\n",
                 v->total_seeds());
    return 2;
  }
  std::shared_ptr<Database> db = open_database(*v, eo, bc.no_cache);
  ExactSolver solver(*v, eo.hash_mb, eo.threads);
  solver.prefault();
  solver.set_database(db);
  if (!bc.check.empty()) return check_book_file(solver, bc);
  BookOptions o = bc.options;
  if (bc.limit_ms) o.per_position = std::chrono::milliseconds(*bc.limit_ms);
  const auto t0 = std::chrono::steady_clock::now();
  if (o.starts > 0)
    std::printf(
        "# %s: starts with %d seeds moved within their side, exact margin within %d (South's view), seed %llu\n",
        to_string(*v).c_str(), o.starts, o.max_margin, static_cast<unsigned long long>(o.seed));
  else
    std::printf("# %s: %d-ply openings whose exact margin is within %d (South's view), seed %llu\n",
                to_string(*v).c_str(), o.plies, o.max_margin, static_cast<unsigned long long>(o.seed));
  std::printf("%s\n", certificate_header(*v).c_str());
  std::fflush(stdout);
  BookStats stats;
  const std::vector<BookLine> lines = make_book(solver, o, stats, [&](const BookLine& line) {
    std::printf("%s\n", book_line_text(*v, line).c_str());
    std::fflush(stdout);
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("# %zu lines kept; %zu of %zu distinct positions solved, %zu over the time limit; %.1f s\n", lines.size(),
              stats.solved, stats.candidates, stats.skipped, seconds);
  if (static_cast<int>(lines.size()) < o.count) {
    std::fprintf(stderr, "kalah-solver: only %zu of the %d lines asked for\n", lines.size(), o.count);
    return lines.empty() ? 1 : 0;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"kalah-solver: perfect play for Kalah, as a KEP engine (default) or a solver"};
  app.require_subcommand(0, 1);
  EngineOptions eo;
  std::string cache_dir = eo.cache_dir.string();
  SolveOptions so;
  auto common = [&](CLI::App* a, std::size_t& db_mb) {
    a->add_option("--hash-mb", eo.hash_mb, "transposition table size (MB)")
        ->capture_default_str()
        ->check(CLI::Range(1, 65536));
    a->add_option("--db-mb", db_mb, "memory for the endgame database (MB), 0 for none")
        ->capture_default_str()
        ->check(CLI::Range(0, 65536));
    a->add_option("--cache-dir", cache_dir, "where databases are cached")->capture_default_str();
    a->add_option("--threads", eo.threads, "search and build threads")->capture_default_str()->check(CLI::Range(1, 64));
  };
  common(&app, eo.db_memory_mb);
  CLI::App* kep = app.add_subcommand("kep", "run as a KEP engine (the default)");
  common(kep, eo.db_memory_mb);
  CLI::App* solve_cmd = app.add_subcommand("solve", "print the first player's margin under perfect play");
  common(solve_cmd, so.db_mb);
  solve_cmd->add_option("--variant", so.variant, "variant keys, e.g. \"pits=4 seeds=3 capture=empty\"")
      ->capture_default_str();
  solve_cmd->add_option("--position", so.position, "solve this position (notation) instead of the start");
  solve_cmd->add_flag("--moves", so.moves, "also print the exact margin of every move");
  solve_cmd->add_flag("--no-cache", so.no_cache, "neither read nor write the database cache");
  solve_cmd->add_flag("--verbose", so.verbose, "print every MTD(f) pass");
  solve_cmd->add_flag("--db-only", so.db_only, "only load or build (and cache) the endgame database");
  solve_cmd->add_option("--near-margin", so.near_margin, "tuning: small table for nodes up to K + this (8)");
  solve_cmd->add_option("--near-mb", so.near_mb, "tuning: size of that table (MB)")->capture_default_str();
  solve_cmd->add_option("--guess", so.guess, "tuning: MTD(f)'s first guess (default: a short search)");
  solve_cmd->add_option("--etc-margin", so.etc_margin, "tuning: table look-ups of children above K + this")
      ->capture_default_str();
  solve_cmd->add_option("--store-margin", so.store_margin, "tuning: table entries above K + this")
      ->capture_default_str();
  CLI::App* book_cmd = app.add_subcommand("book", "write a balanced opening book: openings solved exactly");
  common(book_cmd, eo.db_memory_mb);
  BookCommand bc;
  book_cmd->add_option("--variant", bc.variant, "variant keys")->capture_default_str();
  book_cmd->add_option("--plies", bc.options.plies, "opening length")->capture_default_str()->check(CLI::Range(1, 16));
  book_cmd->add_option("--count", bc.options.count, "lines wanted")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  book_cmd->add_option("--max-margin", bc.options.max_margin, "keep openings whose exact margin is at most this")
      ->capture_default_str()
      ->check(CLI::Range(0, 255));
  book_cmd->add_option("--seed", bc.options.seed, "order in which candidates are tried")->capture_default_str();
  book_cmd->add_option("--limit-ms", bc.limit_ms, "skip a position whose solve takes longer")
      ->check(CLI::Range(1LL, 86400000LL));
  book_cmd->add_flag("--no-cache", bc.no_cache, "neither read nor write the database cache");
  book_cmd->add_option("--starts", bc.options.starts, "start positions with N seeds moved within their side")
      ->check(CLI::Range(1, 64));
  book_cmd->add_option("--check", bc.check, "re-certify every line of this book (exit 1 if one fails)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  eo.cache_dir = cache_dir;
  if (solve_cmd->parsed()) {
    // `kalah-solver --db-mb N solve ...` still means N.
    if (solve_cmd->count("--db-mb") > 0 || app.count("--db-mb") == 0) eo.db_memory_mb = so.db_mb;
    return solve(so, eo);
  }
  if (book_cmd->parsed()) return book(bc, eo);
  SolverBot bot(eo);
  return bot::run(bot);
}
