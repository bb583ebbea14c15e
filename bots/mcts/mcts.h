// kalah-mcts: UCT Monte-Carlo tree search. See docs/BOTS.md.
//
// Rewards are 1 / 0.5 / 0 for a win / draw / loss of a player (the first
// player or the second, not a side: after a pie swap the first player sits on
// North). Each node keeps the rewards of the player who chose the move into it,
// so a parent simply maximises over its children; extra turns and the swap
// need no special case beyond knowing who moves in each position.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bots/common/bot.h"

namespace kalah::mcts {

enum class Policy : std::uint8_t {
  Random,  // uniformly random legal moves
  Greedy,  // the greedy bot's choice (extra turn, else biggest store gain), random ties
};

struct Settings {
  double exploration = 0.5;  // the UCT constant C in Q + C * sqrt(ln N / n)
  int playouts = 1;          // playouts per new leaf
  unsigned long long seed = 1;
  int memory_mb = 64;  // the tree stops growing (playouts go on) at this size
  Policy policy = Policy::Greedy;
  double greedy_epsilon = 0;  // Greedy policy: the share of random moves
};

struct Limits {
  std::optional<long long> playouts;  // "go nodes": playouts count as nodes
  std::optional<long long> time_ms;
  const std::atomic<bool>* stop = nullptr;
  ClockKind clock = ClockKind::Wall;               // what time_ms is measured on (bot::SearchTimer)
  bot::MoveStart started = bot::MoveStart::now();  // what time_ms is measured from
};

struct Result {
  Move best = Move::at(1);
  double win_rate = 0.5;  // of the best move, for the player to move
  long long playouts = 0;
  long long time_ms = 0;
  int depth = 0;  // the deepest tree path of this search
  std::vector<Move> pv;
};

class Search {
 public:
  Search(const Variant& v, const Settings& settings);

  // Searches `root` (which has a legal move) until a limit; calls `progress`
  // about once a second and once at the end.
  Result run(const Position& root, const Limits& limits, const std::function<void(const Result&)>& progress = {});

  // Plays one game out from p with the playout policy: 1 / 0.5 / 0 for the first player.
  double playout(Position p);
  // Starts the random sequence afresh from the Seed setting and `game_seed` (a game's own seed).
  void reseed(std::uint32_t game_seed);
  // The nodes of the last run's tree.
  std::size_t tree_nodes() const { return nodes_.size(); }

 private:
  struct Node {
    std::uint32_t first_child = 0;
    std::uint8_t child_count = 0;
    std::uint8_t move = 0;  // Move::pit of the move into this node
    std::uint32_t visits = 0;
    std::uint32_t half_points = 0;  // rewards x2 (exact), for the player who moved into this node
  };

  std::uint64_t next_random();
  int random_below(int n) { return static_cast<int>(((next_random() >> 32) * static_cast<std::uint64_t>(n)) >> 32); }
  Move playout_move(const Position& p);
  bool expand(std::uint32_t index, const Position& p);
  std::uint32_t select_child(const Node& parent);
  Result summary(const bot::SearchTimer& timer) const;

  Variant variant_;
  Settings settings_;
  std::uint64_t rng_state_;
  std::vector<Node> nodes_;
  size_t capacity_ = 0;
  long long playouts_ = 0;
  int max_depth_ = 0;
};

class MctsBot : public bot::SearchBot<Search, Settings> {
 public:
  std::string name() const override { return "kalah-mcts"; }
  std::vector<kep::OptionDecl> options() const override;
  bool set_option(const std::string& name, const std::string& value) override;
  void new_game(const Variant& v) override;
  bool takes_game_seed() const override { return true; }
  void set_game_seed(std::uint32_t seed) override { game_seed_ = seed; }
  Move choose(const bot::SearchContext& context) override;
  // The tree nodes of kBenchPlayouts playouts from each bench position with the default settings: every
  // playout's moves and result steer which nodes are expanded, so the count follows the whole search.
  bool has_bench() const override { return true; }
  long long bench() override;

 private:
  std::optional<std::uint32_t> game_seed_;  // from newgame, when the arena sends one
};

inline constexpr long long kBenchPlayouts = 4000;

}  // namespace kalah::mcts
