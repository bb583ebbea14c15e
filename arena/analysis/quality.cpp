#include "arena/analysis/quality.h"

#include <fmt/core.h>

namespace kalah::analysis {

std::string plies_mismatch(const GameRecord& game, std::size_t analysed) {
  return fmt::format("game {}: the analysis has {} plies but the game {}", game.id, analysed, game.moves.size());
}

Expected<GameJudgement> judge_game(const GameRecord& game, const GameAnalysis& analysis) {
  if (analysis.value.size() != game.moves.size() || analysis.loss.size() != game.moves.size())
    return Error{plies_mismatch(game, analysis.value.size())};
  GameJudgement out;
  // Who lost the game on the board: nobody in a draw, an unfinished game or a forfeit.
  const std::string* loser = nullptr;
  if (!game.forfeit && game.result == Outcome::FirstWins) loser = &game.north;
  if (!game.forfeit && game.result == Outcome::SecondWins) loser = &game.south;
  Position p = game.initial_position();
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    if (!is_legal(game.variant, p, game.moves[i]))
      return Error{fmt::format("game {}: ply {} ({}) is not legal", game.id, i + 1, to_string(game.moves[i]))};
    PlyJudgement ply;
    ply.ply = static_cast<int>(i);
    ply.mover = player_to_move(p) == Seat::First ? game.south : game.north;
    ply.opening = i < game.opening.size();
    ply.value = analysis.value[i];
    ply.loss = analysis.loss[i];
    if (!out.losing_ply && loser && ply.mover == *loser && !ply.opening && ply.value && ply.loss && *ply.value >= 0 &&
        *ply.value - *ply.loss < 0)
      out.losing_ply = ply.ply;
    out.plies.push_back(std::move(ply));
    apply(game.variant, p, game.moves[i]);
  }
  return out;
}

void EngineQuality::add(const PlyJudgement& p) {
  if (p.opening) return;
  ++moves;
  if (!p.loss) return;
  ++judged;
  total_loss += *p.loss;
  if (*p.loss == 0) ++perfect;
  if (*p.loss >= kBlunderLoss) ++blunders;
}

void add_game(std::map<std::string, EngineQuality>& by_engine, const GameJudgement& game) {
  for (const PlyJudgement& p : game.plies)
    if (!p.opening) by_engine[p.mover].add(p);
}

}  // namespace kalah::analysis
