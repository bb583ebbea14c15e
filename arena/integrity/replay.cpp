#include "arena/integrity/replay.h"

#include <cstdlib>

#include <fmt/core.h>

namespace kalah::integrity {
namespace {

std::string legal_list(const Variant& v, const Position& p) {
  std::string s;
  for (Move m : legal_moves(v, p)) s += (s.empty() ? "" : " ") + to_string(m);
  return s;
}

// The result when the player on board side `side` has won, or a draw (as the game loop scores it).
Outcome side_wins(const Position& p, std::optional<Side> side) {
  if (!side) return Outcome::Draw;
  return (*side == Side::South) != p.swapped ? Outcome::FirstWins : Outcome::SecondWins;
}

std::optional<Side> ahead(int south, int north) {
  if (south == north) return std::nullopt;
  return south > north ? Side::South : Side::North;
}

std::optional<std::string> result_mismatch(const GameRecord& g, Outcome expected, const std::string& because) {
  if (g.result == expected) return std::nullopt;
  return fmt::format("the result is {}, but by {} it is {}", to_string(g.result), because, to_string(expected));
}

// An adjudicated game: the verdict its recorded reason gives in the final position, as far as the record
// holds what decided it (the engines' scores for resign and draw are not re-judged, only the direction).
std::optional<std::string> check_adjudicated(const GameRecord& g, const Position& p) {
  const Variant& v = g.variant;
  if (p.over) return "adjudicated, but the rules had already ended the game";
  if (!g.adjudication) return std::nullopt;  // journals from before schema 2 do not say why
  const int south = store(v, p, Side::South), north = store(v, p, Side::North);
  const int total = seed_total(v, p);
  switch (g.adjudication->reason) {
    case AdjudicationReason::MaxPlies: {
      const int s = south + seeds_on_side(v, p, Side::South), n = north + seeds_on_side(v, p, Side::North);
      return result_mismatch(g, side_wins(p, ahead(s, n)),
                             fmt::format("max-plies with each side's seeds ({}-{})", s, n));
    }
    case AdjudicationReason::StoreMajority:
      if (2 * south <= total && 2 * north <= total)
        return fmt::format("store-majority, but neither store ({}-{}) holds more than half of the {} seeds", south,
                           north, total);
      return result_mismatch(g, side_wins(p, 2 * south > total ? Side::South : Side::North),
                             fmt::format("store-majority with stores {}-{}", south, north));
    case AdjudicationReason::Database: {
      if (!g.adjudication->margin) return "database adjudication without its margin";
      const int margin = *g.adjudication->margin;
      // South ends with (total + margin) / 2 seeds, at least what it has stored, and North likewise.
      if ((total + margin) % 2 != 0 || std::abs(margin) > total || total + margin < 2 * south ||
          total - margin < 2 * north)
        return fmt::format("database margin {} is impossible with stores {}-{} and {} seeds", margin, south, north,
                           total);
      return result_mismatch(g, side_wins(p, ahead(margin, 0)), fmt::format("database margin {}", margin));
    }
    case AdjudicationReason::Draw: return result_mismatch(g, Outcome::Draw, "the draw rule");
    case AdjudicationReason::Resign:
      if (g.result == Outcome::Draw) return "the result is a draw but an engine resigned";
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_game(const GameRecord& g) {
  const Variant& v = g.variant;
  if (g.result == Outcome::Ongoing) return "the game has no result";
  // Only a forfeit ends a game inside its opening (an engine that did not start, or failed on its first
  // newgame): then the moves are the part of the opening played, checked below like any.
  if (g.opening.size() > g.moves.size() && !is_forfeit(g.termination))
    return "the opening is longer than the moves, and only a forfeit ends a game inside its opening";
  Position p = g.initial_position();
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    const Move m = g.moves[i];
    if (i < g.opening.size() && !(g.opening[i] == m))
      return fmt::format("move {} ({}) is not the opening's move {} ({})", i + 1, to_string(m), i + 1,
                         to_string(g.opening[i]));
    if (!is_legal(v, p, m))
      return fmt::format("move {} ({}) is illegal here (legal: {})", i + 1, to_string(m),
                         p.over ? "none, the game was over" : legal_list(v, p));
    apply(v, p, m);
  }
  const int south = store(v, p, Side::South), north = store(v, p, Side::North);
  if (g.store_south != south || g.store_north != north)
    return fmt::format("the stores are recorded as {}-{} but the moves give {}-{}", g.store_south, g.store_north, south,
                       north);
  if (g.swapped != p.swapped)
    return fmt::format("the record says the pie swap {} but the moves say it {}", g.swapped ? "happened" : "did not",
                       p.swapped ? "did" : "did not");
  if (is_forfeit(g.termination)) {
    if (!g.forfeit) return fmt::format("ended by {} without a forfeit", to_string(g.termination));
    if (g.forfeit->reason != g.termination)
      return fmt::format("the termination is {} but the forfeit's reason {}", to_string(g.termination),
                         to_string(g.forfeit->reason));
    if (g.forfeit->engine != g.south && g.forfeit->engine != g.north)
      return fmt::format("the forfeit names '{}', who did not play this game", g.forfeit->engine);
    if (p.over) return "a forfeit after the rules had ended the game";
    if (g.south == g.north) return std::nullopt;  // one name on both sides: the loser is not named by it
    return result_mismatch(g, g.forfeit->engine == g.south ? Outcome::SecondWins : Outcome::FirstWins,
                           "the forfeit of '" + g.forfeit->engine + "'");
  }
  if (g.forfeit) return fmt::format("a forfeit in a game that ended by {}", to_string(g.termination));
  if (g.termination == Termination::Adjudicated) return check_adjudicated(g, p);
  if (g.adjudication) return fmt::format("an adjudication in a game that ended by {}", to_string(g.termination));
  // Normal or Majority: the rules ended it.
  if (!p.over) return fmt::format("ended by {}, but after these moves the game is not over", to_string(g.termination));
  if (g.termination == Termination::Majority && !v.majority) return "ended by majority in a variant without it";
  return result_mismatch(g, outcome(v, p), fmt::format("the final stores {}-{}", south, north));
}

}  // namespace kalah::integrity
