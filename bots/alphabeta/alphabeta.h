// kalah-alphabeta: iterative-deepening principal-variation search with a
// transposition table. See docs/BOTS.md for the design and the measurements.
//
// Values are always from the view of the player to move. In Kalah the side to
// move does not alternate (an extra turn keeps it), and the pie swap changes
// who owns a side without changing the board, so a child's value is negated
// exactly when the player to move changes: a swap, or a move that passes the turn.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "bots/common/bot.h"

namespace kalah::alphabeta {

// Score units: one seed of store difference is kSeed units, so that the
// evaluation can weigh other features in fractions of a seed.
inline constexpr int kSeed = 4;
// A finished game scores kWin plus the final store difference (winner's view).
inline constexpr int kWin = 20000;  // + 512 seeds * kSeed still fits the table's int16
inline constexpr int kInfinity = 32000;
inline constexpr int kMaxDepth = 254;  // 255 marks exact table entries

struct Settings {
  int hash_mb = 16;
  int max_depth = 64;
  // Weight of (seeds in own pits - seeds in opponent's pits), in kSeed units
  // per seed; used only when the remainder goes to its owner.
  int side_weight = 0;
  // At the horizon, go on with extra turns and captures only (quiescence).
  bool quiescence = true;
  // With a time limit only: no new iteration after this share of the time.
  int soft_time_percent = 50;
};

struct Limits {
  std::optional<int> depth;
  std::optional<long long> nodes;
  std::optional<long long> time_ms;  // hard deadline for the whole search
  const std::atomic<bool>* stop = nullptr;
  ClockKind clock = ClockKind::Wall;               // what time_ms is measured on (bot::SearchTimer)
  bot::MoveStart started = bot::MoveStart::now();  // what time_ms is measured from
};

struct Result {
  Move best = Move::at(1);
  int score = 0;  // internal units, from the mover's view
  int depth = 0;  // last completed iteration (0: none completed)
  long long nodes = 0;
  long long time_ms = 0;
  std::vector<Move> pv;
  bool exact = false;  // the search saw only finished games: score is the true value
};

// The reported (protocol) score: the store difference in seeds, or for a
// proven result 1000 + the final margin (a win) / -1000 - margin (a loss).
int protocol_score(int internal);

// Exact knowledge of some positions, e.g. an endgame database. The search
// scores a position the oracle knows as a finished game with that margin, so
// a tree whose every leaf is known or finished gives an exact result.
class Oracle {
 public:
  virtual ~Oracle() = default;
  // The final store difference from the view of p.to_move under perfect
  // play, or nullopt when unknown. Called at every node: keep it cheap.
  virtual std::optional<int> final_margin(const Position& p) const = 0;
};

class Search {
 public:
  Search(const Variant& v, const Settings& settings);

  // Consulted from the next run on; null (the default) for none. Not owned.
  void set_oracle(const Oracle* oracle) { oracle_ = oracle; }

  // Iterative deepening from `root` (a position with a legal move). Calls
  // `on_iteration` after every completed iteration.
  Result run(const Position& root, const Limits& limits, const std::function<void(const Result&)>& on_iteration = {});

  // Static evaluation from the view of the player to move (not for finished games).
  int evaluate(const Position& p) const;
  // The exact score of a finished game from the view of p.to_move.
  int terminal_score(const Position& p) const;
  // The score of a final store difference (from the view of the player to move).
  static int margin_score(int margin) { return kSeed * margin + (margin > 0 ? kWin : margin < 0 ? -kWin : 0); }

  void clear_table();
  // Makes this search as a new one for `v` would be, keeping its table's memory: a table is built (and
  // its pages touched) before a game's clock runs, not in the game (docs/PROTOCOL.md, "Clocks").
  void rebind(const Variant& v);

 private:
  struct Entry {
    std::uint64_t key = 0;
    std::int16_t score = 0;
    std::uint8_t depth = 0;  // kComplete: the value is exact to the end of the game
    std::uint8_t bound = 0;  // Bound
    std::uint8_t move = 0;   // Move::pit, 0xff for none
    std::uint8_t generation = 0;
  };
  enum Bound : std::uint8_t { kNone, kLower, kUpper, kExact };
  static constexpr std::uint8_t kComplete = 255;
  static constexpr int kBucket = 4;

  void set_variant(const Variant& v);  // the variant and its hash keys
  std::uint64_t hash(const Position& p) const;
  const Entry* probe(std::uint64_t key) const;
  void store(std::uint64_t key, int score, int depth, Bound bound, Move move);

  int search(const Position& p, int depth, int alpha, int beta);
  int quiesce(const Position& p, int alpha, int beta);
  int search_root(const Position& root, int depth, std::vector<Move>& root_moves, Move& best);
  bool out_of_budget();
  std::vector<Move> principal_variation(const Position& root, int max_length) const;
  // Fills moves/children in search order (the table's move first, or left
  // out with skip_tt); returns the count.
  int order_moves(const Position& p, Move tt_move, bool skip_tt, Move* moves, Position* children) const;

  // The oracle's score of p, if it knows p.
  std::optional<int> known_score(const Position& p) const {
    if (!oracle_) return std::nullopt;
    const std::optional<int> margin = oracle_->final_margin(p);
    return margin ? std::optional<int>(margin_score(*margin)) : std::nullopt;
  }

  Variant variant_;
  Settings settings_;
  const Oracle* oracle_ = nullptr;
  std::vector<std::uint64_t> zobrist_;  // [cell][seeds]
  std::uint64_t zobrist_side_ = 0;
  std::uint64_t zobrist_pie_[3] = {};
  std::vector<Entry> table_;
  std::uint64_t mask_ = 0;  // bucket index mask
  std::uint8_t generation_ = 0;
  std::uint32_t history_[2][Variant::kMaxPits + 1] = {};

  // Per run.
  Limits limits_;
  bot::SearchTimer timer_;
  long long nodes_ = 0;
  bool aborted_ = false;
  bool horizon_ = false;  // a depth-limited value entered the current subtree
};

class AlphaBetaBot : public bot::SearchBot<Search, Settings> {
 public:
  // The table is built at start-up, before `kepok`, and again when an option changes: never on a game's clock.
  AlphaBetaBot() { rebuild_search(); }
  std::string name() const override { return "kalah-alphabeta"; }
  std::vector<kep::OptionDecl> options() const override;
  bool set_option(const std::string& name, const std::string& value) override;
  void new_game(const Variant& v) override;
  Move choose(const bot::SearchContext& context) override;
  // The nodes of a search to kBenchDepth of each bench position with the default settings, a fresh table each.
  bool has_bench() const override { return true; }
  long long bench() override;
};

inline constexpr int kBenchDepth = 12;

}  // namespace kalah::alphabeta
