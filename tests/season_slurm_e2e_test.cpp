// A season's ladder on Slurm (docs/SEASON.md, "The ladder on Slurm"): with ladder_runner = "slurm" an entered
// revision's games are played by Slurm jobs and land in the ladder's journal and standings as local games do; a
// server killed with -9 while its jobs run loses no finished game and plays none twice after its restart. Needs the
// one-node Slurm of tools/slurm-local.sh (CI starts it); skipped with the reason without it. No timing is asserted.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include <boost/json.hpp>

#include "tests/season_util.h"
#include "tests/slurm_util.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;
using namespace serve_util;
using namespace season_util;

TEST_F(SeasonE2E, TheLadderOnSlurmPlaysEnteredRevisionsAndResumesAfterKillMinus9) {
  if (const std::string why = slurm_unavailable(); !why.empty()) GTEST_SKIP() << "Slurm: " << why;
  server_.reset();
  // Two jobs at once: one may be cut off by the kill below while the other's game is being recorded.
  edit("ladder_concurrency = 1", "ladder_concurrency = 2");
  // The line `arena season init` writes, commented out, taken in.
  edit("# ladder_runner = \"slurm\"",
       "ladder_runner = \"slurm\"\nladder_slurm_time = \"10\"\nladder_slurm_wait_minutes = 10");
  start();
  ASSERT_EQ(upload(server_->port(), bearer(tokens_["alice"]), "ada.c", source("configs/contest/submissions/ada/ada.c"))
                .status,
            201);
  const json::object ada = finished(server_->port(), tokens_["alice"], "alice", 1);
  ASSERT_EQ(ada.at("status"), "entered") << json::serialize(ada);
  std::vector<LadderGame> games =
      ladder_until(dir(), [](const std::vector<LadderGame>& g) { return g.size() >= 2 && plays_in(g, "alice-r1"); });
  ASSERT_GE(games.size(), 2u) << read_file(dir() / "season.log");
  EXPECT_NE(read_file(dir() / "season.log").find("at a time, each a Slurm job"), std::string::npos)
      << read_file(dir() / "season.log");
  // In the standings the server computes, as a local game would be.
  std::map<std::string, json::object> rows;
  for (int i = 0; i < 300 && !rows.contains("alice-r1"); ++i)
    if (rows = ladder_standings(server_->port()); !rows.contains("alice-r1")) std::this_thread::sleep_for(200ms);
  ASSERT_TRUE(rows.contains("alice-r1")) << rows.size();
  EXPECT_GT(rows["alice-r1"].at("games").to_number<int>(), 0);

  // kill -9 while jobs run: the finished games stay, the jobs left are cancelled at the restart, none is recorded
  // twice and the ladder goes on.
  const std::size_t before = ladder_games(dir()).size();
  server_->kill_now();
  const std::size_t kept = ladder_games(dir()).size();
  EXPECT_GE(kept, before);
  start();
  games = ladder_until(dir(), [kept](const std::vector<LadderGame>& g) { return g.size() >= kept + 2; });
  ASSERT_GE(games.size(), kept + 2) << read_file(dir() / "season.log");
  std::set<std::string> ids;
  for (const LadderGame& g : games) EXPECT_TRUE(ids.insert(g.id).second) << "played twice: " << g.id;
  const std::string log = read_file(dir() / "season.log");
  EXPECT_NE(log.find("ladder: cancelled the Slurm jobs named arena-ladder-"), std::string::npos) << log;
  EXPECT_EQ(log.find("ladder: stopped"), std::string::npos) << log;
  // A server stopped with its jobs in flight cancels them: srun killed leaves a job to its time limit otherwise.
  const std::string named = "named arena-ladder-";
  ASSERT_NE(log.find(named), std::string::npos);
  const std::string name = log.substr(log.find(named) + 6, 21);
  server_.reset();
  const std::string left = "squeue -h --name=" + name + " 2>/dev/null";
  std::string jobs = "?";
  for (int i = 0; i < 300 && !jobs.empty(); ++i) {
    if (!jobs.empty() && i > 0) std::this_thread::sleep_for(200ms);
    jobs = run({"/bin/sh", "-c", left}, temp_.path()).out;
  }
  EXPECT_EQ(jobs, "") << "jobs left running: " << jobs;
}

}  // namespace
}  // namespace kalah::e2e
