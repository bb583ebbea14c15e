// The perfect-play analysis of the ladder's games (docs/SEASON.md, "Analysis of the ladder"), behind everything else
// the season's server does: one thread at the lowest priority (nice 19), woken when the ladder has recorded a game,
// runs `arena analyse`'s code (analysis/analyse.h) over DIR/results/ladder into the season's private folder
// DIR/analysis/ (never served: the public pages show no analysis of the ladder), ten games a pass, the newest not
// analysed yet first (the ladder plays faster than it is analysed: the authors see their latest games), then judges
// each newly analysed
// game (ladder_verdict.h): for a game lost on the board, the move that lost it and the value of every move there,
// appended to DIR/analysis/losing.jsonl. Both files are append-only and resumed after a kill. The endgame database
// ([analysis] db_mb, as `arena analyse`'s) is loaded or built once, on this thread, and kept; its build is said in
// DIR/season.log. What each author's page shows is kept in memory, per author: their newest analysed games.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_set>

#include <boost/json/object.hpp>

#include "arena/analysis/analyser.h"
#include "arena/season/ladder_verdict.h"
#include "arena/season/season_config.h"

namespace kalah::season {

// The season's private folder of the ladder's analysis, under DIR.
inline constexpr const char* kAnalysisFolder = "analysis";

// The analyser's settings for the ladder: season.toml's [analysis] (its defaults without one), on one thread.
analysis::AnalyserOptions ladder_analyser_options(const SeasonConfig& season);

class LadderAnalyst {
 public:
  static constexpr std::size_t kShownGames = 100;  // per author, the newest

  explicit LadderAnalyst(const SeasonConfig& season);  // `season` must outlive the analyst
  ~LadderAnalyst();  // stops: a search in progress gives up at once; its game is analysed at the next start
  LadderAnalyst(const LadderAnalyst&) = delete;
  LadderAnalyst& operator=(const LadderAnalyst&) = delete;

  // Starts the thread, which first analyses what the journal holds and the files do not.
  void start();
  // The ladder recorded a game. Safe from any thread.
  void game_recorded();
  // The analysis of the games of the author the ladder knows as `public_name` (author_analysis_json).
  boost::json::object author_json(const std::string& public_name) const;

 private:
  void loop();
  // Analyses the newest of the journal's games not analysed yet, a batch of them, and judges them; true when more
  // wait.
  bool pass();
  // Judges the analysed games not judged yet; false when stopped.
  bool judge_new_games(const std::filesystem::path& ladder);
  void read_losing_file();
  void add(GameVerdict&& verdict);
  void log(const std::string& line) const;
  void log_once(const std::string& line);

  const SeasonConfig& season_;
  const std::filesystem::path folder_;  // DIR/analysis
  // The server stops: every search gives up at once and no further game is started; a search halted so is no
  // verdict (its game is analysed at the next start).
  std::atomic<bool> halt_{false};
  analysis::AnalyserOptions options_;
  std::unique_ptr<analysis::Databases> databases_;

  // The analyst's thread's own.
  std::unordered_set<std::string> judged_;         // game ids
  std::map<std::string, MoveValues> losing_read_;  // losing.jsonl's lines of games not judged yet
  bool losing_file_read_ = false;
  std::set<std::string> said_;  // season.log lines said once
  std::size_t analysed_logged_ = 0;
  std::size_t analysed_here_ = 0;  // games analysed by this server

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::uint64_t recorded_ = 1;                    // counts the games recorded (1: what the journal held at the start)
  std::map<std::string, AuthorGames> by_author_;  // by public name
  std::thread thread_;
};

}  // namespace kalah::season
