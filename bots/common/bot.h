// The shared KEP loop: a bot is "choose a move", everything else is here.
//
// The loop reads commands on the calling thread. A bot that says it is
// `instant()` chooses its move on that thread; any other bot searches on a
// worker thread so that `stop`, `isready` and `quit` are answered while it
// thinks (a `stop` sets SearchContext::stop, and the bot must return soon).
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "referee/protocol/protocol.h"

namespace kalah::bot {

// When a move began for the bot: the wall clock as the protocol loop read `go`, and the process's CPU time
// when the referee began charging the move on a CPU clock: the bot's previous answer, or `newgame` for a
// game's first move (docs/PROTOCOL.md, "Clocks"), so that what the bot did since (setting up for the game,
// tidying up after its last search) is within its budget. A search times itself from here, not from when
// its thread got going: on a busy machine a new thread may wait tens of ms for a CPU, and the referee's
// clock runs from the request.
struct MoveStart {
  long long wall_ns = 0;
  long long cpu_ns = 0;
  static MoveStart now();
};

struct SearchContext {
  const Variant& variant;
  const Position& position;          // the side to move is the bot's side
  const std::vector<Move>& history;  // every move since the start
  const kep::Go& limits;
  const std::atomic<bool>& stop;
  std::function<void(const kep::Info&)> report;  // sends an "info" line
  // The clock the referee charges the move on (`feature clock`, which the loop announces: the game's
  // `newgame ... clock=`); wall when it did not say.
  ClockKind clock = ClockKind::Wall;
  // When the loop read the `go` of this move.
  MoveStart started = MoveStart::now();

  // Milliseconds this move may take, from the clock or movetime (a share of
  // the remaining time, over movestogo + 1 when given, plus most of the
  // increment); nullopt for depth/nodes.
  std::optional<long long> time_budget_ms() const;
  // The budget less max(2 ms, 5%) for the answer to travel, never below 1 ms;
  // nullopt for depth/nodes.
  std::optional<long long> search_time_ms() const;
};

// A search's time on the clock its moves are charged on: the wall clock, or on a CPU clock the CPU time of the
// bot's process (all its threads: what the referee charges), so that a bot on a busy machine thinks for the
// CPU time it is given, not for its share of the wall clock. On a CPU clock it is at least half the wall time
// too: the referee forfeits a move that takes 3 times its allowance on the wall clock (its safety limit,
// docs/PROCESSES.md "CPU time"), so on a very busy machine the search stops at twice its budget on the wall
// clock, having had less CPU, rather than lose the game.
//
// Reading a CPU clock is a system call (measured at 6-20 us in a loaded VM, 40 times the wall clock's vDSO
// read), and a search asks for the time every few us: the CPU time is read again only once the wall clock
// has moved kCpuReadEvery since the last reading, and in between it is taken to grow as fast as the wall
// clock, which it cannot outpace for a one-thread search. The estimate is never below the truth, so a
// search stops early by at most that step, never late.
class SearchTimer {
 public:
  static constexpr long long kCpuReadEvery = 1'000'000;  // ns of wall time
  explicit SearchTimer(ClockKind clock = ClockKind::Wall, MoveStart from = MoveStart::now());
  long long elapsed_ms() const;

 private:
  static long long wall_ns();
  static long long cpu_ns();
  ClockKind clock_;
  MoveStart from_;
  mutable long long cpu_read_at_ns_ = 0;  // the wall clock at the last CPU reading
  mutable long long cpu_used_ns_ = 0;     // the CPU time since from_ at that reading
};

// The info line of one finished search iteration.
kep::Info search_info(int depth, int score, long long nodes, long long time_ms, const std::vector<Move>& pv);

class Bot {
 public:
  virtual ~Bot() = default;
  virtual std::string name() const = 0;
  virtual std::string author() const { return "Kalah Arena"; }
  virtual std::vector<kep::OptionDecl> options() const { return {}; }
  // Returns false for an unknown option or a bad value (reported as info string).
  virtual bool set_option(const std::string& /*name*/, const std::string& /*value*/) { return false; }
  virtual void new_game(const Variant& /*v*/) {}
  // True: the bot announces `feature seed`, and each `newgame` brings the game's seed, given to
  // set_game_seed() just before new_game(). A bot that seeds its randomness from it plays a game alike
  // whatever it played before in the same process (docs/PROTOCOL.md, "Seeds").
  virtual bool takes_game_seed() const { return false; }
  virtual void set_game_seed(std::uint32_t /*seed*/) {}
  virtual bool instant() const { return false; }
  // Must return a legal move of context.position (which has at least one).
  virtual Move choose(const SearchContext& context) = 0;
  // True: the bot announces `feature bench` and answers `bench` with bench(), the node count of a fixed,
  // deterministic computation (docs/PROTOCOL.md, "Bench"). The count must depend on the build alone: not on
  // the options set, the game, the time or anything the process did before, so that the same binary gives
  // the same count anywhere and a changed search (nearly always) another. Runs on the protocol thread.
  virtual bool has_bench() const { return false; }
  virtual long long bench() { return 0; }
};

// The positions a bench searches: the start of Kalah(6,4) and seven positions of one fixed game of it
// (each move chosen by a formula, not a random generator, so that the set is the same on every platform).
// Every one has a legal move.
std::vector<Position> bench_positions();

// A bot that owns a search object built from its Settings for one variant at a time (the
// search's tables are sized for the variant): alpha-beta and MCTS.
template <class Search, class Settings>
class SearchBot : public Bot {
 public:
  const Settings& settings() const { return settings_; }
  Settings& settings() { return settings_; }

 protected:
  // Builds the search for `wanted` when there is none or the variant changed; returns whether it
  // was built. Changing a setting resets search_ so that the next call rebuilds it.
  bool ensure_search(const Variant& wanted) {
    if (search_ && variant_ == wanted) return false;
    variant_ = wanted;
    // A search that can keep its tables' memory for another variant does (see alpha-beta's rebind).
    if constexpr (requires(Search & s) { s.rebind(wanted); }) {
      if (search_) {
        search_->rebind(wanted);
        return true;
      }
    }
    search_.emplace(wanted, settings_);
    return true;
  }
  // Builds the search again with the current settings, for the variant of the last one (the standard board
  // before any): after an option changed, while no clock runs.
  void rebuild_search() { search_.emplace(variant_, settings_); }

  // The limits every search takes from a go command alike: the stop flag, the search time and the clock it is
  // measured on. The bot adds its own (depth, nodes, playouts).
  template <class Limits>
  static Limits timed_limits(const SearchContext& context) {
    Limits limits;
    limits.stop = &context.stop;
    limits.time_ms = context.search_time_ms();
    limits.clock = context.clock;
    limits.started = context.started;
    return limits;
  }

  // The bench of a search bot: the nodes `nodes_of(search, position)` counts from each bench position, each
  // with a fresh search (its own tables) of the default settings.
  template <class NodesOf>
  static long long bench_nodes(NodesOf nodes_of) {
    const Variant v;
    long long nodes = 0;
    for (const Position& p : bench_positions()) {
      Search search(v, Settings{});
      nodes += nodes_of(search, p);
    }
    return nodes;
  }

  Settings settings_;
  std::optional<Search> search_;

 private:
  Variant variant_;
};

// A bot whose only option is `Seed`, driving its random generator (random, greedy).
class SeededBot : public Bot {
 public:
  std::vector<kep::OptionDecl> options() const override;
  bool set_option(const std::string& name, const std::string& value) override;
  // Each game's generator comes from the Seed option and the game's seed together.
  bool takes_game_seed() const override { return true; }
  void set_game_seed(std::uint32_t seed) override;
  // The bench of a bot without a search: from each bench position a game against itself to the end, its
  // generator seeded alike every time; the count is the legal moves it chose among. The generator is
  // given back as it was.
  bool has_bench() const override { return true; }
  long long bench() override;

 protected:
  std::mt19937_64& rng() { return rng_; }

 private:
  unsigned long long seed_ = 1;
  std::mt19937_64 rng_{1};
};

// An option value that must be a whole number (a spin option), nothing around it; nullopt otherwise.
std::optional<long long> integer_value(std::string_view text);

// Runs the protocol on in/out until `quit` or end of input. Returns the exit code.
int run(Bot& bot, std::FILE* in = stdin, std::FILE* out = stdout);

// Reads "--name value" pairs common to all bots from argv and applies them as
// options (e.g. "--seed 7" sets option Seed). Returns false and prints usage on error.
bool apply_arguments(Bot& bot, int argc, char** argv);

// A bot's whole main(): apply_arguments, then run() on stdin/stdout. Exit code 2 for a bad argument.
int main(Bot& bot, int argc, char** argv);

}  // namespace kalah::bot
