// Per engine a page for its author, <results>/bots/<name>.html (docs/FORMATS.md, "Bot pages"): its results
// against each opponent, its games with a link into report.html's viewer, and every forfeit with its reason,
// the game's protocol transcript and the engine's stderr tail (from <results>/transcripts/). Self-contained like
// report.html; every name, detail, transcript and stderr line is escaped, because an engine writes them.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/analysis/quality.h"
#include "arena/config/description.h"
#include "referee/record/record.h"

namespace kalah::report {

// The page's path in a results folder: "bots/<name>.html", the name kept where it is letters, digits, '.',
// '_' or '-', and otherwise (any other character, a leading '.') made safe and told apart by a hash of it.
std::string bot_page_path(const std::string& engine);
// That file name without its folder and ".html": a page's name for any text (submission_pages.h names its
// pages so too).
std::string page_file_name(const std::string& name);
// The style sheet of these pages (inline in each: a page is self-contained).
std::string_view page_style();

// One game from one engine's side.
struct BotGame {
  std::string id;
  int round = 0;
  bool south = true;  // started as South
  std::string opponent;
  double points = 0;  // 1, 0.5, 0 for this engine
  Termination termination = Termination::Normal;
  std::optional<Forfeit> forfeit;  // when this engine forfeited
  std::size_t plies = 0;
  std::string journal_dir;  // the folder of the journal it came from (its transcripts are beside it)
  bool voided = false;      // left out of the results: an entrant's games were voided (entry.<name>.games = void)
};

// One of an engine's moves that the analysis found lost something (arena/analysis).
struct WorstMove {
  std::string id;  // the game
  int ply = 0;     // 1-based, as the viewer numbers the plies
  int loss = 0;
  std::optional<int> value;  // the mover's perfect-play value before it
  std::string opponent;
  bool lost_game = false;  // the move that lost the game (GameJudgement::losing_ply)
};

struct BotResults {
  struct VersusOpponent {
    int wins = 0, draws = 0, losses = 0;
    double points = 0;
  };
  std::string name;
  // Its contest entry, as the tournament's description holds it: withdrawn or disqualified (none while
  // active), why, whether its games were kept or voided, and what it showed at the contest's sanity gate.
  arena::EntryDescription entry;
  long long games = 0;                           // counted in its results
  long long voided = 0;                          // played but voided
  std::map<std::string, VersusOpponent> versus;  // by opponent
  std::deque<BotGame> recent;                    // its last kBotPageGames games
  long long forfeits = 0;
  std::vector<BotGame> forfeit_games;  // the first kBotPageForfeits of its forfeits
  // With an analysis: its kBotPageWorstMoves largest losses, the largest first (on a tie the one read first).
  std::vector<WorstMove> worst_moves;
};

// What one page lists at most: a results folder of any size gives pages of bounded size.
inline constexpr std::size_t kBotPageGames = 1000;
inline constexpr std::size_t kBotPageForfeits = 200;
inline constexpr std::size_t kBotPageTranscripts = 20;  // forfeits shown with their transcript inline
inline constexpr std::size_t kBotPageWorstMoves = 10;

// Sums the games of a results folder one at a time, per engine. `description` is the tournament's: a game
// between two engines is voided when either entrant's games are void.
class BotPagesBuilder {
 public:
  BotPagesBuilder(const std::vector<std::string>& engine_names, const arena::TournamentDescription& description);
  void add(const GameRecord& game, const std::string& journal_dir);
  // The analysis of a game added before: its movers' losses, for their worst moves.
  void add_judgement(const GameRecord& game, const analysis::GameJudgement& judgement);
  const std::map<std::string, BotResults>& bots() const { return bots_; }

 private:
  BotResults& bot(const std::string& name);
  const arena::TournamentDescription& description_;
  std::map<std::string, BotResults> bots_;
};

// A forfeited game's transcript as the page shows it: the protocol lines and this engine's stderr tail.
struct ShownTranscript {
  std::string file;  // relative to the results folder: "transcripts/<id>.log"
  std::string lines;
  std::optional<std::string> stderr_tail;
  unsigned long long stderr_total = 0;
  std::string error;  // the file was there but could not be read
};

// The page of one engine; `transcripts` by game id, for the forfeits that have one. `bye_points`: what
// it has without a game (a Swiss bye), counted in its points as in every table of the report. `quality`:
// with an analysis, its move quality (move_quality.h), shown with its worst moves; none without.
std::string bot_page_html(const BotResults& bot, const std::string& event,
                          const std::map<std::string, ShownTranscript>& transcripts, double bye_points = 0,
                          const analysis::EngineQuality* quality = nullptr);

}  // namespace kalah::report
