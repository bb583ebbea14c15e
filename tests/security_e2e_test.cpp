// Hostile submissions (docs/SECURITY.md, "Tested"): each test is a real submission folder made as a
// hostile student would make it, built by `arena contest build` as the organiser runs it (root in CI),
// and checks that the attack does nothing outside the results folder and nothing inside it that the
// arena did not mean. KALAH_TEST_ARENA names another arena binary to attack (an older build, to see
// a test fail before its fix).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <map>

#include <gtest/gtest.h>

#include "arena/config/config.h"
#include "e2e_util.h"
#include "referee/engine/sandbox.h"
#include "referee/system/clean_text.h"

namespace kalah::arena {
namespace {

using namespace e2e;

const fs::path kBasil = KALAH_SOURCE_DIR "/configs/contest/submissions/basil/basil.py";

fs::path arena_under_test() {
  const char* other = std::getenv("KALAH_TEST_ARENA");
  return other && *other ? fs::path(other) : kArena;
}

class HostileSubmission : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::optional<std::string> why = sandbox_unavailable()) GTEST_SKIP() << *why;
    ::chmod(tmp_.path().c_str(), 0711);  // sandboxed bots run as other users: let them through
    fs::create_directories(tmp_ / "submissions");
  }
  // A folder with a working Python bot (basil's code) named `name`, plus `files` and a build command.
  fs::path submission(const std::string& name, const std::string& build = "",
                      const std::map<std::string, std::string>& files = {}) {
    const fs::path dir = tmp_ / "submissions" / name;
    fs::create_directories(dir);
    fs::copy_file(kBasil, dir / "bot.py");
    std::string manifest = "name = \"" + name + "\"\nlanguage = \"Python\"\nrun = \"python3 bot.py\"\n";
    if (!build.empty()) manifest += "build = '''" + build + "'''\n";
    write_file(dir / "bot.toml", manifest);
    for (const auto& [file, text] : files) write_file(dir / file, text);
    return dir;
  }
  void write_config(const std::string& tournament_extra = "sandbox = \"bwrap\"\n") {
    write_file(tmp_ / "contest.toml",
               "[tournament]\nname = \"class\"\npairs = 1\nseed = 7\noutput = \"" + (tmp_ / "out").string() +
                   "\"\nprogress_interval = 0\nreport_every = 0\nmemory_mb = 512\nmax_file_mb = 16\n" +
                   tournament_extra + "\n[time]\nbase_ms = 1000\ninc_ms = 10\n\n[submissions]\ndir = \"" +
                   (tmp_ / "submissions").string() + "\"\n" +
                   "build_timeout_s = 20\nbuild_disk_mb = 16\n\n[[engine]]\nname = \"house\"\ncmd = \"" +
                   reachable(kRandom).string() + "\"\n");
  }
  RunResult build(std::chrono::seconds limit = std::chrono::seconds(120)) {
    return run({arena_under_test().string(), "contest", "build", (tmp_ / "contest.toml").string()}, tmp_.path(), limit);
  }
  fs::path results() const { return tmp_ / "out" / "class"; }

  system::TempFolder tmp_{"kalah-e2e"};
};

// A build that makes a set-uid program: the entry must not hold a set-uid-root file (the arena copies
// the built folder as root).
TEST_F(HostileSubmission, ASetUidProgramFromTheBuildIsNeitherSetUidNorRootsInTheEntry) {
  submission("suid",
             "cp /bin/sh ./rootshell && chmod 4755 ./rootshell && chmod 2755 bot.py && mkdir -p d && "
             "cp /bin/sh d/gshell && chmod 6755 d/gshell");
  write_config();
  const RunResult r = build();
  ASSERT_EQ(r.status.code, 0) << r.summary();
  for (const char* file : {"rootshell", "d/gshell", "bot.py"}) {
    const fs::path p = results() / "entries" / "suid" / file;
    struct stat st {};
    ASSERT_EQ(::lstat(p.c_str(), &st), 0) << p << "\n" << r.summary();
    EXPECT_EQ(st.st_mode & (S_ISUID | S_ISGID | S_ISVTX), 0u) << p;
    EXPECT_EQ(st.st_mode & 0222, 0u) << p << ": an entry is written by nobody";
    if (::geteuid() == 0) {
      EXPECT_EQ(st.st_uid, kEntriesOwnerUid) << p << ": an entry belongs to no real user";
    }
  }
}

// A submission that ships check.log and build.log as links to files of the organiser: the arena
// writes its logs elsewhere and never through a link.
TEST_F(HostileSubmission, ShippedLogLinksAreNeverWrittenThrough) {
  write_file(tmp_ / "victim-check", "precious\n");
  write_file(tmp_ / "victim-build", "precious\n");
  const fs::path dir = submission("linker");
  fs::create_symlink(tmp_ / "victim-check", dir / "check.log");
  fs::create_symlink(tmp_ / "victim-build", dir / "build.log");
  write_config();
  const RunResult r = build();
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_EQ(read_file(tmp_ / "victim-check"), "precious\n") << r.summary();
  EXPECT_EQ(read_file(tmp_ / "victim-build"), "precious\n") << r.summary();
  EXPECT_NE(r.out.find("linker           entered"), std::string::npos) << r.summary();
  const std::string check = read_file(results() / "logs" / "linker" / "check.log");
  EXPECT_NE(check.find("PASS handshake"), std::string::npos) << check;
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(results() / "logs" / "linker" / "build.log")));
}

// A build that reads the environment of every process it can see (bubblewrap's own init is pid 1 in
// the sandbox): nothing of the organiser's environment reaches its published build log.
TEST_F(HostileSubmission, TheOrganisersEnvironmentDoesNotReachTheBuild) {
  ::setenv("KALAH_ORGANISER_SECRET", "hunter2-token", 1);
  submission("snoop", "for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done; env");
  write_config();
  const RunResult r = build();
  ::unsetenv("KALAH_ORGANISER_SECRET");
  ASSERT_EQ(r.status.code, 0) << r.summary();
  const std::string log = read_file(results() / "logs" / "snoop" / "build.log");
  EXPECT_NE(log.find("PATH="), std::string::npos) << log;  // the snooping ran
  EXPECT_EQ(log.find("hunter2-token"), std::string::npos) << log;
}

// A submission holding a FIFO, a link to it, a link to a file of the organiser and a link to a /proc
// file that blocks when read: the build (copying and hashing the folder) finishes, copies none of
// them as what they point to, and the bot still enters.
TEST_F(HostileSubmission, FifosAndLinksInASubmissionNeitherHangTheBuildNorLeakFiles) {
  write_file(tmp_ / "secret", "organiser's secret\n");
  ::chmod((tmp_ / "secret").c_str(), 0600);
  const fs::path dir = submission("fifo");
  ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0666), 0);
  fs::create_symlink(dir / "pipe", dir / "pipe-link");
  fs::create_symlink(tmp_ / "secret", dir / "secret-link");
  fs::create_symlink("/proc/kmsg", dir / "kmsg");
  write_config();
  const RunResult r = build(std::chrono::seconds(60));
  ASSERT_FALSE(r.status.timed_out) << r.summary();
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.out.find("fifo             entered"), std::string::npos) << r.summary();
  const fs::path entry = results() / "entries" / "fifo";
  EXPECT_FALSE(fs::exists(fs::symlink_status(entry / "pipe")));
  EXPECT_TRUE(fs::is_symlink(entry / "secret-link"));  // a link stays a link, read by nobody but the bot
  EXPECT_NE(read_file(results() / "logs" / "fifo" / "build.log").find("pipe (a special file"), std::string::npos);
}

// A bot whose `run` names a link to a file of the machine is refused, never executed through it.
TEST_F(HostileSubmission, ARunCommandThatIsALinkIsRefused) {
  const fs::path dir = submission("runlink");
  fs::create_symlink("/bin/sh", dir / "play");
  write_file(dir / "bot.toml", "name = \"runlink\"\nrun = \"./play\"\n");
  write_config();
  const RunResult r = build();
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.out.find("runlink          not entered: run: ./play is a symbolic link"), std::string::npos)
      << r.summary();
}

// A contest whose [tournament] says nothing about a sandbox runs its entrants in one; one that says
// sandbox = "none" is warned about by every command.
TEST_F(HostileSubmission, EntrantsAreSandboxedUnlessTheConfigSaysOtherwise) {
  submission("plain");
  write_config("");
  Expected<Config> config = load_config(tmp_ / "contest.toml");
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->submissions->entrant_sandbox, SandboxMode::Bwrap);
  EXPECT_TRUE(config->warnings.empty());
  EXPECT_EQ(config->tournament.sandbox, SandboxMode::None);  // the house engines stay as configured

  write_config("sandbox = \"none\"\n");
  config = load_config(tmp_ / "contest.toml");
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->submissions->entrant_sandbox, SandboxMode::None);
  ASSERT_EQ(config->warnings.size(), 1u);
  const RunResult r = build();
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.err.find("arena: warning: " + (tmp_ / "contest.toml").string() +
                       ": the contest's entrants run without a sandbox"),
            std::string::npos)
      << r.summary();
}

// A sandboxed engine in a folder the sandbox's users cannot enter (a checkout under /root, mode 0700)
// is refused at load with the path and the fix, not played as a start-up forfeit in every game.
TEST(SandboxLoad, AnEngineOutOfTheSandboxesReachIsRefusedWithThePathAndTheFix) {
  if (std::optional<std::string> why = sandbox_unavailable()) GTEST_SKIP() << *why;
  if (::geteuid() != 0) GTEST_SKIP() << "only root gives engines uids of their own";
  system::TempFolder tmp{"kalah-e2e"};
  ::chmod(tmp.path().c_str(), 0711);
  fs::create_directories(tmp / "home");
  ::chmod((tmp / "home").c_str(), 0700);
  const fs::path engine = tmp / "home" / "bot";
  fs::copy_file(kRandom, engine);
  const std::string config = "[tournament]\nname = \"t\"\noutput = \"" + (tmp / "out").string() +
                             "\"\nsandbox = \"bwrap\"\n\n[[engine]]\nname = \"a\"\ncmd = \"" + engine.string() +
                             "\"\n\n[[engine]]\nname = \"b\"\ncmd = \"" + reachable(kRandom).string() +
                             "\"\n\n[time]\nmovetime_ms = 100\n";
  write_file(tmp / "t.toml", config);
  const RunResult r = run({kArena.string(), "run", (tmp / "t.toml").string()}, tmp.path());
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("t.toml:8:7: engine.cmd: " + engine.string() + " is out of the sandbox's reach: " +
                       (tmp / "home").string() + " (mode 0700) cannot be entered by other users"),
            std::string::npos)
      << r.summary();
  EXPECT_NE(r.err.find("chmod o+x"), std::string::npos) << r.summary();
  EXPECT_FALSE(fs::exists(tmp / "out" / "t" / "games.jsonl"));
}

// The same through a symbolic link (a build folder linked from a readable place, as people do): the check
// follows the link to where it leads and names both, exit 2 and nothing played — not a start-up forfeit in
// every game (bubblewrap, as the engine's uid, cannot follow the link into the private folder).
TEST(SandboxLoad, AnEngineReachedThroughALinkIntoAPrivateFolderIsRefusedNamingTheLinkAndWhereItLeads) {
  if (std::optional<std::string> why = sandbox_unavailable()) GTEST_SKIP() << *why;
  if (::geteuid() != 0) GTEST_SKIP() << "only root gives engines uids of their own";
  system::TempFolder tmp{"kalah-e2e"};
  ::chmod(tmp.path().c_str(), 0711);
  fs::create_directories(tmp / "home" / "build");
  fs::create_directories(tmp / "open");
  ::chmod((tmp / "home").c_str(), 0700);
  ::chmod((tmp / "open").c_str(), 0755);
  const fs::path engine = tmp / "home" / "build" / "bot";
  fs::copy_file(kRandom, engine);
  ::chmod(engine.c_str(), 0755);
  fs::create_symlink("../home/build/bot", tmp / "open" / "bot");                 // a link to a file
  fs::create_directory_symlink(tmp / "home" / "build", tmp / "open" / "build");  // a link to a folder on the way
  for (const fs::path& link : {tmp / "open" / "bot", tmp / "open" / "build" / "bot"}) {
    write_file(tmp / "t.toml",
               "[tournament]\nname = \"t\"\noutput = \"" + (tmp / "out").string() +
                   "\"\nsandbox = \"bwrap\"\nprogress_interval = 0\n\n[[engine]]\nname = \"a\"\ncmd = \"" +
                   link.string() + "\"\n\n[[engine]]\nname = \"b\"\ncmd = \"" + reachable(kRandom).string() +
                   "\"\n\n[time]\nmovetime_ms = 100\n");
    const RunResult r = run({kArena.string(), "run", (tmp / "t.toml").string()}, tmp.path());
    EXPECT_EQ(r.status.code, 2) << r.summary();
    EXPECT_NE(r.err.find("t.toml:9:7: engine.cmd: " + link.string() + " (a link to " + engine.string() +
                         ") is out of the sandbox's reach: " + (tmp / "home").string() +
                         " (mode 0700) cannot be entered by other users"),
              std::string::npos)
        << r.summary();
    EXPECT_FALSE(fs::exists(tmp / "out" / "t" / "games.jsonl")) << "nothing is played";
  }
}

// A link in a sandboxed engine's dir to its program elsewhere (readable): where it leads is bound in the
// sandbox too, so the engine starts and plays.
TEST(SandboxLoad, AnEngineLinkedFromItsDirToAReadablePlaceStartsInTheSandbox) {
  if (std::optional<std::string> why = sandbox_unavailable()) GTEST_SKIP() << *why;
  system::TempFolder tmp{"kalah-e2e"};
  ::chmod(tmp.path().c_str(), 0711);
  fs::create_directories(tmp / "bot");
  ::chmod((tmp / "bot").c_str(), 0755);
  fs::create_symlink(reachable(kRandom), tmp / "bot" / "bot");
  write_file(tmp / "t.toml", "[tournament]\nname = \"t\"\noutput = \"" + (tmp / "out").string() +
                                 "\"\nprogress_interval = 0\n\n[[engine]]\nname = \"a\"\ncmd = \"" +
                                 (tmp / "bot" / "bot").string() + "\"\ndir = \"" + (tmp / "bot").string() +
                                 "\"\nsandbox = \"bwrap\"\n\n[[engine]]\nname = \"b\"\ncmd = \"" +
                                 reachable(kRandom).string() + "\"\n\n[time]\nmovetime_ms = 100\n");
  const RunResult r = run({kArena.string(), "run", (tmp / "t.toml").string()}, tmp.path());
  EXPECT_EQ(r.status.code, 0) << r.summary();
  const std::string games = read_file(tmp / "out" / "t" / "games.jsonl");
  EXPECT_EQ(games.find("\"termination\":\"startup\""), std::string::npos) << games;
  EXPECT_NE(games.find("\"forfeit\":null"), std::string::npos) << games;
}

// A sandboxed engine's dir that is "/" or holds the results, and an --out into such a dir, are refused.
TEST(SandboxLoad, ADirThatShowsTheMachineOrTheResultsIsRefused) {
  if (std::optional<std::string> why = sandbox_unavailable()) GTEST_SKIP() << *why;
  system::TempFolder tmp{"kalah-e2e"};
  ::chmod(tmp.path().c_str(), 0755);
  fs::create_directories(tmp / "bot");
  ::chmod((tmp / "bot").c_str(), 0755);
  auto config = [&](const std::string& dir, const fs::path& out) {
    write_file(tmp / "t.toml", "[tournament]\nname = \"t\"\noutput = \"" + out.string() +
                                   "\"\nsandbox = \"bwrap\"\n\n[[engine]]\nname = \"a\"\ncmd = \"" +
                                   reachable(kRandom).string() + "\"\ndir = \"" + dir +
                                   "\"\n\n[[engine]]\nname = \"b\"\ncmd = \"" + reachable(kRandom).string() +
                                   "\"\n\n[time]\nmovetime_ms = 100\n");
  };
  config("/", tmp / "out");
  RunResult r = run({kArena.string(), "run", (tmp / "t.toml").string()}, tmp.path());
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("engine.dir: dir = \"/\" would show a sandboxed engine the whole machine"), std::string::npos)
      << r.summary();
  config((tmp / "bot").string(), tmp / "bot" / "results");
  r = run({kArena.string(), "run", (tmp / "t.toml").string()}, tmp.path());
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("holds the results folder"), std::string::npos) << r.summary();
  config((tmp / "bot").string(), tmp / "out");
  r = run({kArena.string(), "run", (tmp / "t.toml").string(), "--out", (tmp / "bot" / "x").string()}, tmp.path());
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("engine 'a': dir = \"" + (tmp / "bot").string() + "\" holds the results folder"),
            std::string::npos)
      << r.summary();
  // Judged where links lead: a link to "/", and results reached through a link into the dir.
  fs::create_directory_symlink("/", tmp / "root");
  config((tmp / "root").string(), tmp / "out");
  r = run({kArena.string(), "run", (tmp / "t.toml").string()}, tmp.path());
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("would show a sandboxed engine the whole machine"), std::string::npos) << r.summary();
  fs::create_directory_symlink(tmp / "bot", tmp / "linked");
  config((tmp / "bot").string(), tmp / "linked" / "results");
  r = run({kArena.string(), "run", (tmp / "t.toml").string()}, tmp.path());
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("holds the results folder " + (tmp / "linked" / "results" / "t").string() + " (a link to " +
                       (tmp / "bot" / "results" / "t").string() + ")"),
            std::string::npos)
      << r.summary();
}

// An engine that writes terminal escapes and invalid UTF-8 in its name, its lines and its stderr: every
// file the arena writes is valid UTF-8 without those controls, and the terminal sees none of them.
TEST(HostileEngine, DirtyBytesReachNoFileAndNoTerminalAsTheyAre) {
  system::TempFolder tmp{"kalah-e2e"};
  const fs::path hostile = KALAH_BINARY_DIR "/tests/engines/hostile_engine";
  write_file(tmp / "t.toml",
             "[tournament]\nname = \"t\"\noutput = \"" + (tmp / "out").string() +
                 "\"\nprogress_interval = 0\ntranscripts = \"all\"\n\n[time]\nmovetime_ms = 500\n\n"
                 "[[engine]]\nname = \"dirty\"\ncmd = \"" +
                 hostile.string() + "\"\nargs = [\"dirty\"]\nstderr = \"" + (tmp / "dirty.err").string() +
                 "\"\nmax_output_kb = 64\n\n[[engine]]\nname = \"plain\"\ncmd = \"" + kRandom.string() + "\"\n");
  const RunResult r = run({kArena.string(), "run", (tmp / "t.toml").string()}, tmp.path());
  ASSERT_EQ(r.status.code, 0) << r.summary();
  auto valid_utf8 = [](const std::string& text) { return system::clean_text(text, true) == text; };
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(tmp / "out")) {
    if (!entry.is_regular_file()) continue;
    ++files;
    const std::string text = read_file(entry.path());
    EXPECT_TRUE(valid_utf8(text)) << entry.path() << ":\n" << text.substr(0, 2000);
  }
  EXPECT_GE(files, 5);
  const std::string log = read_file(tmp / "dirty.err");
  EXPECT_TRUE(valid_utf8(log)) << log;
  EXPECT_NE(log.find("\\x1b[2J"), std::string::npos) << log;                // shown, not obeyed
  EXPECT_NE(log.find("\xf0\x9f\x98\x80 smile"), std::string::npos) << log;  // real UTF-8 stays
}

// An engine that floods the handshake: a start-up forfeit once it has said more than the arena keeps,
// not gigabytes held in memory.
TEST(HostileEngine, AFloodBeforeKepokIsAStartupForfeit) {
  system::TempFolder tmp{"kalah-e2e"};
  const fs::path hostile = KALAH_BINARY_DIR "/tests/engines/hostile_engine";
  const RunResult r = run(
      {KALAH_BINARY_DIR "/referee", "match", "--engine", "cmd=" + hostile.string(), "name=flood", "arg=flood-handshake",
       "--engine", "cmd=" + kRandom.string(), "name=plain", "--games", "1", "--out", (tmp / "g.jsonl").string()},
      tmp.path(), std::chrono::seconds(60));
  ASSERT_FALSE(r.status.timed_out) << r.summary();
  const std::string games = read_file(tmp / "g.jsonl");
  EXPECT_NE(games.find("wrote more than 1024 KiB before kepok"), std::string::npos) << games << r.summary();
}

}  // namespace
}  // namespace kalah::arena
