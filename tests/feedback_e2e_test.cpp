// Feedback for every author, end to end: a small tournament with misbehaving engines (a crash, an illegal
// move, a hang) keeps the transcripts `[tournament] transcripts` asks for, the bot pages list each forfeit with
// its reason, transcript and stderr tail (escaped), and `referee replay-transcript` reproduces a failure with
// the same broken engine and gets past it with a good one.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "arena/report/bot_pages.h"
#include "e2e_util.h"
#include "referee/engine/sandbox.h"
#include "referee/game/transcript.h"
#include "referee/game/transcript_file.h"
#include "referee/record/record_json.h"
#include "tests/config_builder.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;

// An engine name and a stderr line that would run a script if a page let them through.
const std::string kCrasher = "crash<b>er";
const std::string kStderrAttack = "<script>alert('stderr')</script>";

struct Engine {
  std::string name;
  fs::path cmd;
  std::vector<std::string> args;
  std::string extra = "";  // more TOML lines for its [[engine]]
};

std::string toml_config(const std::string& name, const fs::path& output, const std::string& transcripts,
                        const std::vector<Engine>& engines, const std::string& tc = "1+0.02") {
  test::TestConfig config(name);
  config.set("concurrency", 2).output(output).set("report_every", 0);
  if (!transcripts.empty()) config.set("transcripts", transcripts);
  config.time("tc = " + test::toml_string(tc));
  for (const Engine& e : engines) {
    std::string args = "args = [";
    for (std::size_t i = 0; i < e.args.size(); ++i) args += (i ? ", " : "") + test::toml_string(e.args[i]);
    config.engine(e.name, e.cmd, args + "]\n" + e.extra);
  }
  return config.text();
}

struct Game {
  std::string id;
  std::optional<std::string> forfeit_engine;
  std::string reason;
};

std::vector<Game> journal_games(const fs::path& journal) {
  std::vector<Game> games;
  for (const std::string& line : e2e::read_lines(journal)) {
    Expected<GameRecord> r = record_from_json(line);
    if (!r) continue;
    Game g{r->id, std::nullopt, ""};
    if (r->forfeit) g.forfeit_engine = r->forfeit->engine, g.reason = to_string(r->forfeit->reason);
    games.push_back(g);
  }
  return games;
}

std::set<std::string> transcript_ids(const fs::path& results) {
  std::set<std::string> ids;
  if (!fs::exists(results / "transcripts")) return ids;
  for (const auto& entry : fs::directory_iterator(results / "transcripts")) ids.insert(entry.path().stem().string());
  return ids;
}

// One tournament for the whole suite: greedy, and three engines that forfeit in three ways.
class Feedback : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new system::TempFolder("kalah-e2e");
    const std::vector<Engine> engines = {
        {"greedy", e2e::kGreedy, {}},
        {kCrasher,
         e2e::kBadEngine,
         {"--crash-on-go", "2", "--moves", "1,2,3,4,5,6", "--stderr-on-go", kStderrAttack},
         // A new process each game: it counts its go commands from 1 in every game.
         "restart = \"always\"\n"},
        {"illegal", e2e::kBadEngine, {"--illegal"}},
        {"hang", e2e::kBadEngine, {"--hang-on-go", "2", "--moves", "1,2,3,4,5,6"}, "restart = \"always\"\n"},
    };
    e2e::write_file(*dir_ / "t.toml", toml_config("fb", *dir_ / "results", "", engines, "0.5+0.01"));
    run_ = new e2e::RunResult(e2e::run({e2e::kArena.string(), "run", (*dir_ / "t.toml").string()}, dir_->path()));
  }
  static void TearDownTestSuite() {
    delete run_;
    delete dir_;
  }
  static fs::path results() { return *dir_ / "results" / "fb"; }

  // The transcript of a game that `engine` forfeited for `reason`.
  static fs::path forfeited(const std::string& engine, const std::string& reason) {
    for (const Game& g : journal_games(results() / "games.jsonl"))
      if (g.forfeit_engine == engine && g.reason == reason) return results() / "transcripts" / (g.id + ".log");
    ADD_FAILURE() << "no game that " << engine << " forfeited for " << reason;
    return {};
  }

  static e2e::RunResult referee(std::vector<std::string> args) {
    args.insert(args.begin(), e2e::kReferee.string());
    return e2e::run(args, dir_->path());
  }

  static system::TempFolder* dir_;
  static e2e::RunResult* run_;
};

system::TempFolder* Feedback::dir_ = nullptr;
e2e::RunResult* Feedback::run_ = nullptr;

TEST_F(Feedback, ByDefaultOnlyForfeitedGamesLeaveATranscript) {
  ASSERT_EQ(run_->status.code, 0) << run_->summary();
  std::set<std::string> forfeited_ids;
  std::set<std::string> reasons;
  const std::vector<Game> games = journal_games(results() / "games.jsonl");
  ASSERT_EQ(games.size(), 12u);
  for (const Game& g : games)
    if (g.forfeit_engine) forfeited_ids.insert(g.id), reasons.insert(g.reason);
  EXPECT_EQ(reasons, (std::set<std::string>{"crash", "illegal", "time"}));
  EXPECT_EQ(transcript_ids(results()), forfeited_ids);

  // Every line of both engines, timed, and the header that replays it.
  const std::string text = e2e::read_file(forfeited(kCrasher, "crash"));
  Expected<TranscriptFile> file = parse_transcript(text);
  ASSERT_TRUE(file) << file.error() << "\n" << text;
  EXPECT_EQ(file->record.forfeit->engine, kCrasher);
  EXPECT_NE(file->lines.find(" " + kCrasher + " > kep\n"), std::string::npos) << file->lines;
  EXPECT_NE(file->lines.find(" " + kCrasher + " < kepok\n"), std::string::npos) << file->lines;
  EXPECT_NE(file->lines.find(" > go stime "), std::string::npos) << file->lines;
  const auto tail = std::find_if(file->stderr_tails.begin(), file->stderr_tails.end(),
                                 [](const TranscriptFile::Stderr& s) { return s.engine == kCrasher; });
  ASSERT_NE(tail, file->stderr_tails.end()) << text;
  EXPECT_NE(tail->text.find(kStderrAttack), std::string::npos) << tail->text;
}

TEST_F(Feedback, EachBotHasAPageLinkedFromTheReportWithItsForfeitsEscaped) {
  ASSERT_EQ(run_->status.code, 0) << run_->summary();
  const std::string report = e2e::read_file(results() / "report.html");
  for (const std::string name : {"greedy", "illegal", "hang"})
    EXPECT_NE(report.find("<a href=\"bots/" + name + ".html\">" + name + "</a>"), std::string::npos) << name;
  const std::string path = report::bot_page_path(kCrasher);
  EXPECT_EQ(path.find('<'), std::string::npos);
  EXPECT_NE(report.find("<a href=\"" + path + "\">crash&lt;b&gt;er</a>"), std::string::npos);

  const std::string page = e2e::read_file(results() / path);
  // Neither the name nor the stderr gets through as markup: the page has no script at all.
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("<b>"), std::string::npos);
  EXPECT_NE(page.find("<h1>crash&lt;b&gt;er</h1>"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(&#39;stderr&#39;)&lt;/script&gt;"), std::string::npos);
  // Each forfeit with its reason and detail, its transcript inline and a link into the viewer.
  EXPECT_NE(page.find(": crash</h3>"), std::string::npos);
  EXPECT_NE(page.find("killed by signal 6 (SIGABRT) (while thinking)"), std::string::npos);
  EXPECT_NE(page.find("<summary>Protocol transcript"), std::string::npos);
  EXPECT_NE(page.find("crash&lt;b&gt;er &gt; go stime"), std::string::npos);
  EXPECT_NE(page.find("<summary>stderr in this game"), std::string::npos);
  EXPECT_NE(page.find("href=\"../report.html#game-"), std::string::npos);
  EXPECT_NE(page.find("<a href=\"../bots/greedy.html\">greedy</a>"), std::string::npos);

  const std::string illegal = e2e::read_file(results() / "bots" / "illegal.html");
  EXPECT_NE(illegal.find(": illegal</h3>"), std::string::npos);
  EXPECT_NE(illegal.find("bestmove 99 (legal:"), std::string::npos);
  const std::string hang = e2e::read_file(results() / "bots" / "hang.html");
  EXPECT_NE(hang.find(": time</h3>"), std::string::npos);
  EXPECT_NE(e2e::read_file(results() / "bots" / "greedy.html").find("<p>None:"), std::string::npos);
}

TEST_F(Feedback, ArenaReportWritesTheBotPagesAgain) {
  ASSERT_EQ(run_->status.code, 0) << run_->summary();
  fs::remove_all(results() / "bots");
  const e2e::RunResult r = e2e::run({e2e::kArena.string(), "report", results().string()}, dir_->path());
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(e2e::read_file(results() / "bots" / "illegal.html").find("bestmove 99"), std::string::npos);
}

TEST_F(Feedback, ReplayTranscriptReproducesEachFailureWithTheSameEngine) {
  ASSERT_EQ(run_->status.code, 0) << run_->summary();
  const fs::path crash = forfeited(kCrasher, "crash");
  e2e::RunResult r = referee({"replay-transcript", crash.string(), "--engine", "cmd=" + e2e::kBadEngine.string(),
                              "arg=--crash-on-go", "arg=2", "arg=--moves", "arg=1,2,3,4,5,6"});
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_NE(r.out.find("failed: bad_engine forfeited again (crash)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("where the original failed"), std::string::npos) << r.out;

  r = referee({"replay-transcript", forfeited("illegal", "illegal").string(), "--engine",
               "cmd=" + e2e::kBadEngine.string(), "arg=--illegal"});
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_NE(r.out.find("forfeited again (illegal)"), std::string::npos) << r.out;

  r = referee({"replay-transcript", forfeited("hang", "time").string(), "--engine", "cmd=" + e2e::kBadEngine.string(),
               "arg=--hang-on-go", "arg=2", "arg=--moves", "arg=1,2,3,4,5,6"});
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_NE(r.out.find("forfeited again (time)"), std::string::npos) << r.out;
}

TEST_F(Feedback, ReplayTranscriptPassesWithAFixedEngine) {
  ASSERT_EQ(run_->status.code, 0) << run_->summary();
  for (const auto& [engine, reason] : {std::pair{kCrasher, "crash"}, {"illegal", "illegal"}, {"hang", "time"}}) {
    const e2e::RunResult r = referee({"replay-transcript", forfeited(engine, reason).string(), "--engine",
                                      "cmd=" + e2e::kGreedy.string(), "name=fixed"});
    EXPECT_EQ(r.status.code, 0) << r.summary();
    EXPECT_NE(r.out.find("passed: fixed got past the point where " + engine + " forfeited (" + reason + ")"),
              std::string::npos)
        << r.out;
  }
}

TEST_F(Feedback, ReplayTranscriptUsageErrorsExit2) {
  ASSERT_EQ(run_->status.code, 0) << run_->summary();
  const std::string engine = "cmd=" + e2e::kGreedy.string();
  const fs::path crash = forfeited(kCrasher, "crash");
  e2e::RunResult r = referee({"replay-transcript", (*dir_ / "nothere.log").string(), "--engine", engine});
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("cannot read transcript"), std::string::npos) << r.err;
  r = referee({"replay-transcript", (*dir_ / "t.toml").string(), "--engine", engine});
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("not a Kalah Arena transcript"), std::string::npos) << r.err;
  r = referee({"replay-transcript", crash.string()});
  EXPECT_EQ(r.status.code, 2) << r.summary();
  r = referee({"replay-transcript", crash.string(), "--engine", "cmd=" + (*dir_ / "nothere").string()});
  EXPECT_EQ(r.status.code, 2) << r.summary();
  // A transcript cut short is refused rather than replayed in part.
  const std::string text = e2e::read_file(crash);
  e2e::write_file(*dir_ / "cut.log", text.substr(0, text.size() / 2));
  r = referee({"replay-transcript", (*dir_ / "cut.log").string(), "--engine", engine});
  EXPECT_EQ(r.status.code, 2) << r.summary();
}

// "all" keeps every game, "none" none; a game without a forfeit has nothing to replay.
TEST(FeedbackModes, AllKeepsEveryGameAndNoneKeepsNone) {
  system::TempFolder dir{"kalah-e2e"};
  const std::vector<Engine> engines = {{"greedy", e2e::kGreedy, {}}, {"random", e2e::kRandom, {}}};
  e2e::write_file(dir / "all.toml", toml_config("all", dir / "results", "all", engines));
  e2e::write_file(dir / "none.toml", toml_config("none", dir / "results", "none", engines));
  for (const char* config : {"all.toml", "none.toml"}) {
    const e2e::RunResult r = e2e::run({e2e::kArena.string(), "run", (dir / config).string()}, dir.path());
    ASSERT_EQ(r.status.code, 0) << r.summary();
  }
  const std::vector<Game> games = journal_games(dir / "results" / "all" / "games.jsonl");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(transcript_ids(dir / "results" / "all"), (std::set<std::string>{games[0].id, games[1].id}));
  EXPECT_FALSE(fs::exists(dir / "results" / "none" / "transcripts"));
  EXPECT_TRUE(fs::exists(dir / "results" / "none" / "bots" / "greedy.html"));

  const e2e::RunResult r = e2e::run({e2e::kReferee.string(), "replay-transcript",
                                     (dir / "results" / "all" / "transcripts" / (games[0].id + ".log")).string(),
                                     "--engine", "cmd=" + e2e::kGreedy.string()},
                                    dir.path());
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("ended without a forfeit"), std::string::npos) << r.err;
}

// An engine that floods its stderr leaves only the last kStderrTailBytes in the transcript, and says how
// much it wrote.
TEST(FeedbackModes, TheStderrTailIsCapped) {
  system::TempFolder dir{"kalah-e2e"};
  const std::vector<Engine> engines = {{"greedy", e2e::kGreedy, {}},
                                       {"flood", e2e::kBadEngine, {"--stderr-flood", "--crash-on-go", "1"}}};
  e2e::write_file(dir / "t.toml", toml_config("flood", dir / "results", "", engines));
  const e2e::RunResult r = e2e::run({e2e::kArena.string(), "run", (dir / "t.toml").string()}, dir.path());
  ASSERT_EQ(r.status.code, 0) << r.summary();
  const std::set<std::string> ids = transcript_ids(dir / "results" / "flood");
  ASSERT_EQ(ids.size(), 2u);
  bool flooded = false;
  for (const std::string& id : ids) {
    Expected<TranscriptFile> file =
        parse_transcript(e2e::read_file(dir / "results" / "flood" / "transcripts" / (id + ".log")));
    ASSERT_TRUE(file) << file.error();
    for (const TranscriptFile::Stderr& tail : file->stderr_tails) {
      if (tail.engine != "flood") continue;
      EXPECT_LE(tail.text.size(), Transcript::kStderrTailBytes);
      if (tail.total >= (1u << 20)) flooded = true;
    }
  }
  EXPECT_TRUE(flooded) << "the first game's engine wrote 1 MiB to stderr";
  const std::string page = e2e::read_file(dir / "results" / "flood" / "bots" / "flood.html");
  EXPECT_NE(page.find("the last 16384 of "), std::string::npos);
}

// A bot that forfeits on purpose must not make the arena keep its opponent's stderr (issue 36): before, every
// transcript held both engines' tails, so crashing at once put the opponent's debugging (its book, its
// secrets) into a file that `arena archive` packs and an organiser publishes. Now the transcript, the journal
// and the archive hold the forfeiter's own stderr only.
TEST(FeedbackModes, AForfeitKeepsOnlyTheForfeitersStderrNeverItsOpponents) {
  system::TempFolder dir{"kalah-e2e"};
  const std::string secret = "VICTIM-SECRET-opening-book";
  const std::vector<Engine> engines = {{"victim",
                                        e2e::kBadEngine,
                                        {"--moves", "1", "--stderr-on-go", secret},
                                        "stderr = \"" + (dir / "victim.err").string() + "\"\n"},
                                       {"leaker",
                                        e2e::kBadEngine,
                                        {"--crash-on-go", "1", "--stderr-on-go", "leaker-own-words"},
                                        "restart = \"always\"\n"}};
  e2e::write_file(dir / "t.toml", toml_config("leak", dir / "results", "", engines));
  const e2e::RunResult r = e2e::run({e2e::kArena.string(), "run", (dir / "t.toml").string()}, dir.path());
  ASSERT_EQ(r.status.code, 0) << r.summary();
  const fs::path results = dir / "results" / "leak";
  const std::vector<Game> games = journal_games(results / "games.jsonl");
  ASSERT_EQ(games.size(), 2u);
  for (const Game& g : games) {
    ASSERT_EQ(g.forfeit_engine, "leaker") << g.id;
    const std::string text = e2e::read_file(results / "transcripts" / (g.id + ".log"));
    EXPECT_EQ(text.find(secret), std::string::npos) << text;
    Expected<TranscriptFile> file = parse_transcript(text);
    ASSERT_TRUE(file) << file.error();
    ASSERT_EQ(file->stderr_tails.size(), 1u) << text;
    EXPECT_EQ(file->stderr_tails[0].engine, "leaker");
    EXPECT_NE(file->stderr_tails[0].text.find("leaker-own-words"), std::string::npos) << text;
  }
  // The victim did write the secret, in the game where it moved first: its own log has it, nothing else.
  EXPECT_NE(e2e::read_file(dir / "victim.err").find(secret), std::string::npos);
  EXPECT_EQ(e2e::read_file(results / "games.jsonl").find(secret), std::string::npos);

  // A transcript as an arena before issue 36 wrote it, with the victim's stderr too: the archive leaves it out.
  const fs::path old = results / "transcripts" / (games[0].id + ".log");
  std::string text = e2e::read_file(old);
  text.insert(text.rfind("# end\n"), "# stderr victim: 27 bytes in this game, the last 27 kept\n| " + secret + "\n");
  e2e::write_file(old, text);
  ASSERT_TRUE(parse_transcript(text)) << text;

  const fs::path archive = dir / "leak.tar.gz";
  const e2e::RunResult packed =
      e2e::run({e2e::kArena.string(), "archive", results.string(), "-o", archive.string()}, dir.path());
  ASSERT_EQ(packed.status.code, 0) << packed.summary();
  fs::create_directories(dir / "unpacked");
  const e2e::RunResult unpacked =
      e2e::run({"/usr/bin/tar", "-xzf", archive.string(), "-C", (dir / "unpacked").string()}, dir.path());
  ASSERT_EQ(unpacked.status.code, 0) << unpacked.summary();
  // What the archive holds of the games: the journal, the transcripts and the bot pages (the config and the
  // reports' list of commands name the victim's arguments, the secret among them, as the organiser wrote them).
  std::size_t transcripts = 0;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir / "unpacked")) {
    const std::string folder = entry.path().parent_path().filename().string();
    const bool of_games = entry.path().filename() == "games.jsonl" || folder == "transcripts" || folder == "bots";
    if (!entry.is_regular_file() || !of_games) continue;
    transcripts += folder == "transcripts" ? 1 : 0;
    EXPECT_EQ(e2e::read_file(entry.path()).find(secret), std::string::npos) << entry.path();
  }
  EXPECT_EQ(transcripts, 2u);
}

// A sandboxed engine's stderr comes through bubblewrap: its tail is in the transcript all the same, and two
// games at once keep their lines apart.
TEST(FeedbackModes, SandboxedEnginesLeaveTheirTranscriptsAndStderr) {
  if (std::optional<std::string> why = sandbox_unavailable()) GTEST_SKIP() << *why;
  system::TempFolder dir{"kalah-e2e"};
  const std::vector<Engine> engines = {
      {"greedy", e2e::reachable(e2e::kGreedy), {}},
      {"boxed",
       e2e::reachable(e2e::kBadEngine),
       {"--crash-on-go", "2", "--moves", "1,2,3,4,5,6", "--stderr-on-go", "thinking"}}};
  std::string text = toml_config("boxed", dir / "results", "", engines);
  text.insert(text.find("[time]"), "sandbox = \"bwrap\"\nrounds = 2\n");
  e2e::write_file(dir / "t.toml", text);
  const e2e::RunResult r = e2e::run({e2e::kArena.string(), "run", (dir / "t.toml").string()}, dir.path());
  ASSERT_EQ(r.status.code, 0) << r.summary();
  const std::vector<Game> games = journal_games(dir / "results" / "boxed" / "games.jsonl");
  ASSERT_EQ(games.size(), 4u);
  for (const Game& g : games) {
    ASSERT_TRUE(g.forfeit_engine) << g.id;
    Expected<TranscriptFile> file =
        parse_transcript(e2e::read_file(dir / "results" / "boxed" / "transcripts" / (g.id + ".log")));
    ASSERT_TRUE(file) << file.error();
    EXPECT_EQ(file->record.id, g.id);
    // One newgame per engine: nothing of another game got in.
    std::size_t newgames = 0;
    for (std::size_t at = 0; (at = file->lines.find(" > newgame ", at)) != std::string::npos; ++at) ++newgames;
    EXPECT_EQ(newgames, 2u) << file->lines;
    ASSERT_EQ(file->stderr_tails.size(), 1u) << g.id;
    EXPECT_EQ(file->stderr_tails[0].engine, "boxed");
    EXPECT_NE(file->stderr_tails[0].text.find("thinking\n"), std::string::npos);
  }
}

}  // namespace
}  // namespace kalah
