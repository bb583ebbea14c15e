// The live report: while a tournament is played, report.html and the standings files (md, json, csv)
// are rewritten every `report_every` seconds, atomically, so an organiser can keep the page open and
// reload it. Each rewrite costs O(engine pairs + embedded games), never O(games played): the standings
// come from a copy of the run's StandingsBuilder and the viewer from the last kViewerGames records,
// which this class keeps. games.pgn is written once, at the end, with the final reports.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "arena/config/description.h"
#include "arena/rating/standings.h"
#include "arena/report/context.h"
#include "referee/record/record.h"

namespace kalah::arena {

class LiveReport {
 public:
  // `all` sums the games of the run and `lock` guards it: the flow adds a game to `all` and calls
  // add() while holding `lock`, and the writer copies `all` while holding it. `total_games` is the
  // size of the schedule (0: open-ended, as an SPRT).
  LiveReport(std::filesystem::path dir, std::string event, int total_games, std::chrono::milliseconds every,
             const rating::StandingsBuilder& all, std::mutex& lock);
  ~LiveReport();  // stop()
  LiveReport(const LiveReport&) = delete;
  LiveReport& operator=(const LiveReport&) = delete;

  // The size of the schedule, once known (call before the games start).
  void set_total_games(int total) {
    std::lock_guard lock(lock_);
    total_games_ = total;
  }
  // The "About" section of the live pages (the dates are left out until the final reports).
  void set_context(report::Context context) {
    std::lock_guard lock(lock_);
    context_ = std::move(context);
  }
  // A Swiss or knockout tournament (its description, the engine names in config order): the live pages show
  // its table or bracket too, replayed from the results of the games added. Call before the first add().
  void set_form(arena::TournamentDescription description, std::vector<std::string> names) {
    std::lock_guard lock(lock_);
    form_description_ = std::move(description);
    form_names_ = std::move(names);
  }
  // A game was added to `all` (call with `lock` held).
  void add(const GameRecord& record);
  // No more rewrites; returns once a rewrite in progress is done. Idempotent.
  void stop();
  int rewrites() const { return rewrites_.load(); }  // for the tests

 private:
  void loop();
  void rewrite();

  std::filesystem::path dir_;
  std::string event_;
  int total_games_;          // guarded by lock_
  report::Context context_;  // guarded by lock_
  std::chrono::milliseconds every_;
  const rating::StandingsBuilder& all_;
  std::mutex& lock_;               // guards all_, recent_, changed_
  std::deque<GameRecord> recent_;  // the last kViewerGames games
  bool changed_ = false;           // a game came since the last rewrite
  // A Swiss or knockout tournament's (set_form): its description, the names, every game's South score by id.
  arena::TournamentDescription form_description_;
  std::vector<std::string> form_names_;
  std::unordered_map<std::string, double> results_;

  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::atomic<int> rewrites_{0};
  std::thread thread_;  // started last in the constructor, when everything above is ready
};

// The note at the top of a live page: "Live: 12 of 24 games so far; rewritten every 30 s until the run
// ends (reload to update)."
std::string live_note(int games, int total_games, std::chrono::milliseconds every);

}  // namespace kalah::arena
