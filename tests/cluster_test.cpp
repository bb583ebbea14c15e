// The Slurm scripts of `arena slurm` (arena/cluster/slurm.h): what sbatch will read.
#include <gtest/gtest.h>

#include <string>

#include "arena/cluster/slurm.h"

namespace kalah::arena {
namespace {

Config config(int concurrency = 3) {
  Config c;
  c.tournament.name = "league";
  c.tournament.concurrency = concurrency;
  return c;
}

SlurmOptions options(int shards = 8) {
  SlurmOptions o;
  o.shards = shards;
  o.arena = "/opt/kalah/arena";
  o.config = "/home/u/league.toml";
  o.work_dir = "/home/u";
  o.output = "/shared/results";
  return o;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(SlurmScripts, AnArrayTaskPerShardAndAMergeThatRunsAfterAnyEnd) {
  const Expected<SlurmScripts> s = slurm_scripts(config(), options());
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->dir, "/shared/results/league/slurm");
  EXPECT_TRUE(s->run.starts_with("#!/bin/bash\n"));
  for (const char* line :
       {"#SBATCH --array=1-8\n", "#SBATCH --cpus-per-task=3\n", "#SBATCH --requeue\n", "#SBATCH --chdir=/home/u\n",
        "#SBATCH --ntasks=1\n", "#SBATCH --output=/shared/results/league/slurm/shard-%a-of-8.out\n",
        "exec /opt/kalah/arena run /home/u/league.toml --shard \"${SLURM_ARRAY_TASK_ID}/8\" "
        "--concurrency \"${SLURM_CPUS_PER_TASK:-3}\" --out /shared/results\n"})
    EXPECT_TRUE(has(s->run, line)) << line << "\n" << s->run;
  EXPECT_FALSE(has(s->run, "--partition")) << "the cluster's default unless asked";
  EXPECT_FALSE(has(s->run, "--time"));
  EXPECT_TRUE(has(s->merge, "exec /opt/kalah/arena report /shared/results/league\n")) << s->merge;
  EXPECT_TRUE(has(s->submit, "--dependency=afterany:\"$array\"")) << s->submit;
}

TEST(SlurmScripts, OptionsBecomeDirectives) {
  SlurmOptions o = options(4);
  o.partition = "short";
  o.time = "2:00:00";
  o.cpus_per_task = 2;
  o.throttle = 3;
  const Expected<SlurmScripts> s = slurm_scripts(config(), o);
  ASSERT_TRUE(s.ok()) << s.error();
  for (const char* line : {"#SBATCH --array=1-4%3\n", "#SBATCH --cpus-per-task=2\n", "#SBATCH --partition=short\n",
                           "#SBATCH --time=2:00:00\n", "${SLURM_CPUS_PER_TASK:-2}"})
    EXPECT_TRUE(has(s->run, line)) << line;
  EXPECT_TRUE(has(s->merge, "#SBATCH --partition=short\n"));
}

TEST(SlurmScripts, RefusesWhatADirectiveCannotHold) {
  SlurmOptions o = options();
  o.partition = "short; rm -rf ~";
  EXPECT_FALSE(slurm_scripts(config(), o).ok());
  o = options();
  o.time = "1:00\n#SBATCH --uid=0";
  EXPECT_FALSE(slurm_scripts(config(), o).ok());
  o = options();
  o.output = "/shared/my results";
  const Expected<SlurmScripts> spaced = slurm_scripts(config(), o);
  ASSERT_FALSE(spaced.ok());
  EXPECT_TRUE(has(spaced.error(), "'/shared/my results/league' has whitespace")) << spaced.error();
  EXPECT_FALSE(slurm_scripts(config(), options(0)).ok());
}

}  // namespace
}  // namespace kalah::arena
