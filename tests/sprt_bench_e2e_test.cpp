// End-to-end tests of `arena sprt --bench` (docs/SPRT.md, "A build check by bench"): the real arena against the
// bundled bots, which answer `bench`, and bad_engine, which answers a count it is told (or, through the
// environment, another count for the same command line: a rebuilt binary) or has no bench at all.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include "tests/e2e_util.h"

namespace kalah {
namespace {

namespace json = boost::json;
using e2e::fs::path;

e2e::RunResult sprt(const std::vector<std::string>& args, const path& scratch,
                    const std::vector<std::string>& environment = {}) {
  std::vector<std::string> argv;
  if (!environment.empty()) argv.push_back("/usr/bin/env");
  argv.insert(argv.end(), environment.begin(), environment.end());
  argv.insert(argv.end(), {e2e::kArena.string(), "sprt", "--out", (scratch / "results").string(), "--depth", "1",
                           "--openings-plies", "2", "--elo1", "50"});
  argv.insert(argv.end(), args.begin(), args.end());
  return e2e::run(argv, scratch, std::chrono::seconds(120));
}

// What an executable answers to `bench`, asked through `referee check`'s own player: the count the arena must record.
long long bench_of(const path& engine, const path& scratch) {
  const e2e::RunResult r = e2e::run({e2e::kReferee.string(), "check", "--engine", "cmd=" + engine.string()}, scratch);
  const std::vector<std::string> lines = e2e::lines_starting(r.out, "PASS bench: bench nodes ");
  EXPECT_EQ(lines.size(), 1u) << r.summary();
  return lines.empty() ? -1 : std::stoll(lines[0].substr(std::string("PASS bench: bench nodes ").size()));
}

TEST(SprtBench, EachEnginesCountIsRecordedAndShownNextToTheVerdict) {
  system::TempFolder dir{"kalah-e2e"};
  const long long random = bench_of(e2e::kRandom, dir.path());
  const long long greedy = bench_of(e2e::kGreedy, dir.path());
  const e2e::RunResult r =
      sprt({"--base", e2e::kRandom.string(), "--base-name", "random", "--test", e2e::kGreedy.string(), "--test-name",
            "greedy", "--max-pairs", "2", "--name", "b", "--bench", "--test-bench", std::to_string(greedy)},
           dir.path());
  ASSERT_EQ(r.status.code, 3) << r.summary();  // no decision in 2 pairs
  const std::string counts =
      "'greedy' (test) " + std::to_string(greedy) + " nodes, 'random' (base) " + std::to_string(random) + " nodes";
  EXPECT_EQ(e2e::lines_starting(r.out, "bench: " + counts + " (as declared)").size(), 1u) << r.summary();
  EXPECT_EQ(e2e::lines_starting(r.out, "Bench   " + counts).size(), 1u) << r.summary();

  const path results = dir.path() / "results" / "b";
  const json::object meta = json::parse(e2e::read_file(results / "tournament.json")).as_object();
  const json::object& settings = meta.at("settings").as_object();
  EXPECT_EQ(settings.at("engine.random.bench").as_string(), std::to_string(random));
  EXPECT_EQ(settings.at("engine.greedy.bench").as_string(), std::to_string(greedy));
  const json::object report = json::parse(e2e::read_file(results / "sprt.json")).as_object();
  EXPECT_EQ(report.at("bench").at("base").as_int64(), random);
  EXPECT_EQ(report.at("bench").at("test").as_int64(), greedy);
  EXPECT_NE(e2e::read_file(results / "standings.md").find("- Bench: " + counts), std::string::npos);
  EXPECT_NE(e2e::read_file(results / "report.html").find("Bench: &#39;greedy&#39; (test) " + std::to_string(greedy)),
            std::string::npos);
}

TEST(SprtBench, ADeclaredCountThatDiffersRefusesThePairBeforeAnyGame) {
  system::TempFolder dir{"kalah-e2e"};
  const long long random = bench_of(e2e::kRandom, dir.path());
  const e2e::RunResult r = sprt({"--base", e2e::kRandom.string(), "--base-name", "random", "--test",
                                 e2e::kGreedy.string(), "--name", "b", "--base-bench", std::to_string(random + 1)},
                                dir.path());
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(
      r.err.find("engine 'random' (base): its bench is " + std::to_string(random) + " nodes, but base_bench declares " +
                 std::to_string(random + 1) + ": this is not the build the test was meant for"),
      std::string::npos)
      << r.summary();
  EXPECT_FALSE(e2e::fs::exists(dir.path() / "results" / "b" / "games.jsonl"));
}

TEST(SprtBench, AnEngineWithoutTheFeatureIsRefused) {
  system::TempFolder dir{"kalah-e2e"};
  const e2e::RunResult r =
      sprt({"--base", e2e::kBadEngine.string(), "--test", e2e::kGreedy.string(), "--name", "b", "--bench"}, dir.path());
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("engine 'base' (base) did not announce 'feature bench' in its handshake"), std::string::npos)
      << r.summary();
}

// The same command line, the engine answering another count: as after a rebuild of the binary.
TEST(SprtBench, AResumeWithAChangedCountIsRefused) {
  system::TempFolder dir{"kalah-e2e"};
  const std::vector<std::string> args = {"--base", e2e::kBadEngine.string() + " --bench-nodes 100 --moves 1,2,3,4,5,6",
                                         "--test", e2e::kGreedy.string(),
                                         "--name", "b",
                                         "--bench"};
  std::vector<std::string> one_pair = args;
  one_pair.insert(one_pair.end(), {"--max-pairs", "1"});
  const e2e::RunResult first = sprt(one_pair, dir.path());
  ASSERT_NE(first.status.code, 2) << first.summary();
  EXPECT_EQ(e2e::lines_starting(first.out, "bench: 'test' (test) ").size(), 1u) << first.summary();

  std::vector<std::string> two_pairs = args;
  two_pairs.insert(two_pairs.end(), {"--max-pairs", "2"});
  const e2e::RunResult rebuilt = sprt(two_pairs, dir.path(), {"BAD_ENGINE_BENCH_NODES=101"});
  EXPECT_EQ(rebuilt.status.code, 2) << rebuilt.summary();
  EXPECT_NE(rebuilt.err.find("engine 'base': its bench was 100 nodes when the games in this folder were played, and "
                             "is 101 now: a changed binary"),
            std::string::npos)
      << rebuilt.summary();

  const e2e::RunResult same = sprt(two_pairs, dir.path());
  EXPECT_NE(same.status.code, 2) << same.summary();
  EXPECT_EQ(e2e::lines_starting(same.out, "resuming: ").size(), 1u) << same.summary();
}

TEST(SprtBench, AConfigDeclaresCountsInItsSprtTable) {
  system::TempFolder dir{"kalah-e2e"};
  const std::string engines = "[[engine]]\nname = \"random\"\ncmd = \"" + e2e::kRandom.string() +
                              "\"\n[[engine]]\nname = \"greedy\"\ncmd = \"" + e2e::kGreedy.string() + "\"\n";
  const std::string head = "[tournament]\nname = \"c\"\noutput = \"" + (dir.path() / "results").string() +
                           "\"\n[time]\ndepth = 1\n[sprt]\nelo0 = 0\nelo1 = 50\n";
  e2e::write_file(dir.path() / "wrong.toml", head + "test_bench = 1\n" + engines);
  const e2e::RunResult wrong =
      e2e::run({e2e::kArena.string(), "sprt", (dir.path() / "wrong.toml").string()}, dir.path());
  EXPECT_EQ(wrong.status.code, 2) << wrong.summary();
  EXPECT_NE(wrong.err.find("engine 'greedy' (test): its bench is "), std::string::npos) << wrong.summary();
  EXPECT_NE(wrong.err.find("but test_bench declares 1"), std::string::npos) << wrong.summary();

  e2e::write_file(dir.path() / "off.toml", head + "bench = false\nbase_bench = 5\n" + engines);
  const e2e::RunResult off = e2e::run({e2e::kArena.string(), "sprt", (dir.path() / "off.toml").string()}, dir.path());
  EXPECT_EQ(off.status.code, 2) << off.summary();
  EXPECT_NE(off.err.find("sprt.bench = false, but sprt.base_bench declares a count to check"), std::string::npos)
      << off.summary();
}

}  // namespace
}  // namespace kalah
