// The sanity gate of a contest (docs/CONTEST.md, "The sanity gate"): [submissions] gate read and checked
// with file:line:column messages, and, end to end through the real `arena`, a bot that cannot beat random
// kept out with its reason and figures while a good bot enters with its own.
#include <sys/stat.h>

#include <cstdlib>
#include <map>
#include <string>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "arena/config/config.h"
#include "arena/contest/entries.h"
#include "e2e_util.h"
#include "referee/engine/sandbox.h"

namespace kalah::arena {
namespace {

namespace json = boost::json;
using namespace e2e;

// A contest without sandboxes (the config alone is tested here), its gate on line 10.
std::string gate_config(const std::string& gate, const std::string& variant = "") {
  return "[tournament]\nname = \"t\"\nsandbox = \"none\"\n[time]\nbase_ms = 1000\n" + variant +
         "[submissions]\ndir = \"subs\"\nbuild_sandbox = \"none\"\n" + gate + "\n";
}

class GateConfig : public ::testing::Test {
 protected:
  void SetUp() override { fs::create_directories(tmp_ / "subs"); }
  Expected<Config> parse(const std::string& text) const {
    return parse_config(text, "t.toml", tmp_.path(), tmp_.path());
  }
  system::TempFolder tmp_{"kalah-e2e"};
};

struct BadGate {
  const char* what;
  const char* gate;
  const char* message;
};

const BadGate kBadGates[] = {
    {"not a table", "gate = \"strict\"", "t.toml:9:8: submissions.gate must be a table ({ ... }), not a string"},
    {"unknown key", "gate = { opponent = \"/bin/cat\", min_score = 0.75, min_scor = 1 }",
     "t.toml:9:51: unknown key \"min_scor\" in submissions.gate (did you mean \"min_score\"?); known keys: opponent, "
     "games, min_score, suite, "
     "min_perfect"},
    {"empty", "gate = {}",
     "t.toml:9:8: submissions.gate needs games against an opponent (opponent, games, min_score), a suite of "
     "positions (suite, min_perfect), or both"},
    {"odd games", "gate = { opponent = \"/bin/cat\", games = 7, min_score = 0.75 }",
     "t.toml:9:41: submissions.gate.games must be even, so that the bot plays as many games with each colour, not 7"},
    {"too few games", "gate = { opponent = \"/bin/cat\", games = 0, min_score = 0.75 }",
     "t.toml:9:41: submissions.gate.games must be from 2 to 10000, not 0"},
    {"games as text", "gate = { opponent = \"/bin/cat\", games = \"20\", min_score = 0.75 }",
     "t.toml:9:41: submissions.gate.games must be an integer, not a string"},
    {"score above one", "gate = { opponent = \"/bin/cat\", min_score = 75 }",
     "t.toml:9:45: submissions.gate.min_score must be a share from 0 to 1 (0.75 for 75%), not 75"},
    {"score as text", "gate = { opponent = \"/bin/cat\", min_score = \"75%\" }",
     "t.toml:9:45: submissions.gate.min_score must be a number, not a string"},
    {"no score", "gate = { opponent = \"/bin/cat\", games = 20 }",
     "t.toml:9:21: submissions.gate.opponent needs min_score, the share of the points the bot must score against it "
     "(min_score = 0.75)"},
    {"games without an opponent", "gate = { games = 20, min_score = 0.5 }",
     "t.toml:9:18: submissions.gate.games needs submissions.gate.opponent, the bot to play against"},
    {"an opponent that is not there", "gate = { opponent = \"./no-such-bot\", min_score = 0.5 }",
     "t.toml:9:21: submissions.gate.opponent \"./no-such-bot\" not found"},
    {"no positions", "gate = { suite = 0, min_perfect = 0.5 }",
     "t.toml:9:18: submissions.gate.suite must be from 1 to 3000, not 0"},
    {"suite without a share", "gate = { suite = 30 }",
     "t.toml:9:18: submissions.gate.suite needs min_perfect, the share of the positions the bot must answer with a "
     "perfect move (min_perfect = 0.5)"},
    {"negative share", "gate = { suite = 30, min_perfect = -0.1 }",
     "t.toml:9:36: submissions.gate.min_perfect must be a share from 0 to 1 (0.75 for 75%), not -0.1"},
    {"share without a suite", "gate = { min_perfect = 0.5 }",
     "t.toml:9:24: submissions.gate.min_perfect needs submissions.gate.suite, the number of positions"},
};

TEST_F(GateConfig, EveryMistakeNamesItsPlace) {
  for (const BadGate& c : kBadGates) {
    const Expected<Config> parsed = parse(gate_config(c.gate));
    ASSERT_FALSE(parsed) << c.what;
    EXPECT_EQ(parsed.error().substr(0, std::string(c.message).size()), c.message) << c.what;
  }
}

TEST_F(GateConfig, ASuiteNeedsAVariantTheSolverTakes) {
  const Expected<Config> parsed =
      parse(gate_config("gate = { suite = 30, min_perfect = 0.5 }", "[variant]\npits = 16\nseeds = 16\n"));
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error(),
            "t.toml:12:18: submissions.gate.suite: the exact solver labels the positions, and it takes at most 255 "
            "seeds, not pits=16 seeds=16 capture=standard ending=side-empty remainder=owner majority=off "
            "pie=off");
}

TEST_F(GateConfig, BothPartsAsAnInlineTableOrATable) {
  const Expected<Config> inline_table = parse(
      gate_config("gate = { opponent = \"/bin/cat\", games = 4, min_score = 0.75, suite = 6, min_perfect = 0.5 }"));
  ASSERT_TRUE(inline_table) << inline_table.error();
  ASSERT_TRUE(inline_table->submissions->gate);
  const arena::GateConfig& g = *inline_table->submissions->gate;
  EXPECT_EQ(g.opponent, "/bin/cat");
  EXPECT_EQ(g.opponent_cmd, fs::path("/bin/cat"));
  EXPECT_EQ(g.games, 4);
  EXPECT_EQ(g.min_score, 0.75);
  EXPECT_EQ(g.suite, 6);
  EXPECT_EQ(g.min_perfect, 0.5);
  EXPECT_EQ(gate_key(*inline_table),
            "opponent=/bin/cat games=4 min_score=0.75 suite=6 min_perfect=0.5 variant=pits=6 seeds=4 capture=standard "
            "ending=side-empty "
            "remainder=owner majority=off pie=off time=" +
                inline_table->time.describe() + " seed=1");

  const Expected<Config> table = parse(gate_config("[submissions.gate]\nsuite = 9\nmin_perfect = 1"));
  ASSERT_TRUE(table) << table.error();
  EXPECT_FALSE(table->submissions->gate->plays_games());
  EXPECT_TRUE(table->submissions->gate->runs_suite());
  EXPECT_EQ(table->submissions->gate->min_perfect, 1.0);

  const Expected<Config> games = parse(gate_config("gate = { opponent = \"/bin/cat\", min_score = 0 }"));
  ASSERT_TRUE(games) << games.error();
  EXPECT_EQ(games->submissions->gate->games, 20) << "the default";
  EXPECT_FALSE(games->submissions->gate->runs_suite());
  const EngineSpec opponent = gate_opponent(*games);
  EXPECT_EQ(opponent.name, "/bin/cat (gate opponent)");
  EXPECT_EQ(opponent.sandbox, SandboxMode::None) << "as [tournament] says";

  const Expected<Config> none = parse(gate_config(""));
  ASSERT_TRUE(none) << none.error();
  EXPECT_FALSE(none->submissions->gate);
}

// End to end: the real `arena contest build` with the example's Python bot basil (one-ply greedy) and a
// copy of it that plays the first legal move, in the entrants' sandbox against the bundled kalah-random,
// named as a config anywhere names it.
const fs::path kBasil = KALAH_SOURCE_DIR "/configs/contest/submissions/basil";

class GateE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::optional<std::string> why = sandbox_unavailable()) GTEST_SKIP() << *why;
    ::chmod(tmp_.path().c_str(), 0711);  // sandboxed bots run as other users: let them through
    fs::create_directories(tmp_ / "submissions");
    fs::copy(kBasil, tmp_ / "submissions" / "basil", fs::copy_options::recursive);
    // Basil's code, but the first legal move every time: it scores half against random, not more.
    std::string code = read_file(kBasil / "basil.py");
    const std::string greedy = "print(\"bestmove\", max(legal, key=gain), flush=True)";
    code.replace(code.find(greedy), greedy.size(), "print(\"bestmove\", legal[0], flush=True)");
    fs::create_directories(tmp_ / "submissions" / "pit-one");
    write_file(tmp_ / "submissions" / "pit-one" / "bot.py", code);
    write_file(tmp_ / "submissions" / "pit-one" / "bot.toml",
               "name = \"pit-one\"\nlanguage = \"Python\"\nrun = \"python3 bot.py\"\n");
  }
  // A contest whose gate is `gate`; `variant` and `time` go in as tables.
  void write_config(const std::string& gate, const std::string& variant = "",
                    const std::string& time = "base_ms = 1000\ninc_ms = 10\n") {
    write_file(config(), "[tournament]\nname = \"gated\"\nseed = 7\noutput = \"" + (tmp_ / "out").string() +
                             "\"\nprogress_interval = 0\n"
                             "report_every = 0\nsandbox = \"bwrap\"\nmemory_mb = 512\nrestart = \"always\"\n" +
                             variant + "\n[time]\n" + time + "\n[submissions]\ndir = \"submissions\"\n" + gate +
                             "\n\n[[engine]]\nname = \"house-random\"\ncmd = \"kalah-random\"\n");
    // A secret of the test's own, so that the gate's games are sent the same seeds every run and the figures
    // below hold (docs/PROTOCOL.md, "Seeds": a folder's secret is made at random otherwise).
    fs::create_directories(results());
    write_file(results() / "seed-secret", std::string(63, '0') + "5\n");
  }
  RunResult arena(const std::vector<std::string>& args) {
    // The suite's labels go to a cache of this test's own. "kalah-random" (the gate's opponent and the
    // house bot, both in the sandbox) is found on PATH first, in a copy the sandbox's uids can reach
    // wherever the checkout lives (CI's clone under /root is mode 0700).
    const char* path = std::getenv("PATH");
    std::vector<std::string> argv = {"/usr/bin/env", "XDG_CACHE_HOME=" + (tmp_ / "cache").string(),
                                     "PATH=" + reachable(kRandom).parent_path().string() + ":" + (path ? path : ""),
                                     kArena.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run(argv, tmp_.path(), std::chrono::seconds(120));
  }
  // The submission named `name` in entries.json.
  json::object entry(const std::string& name) const {
    const json::value file = json::parse(read_file(results() / "entries.json"));
    for (const json::value& s : file.at("submissions").as_array())
      if (s.at("name").as_string() == name) return s.as_object();
    ADD_FAILURE() << "no entry " << name;
    return {};
  }
  fs::path config() const { return tmp_ / "contest.toml"; }
  fs::path results() const { return tmp_ / "out" / "gated"; }

  system::TempFolder tmp_{"kalah-e2e"};
};

TEST_F(GateE2E, ABotThatCannotBeatRandomIsKeptOutWithItsFiguresAndAGoodOneEnters) {
  write_config("gate = { opponent = \"kalah-random\", games = 10, min_score = 0.75 }");
  const RunResult built = arena({"contest", "build", config().string()});
  ASSERT_EQ(built.status.code, 0) << built.summary();
  EXPECT_NE(built.out.find(", nothing to build, referee check passed, gate passed: "
                           "scored 10/10 = 100% against kalah-random (needs 75%))"),
            std::string::npos)
      << built.out;
  EXPECT_NE(built.out.find("pit-one          not entered: gate: scored 5/10 = 50% against kalah-random, needs 75% "
                           "(every game and position: " +
                           (results() / "logs" / "pit-one" / "gate.log").string() + ")"),
            std::string::npos)
      << built.out;
  EXPECT_NE(built.out.find("2 submissions: 1 entered, 1 not entered"), std::string::npos) << built.out;

  const json::object weak = entry("pit-one");
  EXPECT_EQ(weak.at("status").as_string(), "not-entered");
  // The reason as the reports show it: no path of the organiser's machine (the terminal has the path).
  EXPECT_EQ(weak.at("reason").as_string(), "gate: scored 5/10 = 50% against kalah-random, needs 75%");
  const json::object& weak_games = weak.at("gate").at("games").as_object();
  EXPECT_EQ(weak_games.at("games").as_int64(), 10);
  EXPECT_EQ(weak_games.at("score").as_double(), 5.0);
  EXPECT_EQ(weak_games.at("min_score").as_double(), 0.75);
  EXPECT_FALSE(weak_games.at("passed").as_bool());
  EXPECT_TRUE(weak.at("gate").at("suite").is_null());
  const json::object good = entry("basil");
  EXPECT_EQ(good.at("status").as_string(), "entered");
  EXPECT_EQ(good.at("gate").at("figures").as_string(), "scored 10/10 = 100% against kalah-random (needs 75%)");
  EXPECT_EQ(good.at("gate").at("games").at("wins").as_int64(), 10);
  // Every game in the log, half of them with each colour.
  const std::string log = read_file(results() / "logs" / "pit-one" / "gate.log");
  EXPECT_EQ(lines_starting(log, "gate-g").size(), 10u) << log;
  EXPECT_NE(log.find("gate-g1 pit-one as South: "), std::string::npos) << log;
  EXPECT_NE(log.find("gate-g10 pit-one as North: "), std::string::npos) << log;

  // The contest plays without it; its reason is in the report, basil's figures on its page.
  const RunResult played = arena({"run", config().string()});
  ASSERT_EQ(played.status.code, 0) << played.summary();
  EXPECT_NE(read_file(results() / "standings.md")
                .find("Not entered: pit-one (gate: scored 5/10 = 50% against "
                      "kalah-random, needs 75%"),
            std::string::npos);
  EXPECT_NE(read_file(results() / "bots" / "basil.html")
                .find("Entered through the contest's sanity gate: scored 10/10 = 100% against kalah-random"),
            std::string::npos)
      << read_file(results() / "bots" / "basil.html");
  // The note links pit-one's page, which shows and links its gate.log: every game it played.
  const std::string md = read_file(results() / "standings.md");
  EXPECT_NE(md.find("Not entered: pit-one (gate: scored 5/10 = 50% against kalah-random, needs 75%) "
                    "([submissions/pit-one.html](submissions/pit-one.html))"),
            std::string::npos)
      << md;
  for (const std::string& note : lines_starting(md, "> **Note:**"))
    EXPECT_EQ(note.find(tmp_.path().string()), std::string::npos) << note;
  const std::string page = read_file(results() / "submissions" / "pit-one.html");
  EXPECT_NE(page.find("<a href=\"../logs/pit-one/gate.log\">"), std::string::npos) << page;
  EXPECT_NE(page.find("gate-g10 pit-one as North: "), std::string::npos) << page;
  EXPECT_NE(read_file(results() / "report.html").find("href=\"submissions/pit-one.html\""), std::string::npos);

  // The archive holds what the note and the page link (gate.log among them), and verifies.
  const fs::path archive = tmp_ / "gated.tar.gz";
  const RunResult packed = arena({"archive", results().string(), "-o", archive.string()});
  ASSERT_EQ(packed.status.code, 0) << packed.summary();
  const RunResult listed = run({"/usr/bin/tar", "-tzf", archive.string()}, tmp_.path(), std::chrono::seconds(60));
  ASSERT_EQ(listed.status.code, 0) << listed.summary();
  for (const char* file : {"gated/submissions/pit-one.html", "gated/logs/pit-one/gate.log",
                           "gated/logs/pit-one/check.log", "gated/logs/pit-one/build.log"})
    EXPECT_NE(listed.out.find(std::string(file) + "\n"), std::string::npos) << file << " in\n" << listed.out;
  const RunResult verified = arena({"verify", archive.string()});
  EXPECT_EQ(verified.status.code, 0) << verified.summary() << verified.out;

  // Built again: nothing changed, nothing is played again.
  const RunResult again = arena({"contest", "build", config().string()});
  ASSERT_EQ(again.status.code, 0) << again.summary();
  EXPECT_NE(again.out.find("pit-one          not entered: gate: scored 5/10"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("(unchanged since"), std::string::npos) << again.out;
  EXPECT_EQ(entry("pit-one").at("gate"), weak.at("gate"));

  // A gate the organiser lowers: the bot it kept out is gated again (not built again) and enters late.
  write_config("gate = { opponent = \"kalah-random\", games = 10, min_score = 0.5 }");
  const RunResult lowered = arena({"contest", "build", config().string()});
  ASSERT_EQ(lowered.status.code, 0) << lowered.summary();
  EXPECT_NE(lowered.out.find("basil            entered (unchanged since"), std::string::npos) << lowered.out;
  EXPECT_NE(lowered.out.find("pit-one          entered (built " + std::string(weak.at("built_at").as_string()) +
                             ", gated again: the gate changed, gate passed: scored 5/10 = 50% against "
                             "kalah-random (needs 50%))"),
            std::string::npos)
      << lowered.out;
  EXPECT_EQ(entry("pit-one").at("order").as_int64(), 2);
}

TEST_F(GateE2E, TheSuiteGradesEveryBotOnTheSameLabelledPositions) {
  write_config("gate = { suite = 12, min_perfect = 0.5 }", "[variant]\npits = 4\nseeds = 3\n", "movetime_ms = 50\n");
  const RunResult built = arena({"contest", "build", config().string()});
  ASSERT_EQ(built.status.code, 0) << built.summary();
  EXPECT_NE(built.out.find("(the gate's 12 positions are labelled by the exact solver: no labels file yet"),
            std::string::npos)
      << built.out;
  EXPECT_NE(built.out.find(", nothing to build, referee check passed, gate passed: "
                           "8/12 perfect moves = 66.7% (needs 50%))"),
            std::string::npos)
      << built.out;
  EXPECT_NE(built.out.find("pit-one          not entered: gate: 4/12 perfect moves = 33.3%, needs 50%"),
            std::string::npos)
      << built.out;
  const json::object weak = entry("pit-one");
  const json::object& suite = weak.at("gate").at("suite").as_object();
  EXPECT_EQ(suite.at("positions").as_int64(), 12);
  EXPECT_EQ(suite.at("perfect").as_int64(), 4);
  EXPECT_EQ(suite.at("failed").as_int64(), 0);
  EXPECT_EQ(suite.at("min_perfect").as_double(), 0.5);
  EXPECT_TRUE(weak.at("gate").at("games").is_null());
  const std::string log = read_file(results() / "logs" / "pit-one" / "gate.log");
  EXPECT_EQ(lines_starting(log, "p").size(), 12u) << log;
  EXPECT_NE(log.find("perfect 4/12"), std::string::npos) << log;
  EXPECT_FALSE(lines_starting(read_file(results() / "logs" / "basil" / "gate.log"), "p12 late: ").empty());
}

TEST_F(GateE2E, AGateMistakeStopsTheBuildWithItsPlace) {
  write_config("gate = { opponent = \"kalah-randon\", games = 10, min_score = 0.75 }");
  const RunResult built = arena({"contest", "build", config().string()});
  EXPECT_EQ(built.status.code, 2) << built.summary();
  EXPECT_NE(built.err.find(config().string() + ":17:21: submissions.gate.opponent \"kalah-randon\" not found"),
            std::string::npos)
      << built.err;
  EXPECT_FALSE(fs::exists(results() / "entries.json"));
}

}  // namespace
}  // namespace kalah::arena
