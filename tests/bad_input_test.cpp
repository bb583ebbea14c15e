// Bad input found by review (issue 13, item 5), each once a crash, a hang or a silent default: now an
// exit code 2 with a message that says what is wrong, through the real executables.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/e2e_util.h"

namespace kalah::e2e {
namespace {

class BadInput : public ::testing::Test {
 protected:
  RunResult run_it(const std::vector<std::string>& argv) { return run(argv, tmp_.path(), 20s); }

  // Exit 2, and `message` on stderr.
  void expect_refused(const std::vector<std::string>& argv, const std::string& message) {
    const RunResult r = run_it(argv);
    EXPECT_EQ(r.status.code, 2) << r.summary();
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }

  system::TempFolder tmp_{"kalah-e2e"};
};

TEST_F(BadInput, ConfigsThatAreNotSmallTextFiles) {
  // Read whole, /dev/zero never ended; a directory or a 2 GB file are refused before reading.
  expect_refused({kArena.string(), "run", "/dev/zero"}, "/dev/zero: the config file is not a regular file");
  expect_refused({kArena.string(), "run", tmp_.path().string()}, "the config file is a directory");
  const fs::path huge = tmp_.path() / "huge.toml";
  write_file(huge, "[tournament]\nname = \"x\"\n");
  fs::resize_file(huge, 2ull << 30);  // sparse: no disk used
  expect_refused({kArena.string(), "run", huge.string()}, "is larger than 4 MB, too big for a config file");
}

TEST_F(BadInput, AnEngineLogThatCannotBeWrittenIsAConfigError) {
  const std::string head =
      "[tournament]\nname = \"t\"\n\n[time]\nmovetime_ms = 10\n\n[[engine]]\nname = \"a\"\ncmd = \"" +
      kRandom.string() + "\"\nstderr = \"";
  const std::string tail = "\"\n\n[[engine]]\nname = \"b\"\ncmd = \"" + kRandom.string() + "\"\n";
  const fs::path config = tmp_.path() / "t.toml";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {(tmp_.path() / "no-such-folder" / "a.err").string(), "does not exist (it is not created)"},
      {tmp_.path().string(), "is not a regular file"},
  };
  for (const auto& [log, message] : cases) {
    write_file(config, head + log + tail);
    expect_refused({kArena.string(), "run", config.string()}, "t.toml:10:10: engine.stderr: ");
    expect_refused({kArena.string(), "run", config.string()}, message);
  }
  EXPECT_FALSE(fs::exists(tmp_.path() / "no-such-folder")) << "no mkdir";
  EXPECT_FALSE(fs::exists(tmp_.path() / "results")) << "refused before any game";
}

TEST_F(BadInput, AnEmptyOutputFolderIsNotTheDefault) {
  const fs::path config = KALAH_SOURCE_DIR "/configs/quick.toml";
  for (const char* command : {"run", "slurm"}) {
    std::vector<std::string> argv = {kArena.string(), command, config.string(), "--out", ""};
    if (std::string(command) != "run") argv.insert(argv.end(), {"--shards", "2"});
    expect_refused(argv, "--out: must not be empty");
  }
}

TEST_F(BadInput, AnUnknownCommandListsTheCommands) {
  expect_refused(
      {kArena.string(), "frobnicate"},
      "arena: unknown command 'frobnicate'; the commands are: run, match, report, merge, plan, slurm, sprt, stats");
  expect_refused({kReferee.string(), "frob"},
                 "referee: unknown command 'frob'; the commands are: perft, replay, match");
}

// A mistyped option or command gets the one it most likely meant, in both executables.
TEST_F(BadInput, AMistypedOptionOrCommandNamesTheNearestOne) {
  write_file(tmp_.path() / "x.toml", "");
  expect_refused({kArena.string(), "run", (tmp_.path() / "x.toml").string(), "--fersh"},
                 "arena run: unknown option '--fersh'; did you mean '--fresh'? (see arena run --help)");
  expect_refused({kArena.string(), "analyse", tmp_.path().string(), "--budget-sm=5"},
                 "arena analyse: unknown option '--budget-sm'; did you mean '--budget-ms'? (see arena analyse --help)");
  expect_refused({kReferee.string(), "suite", "--engine", "cmd=kalah-greedy", "--positons", "30"},
                 "referee suite: unknown option '--positons'; did you mean '--positions'? (see referee suite --help)");
  expect_refused({kArena.string(), "rn"}, "arena: unknown command 'rn' (did you mean 'run'?); the commands are: run,");
  expect_refused({kReferee.string(), "mach"}, "referee: unknown command 'mach' (did you mean 'match'?);");
  // Nothing near: CLI11's own words.
  expect_refused({kArena.string(), "run", (tmp_.path() / "x.toml").string(), "--verbose"},
                 "The following argument was not expected: --verbose");
  expect_refused({kReferee.string(), "match", "--engine", "cmd=kalah-greedy", "nmae=x", "--engine", "cmd=kalah-random"},
                 "--engine: unknown key 'nmae'; did you mean 'name'? (known:");
}

TEST_F(BadInput, RefereeMatchNamesFollowTheConfigRules) {
  const std::string engine = "cmd=" + kRandom.string();
  for (const char* name : {"name= a", "name=a\"b", "name=back\\slash"})
    expect_refused({kReferee.string(), "match", "--engine", engine, name, "--engine", engine, "name=b", "--games", "1"},
                   "is not usable: 1 to 64 characters");
  expect_refused({kReferee.string(), "match", "--engine", engine, "name=same", "--engine", engine, "name=same"},
                 "the two engines are both named 'same'");
}

// Every command that takes a Fischer clock refuses a base or increment that is not a finite, sane number.
TEST_F(BadInput, TimeControlsWithNanInfOrOverflowAreRefused) {
  const std::string engine = "cmd=" + kRandom.string();
  for (const char* tc : {"nan+0", "inf+0", "5+nan", "5+inf", "1e300+0", "5+1e300", "inf"}) {
    const std::string expected = std::string("--tc '") + tc + "': expected SECONDS or SECONDS+INCREMENT";
    expect_refused({kReferee.string(), "match", "--engine", engine, "--engine", engine, "--tc", tc}, expected);
    expect_refused({kArena.string(), "sprt", "--base", kRandom.string(), "--test", kRandom.string(), "--tc", tc},
                   expected);
  }
  for (const char* tc : {"-5+0", "5+-1", "0+0"})
    expect_refused({kReferee.string(), "match", "--engine", engine, "--engine", engine, "--tc", tc},
                   "the base time must be > 0 and at most a day, the increment >= 0 and at most an hour");
  EXPECT_FALSE(fs::exists(tmp_.path() / "results")) << "refused before any game";
}

TEST_F(BadInput, AbsurdPerftDepthsAreRefused) {
  expect_refused({kReferee.string(), "perft", "--depth", "40"}, "--depth: Value 40 not in range 0 to 24");
}

// `arena report`: nothing to report is said, not written as empty tables; an anchor must be an engine of
// the tournament and a finite Elo; a journal of forfeits only still gives every report.
TEST_F(BadInput, ReportsOfNothingAndBadAnchorsAreRefusedAndForfeitsOnlyRender) {
  fs::create_directories(tmp_.path() / "empty");
  write_file(tmp_.path() / "empty" / "games.jsonl", "");
  expect_refused({kArena.string(), "report", (tmp_.path() / "empty").string()},
                 "no games to report yet (its journal is empty)");
  EXPECT_FALSE(fs::exists(tmp_.path() / "empty" / "report.html"));

  const std::string config = "[tournament]\nname = \"lost\"\noutput = \"" + (tmp_.path() / "results").string() +
                             "\"\nprogress_interval = 0\n\n[time]\nmovetime_ms = 50\n\n[rating]\nanchor = "
                             "\"b\"\nanchor_elo = 100\n\n[[engine]]\nname = "
                             "\"a\"\ncmd = \"" +
                             kBadEngine.string() +
                             "\"\nargs = [\"--crash-at-start\"]\n\n[[engine]]\nname = \"b\"\ncmd = \"" +
                             kBadEngine.string() + "\"\nargs = [\"--crash-on-go\", \"1\"]\n";
  write_file(tmp_.path() / "lost.toml", config);
  const RunResult played = run_it({kArena.string(), "run", (tmp_.path() / "lost.toml").string()});
  ASSERT_EQ(played.status.code, 0) << played.summary();
  const fs::path dir = tmp_.path() / "results" / "lost";
  for (const std::string& line : read_lines(dir / "games.jsonl"))
    EXPECT_EQ(line.find("\"forfeit\":null"), std::string::npos) << "every game is a forfeit: " << line;
  const RunResult reported = run_it({kArena.string(), "report", dir.string()});
  EXPECT_EQ(reported.status.code, 0) << reported.summary();
  for (const char* file : {"standings.md", "standings.json", "standings.csv", "games.pgn", "report.html"})
    EXPECT_TRUE(fs::exists(dir / file)) << file;
  const std::string json = read_file(dir / "standings.json");
  EXPECT_NE(json.find(R"("anchor": {"engine": "b", "elo": 100})"), std::string::npos)
      << "the config's anchor, kept for a later report: " << json;
  EXPECT_EQ(json.find("nan"), std::string::npos);
  EXPECT_EQ(json.find("inf"), std::string::npos);

  for (const char* bad : {"nosuch=1500", "a", "a=", "=1500", "a=abc", "a=nan", "a=inf", "a=1e300"})
    expect_refused({kArena.string(), "report", dir.string(), "--anchor", bad}, "--anchor");
  expect_refused({kArena.string(), "report", dir.string(), "--anchor", "nosuch=1500"},
                 "--anchor: no engine named 'nosuch' in " + dir.string() + "; the engines are: a, b");
  EXPECT_EQ(run_it({kArena.string(), "report", dir.string(), "--anchor", "b=1500"}).status.code, 0);
  EXPECT_NE(read_file(dir / "standings.json").find(R"("anchor": {"engine": "b", "elo": 1500})"), std::string::npos)
      << read_file(dir / "standings.json");
}

// `arena report A B --out L`: one rating list over several tournaments (their game ids repeat: each
// tournament's games count), only of one variant unless asked, and only into a folder of its own.
TEST_F(BadInput, ARatingListSpansTournamentsOfOneVariant) {
  auto tournament = [&](const std::string& name, const std::string& other, const std::string& variant) {
    const std::string config = "[tournament]\nname = \"" + name + "\"\nrounds = 2\noutput = \"" +
                               (tmp_.path() / "results").string() + "\"\nprogress_interval = 0\n" + variant +
                               "\n[time]\nmovetime_ms = 20\n\n[[engine]]\nname = \"greedy\"\ncmd = \"" +
                               kGreedy.string() + "\"\n\n[[engine]]\nname = \"" + other + "\"\ncmd = \"" +
                               kRandom.string() + "\"\n";
    write_file(tmp_.path() / (name + ".toml"), config);
    const RunResult r = run_it({kArena.string(), "run", (tmp_.path() / (name + ".toml")).string()});
    EXPECT_EQ(r.status.code, 0) << r.summary();
    return (tmp_.path() / "results" / name).string();
  };
  const std::string a = tournament("a", "random", ""), b = tournament("b", "random-2", "");
  const std::string c = tournament("c", "random", "\n[variant]\npits = 4\n");
  const std::string list = (tmp_.path() / "list").string();
  const RunResult r = run_it({kArena.string(), "report", a, b, "--out", list});
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.out.find("One rating list over 2 tournaments: " + a + " (4 games), " + b + " (4 games)"),
            std::string::npos)
      << r.out;
  const std::string json = read_file(fs::path(list) / "standings.json");
  EXPECT_NE(json.find("\"games\": 8,"), std::string::npos) << "the same ids in both count twice: " << json;
  EXPECT_NE(json.find("\"name\": \"greedy\""), std::string::npos);
  EXPECT_NE(json.find("\"name\": \"random-2\""), std::string::npos);
  for (const char* file : {"standings.md", "standings.csv", "games.pgn", "report.html"})
    EXPECT_TRUE(fs::exists(fs::path(list) / file)) << file;

  expect_refused({kArena.string(), "report", a, b}, "a rating list over several results folders needs --out DIR");
  expect_refused({kArena.string(), "report", a, b, "--out", a}, "is one of the tournaments of the list");
  expect_refused({kArena.string(), "report", a, b, a, "--out", list}, a + " is given twice");
  expect_refused({kArena.string(), "report", a, c, "--out", list},
                 c +
                     " was played under 'pits=4 seeds=4 capture=standard ending=side-empty remainder=owner "
                     "majority=off pie=off' but " +
                     a + " under 'pits=6");
  EXPECT_EQ(run_it({kArena.string(), "report", a, c, "--out", list, "--allow-mixed-variants"}).status.code, 0);
}

TEST_F(BadInput, StatsCountsAreWholeNumbersOfSaneSize) {
  for (const char* counts : {"1.5,2,3", "-1,2,3", "1e30,2,3", "nan,2,3", "inf,2,3"})
    expect_refused({kArena.string(), "stats", "--wdl", counts}, "is not a count (a whole number from 0 to 10^12)");
  const RunResult ok = run_it({kArena.string(), "stats", "--wdl", "10,20,30"});
  EXPECT_EQ(ok.status.code, 0) << ok.summary();
}

}  // namespace
}  // namespace kalah::e2e
