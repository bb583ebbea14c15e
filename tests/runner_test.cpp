// The worker pool and the one tournament flow, with scripted in-process players instead of engine
// processes: every game of a schedule is played exactly once, journaled before it is reported,
// engines are cached per worker without ever dropping one that is in a game, forfeits end up in
// the journal, and a second run over the same results resumes (plays nothing). No sleeps.
#include <unistd.h>
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "arena/config/config.h"
#include "arena/flow/flow.h"
#include "arena/flow/live_report.h"
#include "arena/flow/progress.h"
#include "arena/flow/tournaments.h"
#include "arena/formats/rounds_format.h"
#include "arena/journal/journal.h"
#include "arena/runner/round_source.h"
#include "arena/runner/runner.h"
#include "arena/runner/start_watch.h"
#include "arena/schedule/schedule.h"
#include "referee/system/files.h"
#include "referee/system/temp_folder.h"
#include "tests/config_builder.h"
#include "tests/files.h"
#include "tests/support/text_match.h"

namespace kalah::arena {
namespace {

namespace fs = std::filesystem;

// What every scripted player of one test reports to the test.
struct Ledger {
  std::mutex mutex;
  int alive = 0;
  int most_alive = 0;
  int created = 0;
  std::set<const Player*> in_game;
  bool destroyed_in_game = false;
  std::map<std::string, int> games_started;  // by engine name
};

// Answers instantly with its first legal move; `forfeit_on_move` > 0 makes it send an illegal
// move at that move of every game instead.
class ScriptedPlayer : public Player {
 public:
  ScriptedPlayer(std::string name, Ledger& ledger, int forfeit_on_move)
      : name_(std::move(name)), ledger_(ledger), forfeit_on_move_(forfeit_on_move) {
    std::lock_guard lock(ledger_.mutex);
    ++ledger_.created;
    ledger_.most_alive = std::max(ledger_.most_alive, ++ledger_.alive);
  }
  ~ScriptedPlayer() override {
    std::lock_guard lock(ledger_.mutex);
    --ledger_.alive;
    if (ledger_.in_game.count(this)) ledger_.destroyed_in_game = true;
  }

  const std::string& name() const override { return name_; }

  std::optional<Fault> new_game(const Variant& v, const std::optional<Position>&, const TimeControl&) override {
    variant_ = v;
    moves_made_ = 0;
    std::lock_guard lock(ledger_.mutex);
    ledger_.in_game.insert(this);
    ++ledger_.games_started[name_];
    return std::nullopt;
  }

  Reply play(const std::vector<Move>& moves, const kep::Go&, std::chrono::milliseconds) override {
    Position p = start_position(variant_);
    for (Move m : moves) apply(variant_, p, m);
    Reply reply;
    reply.elapsed_ms = 0.01;
    reply.move = ++moves_made_ == forfeit_on_move_ ? Move::at(variant_.pits + 1) : legal_moves(variant_, p).moves[0];
    return reply;
  }

  void game_over(const std::vector<Move>&) override {
    std::lock_guard lock(ledger_.mutex);
    ledger_.in_game.erase(this);
  }

 private:
  std::string name_;
  Ledger& ledger_;
  int forfeit_on_move_;
  Variant variant_;
  int moves_made_ = 0;
};

PlayerFactory scripted(Ledger& ledger, const std::string& forfeiter = "") {
  return [&ledger, forfeiter](const EngineSpec& spec) -> std::unique_ptr<Player> {
    return std::make_unique<ScriptedPlayer>(spec.name, ledger, spec.name == forfeiter ? 3 : 0);
  };
}

class RunnerTest : public ::testing::Test {
 protected:
  // A round robin of `engines` engines (commands are never started: the players are scripted).
  Config round_robin(int engines, int rounds, int concurrency) const {
    test::TestConfig text("rr");
    text.set("rounds", rounds).set("concurrency", concurrency).output(dir_);
    text.time("base_ms = 1000").table("openings", "random_plies = 2");
    for (int i = 0; i < engines; ++i) text.engine("e" + std::to_string(i), "/bin/true");
    Expected<Config> config = parse_config(text.text(), "runner_test.toml", dir_, dir_);
    EXPECT_TRUE(config.ok()) << config.error();
    return std::move(config).value();
  }

  journal::Journal open_journal() const {
    journal::TournamentMeta meta;
    meta.fingerprint = "fp";
    Expected<journal::Journal> opened = journal::Journal::open(dir_ / "rr", meta, false);
    EXPECT_TRUE(opened.ok()) << opened.error();
    return std::move(opened).value();
  }

  system::TempFolder temp_{"kalah-runner-test"};
  const fs::path& dir_ = temp_.path();
};

// A game of engine `south` against `north` of `config`; `failed`: that engine could not start.
std::pair<GameSpec, GameRecord> game_of(const Config& config, int south, int north, int failed = -1,
                                        const std::string& reason = "eof before kepok: exited with code 3") {
  GameSpec spec;
  spec.south = south;
  spec.north = north;
  GameRecord record;
  record.south = config.engines[static_cast<std::size_t>(south)].name;
  record.north = config.engines[static_cast<std::size_t>(north)].name;
  if (failed >= 0) {
    record.termination = Termination::Startup;
    record.forfeit = Forfeit{config.engines[static_cast<std::size_t>(failed)].name, Termination::Startup, reason};
  }
  return {spec, record};
}

TEST_F(RunnerTest, AnEngineThatFailsToStartThreeTimesAlikeAndNeverStartedStopsTheRun) {
  const Config config = round_robin(3, 1, 1);
  StartWatch watch(config);
  auto add = [&](int south, int north, int failed) {
    auto [spec, record] = game_of(config, south, north, failed);
    return watch.add(spec, record);
  };
  EXPECT_FALSE(add(1, 0, 1));
  EXPECT_FALSE(add(2, 1, 1));  // e2 started: it is readied first
  const std::optional<std::string> stop = add(0, 1, 1);
  ASSERT_TRUE(stop);
  EXPECT_NE(stop->find("engine 'e1' failed to start in each of its first 3 games of this run, every time with: eof "
                       "before kepok: exited with code 3"),
            std::string::npos)
      << *stop;
  EXPECT_NE(stop->find("referee check --engine cmd="), std::string::npos) << *stop;
  ASSERT_EQ(watch.never_started().size(), 1u);
  EXPECT_EQ(watch.never_started()[0].engine, "e1");
  EXPECT_EQ(watch.never_started()[0].failures, 3);
}

TEST_F(RunnerTest, AnEngineThatStartedOnceOrFailedForOtherReasonsDoesNotStopTheRun) {
  const Config config = round_robin(3, 1, 1);
  StartWatch watch(config);
  auto add = [&](int south, int north, int failed, const std::string& reason) {
    auto [spec, record] = game_of(config, south, north, failed, reason);
    return watch.add(spec, record);
  };
  // e1 started once (a normal game), then failed: a start-up failure of a running engine is a forfeit.
  EXPECT_FALSE(add(0, 1, -1, ""));
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(add(1, 2, 1, "no kepok within 2 s"));
  // e2, untried when e1 failed as South, failed for two reasons: no single cause to name.
  EXPECT_FALSE(add(2, 0, 2, "no kepok within 2 s"));
  EXPECT_FALSE(add(2, 0, 2, "eof before kepok: exited with code 1"));
  EXPECT_FALSE(add(2, 0, 2, "no kepok within 2 s"));
  ASSERT_EQ(watch.never_started().size(), 1u);
  EXPECT_EQ(watch.never_started()[0].engine, "e2");
}

TEST_F(RunnerTest, AContestEntrantThatCannotStartForfeitsWithoutStoppingTheRun) {
  Config config = round_robin(3, 1, 1);
  config.submissions.emplace();
  config.house_engines = 2;  // e2 is an entrant
  StartWatch watch(config);
  for (int i = 0; i < 5; ++i) {
    auto [spec, record] = game_of(config, 0, 2, 2);
    EXPECT_FALSE(watch.add(spec, record));
  }
  ASSERT_EQ(watch.never_started().size(), 1u);
  EXPECT_EQ(watch.never_started()[0].failures, 5);
}

// With slow engines "0.0 games/s" said nothing: the unit follows the pace.
TEST(Progress, PaceIsShownInAUnitThatFits) {
  EXPECT_EQ(pace_text(0, 10), "- games/s");
  EXPECT_EQ(pace_text(5, 0), "- games/s");
  EXPECT_EQ(pace_text(37, 10), "3.7 games/s");
  EXPECT_EQ(pace_text(10, 10), "1.0 games/s");
  EXPECT_EQ(pace_text(9, 10), "54.0 games/min");
  EXPECT_EQ(pace_text(1, 60), "1.0 games/min");
  EXPECT_EQ(pace_text(1, 61), "1.0 min/game");
  EXPECT_EQ(pace_text(2, 300), "2.5 min/game");
}

// The live report rewrites the standings and the page from a copy of the run's sums, says it is live,
// and stops cleanly; the test waits for the rewrite with a deadline, it does not time it.
TEST(FlowLiveReport, RewritesThePageWithALiveNoteAndStops) {
  const system::TempFolder temp("kalah-live");
  const std::filesystem::path& dir = temp.path();
  rating::StandingsBuilder all({"a", "b"});
  std::mutex lock;
  LiveReport live(dir, "live-test", 0, std::chrono::milliseconds(20), all, lock);
  live.set_total_games(10);
  for (int i = 0; i < 3; ++i) {
    GameRecord g;
    g.id = "g" + std::to_string(i);
    g.south = i % 2 ? "a" : "b";
    g.north = i % 2 ? "b" : "a";
    g.result = Outcome::FirstWins;
    std::lock_guard hold(lock);
    all.add(g);
    live.add(g);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (live.rewrites() == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  live.stop();
  ASSERT_GE(live.rewrites(), 1);
  const int rewrites = live.rewrites();
  for (const char* file : {"report.html", "standings.md", "standings.json", "standings.csv"})
    EXPECT_TRUE(std::filesystem::exists(dir / file)) << file;
  std::ifstream html(dir / "report.html");
  const std::string page((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("Live: 3 of 10 games so far"), std::string::npos);
  EXPECT_NE(page.find("g2"), std::string::npos) << "the embedded games";
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_EQ(live.rewrites(), rewrites) << "nothing after stop()";
}

TEST(FlowLiveReport, TheNoteSaysHowFarTheRunIs) {
  EXPECT_EQ(live_note(12, 24, std::chrono::seconds(30)),
            "Live: 12 of 24 games so far; rewritten every 30 s until the run ends (reload to update).");
  EXPECT_EQ(live_note(7, 0, std::chrono::milliseconds(1500)),
            "Live: 7 games so far; rewritten every 1.5 s until the run ends (reload to update).");
}

TEST_F(RunnerTest, PlaysEveryGameOnceAndJournalsItBeforeReportingIt) {
  const Config config = round_robin(4, 2, 2);
  const std::vector<GameSpec> schedule = make_schedule(config);
  ASSERT_EQ(schedule.size(), 24u);  // 6 pairings x 2 rounds x 2 games

  journal::Journal journal = open_journal();
  Ledger ledger;
  ScheduleSource source(schedule);
  std::vector<std::string> reported;
  Runner runner(
      config, journal, source,
      [&](const GameSpec& spec, const GameRecord& record) {
        EXPECT_TRUE(journal.is_completed(record.id)) << "reported before it was journaled: " << record.id;
        EXPECT_EQ(record.id, spec.id);
        EXPECT_EQ(record.south, config.engines[spec.south].name);
        EXPECT_EQ(record.north, config.engines[spec.north].name);
        EXPECT_EQ(record.termination, Termination::Normal);
        reported.push_back(record.id);
      },
      scripted(ledger));
  const RunResult result = runner.run(config.tournament.concurrency);

  EXPECT_EQ(result.played, 24);
  EXPECT_FALSE(result.interrupted);
  EXPECT_TRUE(result.error.empty()) << result.error;
  std::set<std::string> ids(reported.begin(), reported.end());
  EXPECT_EQ(ids.size(), 24u) << "a game was reported twice";
  for (const GameSpec& g : schedule) EXPECT_TRUE(ids.count(g.id)) << g.id;
  EXPECT_EQ(journal.size(), 24u);
  for (int e = 0; e < 4; ++e) EXPECT_EQ(ledger.games_started["e" + std::to_string(e)], 12);
  EXPECT_EQ(ledger.alive, 0) << "players outlived the run";
}

// Games played elsewhere (a season's ladder on Slurm): each record that comes back is journaled and reported as a game
// played here, no engine starts here; a game that comes back without a record stops the run, is not journaled, and
// the games in flight elsewhere are aborted.
TEST_F(RunnerTest, GamesPlayedElsewhereAreJournaledAndOneWithoutARecordStopsTheRun) {
  const Config config = round_robin(3, 2, 2);
  const std::vector<GameSpec> schedule = make_schedule(config);
  ASSERT_EQ(schedule.size(), 12u);
  journal::Journal journal = open_journal();
  Ledger ledger;
  ScheduleSource source(schedule);
  std::mutex mutex;
  std::condition_variable aborted;
  int played = 0, aborts = 0;
  std::vector<std::string> reported;
  Runner runner(
      config, journal, source,
      [&](const GameSpec&, const GameRecord& record) {
        EXPECT_TRUE(journal.is_completed(record.id)) << record.id;
        reported.push_back(record.id);
      },
      scripted(ledger));
  runner.set_play_elsewhere({[&](const GameSpec& spec) -> Expected<GameRecord> {
                               std::unique_lock lock(mutex);
                               if (++played == 5) return Error{"its Slurm job failed: srun exited with code 1"};
                               // A game that begins after the failure came back ends only once the runner has
                               // taken it in (a Slurm game takes seconds; here the games come back at once, and
                               // however the threads are scheduled, the bound below is then exact). Bounded: a
                               // runner that never aborts fails the test below, it does not hang it.
                               if (played > 5)
                                 aborted.wait_for(lock, std::chrono::seconds(30), [&] { return aborts > 0; });
                               GameRecord record = game_of(config, spec.south, spec.north).second;
                               record.id = spec.id;
                               record.round = spec.round;
                               record.result = Outcome::Draw;
                               return record;
                             },
                             [&] {
                               const std::lock_guard lock(mutex);
                               ++aborts;
                               aborted.notify_all();
                             }});
  const RunResult result = runner.run(config.tournament.concurrency);
  EXPECT_NE(result.engine_failure.find(": its Slurm job failed: srun exited with code 1"), std::string::npos)
      << result.engine_failure;
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_GE(aborts, 1);
  EXPECT_EQ(result.played, static_cast<int>(reported.size()));
  EXPECT_EQ(journal.size(), reported.size());
  EXPECT_LE(reported.size(), 4u);  // the four before the failure at most (the fourth may come back after it)
  EXPECT_TRUE(ledger.games_started.empty()) << "an engine started here";
}

// A Swiss and a knockout tournament on more workers than a round has games: the idle workers wait for
// the round in flight (no busy loop, no early exit), every game is played once, and no game of a later
// Swiss round starts before the round before it has finished.
TEST_F(RunnerTest, RoundByRoundTournamentsWaitForTheRoundInFlight) {
  for (const char* type : {"swiss", "knockout"}) {
    SCOPED_TRACE(type);
    Config config = round_robin(7, 3, 5);
    config.tournament.type = std::string(type) == "swiss" ? TournamentType::Swiss : TournamentType::Knockout;
    config.tournament.tiebreak_pairs = 1;
    fs::remove_all(dir_ / "rr");
    journal::Journal journal = open_journal();
    Ledger ledger;
    RoundSource source(config, formats::round_pairing(config));
    std::vector<GameSpec> order;
    std::set<std::string> finished;
    int started_before_round_over = 0;
    Runner runner(
        config, journal, source,
        [&](const GameSpec& spec, const GameRecord& record) {
          EXPECT_EQ(record.id, spec.id);
          order.push_back(spec);
          finished.insert(spec.id);
        },
        scripted(ledger));
    const RunResult result = runner.run(config.tournament.concurrency);
    EXPECT_FALSE(result.interrupted);
    EXPECT_TRUE(result.error.empty()) << result.error;
    EXPECT_EQ(static_cast<std::size_t>(result.played), finished.size()) << "a game was played twice";
    EXPECT_EQ(journal.size(), finished.size());
    EXPECT_FALSE(source.more_later());
    EXPECT_FALSE(source.next()) << "nothing is left once the runner stops";
    if (config.tournament.type == TournamentType::Swiss) {
      EXPECT_EQ(result.played, 3 * 3 * 2);  // 3 rounds of 3 boards (one engine rests)
      // Journal order: a game of round r + 1 only after all 6 games of round r.
      std::map<int, int> done;
      for (const GameSpec& g : order) {
        if (g.round > 1 && done[g.round - 1] < 6) ++started_before_round_over;
        ++done[g.round];
      }
      EXPECT_EQ(started_before_round_over, 0);
      EXPECT_TRUE(replay_swiss(7, 3, source.results()).complete);
    } else {
      const KnockoutProgress k = replay_knockout(7, 3, 1, source.results());
      EXPECT_GE(k.champion, 0);
      EXPECT_GE(result.played, 6 * 3 * 2);  // 6 matches of 3 pairs, and tie-breaks
    }
  }
}

// Six engines on one worker: the cache holds at most four players and never drops the opponent of
// the game being started (wave 1 crashed on exactly that with five or more engines).
TEST_F(RunnerTest, EngineCacheIsBoundedAndKeepsTheOpponent) {
  const Config config = round_robin(6, 1, 1);
  journal::Journal journal = open_journal();
  Ledger ledger;
  ScheduleSource source(make_schedule(config));
  Runner runner(config, journal, source, nullptr, scripted(ledger));
  const RunResult result = runner.run(1);
  EXPECT_EQ(result.played, 30);
  EXPECT_LE(ledger.most_alive, 4);
  EXPECT_GT(ledger.created, 6) << "with six engines and room for four, some must have been restarted";
  EXPECT_FALSE(ledger.destroyed_in_game);
}

TEST_F(RunnerTest, ForfeitsAreJournaledWithTheirReason) {
  const Config config = round_robin(3, 1, 2);
  journal::Journal journal = open_journal();
  Ledger ledger;
  ScheduleSource source(make_schedule(config));
  Runner runner(config, journal, source, nullptr, scripted(ledger, "e1"));
  EXPECT_EQ(runner.run(2).played, 6);
  int forfeits = 0;
  Expected<journal::GamesFile> file = journal::read_games(journal.games_path());
  ASSERT_TRUE(file.ok()) << file.error();
  for (const GameRecord& g : file->games) {
    const bool e1_plays = g.south == "e1" || g.north == "e1";
    if (!e1_plays) {
      EXPECT_FALSE(g.forfeit) << g.id;
      continue;
    }
    ASSERT_TRUE(g.forfeit) << g.id;
    EXPECT_EQ(g.forfeit->engine, "e1");
    EXPECT_EQ(g.forfeit->reason, Termination::Illegal);
    EXPECT_EQ(g.termination, Termination::Illegal);
    EXPECT_EQ(g.result, g.south == "e1" ? Outcome::SecondWins : Outcome::FirstWins);
    ++forfeits;
  }
  EXPECT_EQ(forfeits, 4);
}

// A player that thinks until it is aborted; tells the test when it starts thinking.
class ThinkingPlayer : public Player {
 public:
  ThinkingPlayer(std::string name, std::function<void()> thinking) : name_(std::move(name)), thinking_(thinking) {}
  const std::string& name() const override { return name_; }
  std::optional<Fault> new_game(const Variant&, const std::optional<Position>&, const TimeControl&) override {
    return std::nullopt;
  }
  Reply play(const std::vector<Move>&, const kep::Go&, std::chrono::milliseconds) override {
    thinking_();
    std::unique_lock lock(mutex_);
    aborted_cv_.wait(lock, [this] { return aborted_; });
    return Reply{Fault{Termination::Crash, "killed"}, {}, 0, {}};
  }
  void abort() override {
    std::lock_guard lock(mutex_);
    aborted_ = true;
    aborted_cv_.notify_all();
  }

 private:
  std::string name_;
  std::function<void()> thinking_;
  std::mutex mutex_;
  std::condition_variable aborted_cv_;
  bool aborted_ = false;
};

// An interrupt while both workers wait for a move: the runner stops at once, the games cut short
// are not results (nothing is journaled) and nothing more is started.
TEST_F(RunnerTest, InterruptAbandonsTheGamesInFlight) {
  const Config config = round_robin(4, 1, 2);
  journal::Journal journal = open_journal();
  std::mutex mutex;
  std::condition_variable cv;
  int thinking = 0;
  PlayerFactory players = [&](const EngineSpec& spec) -> std::unique_ptr<Player> {
    return std::make_unique<ThinkingPlayer>(spec.name, [&] {
      std::lock_guard lock(mutex);
      ++thinking;
      cv.notify_all();
    });
  };
  ScheduleSource source(make_schedule(config));
  int reported = 0;
  Runner runner(
      config, journal, source, [&](const GameSpec&, const GameRecord&) { ++reported; }, players);
  std::thread interrupter([&] {
    std::unique_lock lock(mutex);
    cv.wait(lock, [&] { return thinking >= 2; });
    runner.interrupt();
  });
  const RunResult result = runner.run(2);
  interrupter.join();
  EXPECT_TRUE(result.interrupted);
  EXPECT_EQ(result.played, 0);
  EXPECT_EQ(reported, 0);
  EXPECT_EQ(journal.size(), 0u);
  EXPECT_EQ(thinking, 2) << "no game may start after the interrupt";
}

// The whole flow without processes: reports are written, and a second run resumes from the
// journal and plays nothing.
TEST_F(RunnerTest, FlowWritesReportsAndResumes) {
  const Config config = round_robin(3, 2, 2);
  Ledger ledger;
  FlowOptions options;
  options.players = scripted(ledger);
  options.watch_signals = false;
  const fs::path printed = dir_ / "printed.txt";
  std::FILE* quiet = std::fopen(printed.c_str(), "w");
  ASSERT_NE(quiet, nullptr);

  Expected<int> first = play_schedule(config, options, quiet);
  ASSERT_TRUE(first.ok()) << first.error();
  EXPECT_EQ(*first, 0);
  EXPECT_LE(ledger.created, 3 * 2) << "each of the two workers starts the engines it needs once";
  for (const char* file : {"games.jsonl", "tournament.json", "standings.md", "standings.json", "standings.csv",
                           "games.pgn", "report.html"})
    EXPECT_TRUE(fs::exists(dir_ / "rr" / file)) << file;

  const int created = ledger.created;
  Expected<int> second = play_schedule(config, options, quiet);
  ASSERT_TRUE(second.ok()) << second.error();
  EXPECT_EQ(ledger.created, created) << "a resumed finished tournament starts no engine";
  Expected<journal::GamesFile> stored = journal::read_games(dir_ / "rr" / "games.jsonl");
  ASSERT_TRUE(stored.ok()) << stored.error();
  EXPECT_EQ(stored->games.size(), 12u);
  std::fclose(quiet);

  // What operators (and their scripts) read off a terminal-less run: the header, the progress line
  // (docs/FORMATS.md pins its shape), the results line; the resumed run says all was done.
  std::string text;
  ASSERT_FALSE(system::read_file(printed, text));
  const std::string header =
      R"(rr: round-robin 3 engines, 12 games \(0 done\), pits=6 seeds=4 [^\n]*, 1\+0, concurrency 2\n)";
  const std::string progress =
      R"(\ngames 12/12 \| [0-9.]+ games/s \| elapsed \d+m\d\ds \| eta [^|]+ \| leader e\d \([0-9.]+ pts\)\n)";
  const std::string results =
      R"(\nresults: [^\n]*/rr/ \(standings.md, standings.json, standings.csv, games.pgn, report.html\)\n)";
  const std::string resumed = R"(rr: round-robin 3 engines, 12 games \(12 done\))";
  EXPECT_TRUE(test::search(text, header)) << text;
  EXPECT_TRUE(test::search(text, progress)) << text;
  EXPECT_TRUE(test::search(text, results)) << text;
  EXPECT_TRUE(test::search(text, resumed)) << text;
}

}  // namespace
}  // namespace kalah::arena
