// End-to-end tests of `arena run`: the real executable on temporary TOML configs with the bundled
// bots (marked copies, so that every engine process of a test can be found in /proc).
//
// The kill and Ctrl-C tests need a run that is still going when the signal comes: kalah-mcts
// thinks for the whole `movetime_ms`, so with 20 ms a game against it takes a fraction of a
// second, while random and greedy answer at once. The signal is sent once the journal holds two
// games, so the test does not depend on how fast the machine is.
#include <sched.h>
#include <gtest/gtest.h>

#include <set>

#include "referee/record/record_json.h"
#include "tests/config_builder.h"
#include "tests/e2e_util.h"
#include "tests/support/text_match.h"

namespace kalah {
namespace {

using e2e::fs::path;

constexpr auto kRunLimit = std::chrono::milliseconds(180000);
// Answers at once; `--score N` makes it report that score with every move.
const path kInstant = KALAH_BINARY_DIR "/tests/engines/instant_engine";

struct EngineEntry {
  std::string name;
  path cmd;
  std::string extra;  // more TOML lines for this [[engine]]
};

struct TournamentSetup {
  std::string name = "e2e";
  int rounds = 2;
  int concurrency = 2;
  int seed = 1;
  std::string time = "base_ms = 5000\ninc_ms = 50";
  std::string adjudicate;  // tournament.adjudicate, as TOML, if given
  std::vector<EngineEntry> engines;
};

// What a journal holds: the complete lines, read with the strict record reader.
struct JournalContents {
  std::vector<GameRecord> games;
  std::vector<std::string> bad_lines;  // complete lines that do not parse
  std::string torn;                    // text after the last newline
  std::set<std::string> ids;
  size_t duplicates = 0;
};

JournalContents read_journal(const path& file) {
  JournalContents j;
  const std::string text = e2e::read_file(file);
  size_t begin = 0;
  for (size_t end; (end = text.find('\n', begin)) != std::string::npos; begin = end + 1) {
    const std::string line = text.substr(begin, end - begin);
    if (line.empty()) continue;
    Expected<GameRecord> r = record_from_json(line);
    if (!r) {
      j.bad_lines.push_back(line + "  <- " + r.error());
      continue;
    }
    if (!j.ids.insert(r->id).second) ++j.duplicates;
    j.games.push_back(std::move(r).value());
  }
  j.torn = text.substr(begin);
  return j;
}

class ArenaFixture : public ::testing::Test {
 protected:
  ArenaFixture() : marker_(e2e::unique_marker()), results_(dir_ / "results") {}

  ~ArenaFixture() override {
    for (const e2e::ProcessInfo& p : e2e::find_processes(marker_)) ::kill(p.pid, SIGKILL);
  }

  // A marked copy of a bot; `tag` is one character, so the process name keeps the whole marker.
  path engine(const path& binary, char tag) {
    return e2e::copy_executable(binary, dir_.path(), marker_ + std::string(1, tag));
  }

  TournamentSetup three_bots() {
    TournamentSetup s;
    s.engines = {{"random", engine(e2e::kRandom, 'r'), "options = { Seed = 3 }"},
                 {"greedy", engine(e2e::kGreedy, 'g'), ""},
                 {"random-b", dir_ / (marker_ + "r"), "options = { Seed = 11 }"}};
    return s;
  }

  // Greedy and random against an MCTS that uses its whole 20 ms per move: 24 games, a few seconds.
  TournamentSetup slow_tournament() {
    TournamentSetup s;
    s.rounds = 4;
    s.time = "movetime_ms = 20";
    s.engines = {{"random", engine(e2e::kRandom, 'r'), ""},
                 {"greedy", engine(e2e::kGreedy, 'g'), ""},
                 {"mcts", engine(e2e::kMcts, 'm'), ""}};
    return s;
  }

  path write_config(const TournamentSetup& s, const std::string& file = "tournament.toml") {
    test::TestConfig c(s.name);
    c.set("type", "round-robin").set("rounds", s.rounds).set("concurrency", s.concurrency).set("seed", s.seed);
    c.output(results_).time(s.time).table("openings", "random_plies = 2");
    if (!s.adjudicate.empty()) c.raw("adjudicate", s.adjudicate);
    for (const EngineEntry& e : s.engines) c.engine(e.name, e.cmd, e.extra);
    return c.write(dir_ / file);
  }

  static int scheduled_games(const TournamentSetup& s) {
    const int n = static_cast<int>(s.engines.size());
    return n * (n - 1) / 2 * 2 * s.rounds;
  }

  path tournament_dir(const TournamentSetup& s) const { return results_ / s.name; }
  path journal(const TournamentSetup& s) const { return tournament_dir(s) / "games.jsonl"; }

  e2e::RunResult arena(std::vector<std::string> args) {
    args.insert(args.begin(), e2e::kArena.string());
    return e2e::run(args, dir_.path(), kRunLimit);
  }

  void expect_no_engine_left() {
    const std::vector<e2e::ProcessInfo> left = e2e::wait_until_gone(marker_);
    EXPECT_TRUE(left.empty()) << "engine processes left behind:\n" << e2e::describe(left);
  }

  // The journal is complete: exactly the scheduled games, each once, every line valid.
  void expect_complete_journal(const TournamentSetup& s) {
    const JournalContents j = read_journal(journal(s));
    EXPECT_EQ(j.games.size(), static_cast<size_t>(scheduled_games(s)));
    EXPECT_EQ(j.ids.size(), static_cast<size_t>(scheduled_games(s)));
    EXPECT_EQ(j.duplicates, 0u);
    EXPECT_TRUE(j.bad_lines.empty()) << j.bad_lines.front();
    EXPECT_TRUE(j.torn.empty()) << "torn tail: " << j.torn;
  }

  // Starts a run in the background and sends `sig` once two games are in the journal.
  e2e::ExitStatus interrupt_after_two_games(const path& config, const TournamentSetup& s, int sig) {
    e2e::Child child({e2e::kArena.string(), "run", config.string()}, dir_ / "bg.out", dir_ / "bg.err");
    const auto give_up = e2e::Clock::now() + std::chrono::seconds(120);
    while (read_journal(journal(s)).games.size() < 2 && e2e::Clock::now() < give_up) {
      if (std::optional<e2e::ExitStatus> early = child.poll()) {
        ADD_FAILURE() << "arena ended before it could be interrupted: code " << early->code << "\n"
                      << e2e::read_file(dir_ / "bg.err");
        return *early;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_LT(read_journal(journal(s)).games.size(), static_cast<size_t>(scheduled_games(s)))
        << "the run must still be going when it is interrupted";
    EXPECT_FALSE(e2e::find_processes(marker_).empty()) << "engines must be running when it is interrupted";
    // SIGINT goes to the arena's process group, as Ctrl-C does; SIGKILL to the arena alone.
    if (sig == SIGINT)
      child.signal_group(sig);
    else
      child.signal(sig);
    const e2e::ExitStatus status = child.wait(std::chrono::seconds(30));
    EXPECT_FALSE(status.timed_out) << "arena did not stop within 30 s of signal " << sig;
    return status;
  }

  system::TempFolder dir_{"kalah-e2e"};
  std::string marker_;
  path results_;
};

// Adjudication end to end: the config's rules reach the games, the journal says why each adjudicated
// game ended (schema 2 lines), and games.pgn carries the standard Termination and the reason.
TEST(BundledBots, AConfigNamesThemWithoutAPathWhereverItIs) {
  // A config copied out of the repository: "kalah-random" is the arena's own bot, not a path.
  system::TempFolder tmp{"kalah-e2e"};
  test::TestConfig("copied")
      .output(tmp / "out")
      .time("depth = 1")
      .engine("r", "kalah-random")
      .engine("g", "kalah-greedy")
      .write(tmp / "copied.toml");
  const e2e::RunResult r = e2e::run({e2e::kArena.string(), "run", (tmp.path() / "copied.toml").string()}, tmp.path(),
                                    std::chrono::seconds(60));
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_EQ(e2e::read_lines(tmp.path() / "out" / "copied" / "games.jsonl").size(), 2u);
  // Any other bare name is still only looked for on PATH and then as a path, and the error says where.
  test::TestConfig("other")
      .time("depth = 1")
      .engine("r", "kalah-nosuch")
      .engine("g", "kalah-greedy")
      .write(tmp / "other.toml");
  const e2e::RunResult bad = e2e::run({e2e::kArena.string(), "run", (tmp.path() / "other.toml").string()}, tmp.path(),
                                      std::chrono::seconds(60));
  EXPECT_EQ(bad.status.code, 2) << bad.summary();
  EXPECT_NE(bad.err.find("\"kalah-nosuch\" not found (tried PATH, " KALAH_BINARY_DIR "/bots/kalah-nosuch"),
            std::string::npos)
      << bad.err;
}

TEST(Analysis, AnAnalysisSectionValuesEveryGameBeforeTheReportsAndVerifyChecksIt) {
  system::TempFolder tmp{"kalah-e2e"};
  test::TestConfig("a")
      .set("rounds", 2)
      .output(tmp / "out")
      .table("variant", "pits = 4\nseeds = 3")
      .time("depth = 1")
      .table("analysis", "threads = 1")
      .engine("r", "kalah-random")
      .engine("g", "kalah-greedy")
      .write(tmp / "a.toml");
  // The databases go to a cache of the test's own.
  const std::string cache = "XDG_CACHE_HOME=" + (tmp.path() / "cache").string();
  auto arena = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"/usr/bin/env", cache, e2e::kArena.string()});
    return e2e::run(args, tmp.path(), std::chrono::seconds(120));
  };
  const e2e::RunResult r = arena({"run", (tmp.path() / "a.toml").string()});
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.out.find("arena: analysis: 4 games, 4 now"), std::string::npos) << r.out;
  // The database (not in the test's fresh cache) is announced as its build starts, and its end is shown.
  EXPECT_NE(r.out.find("arena: analysing the games with perfect play ([analysis]: at most 1000 ms per position, more "
                       "for one that many games share, 1 thread)\narena: endgame database "
                       "p4-standard-side-empty-owner: building positions with up to 24 seeds in the pits\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("arena: endgame database p4-standard-side-empty-owner: 24/24 seeds, 100.0% of its positions"),
            std::string::npos)
      << r.out;
  const std::filesystem::path dir = tmp.path() / "out" / "a";
  EXPECT_EQ(e2e::read_lines(dir / "analysis.jsonl").size(), 4u);
  EXPECT_NE(e2e::read_file(dir / "standings.md").find("Move quality"), std::string::npos);
  const e2e::RunResult verified = arena({"verify", dir.string()});
  EXPECT_EQ(verified.status.code, 0) << verified.summary();
  EXPECT_NE(verified.out.find("analysis: 4 games"), std::string::npos) << verified.out;
  // Nothing left to analyse: the command says so and the file stays as it was.
  const std::string before = e2e::read_file(dir / "analysis.jsonl");
  const e2e::RunResult again = arena({"analyse", dir.string(), "--quiet"});
  EXPECT_EQ(again.status.code, 0) << again.summary();
  EXPECT_NE(again.out.find("4 games; 4 analysed before, 0 now"), std::string::npos) << again.out;
  EXPECT_EQ(e2e::read_file(dir / "analysis.jsonl"), before);
}

// `arena analyse` says at once that it builds the endgame database, and how far it has come as it goes, not
// only once it is built (a six-pit database takes minutes).
TEST(Analysis, AnalyseSaysAtOnceThatItBuildsTheEndgameDatabaseAndShowsItsProgress) {
  system::TempFolder tmp{"kalah-e2e"};
  test::TestConfig("a")
      .set("rounds", 1)
      .output(tmp / "out")
      .table("variant", "pits = 4\nseeds = 3")
      .time("depth = 1")
      .engine("r", "kalah-random")
      .engine("g", "kalah-greedy")
      .write(tmp / "a.toml");
  const e2e::RunResult played =
      e2e::run({e2e::kArena.string(), "run", (tmp.path() / "a.toml").string()}, tmp.path(), std::chrono::seconds(120));
  ASSERT_EQ(played.status.code, 0) << played.summary();
  const std::string dir = (tmp.path() / "out" / "a").string();
  const std::string building =
      "endgame database p4-standard-side-empty-owner: building positions with up to 24 seeds "
      "in the pits\n";
  const e2e::RunResult r = e2e::run({e2e::kArena.string(), "analyse", dir, "--no-cache", "--threads", "1"}, tmp.path(),
                                    std::chrono::seconds(120));
  ASSERT_EQ(r.status.code, 0) << r.summary();
  // Said before the games are valued, and before the line that says what was built and how long it took.
  const std::size_t said = r.out.find(building);
  ASSERT_NE(said, std::string::npos) << r.out;
  EXPECT_LT(said, r.out.find("endgame database p4-standard-side-empty-owner: positions with up to 24 seeds")) << r.out;
  EXPECT_LT(said, r.out.find(dir + ": 2 games")) << r.out;
  // The progress on stderr ends with the whole database; the games' progress comes after it.
  const std::size_t done = r.err.find(
      "endgame database p4-standard-side-empty-owner: 24/24 seeds, 100.0% of its "
      "positions");
  ASSERT_NE(done, std::string::npos) << r.err;
  EXPECT_LT(done, r.err.find(dir + ": analysed")) << r.err;
  // --quiet keeps the line that says what it does, not the progress.
  e2e::fs::remove(path(dir) / "analysis.jsonl");
  const e2e::RunResult quiet =
      e2e::run({e2e::kArena.string(), "analyse", dir, "--no-cache", "--quiet"}, tmp.path(), std::chrono::seconds(120));
  ASSERT_EQ(quiet.status.code, 0) << quiet.summary();
  EXPECT_NE(quiet.out.find(building), std::string::npos) << quiet.out;
  EXPECT_EQ(quiet.err, "") << quiet.err;
}

TEST_F(ArenaFixture, AdjudicatedGamesCarryTheirReasonIntoTheJournalAndPgn) {
  // The database goes to a cache of the test's own, not the user's.
  ::setenv("XDG_CACHE_HOME", (dir_ / "cache").c_str(), 1);
  TournamentSetup s;
  s.name = "adjudicated";
  s.rounds = 4;
  s.engines = {{"random", engine(e2e::kRandom, 'r'), "options = { Seed = 5 }"},
               {"greedy", engine(e2e::kGreedy, 'g'), ""}};
  s.adjudicate = "{ store_majority = true, database_seeds = 10 }";
  path config = write_config(s);
  const e2e::RunResult run = arena({"run", config.string()});
  ASSERT_EQ(run.status.code, 0) << run.summary();
  EXPECT_NE(run.out.find("endgame database for adjudication: 10 seeds"), std::string::npos) << run.out;
  const JournalContents j = read_journal(journal(s));
  ASSERT_EQ(j.games.size(), 8u);
  int adjudicated = 0;
  for (const GameRecord& g : j.games) {
    if (g.termination != Termination::Adjudicated) continue;
    ++adjudicated;
    ASSERT_TRUE(g.adjudication.has_value()) << g.id;
    EXPECT_TRUE(g.adjudication->reason == AdjudicationReason::StoreMajority ||
                g.adjudication->reason == AdjudicationReason::Database)
        << g.id;
    EXPECT_EQ(g.adjudication->margin.has_value(), g.adjudication->reason == AdjudicationReason::Database) << g.id;
  }
  EXPECT_GT(adjudicated, 0) << e2e::read_file(journal(s));
  EXPECT_NE(e2e::read_file(journal(s)).find("{\"schema\":2,"), std::string::npos);
  const std::string pgn = e2e::read_file(tournament_dir(s) / "games.pgn");
  EXPECT_NE(pgn.find("[Termination \"adjudication\"]"), std::string::npos);
  EXPECT_TRUE(pgn.find("{adjudication store-majority:") != std::string::npos ||
              pgn.find("{adjudication database:") != std::string::npos)
      << pgn;
  ::unsetenv("XDG_CACHE_HOME");

  // Resign on the engines' own scores: the instant engine reports whatever score it is given.
  TournamentSetup r;
  r.name = "resigned";
  r.rounds = 1;
  r.engines = {{"hopeless", kInstant, "args = [\"--score\", \"-900\"]"},
               {"confident", kInstant, "args = [\"--score\", \"900\"]"}};
  r.adjudicate = "{ resign = { movecount = 2, score = 500, twosided = true } }";
  config = write_config(r, "resign.toml");
  const e2e::RunResult resigned = arena({"run", config.string()});
  ASSERT_EQ(resigned.status.code, 0) << resigned.summary();
  const JournalContents k = read_journal(journal(r));
  ASSERT_EQ(k.games.size(), 2u);
  for (const GameRecord& g : k.games) {
    EXPECT_EQ(g.termination, Termination::Adjudicated) << g.id;
    ASSERT_TRUE(g.adjudication.has_value()) << g.id;
    EXPECT_EQ(g.adjudication->reason, AdjudicationReason::Resign);
    EXPECT_EQ(g.result, g.south == "hopeless" ? Outcome::SecondWins : Outcome::FirstWins) << g.id;
  }
  EXPECT_NE(e2e::read_file(tournament_dir(r) / "games.pgn").find("{adjudication resign:"), std::string::npos);
  EXPECT_NE(e2e::read_file(tournament_dir(r) / "standings.md").find("confident"), std::string::npos);
}

TEST_F(ArenaFixture, RoundRobinRunsInParallelWritesAllReportsAndResumingPlaysNothingNew) {
  const TournamentSetup s = three_bots();
  const path config = write_config(s);
  const e2e::RunResult first = arena({"run", config.string()});
  ASSERT_EQ(first.status.code, 0) << first.summary();
  expect_complete_journal(s);
  for (const char* file : {"games.jsonl", "tournament.json", "standings.json", "standings.md", "standings.csv",
                           "games.pgn", "report.html"})
    EXPECT_TRUE(e2e::fs::exists(tournament_dir(s) / file)) << file;
  EXPECT_NE(e2e::read_file(tournament_dir(s) / "games.pgn").find("[White \""), std::string::npos);
  // The "About" section: what the engines announced in their handshake, recorded by the run.
  const std::string meta = e2e::read_file(tournament_dir(s) / "tournament.json");
  EXPECT_NE(meta.find("\"run.engine.greedy.id\": \"kalah-greedy by Kalah Arena\""), std::string::npos) << meta;
  EXPECT_NE(meta.find("\"run.arena_version\": "), std::string::npos) << meta;
  const std::string page = e2e::read_file(tournament_dir(s) / "report.html");
  EXPECT_NE(page.find("<section id=\"about\">"), std::string::npos);
  EXPECT_NE(page.find("kalah-greedy by Kalah Arena"), std::string::npos);
  EXPECT_EQ(page.find("Live: "), std::string::npos) << "the final page is not live";
  for (const EngineEntry& e : s.engines)
    EXPECT_NE(e2e::read_file(tournament_dir(s) / "standings.csv").find(e.name), std::string::npos) << e.name;
  expect_no_engine_left();

  const std::string journal_before = e2e::read_file(journal(s));
  const e2e::RunResult again = arena({"run", config.string()});
  ASSERT_EQ(again.status.code, 0) << again.summary();
  EXPECT_EQ(e2e::read_file(journal(s)), journal_before) << "a finished tournament plays nothing new";
  expect_no_engine_left();
}

// More games at once than CPUs on the wall clock: each move is charged the wait for a CPU. The run says so before
// it plays, naming the CPU clock as the remedy, and the reports' "About" section keeps it. The arena is started on
// one CPU (taskset) with two games at once; with one game at once nothing is said.
TEST_F(ArenaFixture, MoreGamesThanCpusOnTheWallClockIsAWarningThatNamesTheCpuClock) {
  if (!e2e::fs::exists("/usr/bin/taskset")) GTEST_SKIP() << "taskset is not installed (util-linux)";
  cpu_set_t mine;
  CPU_ZERO(&mine);
  ASSERT_EQ(::sched_getaffinity(0, sizeof mine, &mine), 0);
  int cpu = 0;
  while (!CPU_ISSET(cpu, &mine)) ++cpu;
  TournamentSetup s = three_bots();
  s.rounds = 1;
  s.time = "movetime_ms = 20";
  const path config = write_config(s);
  const e2e::RunResult r =
      e2e::run({"/usr/bin/taskset", "-c", std::to_string(cpu), e2e::kArena.string(), "run", config.string()},
               dir_.path(), kRunLimit);
  ASSERT_EQ(r.status.code, 0) << r.summary();
  const std::string warning =
      "concurrency 2 exceeds the 1 CPU this machine gives the arena: on the wall clock a move is charged the time its "
      "engine waits for a CPU";
  EXPECT_NE(r.err.find("arena: warning: " + config.string() + ": " + warning), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("set clock = \"cpu\" in [time] (or --clock cpu)"), std::string::npos) << r.err;
  const std::string md = e2e::read_file(tournament_dir(s) / "standings.md");
  EXPECT_NE(md.find("concurrency 2 exceeds the 1 CPU"), std::string::npos) << md;
  EXPECT_NE(e2e::read_file(tournament_dir(s) / "report.html").find(warning), std::string::npos);

  const e2e::RunResult one = e2e::run({"/usr/bin/taskset", "-c", std::to_string(cpu), e2e::kArena.string(), "run",
                                       config.string(), "--concurrency", "1", "--fresh"},
                                      dir_.path(), kRunLimit);
  ASSERT_EQ(one.status.code, 0) << one.summary();
  EXPECT_EQ(one.err.find("exceeds"), std::string::npos) << one.err;
  EXPECT_EQ(e2e::read_file(tournament_dir(s) / "standings.md").find("exceeds"), std::string::npos);
}

// An engine that never starts (docs/PROTOCOL.md, "An engine that never starts"): after its first three
// games, each a start-up forfeit with the same reason, the run stops with exit 2 naming the engine, the
// reason and the fix; the games played stay in the journal, and no standings of forfeits are printed
// or written.
TEST_F(ArenaFixture, AnEngineThatNeverStartsStopsTheRunNamingTheReasonAndTheFix) {
  TournamentSetup s;
  s.rounds = 3;
  s.concurrency = 1;
  s.engines = {{"random", engine(e2e::kRandom, 'r'), ""},
               {"dead", engine(e2e::kBadEngine, 'd'), "args = [\"--crash-at-start\"]"}};
  const e2e::RunResult r = arena({"run", write_config(s).string()});
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("engine 'dead' failed to start in each of its first 3 games of this run, every time with: "
                       "eof before kepok: exited with code 3"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("try it alone: referee check --engine cmd="), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("3 games are in " + journal(s).string()), std::string::npos) << r.err;
  const JournalContents j = read_journal(journal(s));
  ASSERT_EQ(j.games.size(), 3u) << r.summary();
  for (const GameRecord& g : j.games) {
    ASSERT_TRUE(g.forfeit);
    EXPECT_EQ(g.forfeit->engine, "dead");
    EXPECT_EQ(g.termination, Termination::Startup);
  }
  EXPECT_EQ(r.out.find("results: "), std::string::npos) << r.out;
  EXPECT_FALSE(e2e::fs::exists(tournament_dir(s) / "standings.md"));
  expect_no_engine_left();
}

// Engine faults are typed events in the journal (docs/FORMATS.md, "games.jsonl"): a crash keeps the end of
// the engine's stderr, a time forfeit its overrun too; the reports count them per engine and kind, with the
// worst overrun.
TEST_F(ArenaFixture, FaultsKeepTheEnginesStderrAndTheOverrunAndTheReportsCountThem) {
  TournamentSetup s;
  s.rounds = 1;
  s.concurrency = 1;
  s.time = "movetime_ms = 100";
  s.engines = {
      {"random", engine(e2e::kRandom, 'r'), ""},
      {"crashy", engine(e2e::kBadEngine, 'c'),
       "args = [\"--crash-on-go\", \"2\", \"--stderr-on-go\", \"thinking hard\"]"},
      {"hangs", engine(e2e::kBadEngine, 'h'), "args = [\"--hang-on-go\", \"1\", \"--stderr-on-go\", \"searching\"]"}};
  const e2e::RunResult r = arena({"run", write_config(s).string()});
  ASSERT_EQ(r.status.code, 0) << r.summary();
  const JournalContents j = read_journal(journal(s));
  ASSERT_EQ(j.games.size(), 6u) << r.summary();
  int crashes = 0, timeouts = 0;
  for (const GameRecord& g : j.games) {
    ASSERT_TRUE(g.forfeit) << g.id;
    if (g.forfeit->reason == Termination::Crash) {
      ++crashes;
      EXPECT_EQ(g.forfeit->engine, "crashy");
      EXPECT_NE(g.forfeit->stderr_tail.find("thinking hard"), std::string::npos) << g.forfeit->stderr_tail;
      EXPECT_FALSE(g.forfeit->overrun_ms);
    } else {
      ++timeouts;
      EXPECT_EQ(g.forfeit->reason, Termination::Time);
      EXPECT_EQ(g.forfeit->engine, "hangs");
      EXPECT_NE(g.forfeit->stderr_tail.find("searching"), std::string::npos) << g.forfeit->stderr_tail;
      ASSERT_TRUE(g.forfeit->overrun_ms);
      EXPECT_GE(*g.forfeit->overrun_ms, 0);
    }
  }
  EXPECT_GE(crashes, 1);
  EXPECT_GE(timeouts, 3);
  const std::string line = e2e::read_lines(journal(s)).front();
  EXPECT_EQ(line.rfind("{\"schema\":4,", 0), 0u) << line;
  const std::string md = e2e::read_file(tournament_dir(s) / "standings.md");
  EXPECT_NE(md.find("| Engine | Forfeits | time | crash | worst time overrun |"), std::string::npos) << md;
  EXPECT_TRUE(test::search(md, R"(\| hangs \| \d \| \d \| 0 \| [0-9.]+ ms \|)")) << md;
  EXPECT_NE(e2e::read_file(tournament_dir(s) / "standings.json").find("\"worst_overrun_ms\": "), std::string::npos);
  EXPECT_NE(e2e::read_file(tournament_dir(s) / "report.html").find("; worst time overrun "), std::string::npos);
  // The reports of `arena report` say the same from the journal alone.
  const std::string md_before = md;
  ASSERT_EQ(arena({"report", tournament_dir(s).string()}).status.code, 0);
  EXPECT_EQ(e2e::read_file(tournament_dir(s) / "standings.md"), md_before);
}

// An engine that never started in a run too short to stop it (2 games): the reports say so in a note.
TEST_F(ArenaFixture, AnEngineThatNeverStartedIsNamedInTheReports) {
  TournamentSetup s;
  s.rounds = 1;
  s.concurrency = 1;
  s.engines = {{"random", engine(e2e::kRandom, 'r'), ""},
               {"dead", engine(e2e::kBadEngine, 'd'), "args = [\"--crash-at-start\"]"}};
  const e2e::RunResult r = arena({"run", write_config(s).string()});
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.err.find("arena: warning: engine 'dead' did not start in this run (2 start-up forfeits): eof before "
                       "kepok: exited with code 3"),
            std::string::npos)
      << r.err;
  const std::string note = "dead never started: each of its 2 games is a start-up forfeit";
  EXPECT_NE(e2e::read_file(tournament_dir(s) / "standings.md").find(note), std::string::npos);
  EXPECT_NE(e2e::read_file(tournament_dir(s) / "standings.json").find(note), std::string::npos);
  EXPECT_NE(e2e::read_file(tournament_dir(s) / "report.html").find(note), std::string::npos);
  for (const GameRecord& g : read_journal(journal(s)).games)
    EXPECT_NE(g.forfeit->stderr_tail.find("ModuleNotFoundError: No module named 'numpy'"), std::string::npos)
        << g.forfeit->stderr_tail;
}

TEST_F(ArenaFixture, JournalGamesThatAreNotInTheScheduleAreReportedWithTheirCountAndFirstId) {
  const TournamentSetup s = three_bots();
  const path config = write_config(s);
  ASSERT_EQ(arena({"run", config.string()}).status.code, 0);
  // Two games pasted in from elsewhere: ids this schedule never makes.
  std::string line = e2e::read_file(journal(s));
  line = line.substr(0, line.find('\n') + 1);
  const std::string id =
      line.substr(line.find("\"id\":\"") + 6, line.find("\",\"round\"") - line.find("\"id\":\"") - 6);
  std::ofstream(journal(s), std::ios::app)
      << test::replace(line, id, "pasted-1") << test::replace(line, id, "pasted-2");
  const e2e::RunResult again = arena({"run", config.string()});
  ASSERT_EQ(again.status.code, 0) << again.summary();
  EXPECT_NE(again.err.find("holds 2 games whose id is not in this tournament's schedule (the first: 'pasted-1')"),
            std::string::npos)
      << again.summary();
}

TEST_F(ArenaFixture, MoreEnginesThanAWorkerKeepsAliveStillCompletes) {
  // Six engines: a worker holds at most four, so it quits some between games;
  // it must never quit the opponent of the game it is starting.
  TournamentSetup s;
  s.concurrency = 2;
  s.engines = {{"r1", engine(e2e::kRandom, 'r'), "options = { Seed = 1 }"},
               {"g1", engine(e2e::kGreedy, 'g'), "options = { Seed = 1 }"},
               {"r2", dir_ / (marker_ + "r"), "options = { Seed = 2 }"},
               {"g2", dir_ / (marker_ + "g"), "options = { Seed = 2 }"},
               {"r3", dir_ / (marker_ + "r"), "options = { Seed = 3 }"},
               {"g3", dir_ / (marker_ + "g"), "options = { Seed = 3 }"}};
  const e2e::RunResult run = arena({"run", write_config(s).string()});
  ASSERT_EQ(run.status.code, 0) << run.summary();
  expect_complete_journal(s);
  expect_no_engine_left();
}

TEST_F(ArenaFixture, SigkillThenResumeLosesAndRepeatsNoGame) {
  const TournamentSetup s = slow_tournament();
  const path config = write_config(s);
  const e2e::ExitStatus killed = interrupt_after_two_games(config, s, SIGKILL);
  EXPECT_EQ(killed.signal, SIGKILL);
  // The engines die with the arena (PR_SET_PDEATHSIG).
  expect_no_engine_left();

  const JournalContents partial = read_journal(journal(s));
  EXPECT_GE(partial.games.size(), 2u);
  EXPECT_EQ(partial.duplicates, 0u);
  EXPECT_TRUE(partial.bad_lines.empty()) << partial.bad_lines.front();
  // A kill in the middle of a write leaves half a line; make sure of one to see it dropped.
  if (partial.torn.empty()) {
    std::ofstream(journal(s), std::ios::app) << R"({"id":"r1-0v1-p0-g0","round":1,"sou)";
  }

  const e2e::RunResult resumed = arena({"run", config.string()});
  ASSERT_EQ(resumed.status.code, 0) << resumed.summary();
  EXPECT_NE(resumed.err.find("games.jsonl:"), std::string::npos) << "the dropped line is reported\n"
                                                                 << resumed.summary();
  expect_complete_journal(s);
  const JournalContents full = read_journal(journal(s));
  for (const std::string& id : partial.ids) EXPECT_TRUE(full.ids.count(id)) << "lost game " << id;
  // The games finished before the kill are kept as they were, not replayed.
  for (size_t i = 0; i < partial.games.size(); ++i)
    EXPECT_EQ(full.games[i].started_at, partial.games[i].started_at) << partial.games[i].id;
  expect_no_engine_left();
}

TEST_F(ArenaFixture, CtrlCStopsCleanlyWithExitCode130AndTheRunResumes) {
  const TournamentSetup s = slow_tournament();
  const path config = write_config(s);
  const e2e::ExitStatus stopped = interrupt_after_two_games(config, s, SIGINT);
  EXPECT_EQ(stopped.code, 130) << "signal " << stopped.signal << "\n" << e2e::read_file(dir_ / "bg.err");
  expect_no_engine_left();

  const JournalContents partial = read_journal(journal(s));
  EXPECT_GE(partial.games.size(), 2u);
  EXPECT_LT(partial.games.size(), static_cast<size_t>(scheduled_games(s)));
  EXPECT_EQ(partial.duplicates, 0u);
  EXPECT_TRUE(partial.bad_lines.empty()) << partial.bad_lines.front();
  EXPECT_TRUE(partial.torn.empty()) << "a clean stop leaves no torn line: " << partial.torn;

  const e2e::RunResult resumed = arena({"run", config.string()});
  ASSERT_EQ(resumed.status.code, 0) << resumed.summary();
  expect_complete_journal(s);
  expect_no_engine_left();
}

TEST_F(ArenaFixture, SigtermStopsCleanlyWithExitCode143) {
  const TournamentSetup s = slow_tournament();
  const path config = write_config(s);
  const e2e::ExitStatus stopped = interrupt_after_two_games(config, s, SIGTERM);
  EXPECT_EQ(stopped.code, 143) << "128 + SIGTERM, as a shell reports it; signal " << stopped.signal << "\n"
                               << e2e::read_file(dir_ / "bg.err");
  expect_no_engine_left();
  EXPECT_TRUE(read_journal(journal(s)).torn.empty());
}

TEST_F(ArenaFixture, ChangedConfigAgainstAnExistingJournalIsRefusedUnlessFresh) {
  TournamentSetup s = three_bots();
  s.rounds = 1;
  const e2e::RunResult first = arena({"run", write_config(s).string()});
  ASSERT_EQ(first.status.code, 0) << first.summary();
  const std::string journal_before = e2e::read_file(journal(s));

  s.seed = 2;
  const path changed = write_config(s, "changed.toml");
  const e2e::RunResult refused = arena({"run", changed.string()});
  EXPECT_EQ(refused.status.code, 2) << refused.summary();
  EXPECT_NE(refused.err.find("--fresh"), std::string::npos) << refused.summary();
  EXPECT_NE(refused.err.find("seed"), std::string::npos) << "the message should say what changed\n"
                                                         << refused.summary();
  EXPECT_EQ(e2e::read_file(journal(s)), journal_before) << "a refused run must not touch the journal";

  const e2e::RunResult fresh = arena({"run", changed.string(), "--fresh"});
  ASSERT_EQ(fresh.status.code, 0) << fresh.summary();
  expect_complete_journal(s);
  expect_no_engine_left();
}

TEST_F(ArenaFixture, BadConfigsAreOperatorErrorsWithFileLineAndColumn) {
  struct Case {
    std::string name;
    std::string toml;
    std::string expected;  // a part of the message
  };
  const path random = engine(e2e::kRandom, 'r');
  const std::string engines = "\n[[engine]]\nname = \"a\"\ncmd = \"" + random.string() +
                              "\"\n\n[[engine]]\nname = \"b\"\ncmd = \"" + random.string() + "\"\n";
  const std::string head = "[tournament]\nname = \"bad\"\noutput = \"" + results_.string() + "\"\n";
  const std::vector<Case> cases = {
      {"unknown-key", head + "roundz = 2\n\n[time]\nmovetime_ms = 10\n" + engines, "unknown key"},
      {"missing-executable",
       head + "\n[time]\nmovetime_ms = 10\n" + engines + "\n[[engine]]\nname = \"c\"\ncmd = \"" +
           (dir_ / "no-such-bot").string() + "\"\n",
       "not found"},
      {"wrong-type", head + "rounds = \"two\"\n\n[time]\nmovetime_ms = 10\n" + engines, "rounds"},
      {"duplicate-name",
       head + "\n[time]\nmovetime_ms = 10\n" + engines + "\n[[engine]]\nname = \"a\"\ncmd = \"" + random.string() +
           "\"\n",
       "already used"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const path config = dir_ / (c.name + ".toml");
    e2e::write_file(config, c.toml);
    const e2e::RunResult r = arena({"run", config.string()});
    EXPECT_EQ(r.status.code, 2) << r.summary();
    EXPECT_TRUE(test::search(r.err, test::escape(config.string()) + R"(:[0-9]+:[0-9]+: )"))
        << "no file:line:column: in\n"
        << r.summary();
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.summary();
    EXPECT_FALSE(e2e::fs::exists(results_ / "bad" / "games.jsonl")) << "nothing may start on a bad config";
  }
  expect_no_engine_left();
}

}  // namespace
}  // namespace kalah
