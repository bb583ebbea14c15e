// Many sandboxed engine starts in a row (docs/SECURITY.md, "No leftovers"): every engine restarted for
// every game, with max_processes set, so that a sandbox left unreaped would show as a zombie of a
// sandbox uid and, once the uid pool wraps, as start-up forfeits. CI runs 400 starts (before the reaping fix,
// 200 left 100 sandboxes behind);
// bench/sandbox_soak.sh runs 10 000 (KALAH_SOAK_STARTS) and prints the figures.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <set>

#include <gtest/gtest.h>

#include "e2e_util.h"
#include "referee/engine/sandbox.h"
#include "tests/config_builder.h"
#include "tests/support/text_match.h"

namespace kalah::arena {
namespace {

using namespace e2e;

const fs::path kEngines = KALAH_BINARY_DIR "/tests/engines";

// Processes of the sandbox uid range, and how many of them are zombies (ended, never reaped); those under
// another arena still running (a second test suite on the machine) are not this test's.
struct SandboxProcesses {
  int alive = 0;
  int zombies = 0;
};

SandboxProcesses sandbox_processes() {
  SandboxProcesses out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    const std::string status = read_file(entry.path() / "status");
    const std::optional<test::Groups> uid = test::search_groups(status, R"(\nUid:\s+(\d+))");
    if (!uid) continue;
    const unsigned long u = std::stoul((*uid)[1]);
    if (u < kSandboxFirstUid || u >= kSandboxFirstUid + kSandboxUids) continue;
    if (under_running_arena(static_cast<pid_t>(std::atol(entry.path().filename().c_str())))) continue;
    const bool zombie = test::search(status, R"(\nState:\s+Z)");
    ++(zombie ? out.zombies : out.alive);
  }
  return out;
}

TEST(SandboxSoak, ManyStartsLeaveNoZombieNoFolderAndCostNoGame) {
  if (std::optional<std::string> why = sandbox_unavailable()) GTEST_SKIP() << *why;
  if (::geteuid() != 0) GTEST_SKIP() << "max_processes needs the arena to run as root (each engine its own uid)";
  const char* wanted = std::getenv("KALAH_SOAK_STARTS");
  const int starts = wanted && *wanted ? std::max(2, std::atoi(wanted)) : 400;
  system::TempFolder tmp{"kalah-e2e"};
  ::chmod(tmp.path().c_str(), 0711);  // the engines run as other users: let them reach their copies
  const fs::path engine = copy_executable(kEngines / "instant_engine", tmp.path(), "instant_engine");
  fs::permissions(engine, fs::perms::others_exec | fs::perms::others_read, fs::perm_options::add);
  const SandboxProcesses before = sandbox_processes();

  // A round of two engines is two games (both colours), and every game starts both (restart = "always").
  const int rounds = std::max(1, starts / 4);
  test::TestConfig("soak")
      .set("rounds", rounds)
      .set("concurrency", 2)
      .output(tmp / "out")
      .set("report_every", 0)
      .set("sandbox", "bwrap")
      .set("restart", "always")
      .set("max_processes", 4)
      .set("memory_mb", 64)
      .time("movetime_ms = 1000")
      .engine("a", engine)
      .engine("b", engine)
      .write(tmp / "soak.toml");
  const RunResult r = run({kArena.string(), "run", (tmp / "soak.toml").string()}, tmp.path(), std::chrono::hours(1));
  ASSERT_EQ(r.status.code, 0) << r.summary();

  int played = 0, forfeits = 0;
  std::string first_forfeit;
  for (const std::string& line : read_lines(tmp / "out" / "soak" / "games.jsonl")) {
    ++played;
    if (line.find("\"forfeit\":{") != std::string::npos) {
      if (forfeits++ == 0) first_forfeit = line.substr(0, 600);
    }
  }
  const SandboxProcesses after = sandbox_processes();
  std::printf(
      "soak: %d games, %d engine starts in %.1f s (%.2f ms a start, all included); %d forfeits; "
      "sandbox zombies %d -> %d, live sandbox processes %d -> %d\n",
      played, 2 * played, r.seconds, 1000.0 * r.seconds / std::max(1, 2 * played), forfeits, before.zombies,
      after.zombies, before.alive, after.alive);
  EXPECT_EQ(played, 2 * rounds);
  EXPECT_EQ(forfeits, 0) << first_forfeit;
  // Right after the arena exits its unreaped children would be zombies of pid 1 (which reaps them later,
  // if ever): none may be new. (Fewer is fine: init may reap older ones meanwhile.)
  EXPECT_LE(after.zombies, before.zombies) << "an unreaped sandbox stays a zombie of its uid";
  // (Fewer is fine here too: a process of a test before this one may still have been ending.)
  EXPECT_LE(after.alive, before.alive) << "nothing of a sandbox outlives the arena";
  // Those of this run's arena, by its pid: another test's arena killed meanwhile (kill -9 leaves its folders) is not
  // taken for this one (it was, when the test compared all of /tmp before and after).
  EXPECT_EQ(sandbox_dirs_of(r.pid), std::vector<std::string>{}) << "every private working folder is removed";
}

}  // namespace
}  // namespace kalah::arena
