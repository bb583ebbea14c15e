// `arena sprt --repo`: an SPRT between two commits of a repository, end to end. The commits hold a tiny
// engine whose build writes the script that `--run` starts: a commit that says "alphabeta" builds an
// engine that searches, one that says "random" builds one that moves at random, and one whose build
// fails. The stronger commit as the test is H1, the weaker H0; a second run resumes from the journal
// and the build cache without building anything; a failed build stops the run with its log's tail. A
// hostile pull request (issue 36) cannot bend the verdict: neither its build nor, with --sandbox bwrap,
// its engine reaches the base's.
#include <algorithm>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "e2e_util.h"
#include "git_repo.h"
#include "referee/engine/sandbox.h"
#include "tests/config_builder.h"

namespace kalah::e2e {
namespace {

const fs::path kAlphaBeta = KALAH_BINARY_DIR "/bots/kalah-alphabeta";

// make.sh writes ./engine, which runs the bundled bot that bot.txt names: the engine exists only after
// the build. The bots' folder is passed to the build through a file the test writes, never through git.
std::map<std::string, std::string> engine_files(const std::string& bot) {
  return {{"bot.txt", bot + "\n"},
          {"make.sh",
           "echo \"making the $(cat bot.txt) engine\"\n"
           "printf '#!/bin/sh\\nexec %s/kalah-%s \"$@\"\\n' \"" +
               kRandom.parent_path().string() +
               "\" \"$(cat bot.txt)\" > engine\n"
               "chmod +x engine\n"}};
}

struct Fixture {
  system::TempFolder tmp{"kalah-e2e"};
  GitRepo repo{tmp.path() / "repo"};
  std::string weak, strong, broken;
  Fixture() {
    weak = repo.commit(engine_files("random"), "a random mover");
    repo.git({"tag", "weak"});
    strong = repo.commit(engine_files("alphabeta"), "a search");
    repo.git({"tag", "strong"});
    broken = repo.commit({{"make.sh", "echo compiling engine.c\necho 'engine.c:3: error: expected ;' >&2\nexit 1\n"}},
                         "a broken build");
    repo.git({"tag", "broken"});
  }
  fs::path cache() const { return tmp.path() / "cache"; }
  fs::path results() const { return tmp.path() / "results"; }

  // `arena sprt` between two refs with loose bounds: a few pairs decide.
  std::vector<std::string> sprt(const std::string& base, const std::string& test, const std::string& name) const {
    return {kArena.string(),
            "sprt",
            "--repo",
            repo.dir().string(),
            "--base-ref",
            base,
            "--test-ref",
            test,
            "--build",
            "sh make.sh",
            "--run",
            "./engine",
            "--worktrees",
            cache().string(),
            "--out",
            results().string(),
            "--name",
            name,
            "--depth",
            "3",
            "--elo0",
            "0",
            "--elo1",
            "100",
            "--alpha",
            "0.1",
            "--beta",
            "0.1",
            "--openings-plies",
            "2",
            "--concurrency",
            "2",
            "--summary",
            (tmp.path() / (name + ".md")).string()};
  }
};

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

TEST(GitSprt, AStrongerTestCommitIsH1AndAResumeBuildsNothing) {
  Fixture f;
  RunResult r = run(f.sprt("weak", "strong", "h1"), f.tmp.path());
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.out.find("H1 accepted"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("building " + f.weak.substr(0, 12)), std::string::npos) << r.out;

  // The summary for the pull request: the decision first, the commits, the report.
  const std::string summary = read_file(f.tmp.path() / "h1.md");
  EXPECT_EQ(first_line(summary).rfind("**H1 accepted**", 0), 0u) << summary;
  // The sides by their refs, the time control, and no path of this machine (the report relative to the
  // folder the run started in, where a workflow uploads the results from).
  EXPECT_EQ(first_line(summary),
            "**H1 accepted** (elo0=0 against elo1=100 normalized Elo): `strong` (test) is stronger than `weak` (base)");
  for (const std::string& part : std::vector<std::string>{
           "LLR ", "Elo of `strong` (test) against `weak` (base)", "Pentanomial LL-LD-D-WD-WW",
           "Games: ", "- Time control: depth 3\n", "base `" + f.weak.substr(0, 12) + "` (weak), built in",
           "test `" + f.strong.substr(0, 12) + "` (strong)", "\nReport: `"})
    EXPECT_NE(summary.find(part), std::string::npos) << part << "\n" << summary;
  EXPECT_EQ(summary.find(f.tmp.path().string()), std::string::npos) << summary;
  EXPECT_TRUE(summary.ends_with("h1/report.html`\n")) << summary;
  EXPECT_EQ(summary.find("repeat"), std::string::npos) << "random games do not repeat:\n" << summary;

  // The results folder records both commits and their builds.
  const fs::path dir = f.results() / "h1";
  EXPECT_NE(read_file(dir / "logs" / "base" / "build.log").find("making the random engine"), std::string::npos);
  EXPECT_NE(read_file(dir / "logs" / "test" / "build.log").find("making the alphabeta engine"), std::string::npos);
  const boost::json::object meta = boost::json::parse(read_file(dir / "tournament.json")).as_object();
  const boost::json::object& settings = meta.at("settings").as_object();
  EXPECT_EQ(settings.at("git.base.commit").as_string(), f.weak);
  EXPECT_EQ(settings.at("git.test.commit").as_string(), f.strong);
  EXPECT_EQ(settings.at("git.test.ref").as_string(), "strong");
  EXPECT_TRUE(settings.contains("git.test.build_seconds"));
  EXPECT_NE(read_file(dir / "report.html").find(f.strong.substr(0, 12)), std::string::npos);
  EXPECT_NE(read_file(dir / "standings.md").find("test `" + f.strong.substr(0, 12) + "` (strong)"), std::string::npos);
  const boost::json::object sprt = boost::json::parse(read_file(dir / "sprt.json")).as_object();
  EXPECT_EQ(sprt.at("commits").at("test").at("commit").as_string(), f.strong);

  // Again: the journal says the test has decided, the cache has both builds: nothing is built or played.
  const fs::path marker = f.cache() / f.strong / "built";
  const auto built_at = fs::last_write_time(marker);
  const std::string log = read_file(f.cache() / f.strong / "build.log");
  const std::size_t games = read_lines(dir / "games.jsonl").size();
  RunResult again = run(f.sprt("weak", "strong", "h1"), f.tmp.path());
  ASSERT_EQ(again.status.code, 0) << again.summary();
  EXPECT_EQ(again.out.find("building"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("from the build cache"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("resuming"), std::string::npos) << again.out;
  EXPECT_EQ(fs::last_write_time(marker), built_at);
  EXPECT_EQ(read_file(f.cache() / f.strong / "build.log"), log);
  EXPECT_EQ(read_lines(dir / "games.jsonl").size(), games);

  // The cache's build log is read as untrusted: replaced by a link to another file, it is not followed into
  // the results (which are published), and the run goes on with a warning.
  write_file(f.tmp.path() / "secret", "the organiser's secret\n");
  fs::remove(f.cache() / f.strong / "build.log");
  fs::create_symlink(f.tmp.path() / "secret", f.cache() / f.strong / "build.log");
  RunResult linked = run(f.sprt("weak", "strong", "h1"), f.tmp.path());
  ASSERT_EQ(linked.status.code, 0) << linked.summary();
  EXPECT_NE(linked.err.find("the build log of the test was not copied"), std::string::npos) << linked.err;
  EXPECT_EQ(read_file(dir / "logs" / "test" / "build.log").find("secret"), std::string::npos);

  // The same folder for a test with other bounds: refused before anything is built (a cache of its own
  // stays empty), naming the one setting that differs and how to keep both.
  std::vector<std::string> other = f.sprt("weak", "strong", "h1");
  *(std::find(other.begin(), other.end(), "--elo1") + 1) = "50";
  *(std::find(other.begin(), other.end(), "--worktrees") + 1) = (f.tmp.path() / "other-cache").string();
  RunResult clash = run(other, f.tmp.path());
  EXPECT_EQ(clash.status.code, 2) << clash.summary();
  EXPECT_NE(clash.err.find(dir.string() + " was written by a different configuration (sprt.elo1: 100 -> 50); another "
                                          "--name keeps those results and starts this one beside them, or --fresh "
                                          "starts over here"),
            std::string::npos)
      << clash.err;
  EXPECT_LT(clash.err.size(), 400u) << clash.err;
  EXPECT_EQ(clash.out.find("git: "), std::string::npos) << clash.out;
  EXPECT_FALSE(fs::exists(f.tmp.path() / "other-cache" / f.weak)) << "nothing is built";

  // A ref that moved names another commit: another test, refused with what changed.
  f.repo.git({"tag", "-f", "strong", "weak"});
  RunResult moved = run(f.sprt("weak", "strong", "h1"), f.tmp.path());
  EXPECT_EQ(moved.status.code, 2) << moved.summary();
  EXPECT_NE(moved.err.find("git.test.commit: " + f.strong + " -> " + f.weak), std::string::npos) << moved.err;
}

// One deterministic engine against itself from the start position: every pair replays the first, and the
// summary says what that does to the Elo interval.
TEST(GitSprt, TheSummaryNotesRepeatedGames) {
  Fixture f;
  std::vector<std::string> args = f.sprt("strong", "strong", "repeat");
  *(std::find(args.begin(), args.end(), "--openings-plies") + 1) = "0";
  args.insert(args.end(), {"--max-pairs", "3"});
  RunResult r = run(args, f.tmp.path());
  ASSERT_EQ(r.status.code, 3) << r.summary();
  const std::string summary = read_file(f.tmp.path() / "repeat.md");
  EXPECT_EQ(first_line(summary),
            "**undecided**: no decision after 3 pairs (max_pairs), `strong` (test) against "
            "`strong` (base)")
      << summary;
  EXPECT_NE(summary.find("> **Note:** 4 of 6 games repeat an earlier game move for move"), std::string::npos)
      << summary;
}

TEST(GitSprt, AWeakerTestCommitIsH0FromAConfigFile) {
  Fixture f;
  const fs::path config = f.tmp.path() / "h0.toml";
  test::TestConfig("h0")
      .set("concurrency", 2)
      .set("output", f.results().string())
      .time("depth = 3")
      .table("openings", "random_plies = 2")
      .table("sprt",
             "elo0 = 0\nelo1 = 100\nalpha = 0.1\nbeta = 0.1\nrepo = " + test::toml_string(f.repo.dir().string()) +
                 "\nbase_ref = \"strong\"\ntest_ref = \"weak\"\nbuild = \"sh make.sh\"\nrun = \"./engine\"\n"
                 "worktrees = " +
                 test::toml_string(f.cache().string()) + "\nsummary = " + test::toml_string((f.tmp / "h0.md").string()))
      .write(config);
  RunResult r = run({kArena.string(), "run", config.string()}, f.tmp.path());
  ASSERT_EQ(r.status.code, 1) << r.summary();
  EXPECT_NE(r.out.find("H0 accepted"), std::string::npos) << r.out;
  EXPECT_EQ(first_line(read_file(f.tmp.path() / "h0.md")).rfind("**H0 accepted**", 0), 0u);

  // [[engine]] tables beside [sprt] repo: a config error at the table.
  const std::string text = read_file(config);
  const std::string table_line = std::to_string(std::count(text.begin(), text.end(), '\n') + 1);
  write_file(config, text + "[[engine]]\nname = \"x\"\ncmd = \"kalah-random\"\n");
  RunResult both = run({kArena.string(), "run", config.string()}, f.tmp.path());
  EXPECT_EQ(both.status.code, 2) << both.summary();
  EXPECT_NE(
      both.err.find(config.string() + ":" + table_line + ":1: [[engine]] tables cannot be combined with [sprt] repo"),
      std::string::npos)
      << both.err;
}

TEST(GitSprt, AFailedBuildStopsTheRunWithTheTailOfItsLog) {
  Fixture f;
  RunResult r = run(f.sprt("weak", "broken", "failed"), f.tmp.path());
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("the build of " + f.broken.substr(0, 12) + " failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("engine.c:3: error: expected ;"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(f.cache() / f.broken / "built"));
  EXPECT_FALSE(fs::exists(f.results() / "failed" / "games.jsonl"));

  // A ref that names nothing, and one that would be an option.
  RunResult missing = run(f.sprt("weak", "no-such-tag", "missing"), f.tmp.path());
  EXPECT_EQ(missing.status.code, 2) << missing.summary();
  EXPECT_NE(missing.err.find("'no-such-tag' does not name a commit"), std::string::npos) << missing.err;
  std::vector<std::string> args = f.sprt("weak", "x", "option");
  const auto ref = std::find(args.begin(), args.end(), "--test-ref");
  *ref = "--test-ref=--output=x";
  args.erase(ref + 1);
  RunResult option = run(args, f.tmp.path());
  EXPECT_EQ(option.status.code, 2) << option.summary();
  EXPECT_NE(option.err.find("is not a git ref"), std::string::npos) << option.err;
}

// The builds of two commits checked by their bench (docs/SPRT.md, "A build check by bench"): a count that
// does not match the declared one refuses the pair before any game, naming the engine and both counts.
TEST(GitSprt, ABuildWhoseBenchIsNotTheDeclaredOneIsRefused) {
  Fixture f;
  std::vector<std::string> args = f.sprt("weak", "strong", "bench");
  args.insert(args.end(), {"--bench", "--test-bench", "1"});
  RunResult r = run(args, f.tmp.path());
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("engine 'test' (test): its bench is "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nodes, but test_bench declares 1: this is not the build the test was meant for"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(f.results() / "bench" / "games.jsonl"));
}

// A pull request whose build, run without a build sandbox as the shipped workflow ran it, rewrote the base's
// cached engine: every game was a start-up forfeit of the base, H1, exit 0. The base's tree is checked against
// its seal after both builds; the changed tree is built again, and the weaker pull request is H0.
TEST(GitSprt, APullRequestsBuildThatRewritesTheBaseIsCaughtAndTheBaseRebuilt) {
  Fixture f;
  const fs::path base_tree = f.cache() / f.strong / "tree";
  std::map<std::string, std::string> hostile = engine_files("random");
  hostile["make.sh"] += "chmod -R u+w '" + base_tree.string() + "'\nprintf '#!/bin/sh\\nexit 1\\n' > '" +
                        (base_tree / "engine").string() + "'\n";
  const std::string pr = f.repo.commit(hostile, "a random mover that rewrites the base");
  RunResult r = run(f.sprt(f.strong, pr, "rewrite"), f.tmp.path());
  EXPECT_EQ(r.status.code, 1) << r.summary();
  EXPECT_NE(r.out.find("H0 accepted"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("base " + f.strong + " = " + f.strong.substr(0, 12) +
                       ": its built tree changed after it was built (its files differ from its seal): a build wrote "
                       "outside its folder"),
            std::string::npos)
      << r.out;
  EXPECT_NE(read_file(base_tree / "engine").find("kalah-alphabeta"), std::string::npos);
  const std::string journal = read_file(f.results() / "rewrite" / "games.jsonl");
  EXPECT_EQ(journal.find("\"startup\""), std::string::npos) << journal;

  // An honest pull request against the same base afterwards plays the base as it was built.
  RunResult honest = run(f.sprt(f.strong, "weak", "honest"), f.tmp.path());
  EXPECT_EQ(honest.status.code, 1) << honest.summary();
  EXPECT_NE(honest.out.find("base " + f.strong + " = " + f.strong.substr(0, 12) + ": built earlier"), std::string::npos)
      << honest.out;
}

// A pull request's engine attacks the base while they play: it rewrites the base's engine in the cache and
// kills every process started from the base's tree, again and again. Without an engine sandbox that wins every game
// (checked below, so that the test proves something); with `--sandbox bwrap` the engine sees neither the base's
// processes (a PID namespace of its own) nor the cache (only its own tree, read-only, under a uid of its own), and
// loses.
TEST(GitSprt, WithSandboxBwrapAPullRequestsEngineCannotTouchTheBase) {
  if (std::optional<std::string> why = sandbox_unavailable()) GTEST_SKIP() << *why;
  Fixture f;
  const fs::path base_tree = f.cache() / f.strong / "tree";
  // The engines are copies of the bundled bots inside their trees: a sandbox shows an engine its tree only.
  auto copied = [&](const std::string& bot, const std::string& engine) {
    return std::map<std::string, std::string>{{"engine.sh", engine},
                                              {"make.sh", "cp '" + kRandom.parent_path().string() + "/kalah-" + bot +
                                                              "' bot\ncp engine.sh engine\nchmod +x engine\n"}};
  };
  const std::string run_bot = "exec \"$(dirname \"$0\")/bot\" \"$@\"\n";
  const std::string base = f.repo.commit(copied("alphabeta", "#!/bin/sh\n" + run_bot), "a search, copied");
  const fs::path tree = f.cache() / base / "tree";
  const std::string attack =
      "#!/bin/sh\n"
      "base='" +
      tree.string() +
      "'\n"
      "( while :; do\n"
      "    printf '#!/bin/sh\\nexit 1\\n' > \"$base/engine\"\n"
      "    pkill -9 -f -- \"$base/\"\n"
      "    sleep 0.05\n"
      "  done ) >/dev/null 2>&1 &\n" +
      run_bot;
  const std::string pr = f.repo.commit(copied("random", attack), "a random mover that attacks the base");
  auto sprt = [&](const std::string& name, const std::string& sandbox) {
    std::vector<std::string> args = f.sprt(base, pr, name);
    args.insert(args.end(), {"--sandbox", sandbox});
    return run(args, f.tmp.path());
  };
  // Where the sandboxes' uids cannot read the cache (the test's folder is 0700, as /root is), the run is
  // refused before any game, saying how to move the cache, rather than every game forfeited.
  ::chmod(f.tmp.path().c_str(), 0700);
  RunResult unreachable = sprt("unreachable", "bwrap");
  EXPECT_EQ(unreachable.status.code, 2) << unreachable.summary();
  EXPECT_NE(unreachable.err.find("(--worktrees puts the build cache elsewhere)"), std::string::npos) << unreachable.err;
  EXPECT_FALSE(fs::exists(f.results() / "unreachable" / "games.jsonl"));
  ::chmod(f.tmp.path().c_str(), 0711);

  RunResult boxed = sprt("boxed", "bwrap");
  EXPECT_EQ(boxed.status.code, 1) << boxed.summary();
  EXPECT_NE(boxed.out.find("H0 accepted"), std::string::npos) << boxed.out;
  EXPECT_EQ(read_file(tree / "engine"), "#!/bin/sh\n" + run_bot);
  const std::string journal = read_file(f.results() / "boxed" / "games.jsonl");
  EXPECT_EQ(journal.find("\"forfeit\":{"), std::string::npos) << journal;
  const boost::json::object meta = boost::json::parse(read_file(f.results() / "boxed" / "tournament.json")).as_object();
  EXPECT_NE(boost::json::serialize(meta).find("bwrap"), std::string::npos);

  // The same match without an engine sandbox: the attack lands. The base is killed and cannot start again, so
  // it loses every game from then on: H1 once it has started at least once in this run, or, when it was
  // rewritten before its first start, the run stops because it never starts (exit 2). Which one depends on
  // which engine the machine started first.
  RunResult open = sprt("open", "none");
  const bool h1 = open.status.code == 0 && open.out.find("H1 accepted") != std::string::npos;
  const bool never_started =
      open.status.code == 2 && open.err.find("engine 'base' failed to start") != std::string::npos;
  EXPECT_TRUE(h1 || never_started) << open.summary();
  EXPECT_EQ(read_file(tree / "engine"), "#!/bin/sh\nexit 1\n");
}

// tools/sprt-pr.sh, as the workflow in docs/ci runs it on a pull request: H0 fails the check, an
// undecided test passes it with a warning unless SPRT_UNDECIDED=fail.
TEST(GitSprt, ThePullRequestScriptFailsTheCheckOnH0) {
  Fixture f;
  const fs::path script = fs::path(KALAH_SOURCE_DIR) / "tools" / "sprt-pr.sh";
  auto pr = [&](const std::string& base, const std::string& test, const std::vector<std::string>& env,
                const std::vector<std::string>& more) {
    std::vector<std::string> argv = {"/usr/bin/env", "ARENA=" + kArena.string(), "SPRT_REPO=" + f.repo.dir().string()};
    argv.insert(argv.end(), env.begin(), env.end());
    for (const std::string& word :
         {std::string("/bin/bash"), script.string(), base, test, std::string("--build"), std::string("sh make.sh"),
          std::string("--run"), std::string("./engine"), std::string("--worktrees"), f.cache().string(),
          std::string("--depth"), std::string("3"), std::string("--openings-plies"), std::string("2")})
      argv.push_back(word);
    argv.insert(argv.end(), more.begin(), more.end());
    static int n = 0;
    const std::string stem = "pr" + std::to_string(++n);
    RunResult r;
    Child child(argv, f.tmp.path() / (stem + ".out"), f.tmp.path() / (stem + ".err"), f.tmp.path());
    r.status = child.wait(std::chrono::seconds(60));
    r.out = read_file(f.tmp.path() / (stem + ".out"));
    r.err = read_file(f.tmp.path() / (stem + ".err"));
    return r;
  };
  const std::vector<std::string> loose = {"--elo0", "0",      "--elo1", "100",           "--alpha",
                                          "0.1",    "--beta", "0.1",    "--concurrency", "2"};
  RunResult h0 = pr("strong", "weak", {}, loose);
  EXPECT_EQ(h0.status.code, 1) << h0.summary();
  EXPECT_NE(h0.out.find("sprt-pr: H0 accepted: weak is not shown to be stronger than strong; the check fails"),
            std::string::npos)
      << h0.out;
  const std::string summary = read_file(f.tmp.path() / "sprt-summary.md");
  EXPECT_EQ(first_line(summary).rfind("**H0 accepted**", 0), 0u) << summary;
  EXPECT_NE(summary.find(f.weak.substr(0, 12)), std::string::npos) << summary;
  EXPECT_TRUE(fs::exists(f.tmp.path() / "results" / "pr-sprt" / "report.html"));

  const std::vector<std::string> one_pair = {"--max-pairs", "1"};
  RunResult undecided = pr("strong", "weak", {}, one_pair);
  EXPECT_EQ(undecided.status.code, 0) << undecided.summary();
  EXPECT_NE(undecided.out.find("sprt-pr: undecided"), std::string::npos) << undecided.out;
  EXPECT_EQ(first_line(read_file(f.tmp.path() / "sprt-summary.md")).rfind("**undecided**", 0), 0u);
  RunResult strict = pr("strong", "weak", {"SPRT_UNDECIDED=fail"}, one_pair);
  EXPECT_EQ(strict.status.code, 1) << strict.summary();

  RunResult usage = pr("--base", "weak", {}, {});
  EXPECT_EQ(usage.status.code, 2) << usage.summary();

  // A build that fails still gives the pull request a summary: the refs, the time control and the end of
  // what arena said (the compiler's error), without this machine's folders.
  RunResult failed = pr("weak", "broken", {}, loose);
  EXPECT_EQ(failed.status.code, 2) << failed.summary();
  const std::string why = read_file(f.tmp.path() / "sprt-summary.md");
  EXPECT_EQ(first_line(why), "**The SPRT could not run** (arena's exit code 2): `broken` (test) against `weak` (base)")
      << why;
  EXPECT_NE(why.find("\n- Time control: depth 3\n"), std::string::npos) << why;
  EXPECT_NE(why.find("engine.c:3: error: expected ;"), std::string::npos) << why;
  EXPECT_EQ(why.find(f.tmp.path().string()), std::string::npos) << why;

  // The workflow runs this script from the arena it fetched at a pinned ref (or an installed one), never
  // from the engine's repository, which has neither it nor setup.sh; a failure before it still comments.
  const std::string workflow = read_file(fs::path(KALAH_SOURCE_DIR) / "docs" / "ci" / "sprt-pr.yml");
  EXPECT_EQ(workflow.find("./setup.sh"), std::string::npos) << workflow;
  EXPECT_NE(workflow.find("checkout --quiet --detach \"$ARENA_REF\""), std::string::npos) << workflow;
  EXPECT_NE(workflow.find("$RUNNER_TEMP/kalah-arena/tools/sprt-pr.sh"), std::string::npos) << workflow;
  EXPECT_NE(workflow.find("share/kalah-arena/ci/sprt-pr.sh"), std::string::npos) << workflow;
  EXPECT_NE(workflow.find("if: failure() && hashFiles('sprt-summary.md') == ''"), std::string::npos) << workflow;
  // The head is a stranger's code: its build and both engines run sandboxed, from a cache the engines' uids read.
  EXPECT_NE(workflow.find("--build-sandbox bwrap --worktrees /var/cache/kalah-sprt"), std::string::npos) << workflow;
  EXPECT_NE(workflow.find("options: --privileged"), std::string::npos) << workflow;
}

}  // namespace
}  // namespace kalah::e2e
