// Finals that stop themselves end to end (docs/SCHEDULE.md, "Finals that stop themselves"), with the real
// `arena` executable and fast, deterministic bundled bots: the final ends, its last lines say why (every
// boundary decided, or the budget spent), which entrants stopped after which round and which still straddle a
// boundary, and the engine clearly first plays no game after it stopped; a run killed after any game (its
// journal cut there, with the next game's line torn half-way, as kill -9 leaves it) resumes to exactly the
// games, standings and decisions of the run that was never interrupted; `arena plan` names the boundaries and
// sharding is refused as for every adaptive tournament.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tests/config_builder.h"
#include "tests/e2e_util.h"
#include "tests/support/journal_games.h"
#include "tests/support/text_match.h"

namespace kalah::e2e {
namespace {

const fs::path kAlphaBeta = KALAH_BINARY_DIR "/bots/kalah-alphabeta";

std::string config_text(const fs::path& output) {
  test::TestConfig config("t");
  config.tournament("type = \"adaptive\"\nbudget_games = 80\nboundaries = [1, 2]")
      .set("concurrency", 2)
      .set("seed", 3)
      .output(output)
      .set("report_every", 0);
  config.time("depth = 6").table("openings", "random_plies = 2");
  config.engine("alphabeta6", kAlphaBeta, "args = [\"--depth\", \"6\"]\nrestart = \"always\"");
  config.engine("greedy", kGreedy, "restart = \"always\"");
  config.engine("random7", kRandom, "args = [\"--seed\", \"7\"]\nrestart = \"always\"");
  config.engine("random9", kRandom, "args = [\"--seed\", \"9\"]\nrestart = \"always\"");
  return config.text();
}

// The final's last lines: from the line "final: ..." to the line of the entrants still straddling.
std::string final_lines(const std::string& out) {
  std::size_t from = out.find("\nfinal: ");
  if (from == std::string::npos) return "";
  ++from;
  const std::size_t open = out.find("still straddling a boundary: ", from);
  return open == std::string::npos ? out.substr(from) : out.substr(from, out.find('\n', open) - from);
}

class FinalE2E : public ArenaRunTest {};

TEST_F(FinalE2E, EndsAndNamesItsBoundaryDecisions) {
  const fs::path out = tmp_.path() / "out";
  const RunResult r = arena({"run", write_config(config_text(out), "final.toml").string()});
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.out.find("a final: game pairs among the engines whose rank interval straddles a boundary (1, 2)"),
            std::string::npos)
      << r.out;
  const std::string lines = final_lines(r.out);
  const std::optional<test::Groups> end = test::search_groups(
      lines, R"(final: (\d+) rounds, (\d+) of at most 80 games; ended: (decided \(no rank interval straddles a )"
             R"(boundary: 1, 2\)|budget \(the budget is spent\)))");
  ASSERT_TRUE(end) << r.out;
  const int games = std::stoi((*end)[2]);
  EXPECT_EQ(journal_of(out / "t").size(), static_cast<std::size_t>(games));
  // Decided: nobody still straddles; the budget: somebody does.
  const bool decided = (*end)[3].starts_with("decided");
  EXPECT_EQ(lines.find("still straddling a boundary: none") != std::string::npos, decided) << lines;
  // Each boundary's decision: the engines surely above it, or open.
  EXPECT_TRUE(test::search(lines, decided ? R"(\ndecisions: top 1: alphabeta6; top 2: [a-z0-9]+, [a-z0-9]+\n)"
                                          : R"(\ndecisions: top 1: .*; top 2: .*\n)"))
      << lines;
  // The engine clearly first stops, with its interval, and plays no game after that round.
  const std::optional<test::Groups> stop =
      test::search_groups(lines, R"(stopped \(interval clear of every boundary\): .*alphabeta6 after round (\d+) )"
                                 R"(\((\d+) games, 1st\))");
  ASSERT_TRUE(stop) << lines;
  const int round = std::stoi((*stop)[1]);
  int played = 0;
  for (const JournalGame& g : journal_of(out / "t")) {
    const bool in = g.south == "alphabeta6" || g.north == "alphabeta6";
    EXPECT_FALSE(in && g.round > round) << g.id << " after alphabeta6 stopped in round " << round;
    played += in;
  }
  EXPECT_EQ(played, std::stoi((*stop)[2]));
}

TEST_F(FinalE2E, KilledAfterAnyGameResumesToTheSameFinal) {
  const fs::path one = tmp_.path() / "one";
  const RunResult straight = arena({"run", write_config(config_text(one), "one.toml").string()});
  ASSERT_EQ(straight.status.code, 0) << straight.summary();
  const std::vector<std::string> lines = read_lines(one / "t" / "games.jsonl");
  ASSERT_GE(lines.size(), 8u);
  // After one game of round 1, and in the middle of a later round.
  for (std::size_t kept : {std::size_t{1}, lines.size() / 2 + 1}) {
    SCOPED_TRACE(kept);
    const fs::path cut = tmp_.path() / ("cut" + std::to_string(kept));
    // The same seeds to the engines: the cut run gets one/'s seed secret (docs/PROTOCOL.md, "Seeds").
    fs::create_directories(cut / "t");
    fs::copy_file(one / "t" / "seed-secret", cut / "t" / "seed-secret");
    const fs::path config = write_config(config_text(cut), "cut" + std::to_string(kept) + ".toml");
    const RunResult first = arena({"run", config.string()});
    ASSERT_EQ(first.status.code, 0) << first.summary();
    cut_journal(cut / "t", kept);
    const std::string torn = lines[kept].substr(0, lines[kept].size() / 2);
    write_file(cut / "t" / "games.jsonl", read_file(cut / "t" / "games.jsonl") + torn);
    const RunResult resumed = arena({"run", config.string()});
    ASSERT_EQ(resumed.status.code, 0) << resumed.summary();
    EXPECT_NE(resumed.out.find("(" + std::to_string(kept) + " done)"), std::string::npos) << resumed.out;
    EXPECT_EQ(games_by_id(cut / "t"), games_by_id(one / "t"));
    EXPECT_EQ(journal_of(cut / "t").size(), lines.size());  // no game twice
    EXPECT_EQ(ranks_of(cut / "t"), ranks_of(one / "t"));
    EXPECT_EQ(final_lines(resumed.out), final_lines(straight.out));
  }
}

TEST_F(FinalE2E, PlanNamesTheBoundariesAndShardingIsRefused) {
  const fs::path config = write_config(config_text(tmp_.path() / "out"), "final.toml");
  const RunResult plan = arena({"plan", config.string(), "--shards", "1"});
  ASSERT_EQ(plan.status.code, 0) << plan.summary();
  EXPECT_NE(plan.out.find("t: adaptive final 4 engines, boundaries 1, 2, at most 80 games, paired round by round "
                          "(not shardable)"),
            std::string::npos)
      << plan.out;
  const RunResult shard = arena({"run", config.string(), "--shard", "1/2"});
  EXPECT_EQ(shard.status.code, 2) << shard.summary();
  EXPECT_NE(shard.err.find("an adaptive tournament cannot be sharded"), std::string::npos) << shard.err;
}

}  // namespace
}  // namespace kalah::e2e
