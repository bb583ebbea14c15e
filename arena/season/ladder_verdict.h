// What the perfect-play analysis of a ladder game tells its authors (docs/SEASON.md, "Analysis of the ladder"): the
// game's figures per side and, for a game lost on the board, the move that lost it (analysis/quality.h) with the
// value of every move the loser could have made there, so that their page names the best ones. Pure: the analyst
// (ladder_analyst.h) finds the figures, this joins them and says them as the author's JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json/object.hpp>

#include "arena/analysis/analyser.h"
#include "arena/analysis/quality.h"
#include "referee/record/record.h"

namespace kalah::season {

// losing.jsonl beside the ladder's private analysis.jsonl: one line per game with a move that lost it, the value of
// every legal move at that ply for the player to move (null: not proved within the budget):
//   {"id":"l3-0v2-g1","ply":17,"moves":[[1,-4],[2,null],[3,2]]}
// `ply` counts from 1, as the game viewer does; a move is its pit or "swap".
inline constexpr const char* kLosingFile = "losing.jsonl";

struct MoveValues {
  std::string id;
  int ply = 0;  // 1-based
  std::vector<std::pair<Move, std::optional<int>>> moves;
};
std::string to_line(const MoveValues& m);  // with its '\n'
// A line of losing.jsonl, or none when it is not one (the last line of a killed write).
std::optional<MoveValues> move_values_from_line(std::string_view line);

// The value of every legal move before ply `index` (0-based) of `game`, for the player making it.
MoveValues value_moves(analysis::Analyser& analyser, const GameRecord& game, std::size_t index);

// One side's moves in a game (the opening's forced plies left out).
struct SideFigures {
  std::string engine;
  analysis::EngineQuality quality;
};

struct LosingMove {
  int ply = 0;  // 1-based
  Move move;
  int value_before = 0;        // the loser's final store difference with perfect play before the move (>= 0)
  int value_after = 0;         // and after it (< 0)
  std::vector<Move> best;      // the moves proved to keep value_before
  std::vector<Move> unproved;  // the moves whose value is not proved
};

struct GameVerdict {
  std::string id;
  std::string result;       // "1-0", "0-1", "1/2-1/2" (South's view)
  std::string termination;  // as the journal says it
  int plies = 0;
  int proved = 0;  // plies whose value is proved
  SideFigures south, north;
  std::optional<LosingMove> losing;  // with its moves' values when the analyst found them
  std::optional<int> losing_ply;     // 0-based, the judgement's (quality.h), even before the values are there
  std::uint64_t order = 0;           // its place in the journal (1 for the first game), set by the analyst
};

// Joins a game, its analysis and (for its losing ply) the values of the moves there. Errors: judge_game's.
Expected<GameVerdict> judge_ladder_game(const GameRecord& game, const analysis::GameAnalysis& analysis,
                                        const std::optional<MoveValues>& losing = std::nullopt);

// Whether `engine` is one of the revisions of the author the ladder knows as `public_name` ("alice-r3").
bool is_revision_of(std::string_view public_name, std::string_view engine);

// The author's side of the verdicts of their games (each one of theirs), newest first, as their page says it:
//   {"games":N,"lost":L,"losing_moves":M,"shown":[{"id","engine","opponent","side","result","outcome",
//    "termination","plies","proved","moves","judged","perfect","blunders","mean_loss","losing_move"}...]}
// `games` counts every analysed game of theirs, `shown` the newest of them; the opponent's figures are never said.
struct AuthorGames {
  std::size_t games = 0;
  std::size_t lost = 0;
  std::size_t losing_moves = 0;
  std::vector<GameVerdict> newest_first;
};
boost::json::object author_analysis_json(std::string_view public_name, const AuthorGames& games);

}  // namespace kalah::season
