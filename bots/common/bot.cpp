#include "bots/common/bot.h"

#include <cassert>
#include <charconv>
#include <cstdlib>
#include <ctime>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace kalah::bot {

std::optional<long long> SearchContext::time_budget_ms() const {
  if (limits.movetime) return *limits.movetime;
  if (!limits.clock) return std::nullopt;
  const bool south = position.to_move == Side::South;
  const long long left = south ? limits.clock->stime : limits.clock->ntime;
  const long long inc = south ? limits.clock->sinc : limits.clock->ninc;
  // A Kalah game lasts ~30-60 of one player's moves; keep a reserve so a slow
  // answer never runs the clock out. With moves until the next time control
  // (movestogo), share the clock over those, one more kept in reserve.
  const long long share = limits.movestogo ? left / (std::min(*limits.movestogo, 25) + 1) : left / 25;
  // A delay's first ms cost nothing; a Bronstein delay only within the clock itself.
  long long free_ms = 0;
  if (limits.delay)
    free_ms =
        (limits.delay->kind == DelayKind::Simple ? limits.delay->ms : std::min(limits.delay->ms, left / 2)) * 3 / 4;
  const long long budget = share + inc * 3 / 4 + free_ms;
  return std::max(1LL, std::min(budget, left / 3 + free_ms));
}

std::optional<long long> SearchContext::search_time_ms() const {
  const std::optional<long long> budget = time_budget_ms();
  if (!budget) return std::nullopt;
  return std::max(1LL, *budget - std::max(2LL, *budget / 20));
}

namespace {

class Loop {
 public:
  Loop(Bot& bot, std::FILE* in, std::FILE* out) : bot_(bot), in_(in), out_(out) {}
  ~Loop() {
    finish_search();
    std::free(input_);
  }

  int run() {
    std::string line;
    while (read_line(line)) {
      Expected<kep::Command> command = kep::parse_command(line);
      if (!command) {
        if (!line.empty()) send("info string ignored: " + command.error());
        continue;
      }
      if (std::holds_alternative<kep::Quit>(*command)) break;
      handle(*command);
    }
    stop_ = true;
    finish_search();
    return 0;
  }

 private:
  // One getline per line: stdio already fills its buffer with one read per batch the pipe holds, and
  // getline takes the lock once and copies up to the newline with memchr, where a character at a time
  // (fgetc) cost a lock and a call per character, a third of the loop's time. A last line without its
  // newline still counts.
  bool read_line(std::string& line) {
    const ssize_t n = ::getline(&input_, &input_capacity_, in_);
    if (n <= 0) {
      line.clear();
      return false;
    }
    const bool newline = input_[n - 1] == '\n';
    line.assign(input_, static_cast<std::size_t>(n) - (newline ? 1 : 0));
    return true;
  }

  void send(const std::string& line) {
    std::lock_guard lock(out_mutex_);
    std::fputs(line.c_str(), out_);
    std::fputc('\n', out_);
    std::fflush(out_);
  }

  void handle(const kep::Command& command) {
    if (std::holds_alternative<kep::Hello>(command)) {
      send(kep::format(kep::IdName{bot_.name()}));
      send(kep::format(kep::IdAuthor{bot_.author()}));
      for (const kep::OptionDecl& o : bot_.options()) send(kep::format(o));
      send(kep::format(kep::Feature{"positions"}));
      if (bot_.takes_game_seed()) send(kep::format(kep::Feature{"seed"}));
      if (bot_.has_bench()) send(kep::format(kep::Feature{"bench"}));
      send(kep::format(kep::Feature{"clock"}));
      send(kep::format(kep::Feature{"delay"}));
      send("kepok");
    } else if (std::holds_alternative<kep::IsReady>(command)) {
      send("readyok");
    } else if (std::holds_alternative<kep::Stop>(command)) {
      stop_ = true;
      finish_search();
    } else if (auto* o = std::get_if<kep::SetOption>(&command)) {
      finish_search();
      if (!bot_.set_option(o->name, o->value)) send("info string unknown option or bad value: " + o->name);
    } else if (auto* n = std::get_if<kep::NewGame>(&command)) {
      finish_search();
      game_variant_ = variant_ = n->variant;
      position_ = start_position(variant_);
      history_.clear();
      position_set_ = false;
      if (n->seed && bot_.takes_game_seed()) bot_.set_game_seed(*n->seed);
      clock_ = n->clock.value_or(ClockKind::Wall);
      // The referee charges the first move the CPU time used from here (docs/PROTOCOL.md, "Clocks"): the
      // bot's own setup for the game is part of it.
      charged_from_cpu_ns_ = MoveStart::now().cpu_ns;
      bot_.new_game(variant_);
    } else if (auto* p = std::get_if<kep::PositionCmd>(&command)) {
      finish_search();
      set_position(*p);
    } else if (auto* go = std::get_if<kep::Go>(&command)) {
      finish_search();
      start_search(*go);
    } else if (std::holds_alternative<kep::Bench>(command)) {
      finish_search();
      if (!bot_.has_bench()) return send("info string ignored: this bot has no bench");
      const auto start = std::chrono::steady_clock::now();
      const long long nodes = bot_.bench();
      const auto took = std::chrono::steady_clock::now() - start;
      send(kep::format(kep::BenchResult{nodes, std::chrono::duration_cast<std::chrono::milliseconds>(took).count()}));
    }
  }

  // A referee sends the whole game every ply: a position that extends the one set last (same start,
  // its moves and then some) applies only the moves since, where replaying from the start was a
  // tenth of the loop's time. Anything else, or after a position that was refused, starts over.
  void set_position(const kep::PositionCmd& command) {
    const bool extends = position_set_ && command.start == position_start_ && command.moves.size() >= history_.size() &&
                         std::equal(history_.begin(), history_.end(), command.moves.begin());
    position_set_ = false;
    if (!extends) {
      history_.clear();
      variant_ = game_variant_;
      position_ = start_position(variant_);
      if (!command.start.empty()) {
        Expected<Position> start = parse_start(variant_, command.start);
        if (!start) {
          send("info string " + start.error());
          return;
        }
        position_ = *start;
        // A start may hold more seeds than the standard board: searches size their tables from
        // the variant, so the bot sees one whose standard board holds them all.
        variant_.seeds = seeds_to_hold(variant_, position_);
      }
      position_start_ = command.start;
    }
    for (std::size_t i = history_.size(); i < command.moves.size(); ++i) {
      const Move m = command.moves[i];
      if (!is_legal(variant_, position_, m)) {
        send("info string illegal move in position: " + to_string(m));
        return;
      }
      apply(variant_, position_, m);
      history_.push_back(m);
    }
    position_set_ = true;
  }

  void start_search(const kep::Go& go) {
    started_ = MoveStart::now();
    // On the CPU clock the move is charged from the previous answer (or from `newgame`), not from `go`.
    if (charged_from_cpu_ns_) started_.cpu_ns = *charged_from_cpu_ns_;
    go_ = go;
    stop_ = false;
    if (legal_move_count(variant_, position_) == 0) {
      send("info string no legal move: the game is over");
      return;
    }
    if (bot_.instant()) {
      search();
    } else {
      worker_ = std::thread([this] { search(); });
    }
  }

  void search() {
    SearchContext context{variant_, position_, history_,
                          go_,      stop_,     [this](const kep::Info& info) { send(kep::format(info)); },
                          clock_,   started_};
    const Move m = bot_.choose(context);
    send(kep::format(kep::BestMove{m}));
    // The next move's charge starts at this answer (read by the loop after it has joined this thread).
    charged_from_cpu_ns_ = MoveStart::now().cpu_ns;
  }

  void finish_search() {
    if (worker_.joinable()) worker_.join();
  }

  Bot& bot_;
  std::FILE* in_;
  std::FILE* out_;
  char* input_ = nullptr;  // getline's buffer, grown by it
  std::size_t input_capacity_ = 0;
  std::mutex out_mutex_;
  Variant game_variant_;  // as `newgame` said
  Variant variant_;       // what the bot searches with: game_variant_ sized for the position's seeds
  Position position_ = start_position(Variant{});
  std::vector<Move> history_;
  std::string position_start_;  // the start of the position set last
  bool position_set_ = false;   // the last `position` was taken whole: position_ is its end
  kep::Go go_;
  ClockKind clock_ = ClockKind::Wall;  // of the game, as `newgame` said
  MoveStart started_;                  // when the last `go` was read (its CPU time: when the move's charge began)
  // The process's CPU time when the referee began charging the next move: at the last answer, or at
  // `newgame`; none before the first `newgame`.
  std::optional<long long> charged_from_cpu_ns_;
  std::atomic<bool> stop_{false};
  std::thread worker_;
};

}  // namespace

std::vector<Position> bench_positions() {
  const Variant v;
  Position p = start_position(v);
  std::vector<Position> set = {p};
  // Ply k plays the legal move at index (7k + 3) mod the count; every fourth ply is kept.
  for (int ply = 0; set.size() < 8; ++ply) {
    const MoveList legal = legal_moves(v, p);
    apply(v, p, legal.moves[(7 * ply + 3) % legal.size]);
    if (p.over) break;  // not so: the game lasts longer (and a change here would change every bench count)
    if (ply % 4 == 3) set.push_back(p);
  }
  return set;
}

long long SeededBot::bench() {
  const std::mt19937_64 saved = rng_;
  const Variant v;
  const kep::Go go;
  const std::atomic<bool> stop{false};
  long long nodes = 0;
  for (const Position& from : bench_positions()) {
    rng_.seed(1);
    Position p = from;
    std::vector<Move> history;
    while (!p.over) {
      nodes += legal_move_count(v, p);
      const Move m = choose(SearchContext{v, p, history, go, stop, [](const kep::Info&) {}});
      assert(is_legal(v, p, m));
      apply(v, p, m);
      history.push_back(m);
    }
  }
  rng_ = saved;
  return nodes;
}

std::vector<kep::OptionDecl> SeededBot::options() const {
  return {{"Seed", "spin", std::to_string(seed_), 0, 2147483647}};
}

MoveStart MoveStart::now() {
  MoveStart s;
  timespec t{};
  s.wall_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
  s.cpu_ns = ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) == 0 ? t.tv_sec * 1'000'000'000LL + t.tv_nsec : s.wall_ns;
  return s;
}

SearchTimer::SearchTimer(ClockKind clock, MoveStart from)
    : clock_(clock), from_(from), cpu_read_at_ns_(from.wall_ns), cpu_used_ns_(0) {
  // The move's charge may have begun before `go` (at the previous answer): read what was used since.
  if (clock_ == ClockKind::Cpu) {
    cpu_read_at_ns_ = wall_ns();
    cpu_used_ns_ = cpu_ns() - from_.cpu_ns;
  }
}

long long SearchTimer::elapsed_ms() const {
  const long long now = wall_ns();
  const long long wall = now - from_.wall_ns;
  if (clock_ != ClockKind::Cpu) return wall / 1'000'000;
  if (now - cpu_read_at_ns_ >= kCpuReadEvery) {
    cpu_used_ns_ = cpu_ns() - from_.cpu_ns;
    cpu_read_at_ns_ = now;
  }
  const long long cpu = cpu_used_ns_ + (now - cpu_read_at_ns_);
  return std::max(cpu, wall / 2) / 1'000'000;
}

long long SearchTimer::wall_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

long long SearchTimer::cpu_ns() {
  timespec t{};
  if (::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return wall_ns();
  return t.tv_sec * 1'000'000'000LL + t.tv_nsec;
}

kep::Info search_info(int depth, int score, long long nodes, long long time_ms, const std::vector<Move>& pv) {
  kep::Info info;
  info.depth = depth;
  info.score = score;
  info.nodes = nodes;
  info.time = time_ms;
  info.pv = pv;
  return info;
}

std::optional<long long> integer_value(std::string_view text) {
  long long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

void SeededBot::set_game_seed(std::uint32_t seed) { rng_.seed(seed_ * 0x9e3779b97f4a7c15ULL + seed); }

bool SeededBot::set_option(const std::string& name, const std::string& value) {
  if (name != "Seed") return false;
  try {
    size_t used = 0;
    const unsigned long long seed = std::stoull(value, &used);
    if (used != value.size()) return false;
    seed_ = seed;
  } catch (const std::exception&) {
    return false;
  }
  rng_.seed(seed_);
  return true;
}

int run(Bot& bot, std::FILE* in, std::FILE* out) {
  Loop loop(bot, in, out);
  return loop.run();
}

int main(Bot& bot, int argc, char** argv) { return apply_arguments(bot, argc, argv) ? run(bot) : 2; }

bool apply_arguments(Bot& bot, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0 || i + 1 >= argc) {
      std::fprintf(stderr, "usage: %s [--<option> <value>]...  (options: see 'kep')\n", argv[0]);
      return false;
    }
    // "--seed 7" sets option "Seed": the option name with its first letter capitalised.
    std::string name = arg.substr(2);
    name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
    if (!bot.set_option(name, argv[++i])) {
      std::fprintf(stderr, "%s: unknown option or bad value: %s\n", argv[0], arg.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace kalah::bot
