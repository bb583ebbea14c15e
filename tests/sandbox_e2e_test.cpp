// Untrusted engines end to end (docs/SECURITY.md): tests/engines/hostile_engine tries one forbidden
// thing inside the bubblewrap sandbox, in a real `arena run` against a plain engine, and reports on
// its stderr (which the arena captures) what happened. Each attempt must fail or end in the right
// forfeit, the tournament must finish (exit 0), and no process may be left running. Skipped, with
// the reason, where bubblewrap cannot start a sandbox (no user namespaces).
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>

#include <signal.h>
#include <set>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "referee/engine/control_groups.h"
#include "referee/engine/sandbox.h"
#include "tests/config_builder.h"
#include "tests/e2e_util.h"
#include "tests/support/text_match.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;

// The test engines where a sandboxed engine's uid can reach them, wherever the checkout lives.
fs::path engines_dir() {
  reachable(KALAH_BINARY_DIR "/tests/engines/instant_engine");
  return reachable(KALAH_BINARY_DIR "/tests/engines/hostile_engine").parent_path();
}
const fs::path kEngines = engines_dir();

// The processes still alive in the sandbox uid range, but for those of another arena still running.
std::vector<std::string> sandboxed_processes() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    const std::string status = read_file(entry.path() / "status");
    const std::optional<test::Groups> uid = test::search_groups(status, R"(\nUid:\s+(\d+))");
    if (!uid) continue;
    const unsigned long u = std::stoul((*uid)[1]);
    const pid_t pid = static_cast<pid_t>(std::atol(entry.path().filename().c_str()));
    if (u >= kSandboxFirstUid && u < kSandboxFirstUid + kSandboxUids && !under_running_arena(pid))
      out.push_back(entry.path().filename().string() + " (uid " + (*uid)[1] + ")");
  }
  return out;
}

class SandboxE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::optional<std::string> why = sandbox_unavailable()) GTEST_SKIP() << *why;
    // The sandboxed engine runs as another user: let it through the test's folder to nothing but
    // what the sandbox binds (the folder itself stays unreadable from inside: it is not bound).
    ::chmod(tmp_.path().c_str(), 0711);
  }

  struct Played {
    RunResult run;
    std::string report;               // what the hostile engine wrote on its stderr
    std::vector<json::object> games;  // the journal
  };

  // A round of two games: the hostile engine (sandboxed, with `limits` TOML lines) against a plain one.
  Played play(const std::vector<std::string>& attempt, const std::string& limits = "") {
    std::string args;
    for (const std::string& a : attempt) args += (args.empty() ? "\"" : ", \"") + a + "\"";
    const std::string n = std::to_string(++plays_);
    const fs::path err = tmp_.path() / ("hostile" + n + ".err");
    test::TestConfig("box")
        .output(tmp_ / ("results" + n))
        .time("movetime_ms = 2000")
        .engine("hostile", kEngines / "hostile_engine",
                "args = [" + args + "]\ndir = " + test::toml_string(kEngines.string()) + "\nstderr = " +
                    test::toml_string(err.string()) + "\nsandbox = " + test::toml_string(sandbox_) + "\n" + limits)
        .engine("plain", kEngines / "instant_engine")
        .write(tmp_ / "box.toml");
    Played p;
    p.run = run({kArena.string(), "run", (tmp_.path() / "box.toml").string()}, tmp_.path(), 60s);
    p.report = read_file(err);
    for (const std::string& line : read_lines(tmp_.path() / ("results" + n) / "box" / "games.jsonl"))
      p.games.push_back(json::parse(line).as_object());
    return p;
  }

  void expect_contained(const Played& p) {
    EXPECT_EQ(p.run.status.code, 0) << p.run.summary();
    EXPECT_EQ(p.games.size(), 2u) << "the tournament went on";
    for (int i = 0; i < 100 && !sandboxed_processes().empty(); ++i) std::this_thread::sleep_for(20ms);
    const std::vector<std::string> left = sandboxed_processes();
    EXPECT_TRUE(left.empty()) << "left running: " << (left.empty() ? "" : left.front());
    EXPECT_EQ(sandbox_dirs_of(p.run.pid), std::vector<std::string>{}) << "the private working folders are removed";
  }

  system::TempFolder tmp_{"kalah-e2e"};
  int plays_ = 0;
  std::string sandbox_ = "bwrap";  // the hostile engine's
};

// The megabytes the hostile engine's `fill` wrote into `place`, from its report (-1: no such line).
int filled(const std::string& report, const std::string& place) {
  const std::string prefix = "hostile: fill " + place + ": wrote ";
  const std::size_t at = report.find(prefix);
  return at == std::string::npos ? -1 : std::atoi(report.c_str() + at + prefix.size());
}

TEST_F(SandboxE2E, NoNetwork) {
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  sockaddr_in at{};
  at.sin_family = AF_INET;
  at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&at), sizeof at), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  socklen_t size = sizeof at;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&at), &size);
  const Played p = play({"connect", std::to_string(ntohs(at.sin_port))});
  expect_contained(p);
  // Its own network namespace has only a loopback of its own: nothing answers there.
  EXPECT_NE(p.report.find("hostile: connect: failed"), std::string::npos) << p.report;
  EXPECT_LT(::accept(listener, nullptr, nullptr), 0) << "nobody connected";
  ::close(listener);
}

TEST_F(SandboxE2E, NoWritesOutsideItsOwnFolder) {
  for (const fs::path& target : {fs::path("/root/kalah-pwned"), tmp_.path() / "results2" / "box" / "pwned",
                                 fs::path("/usr/kalah-pwned"), tmp_.path() / "pwned"}) {
    const Played p = play({"write", target.string()});
    expect_contained(p);
    EXPECT_NE(p.report.find("hostile: write " + target.string() + ": failed"), std::string::npos) << p.report;
    EXPECT_FALSE(fs::exists(target)) << target;
  }
}

TEST_F(SandboxE2E, NoReadingOtherFolders) {
  write_file(tmp_.path() / "secret.txt", "the other engine's book\n");
  ::chmod((tmp_.path() / "secret.txt").c_str(), 0644);
  const Played p = play({"read", (tmp_.path() / "secret.txt").string()});
  expect_contained(p);
  EXPECT_NE(p.report.find("secret.txt: failed: No such file or directory"), std::string::npos) << p.report;
}

TEST_F(SandboxE2E, AForkBombStopsAtItsLimit) {
  const Played p = play({"fork-bomb"}, "max_processes = 8\n");
  expect_contained(p);
  const std::optional<test::Groups> n =
      test::search_groups(p.report, R"(hostile: fork-bomb: stopped after (\d+) children)");
  ASSERT_TRUE(n) << p.report;
  EXPECT_LE(std::stoi((*n)[1]), 16) << "capped at twice the limit";
}

// Every way of holding memory counts against memory_mb (the kernel's memory controller): private heap,
// shared anonymous memory (which RLIMIT_DATA never counted: 1 GiB under a 64 MB limit before), and the
// engine is killed for it with a `memory` forfeit naming the limit.
void expect_memory_forfeits(const std::vector<json::object>& games, const std::string& limit) {
  int forfeits = 0;
  for (const json::object& g : games) {
    if (!g.contains("forfeit") || g.at("forfeit").is_null()) continue;
    ++forfeits;
    const json::object& f = g.at("forfeit").as_object();
    EXPECT_EQ(f.at("engine").as_string(), "hostile");
    EXPECT_EQ(f.at("reason").as_string(), "memory") << f;
    EXPECT_NE(std::string(f.at("detail").as_string()).find("memory_mb = " + limit), std::string::npos) << f;
  }
  EXPECT_EQ(forfeits, 2);
}

TEST_F(SandboxE2E, TooMuchPrivateMemoryIsAMemoryForfeit) {
  if (auto why = memory_controller_unavailable()) GTEST_SKIP() << *why;
  const Played p = play({"alloc", "2048"}, "memory_mb = 256\n");
  expect_contained(p);
  EXPECT_EQ(p.report.find("SUCCEEDED"), std::string::npos) << p.report;
  expect_memory_forfeits(p.games, "256");
}

TEST_F(SandboxE2E, SharedMemoryCountsAgainstTheLimitToo) {
  if (auto why = memory_controller_unavailable()) GTEST_SKIP() << *why;
  const Played p = play({"shm", "1024"}, "memory_mb = 64\n");
  expect_contained(p);
  EXPECT_EQ(p.report.find("SUCCEEDED"), std::string::npos) << p.report;
  expect_memory_forfeits(p.games, "64");
}

// The weaker bound, chosen explicitly: RLIMIT_DATA makes the allocation fail (a crash naming the limit).
TEST_F(SandboxE2E, WithTheRlimitEnforcementTooMuchMemoryIsACrashNamingTheLimit) {
  const Played p = play({"alloc", "2048"}, "memory_mb = 256\nmemory_enforcement = \"rlimit\"\n");
  expect_contained(p);
  EXPECT_NE(p.report.find("hostile: alloc: failed"), std::string::npos) << p.report;
  int forfeits = 0;
  for (const json::object& g : p.games) {
    if (!g.contains("forfeit")) continue;
    ++forfeits;
    const json::object& f = g.at("forfeit").as_object();
    EXPECT_EQ(f.at("engine").as_string(), "hostile");
    EXPECT_EQ(f.at("reason").as_string(), "crash");
    EXPECT_NE(std::string(f.at("detail").as_string()).find("memory_mb = 256"), std::string::npos) << f;
  }
  EXPECT_EQ(forfeits, 2);
}

// With max_file_mb every place a sandboxed engine can write holds no more than that: /tmp, /dev/shm and
// its working folder are memory of that size, / and /dev are read-only. Before, /dev/shm, / and /dev
// took the engine's 64 MB each, and its working folder on the organiser's disk as much.
TEST_F(SandboxE2E, EveryPlaceItCanWriteHoldsNoMoreThanMaxFileMb) {
  const Played p = play({"fill", "/tmp,/dev/shm,.,/,/dev"}, "max_file_mb = 4\n");
  expect_contained(p);
  for (const std::string place : {"/tmp", "/dev/shm", "."}) {
    EXPECT_GE(filled(p.report, place), 2) << place << " is writable\n" << p.report;
    EXPECT_LE(filled(p.report, place), 4) << place << " is capped\n" << p.report;
  }
  for (const std::string place : {"/", "/dev"}) {
    EXPECT_EQ(filled(p.report, place), 0) << p.report;
    EXPECT_NE(p.report.find("fill " + place + ": wrote 0 MB: Read-only file system"), std::string::npos) << p.report;
  }
}

// Without max_file_mb, /tmp, /dev/shm (POSIX shared memory, Python's multiprocessing) and the working
// folder stay writable; / and /dev stay read-only.
TEST_F(SandboxE2E, WithoutMaxFileMbItsOwnPlacesStayWritable) {
  const Played p = play({"fill", "/tmp,/dev/shm,.,/"});
  expect_contained(p);
  for (const std::string place : {"/tmp", "/dev/shm", "."})
    EXPECT_EQ(filled(p.report, place), 64) << place << "\n" << p.report;
  EXPECT_EQ(filled(p.report, "/"), 0) << p.report;
}

// max_process is the kernel's pids controller where it can be used: it counts the engine's processes
// whatever their uid, so it holds for an engine outside the sandbox too (before: refused at load, since
// RLIMIT_NPROC would have counted every process of the arena's user).
TEST_F(SandboxE2E, WithThePidsControllerTheProcessLimitHoldsOutsideTheSandboxToo) {
  if (auto why = controller_unavailable(Controller::Pids)) GTEST_SKIP() << *why;
  sandbox_ = "none";
  const Played p = play({"fork-bomb"}, "max_processes = 8\n");
  EXPECT_EQ(p.run.status.code, 0) << p.run.summary();
  EXPECT_EQ(p.games.size(), 2u);
  const std::optional<test::Groups> n =
      test::search_groups(p.report, R"(hostile: fork-bomb: stopped after (\d+) children)");
  ASSERT_TRUE(n) << p.report;
  EXPECT_EQ(std::stoi((*n)[1]), 7) << "eight processes: the engine and seven children";
}

TEST_F(SandboxE2E, ABigFileIsStoppedByTheKernel) {
  const Played p = play({"file", "1024"}, "max_file_mb = 10\n");
  expect_contained(p);
  for (const json::object& g : p.games) {
    ASSERT_TRUE(g.contains("forfeit")) << g;
    const std::string detail(g.at("forfeit").as_object().at("detail").as_string());
    EXPECT_EQ(g.at("forfeit").as_object().at("reason").as_string(), "file-size") << g;
    EXPECT_NE(detail.find("SIGXFSZ"), std::string::npos) << detail;
    EXPECT_NE(detail.find("file-size limit (max_file_mb = 10)"), std::string::npos) << detail;
  }
}

// The engine's stderr log is written by the arena when its own writes are limited, and counts against
// max_file_mb as a whole: whatever the games write (here 3 MB each, under max_output_kb), the file stays
// within the bound, ends by saying so, and nobody forfeits for it (the engine did not write that file).
TEST_F(SandboxE2E, TheStderrLogIsBoundedByMaxFileMbWithoutAForfeit) {
  const Played p = play({"stderr", "3"}, "max_file_mb = 2\nmax_output_kb = 4096\n");
  expect_contained(p);
  for (const json::object& g : p.games) EXPECT_TRUE(g.at("forfeit").is_null()) << g;
  EXPECT_LE(p.report.size(), 2u << 20) << "the log stays within max_file_mb";
  EXPECT_GT(p.report.size(), (2u << 20) - 4096) << "and keeps what fits";
  EXPECT_NE(p.report.find("hostile: stderr: writing 3 MB"), std::string::npos) << p.report.substr(0, 200);
  EXPECT_TRUE(
      p.report.ends_with("stderr log reached its bound of 2097152 bytes (max_file_mb); the rest is not kept]\n"))
      << p.report.substr(p.report.size() - std::min<std::size_t>(p.report.size(), 300));
}

// max_output_kb: what the engine writes to stderr in one game, beyond it an `output` forfeit; the log
// keeps the first max_output_kb and says where it stopped.
// Without max_output_kb a sandboxed engine still has one: 1024 KB.
TEST_F(SandboxE2E, ASandboxedEngineHasAnOutputLimitByDefault) {
  const Played p = play({"stderr", "50"});
  expect_contained(p);
  for (const json::object& g : p.games) {
    ASSERT_TRUE(g.contains("forfeit") && !g.at("forfeit").is_null()) << g;
    EXPECT_NE(std::string(g.at("forfeit").as_object().at("detail").as_string()).find("max_output_kb = 1024 KB"),
              std::string::npos)
        << g;
  }
}

TEST_F(SandboxE2E, StderrPastItsLimitIsAnOutputForfeitAndTheLogStaysSmall) {
  const Played p = play({"stderr", "50"}, "max_output_kb = 64\n");
  expect_contained(p);
  for (const json::object& g : p.games) {
    ASSERT_TRUE(g.contains("forfeit") && !g.at("forfeit").is_null()) << g;
    const json::object& f = g.at("forfeit").as_object();
    EXPECT_EQ(f.at("engine").as_string(), "hostile");
    EXPECT_EQ(f.at("reason").as_string(), "output") << f;
    EXPECT_NE(std::string(f.at("detail").as_string()).find("max_output_kb = 64 KB"), std::string::npos) << f;
  }
  EXPECT_NE(p.report.find("hostile: stderr: writing 50 MB"), std::string::npos) << p.report.substr(0, 200);
  EXPECT_NE(p.report.find("more than 65536 bytes to stderr in one game; the rest is not kept"), std::string::npos);
  EXPECT_LT(p.report.size(), 2u * (64 << 10) + 4096) << "two games, at most 64 KB each";
}

TEST_F(SandboxE2E, ItCannotSignalTheArena) {
  const Played p = play({"kill-parent"});
  expect_contained(p);
  EXPECT_EQ(p.report.find("SUCCEEDED"), std::string::npos) << p.report;
}

TEST_F(SandboxE2E, APythonEngineRunsInside) {
  const fs::path python_dir = reachable(KALAH_SOURCE_DIR "/bots/python");
  test::TestConfig("py")
      .output(tmp_ / "results")
      .set("sandbox", "bwrap")
      .set("memory_mb", 512)
      .time("movetime_ms = 2000")
      .engine("python", "/usr/bin/python3",
              "dir = " + test::toml_string(python_dir.string()) + "\nargs = [\"{dir}/random_bot.py\"]")
      .engine("plain", kEngines / "instant_engine")
      .write(tmp_ / "py.toml");
  const RunResult r = run({kArena.string(), "run", (tmp_.path() / "py.toml").string()}, tmp_.path(), 60s);
  ASSERT_EQ(r.status.code, 0) << r.summary();
  const std::vector<std::string> games = read_lines(tmp_.path() / "results" / "py" / "games.jsonl");
  EXPECT_EQ(games.size(), 2u);
  for (const std::string& g : games) EXPECT_NE(g.find("\"forfeit\":null"), std::string::npos) << g;
  for (int i = 0; i < 100 && !sandboxed_processes().empty(); ++i) std::this_thread::sleep_for(20ms);
  EXPECT_TRUE(sandboxed_processes().empty());
}

// The parent of process `pid` from /proc, or -1 when it is gone.
pid_t parent_of(pid_t pid) {
  const std::string status = read_file("/proc/" + std::to_string(pid) + "/status");
  const std::size_t at = status.find("\nPPid:");
  return at == std::string::npos ? -1 : static_cast<pid_t>(std::atol(status.c_str() + at + 6));
}

// What a killed arena leaves: a process of a sandbox uid handed to init. (bubblewrap makes one when it is
// killed while it starts a sandbox: its child waits for ever for the user mapping its parent was to write, a
// stray that a `kill -9` of `arena serve` left on the test machine.) Played here by a process of the last
// sandbox uid, double-forked so that init inherits it: the next arena to start a sandbox kills it and says so.
TEST_F(SandboxE2E, ASandboxedProcessAKilledArenaLeftIsKilledByTheNextArena) {
  if (::geteuid() != 0) GTEST_SKIP() << "the sandbox uids exist only for an arena running as root";
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const pid_t orphan = ::fork();
    if (orphan == 0) {
      const uid_t uid = kSandboxFirstUid + kSandboxUids - 1;
      if (::setgid(uid) != 0 || ::setuid(uid) != 0) ::_exit(3);
      ::execl("/bin/sleep", "sleep", "300", static_cast<char*>(nullptr));
      ::_exit(4);
    }
    (void)!::write(ends[1], &orphan, sizeof orphan);
    ::_exit(0);
  }
  ::close(ends[1]);
  pid_t orphan = -1;
  ASSERT_EQ(::read(ends[0], &orphan, sizeof orphan), static_cast<ssize_t>(sizeof orphan));
  ::close(ends[0]);
  ::waitpid(child, nullptr, 0);
  for (int i = 0; i < 250 && parent_of(orphan) != 1; ++i) std::this_thread::sleep_for(20ms);
  if (parent_of(orphan) != 1) {
    ::kill(orphan, SIGKILL);
    GTEST_SKIP() << "an orphan here is inherited by pid " << parent_of(orphan) << ", not init (a subreaper above)";
  }
  const Played p = play({"connect", "1"});
  EXPECT_EQ(p.run.status.code, 0) << p.run.summary();
  for (int i = 0; i < 250 && read_file("/proc/" + std::to_string(orphan) + "/stat").find(") S") != std::string::npos;
       ++i)
    std::this_thread::sleep_for(20ms);
  const std::string stat = read_file("/proc/" + std::to_string(orphan) + "/stat");
  EXPECT_TRUE(stat.empty() || stat.find(") Z") != std::string::npos) << "still running: " << stat;
  // (Other leftovers on the machine are killed too, and named in the same line.)
  const std::optional<test::Groups> said = test::search_groups(
      p.run.err, R"(sandbox: killed \d+ sandboxed process\(es\) a killed arena left behind \(pid ([0-9, ]+)\))");
  ASSERT_TRUE(said) << p.run.err;
  EXPECT_NE((", " + (*said)[1] + ",").find(", " + std::to_string(orphan) + ","), std::string::npos) << p.run.err;
  ::kill(orphan, SIGKILL);  // where the arena did not
}

TEST_F(SandboxE2E, ALimitThatCannotBeEnforcedIsRefusedAtLoad) {
  auto refusal = [&](const std::string& engine_lines) {
    const std::string config =
        "[tournament]\nname = \"x\"\n\n[time]\nmovetime_ms = 10\n\n[[engine]]\nname = \"a\"\ncmd = \"" +
        (kEngines / "instant_engine").string() + "\"\n" + engine_lines + "\n[[engine]]\nname = \"b\"\ncmd = \"" +
        (kEngines / "instant_engine").string() + "\"\n";
    write_file(tmp_.path() / "x.toml", config);
    const RunResult r = run({kArena.string(), "run", (tmp_.path() / "x.toml").string()}, tmp_.path(), 20s);
    EXPECT_EQ(r.status.code, 2) << r.summary();
    return r.err;
  };
  // A capped working folder is memory, gone with the sandbox: nothing to keep.
  const std::string kept = refusal("sandbox = \"bwrap\"\nmax_file_mb = 4\nkeep_sandbox = true\n");
  EXPECT_TRUE(
      test::search(kept, R"(x\.toml:12:16: engine\.keep_sandbox: keep_sandbox = true cannot be kept with max_file_mb)"))
      << kept;
  // Without the pids controller a process limit needs the sandbox's own uid.
  if (controller_unavailable(Controller::Pids)) {
    const std::string processes = refusal("max_processes = 4\n");
    EXPECT_NE(processes.find("x.toml:10:17: engine.max_processes: max_processes needs the kernel's pids controller"),
              std::string::npos)
        << processes;
  }
}

}  // namespace
}  // namespace kalah::e2e
