// CPU isolation (docs/SECURITY.md): `pin` gives each concurrent game slot its own CPUs, taken from the
// CPUs the arena may use; both engines of a game run there, and what they start inherits it.
#include <sched.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "arena/config/config.h"
#include "arena/runner/pinning.h"
#include "referee/engine/control_groups.h"
#include "tests/config_builder.h"
#include "tests/e2e_util.h"
#include "tests/support/text_match.h"

namespace kalah::arena {
namespace {

std::vector<int> my_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  ::sched_getaffinity(0, sizeof set, &set);
  std::vector<int> out;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) out.push_back(c);
  return out;
}

TEST(Pinning, ParsesCpuLists) {
  EXPECT_EQ(*parse_cpu_list("0-3,6"), (std::vector<int>{0, 1, 2, 3, 6}));
  EXPECT_EQ(*parse_cpu_list("5,1,1"), (std::vector<int>{1, 5}));
  for (const char* bad : {"", "a", "3-1", "1-", "-1", "1,,2", "99999", "0-3;6"})
    EXPECT_FALSE(parse_cpu_list(bad).ok()) << bad;
}

TEST(Pinning, SlotsAreDisjointEqualAndFromTheAllowedCpus) {
  Config c;
  EXPECT_TRUE(cpu_slots(c)->empty()) << "no pinning unless asked";
  const std::vector<int> mine = my_cpus();
  c.tournament.pin = true;
  c.tournament.concurrency = static_cast<int>(mine.size());
  const Expected<std::vector<std::vector<int>>> slots = cpu_slots(c);
  ASSERT_TRUE(slots.ok()) << slots.error();
  ASSERT_EQ(slots->size(), mine.size());
  std::set<int> seen;
  for (const std::vector<int>& slot : *slots) {
    EXPECT_EQ(slot.size(), 1u);
    for (int cpu : slot) EXPECT_TRUE(seen.insert(cpu).second) << cpu << " in two slots";
  }
  EXPECT_EQ(std::vector<int>(seen.begin(), seen.end()), mine);

  c.tournament.concurrency = static_cast<int>(mine.size()) + 1;
  ASSERT_FALSE(cpu_slots(c).ok());
  EXPECT_NE(cpu_slots(c).error().find("needs at least"), std::string::npos) << cpu_slots(c).error();
  c.tournament.concurrency = 1;
  c.tournament.cpus = {mine.back() + 1000};
  ASSERT_FALSE(cpu_slots(c).ok());
  EXPECT_NE(cpu_slots(c).error().find("which the arena may not use"), std::string::npos);
}

// The CPUs each engine of a pinned run of two slots reported with `attempt` (hostile_engine), one line each
// (16 rounds: enough games that both slots play some even on a loaded machine).
std::vector<std::string> reported_cpus(const std::string& attempt) {
  using namespace e2e;
  system::TempFolder tmp{"kalah-e2e"};
  const fs::path engines = KALAH_BINARY_DIR "/tests/engines";
  test::TestConfig config("pin");
  config.set("rounds", 16).set("concurrency", 2).set("pin", true).output(tmp / "results").time("movetime_ms = 1000");
  for (const char* name : {"a", "b"})
    config.engine(
        name, engines / "hostile_engine",
        "args = [" + test::toml_string(attempt) + "]\nstderr = " + test::toml_string((tmp / "affinity.err").string()));
  config.write(tmp / "pin.toml");
  const RunResult r = run({kArena.string(), "run", (tmp.path() / "pin.toml").string()}, tmp.path(), 60s);
  EXPECT_EQ(r.status.code, 0) << r.summary();
  std::vector<std::string> out;
  const std::string prefix = "hostile: " + attempt + ": ";
  for (const std::string& line : read_lines(tmp.path() / "affinity.err")) {
    EXPECT_EQ(line.rfind(prefix, 0), 0u) << line;
    out.push_back(line.substr(prefix.size()));
  }
  return out;
}

// Every engine process saw exactly one CPU, and the two slots' CPUs were different ones.
void expect_one_cpu_per_slot(const std::vector<std::string>& reported) {
  ASSERT_FALSE(reported.empty());
  for (const std::string& cpus : reported)
    EXPECT_EQ(cpus.find(','), std::string::npos) << "one CPU per slot, not " << cpus;
  EXPECT_EQ(std::set<std::string>(reported.begin(), reported.end()).size(), 2u) << "two slots, two CPUs";
}

TEST(Pinning, BothEnginesOfAGameRunOnTheirSlotsCpus) {
  if (my_cpus().size() < 2)
    GTEST_SKIP() << "needs 2 CPUs to give two game slots one each; this machine lets the test use " << my_cpus().size();
  expect_one_cpu_per_slot(reported_cpus("affinity"));
}

// An engine that asks for every CPU keeps its slot's: where the kernel's cpuset controller can be used the
// arena puts each pinned engine in a cpuset, which sched_setaffinity cannot widen. Before, pinning was the
// affinity alone, and both engines widened it to every CPU.
TEST(Pinning, AnEngineCannotWidenItsSlotsCpus) {
  if (my_cpus().size() < 2)
    GTEST_SKIP() << "needs 2 CPUs to give two game slots one each; this machine lets the test use " << my_cpus().size();
  if (auto why = controller_unavailable(Controller::Cpuset)) GTEST_SKIP() << *why;
  expect_one_cpu_per_slot(reported_cpus("widen-affinity"));
}

// A hog next to normal games. With pin = true the hog's sixteen spinning processes share only its own slot's
// CPU (and end with its game: restart = "always"). The test checks where they ran, as each spinner reports
// the CPUs it saw itself on, not how long anything took: a timing would fail whenever something else loads
// the machine (what a busy loop costs the other games was measured by hand: docs/SECURITY.md). The other
// games have a margin of ten seconds, so that a loaded machine cannot make them late either: with one second, an
// engine pinned to a CPU that two helpers' builds and the other half of the test suite shared (load average 10 on
// 2 cores) once went 1.24 s without a move. A move still takes its 40 ms when nothing else runs.
TEST(Pinning, ABusyLoopStaysOnItsOwnSlotsCpu) {
  using namespace e2e;
  const std::vector<int> mine = my_cpus();
  if (mine.size() < 2)
    GTEST_SKIP() << "needs 2 CPUs to give two game slots one each; this machine lets the test use " << mine.size();
  system::TempFolder tmp{"kalah-e2e"};
  const fs::path engines = KALAH_BINARY_DIR "/tests/engines";
  test::TestConfig config("hog");
  config.set("concurrency", 2).set("pin", true).output(tmp / "results").time("movetime_ms = 40\nmargin_ms = 10000");
  // restart = "always": the hog's spinners die with its game, not with its worker.
  config.engine(
      "hog", engines / "hostile_engine",
      "args = [\"busy\", \"16\"]\nrestart = \"always\"\nstderr = " + test::toml_string((tmp / "hog.err").string()));
  for (const char* name : {"mcts-a", "mcts-b", "mcts-c"})
    config.engine(name, fs::path(KALAH_BINARY_DIR) / "bots" / "kalah-mcts");
  config.write(tmp / "hog.toml");
  const RunResult r = run({kArena.string(), "run", (tmp.path() / "hog.toml").string()}, tmp.path(), 240s);
  ASSERT_EQ(r.status.code, 0) << r.summary();
  const std::string err = read_file(tmp.path() / "hog.err");
  EXPECT_NE(err.find("hostile: busy: 16 spinning processes"), std::string::npos) << err;
  // The CPUs the spinners of each hog process (one a game) ran on: one CPU, however busy the machine is.
  std::map<std::string, std::set<std::string>> cpus_of_game;
  for (const std::string& line : read_lines(tmp.path() / "hog.err")) {
    if (const std::optional<test::Groups> m =
            test::match_groups(line, R"(hostile: busy: spinner of (\d+) ran on CPU (\d+))"))
      cpus_of_game[(*m)[1]].insert((*m)[2]);
  }
  ASSERT_FALSE(cpus_of_game.empty()) << "no spinner said where it ran\n" << err;
  for (const auto& [game, cpus] : cpus_of_game)
    EXPECT_EQ(cpus.size(), 1u) << "the spinners of hog process " << game << " ran on more than their slot's CPU\n"
                               << err;
  int others = 0;
  for (const std::string& line : read_lines(tmp.path() / "results" / "hog" / "games.jsonl")) {
    if (line.find("\"hog\"") != std::string::npos) continue;  // its own games may suffer
    ++others;
    EXPECT_NE(line.find("\"forfeit\":null"), std::string::npos) << line;
  }
  EXPECT_EQ(others, 6) << "three pairings without the hog, two colours each";
}

}  // namespace
}  // namespace kalah::arena
