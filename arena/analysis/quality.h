// What an analysis says about the players: per game, who made each ply and the move that lost it; per
// engine, how far its moves were from perfect (docs/ANALYSIS.md). The reports show these figures.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arena/analysis/analysis_file.h"
#include "referee/record/record.h"

namespace kalah::analysis {

// A move that gives away at least this much (store difference, a seed that changes hands counts 2)
// is a blunder. Every report that counts blunders says so.
inline constexpr int kBlunderLoss = 4;

// One ply as the reports see it.
struct PlyJudgement {
  int ply = 0;           // 0-based index into the game's moves
  std::string mover;     // the engine that made it
  bool opening = false;  // a forced opening ply: nobody's choice, not counted for the engine
  std::optional<int> value;
  std::optional<int> loss;
};

struct GameJudgement {
  std::vector<PlyJudgement> plies;
  // The move that lost the game: in a game won and lost on the board (not drawn, not a forfeit), the
  // first ply (outside the opening) of the player who lost it that turned a proven win or draw
  // (value >= 0) into a proven loss (value - loss < 0). An error of the winner that the loser did not
  // punish is not it. None when no such ply is proved (a game lost from the start, or not proved far
  // enough).
  std::optional<int> losing_ply;
};

// "game ID: the analysis has N plies but the game M": an analysis line of another length than its game.
std::string plies_mismatch(const GameRecord& game, std::size_t analysed);
// Joins a game with its analysis. An error when the analysis does not fit the game (another number
// of plies, or a move the rules refuse).
Expected<GameJudgement> judge_game(const GameRecord& game, const GameAnalysis& analysis);

// One engine's moves, over every analysed game (opening plies left out).
struct EngineQuality {
  int moves = 0;     // its moves in analysed games
  int judged = 0;    // of which proved (loss known)
  int perfect = 0;   // loss 0
  int blunders = 0;  // loss >= kBlunderLoss
  long long total_loss = 0;
  double mean_loss() const { return judged ? static_cast<double>(total_loss) / judged : 0.0; }
  double perfect_share() const { return judged ? static_cast<double>(perfect) / judged : 0.0; }
  void add(const PlyJudgement& p);
};

// Adds every ply of `game` to its mover's tally.
void add_game(std::map<std::string, EngineQuality>& by_engine, const GameJudgement& game);

}  // namespace kalah::analysis
