// Swiss and knockout tournaments end to end (docs/SCHEDULE.md), with the real `arena` executable and
// deterministic bots (fixed depth, fresh processes for every game): the rounds are played one after the
// other and paired as documented, the reports show the Swiss table or the bracket, and a run cut off
// after any game (its journal truncated there, as a kill leaves it) resumes to exactly the games and
// result of the run that was never interrupted. Sharding is refused.
#include <signal.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>

#include "tests/config_builder.h"
#include "tests/e2e_util.h"
#include "tests/support/text_match.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;

const fs::path kAlphaBeta = KALAH_BINARY_DIR "/bots/kalah-alphabeta";

// Engines of clearly different strength, each game played by new processes at a fixed depth, so that
// the same game id gives the same game whenever it is played. In config order, i.e. seeded strongest
// first for the knockout.
std::string config_text(const fs::path& output, const std::string& type_keys, int engines) {
  struct Engine {
    const char* name;
    const fs::path& cmd;
    const char* args;
  };
  const Engine all[] = {{"alphabeta", kAlphaBeta, "\"--depth\", \"4\""},
                        {"alphabeta2", kAlphaBeta, "\"--depth\", \"2\""},
                        {"greedy", kGreedy, ""},
                        {"alphabeta1", kAlphaBeta, "\"--depth\", \"1\""},
                        {"random7", kRandom, "\"--seed\", \"7\""},
                        {"random", kRandom, ""}};
  test::TestConfig config("t");
  config.tournament(type_keys).set("concurrency", 2).set("seed", 3).output(output).set("report_every", 0);
  config.time("depth = 6").table("openings", "random_plies = 2");
  for (int i = 0; i < engines; ++i)
    config.engine(all[i].name, all[i].cmd, std::string("args = [") + all[i].args + "]\nrestart = \"always\"");
  return config.text();
}

struct Game {
  std::string id;
  int round = 0;
  std::string south, north, moves, result;
};

std::vector<Game> journal_of(const fs::path& dir) {
  std::vector<Game> out;
  for (const std::string& line : read_lines(dir / "games.jsonl")) {
    const json::object o = json::parse(line).as_object();
    Game g;
    g.id = std::string(o.at("id").as_string());
    g.round = static_cast<int>(o.at("round").as_int64());
    g.south = std::string(o.at("south").as_string());
    g.north = std::string(o.at("north").as_string());
    g.moves = json::serialize(o.at("moves"));
    g.result = json::serialize(o.at("result"));
    out.push_back(std::move(g));
  }
  return out;
}

// Every game by id: engines, moves and result.
std::map<std::string, std::string> games_by_id(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const Game& g : journal_of(dir)) out[g.id] = g.south + " " + g.north + " " + g.moves + " " + g.result;
  return out;
}

// The section of standings.md that starts with `heading`, up to the next "## ".
std::string section(const fs::path& dir, const std::string& heading) {
  const std::string md = read_file(dir / "standings.md");
  const std::size_t begin = md.find(heading);
  if (begin == std::string::npos) return "";
  const std::size_t end = md.find("\n## ", begin + heading.size());
  return md.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

class RoundsE2E : public ::testing::Test {
 protected:
  // standings.json against docs/schema/standings.schema.json (its "swiss" or "knockout" member included),
  // with Debian's python3-jsonschema; skipped without it.
  void expect_schema_valid(const fs::path& standings) {
    const std::string python = "/usr/bin/python3";
    if (run({python, "-c", "import jsonschema"}, tmp_.path(), std::chrono::milliseconds(30000)).status.code != 0) {
      std::printf("python3-jsonschema is not installed: standings.json not checked against its schema\n");
      return;
    }
    const RunResult checked = run({python, KALAH_SOURCE_DIR "/tools/check-schema.py",
                                   KALAH_SOURCE_DIR "/docs/schema/standings.schema.json", standings.string()},
                                  tmp_.path(), std::chrono::milliseconds(60000));
    EXPECT_EQ(checked.status.code, 0) << checked.summary();
  }

  RunResult arena(std::vector<std::string> args) {
    args.insert(args.begin(), kArena.string());
    return run(args, tmp_.path(), std::chrono::milliseconds(180000));
  }

  fs::path write_config(const std::string& text, const std::string& file) {
    const fs::path path = tmp_.path() / file;
    write_file(path, text);
    return path;
  }

  // Plays `text` twice: once straight through into one/, once into cut/ with the journal cut after
  // `keep` games and resumed. Both must end with the same games and the same `heading` section.
  void expect_resume_gives_the_same_tournament(const std::string& type_keys, int engines, std::size_t keep,
                                               const std::string& heading) {
    const fs::path one = tmp_.path() / "one", cut = tmp_.path() / "cut";
    const RunResult straight = arena({"run", write_config(config_text(one, type_keys, engines), "one.toml").string()});
    ASSERT_EQ(straight.status.code, 0) << straight.summary();
    // The same seeds to the engines: cut/ gets one/'s seed secret (docs/PROTOCOL.md, "Seeds").
    fs::create_directories(cut / "t");
    fs::copy_file(one / "t" / "seed-secret", cut / "t" / "seed-secret");
    const fs::path cut_config = write_config(config_text(cut, type_keys, engines), "cut.toml");
    const RunResult first = arena({"run", cut_config.string()});
    ASSERT_EQ(first.status.code, 0) << first.summary();
    std::vector<std::string> lines = read_lines(cut / "t" / "games.jsonl");
    ASSERT_GT(lines.size(), keep);
    lines.resize(keep);
    std::string kept;
    for (const std::string& l : lines) kept += l + "\n";
    write_file(cut / "t" / "games.jsonl", kept);

    const RunResult resumed = arena({"run", cut_config.string()});
    ASSERT_EQ(resumed.status.code, 0) << resumed.summary();
    EXPECT_NE(resumed.out.find("(" + std::to_string(keep) + " done)"), std::string::npos) << resumed.out;
    EXPECT_EQ(games_by_id(cut / "t"), games_by_id(one / "t"));
    const std::string expected = section(one / "t", heading);
    EXPECT_FALSE(expected.empty()) << read_file(one / "t" / "standings.md");
    EXPECT_EQ(section(cut / "t", heading), expected);
  }

  system::TempFolder tmp_{"kalah-e2e"};
};

TEST_F(RoundsE2E, SwissPlaysItsRoundsInOrderAndShowsItsTable) {
  const fs::path out = tmp_.path() / "out";
  const fs::path config = write_config(config_text(out, "type = \"swiss\"\nrounds = 4", 5), "swiss.toml");
  const RunResult r = arena({"run", config.string()});
  ASSERT_EQ(r.status.code, 0) << r.summary();
  const std::vector<Game> games = journal_of(out / "t");
  ASSERT_EQ(games.size(), 16u) << "4 rounds of 2 boards of a game pair (one engine rests)";
  int round = 1;
  std::map<int, std::set<std::string>> playing;  // engines of each round
  std::map<int, int> per_round;
  std::set<std::string> ids;
  for (const Game& g : games) {
    EXPECT_GE(g.round, round) << "a game of round " << g.round << " after one of round " << round;
    round = g.round;
    ++per_round[g.round];
    playing[g.round].insert(g.south);
    playing[g.round].insert(g.north);
    EXPECT_TRUE(ids.insert(g.id).second) << g.id;
    EXPECT_TRUE(test::full_match(g.id, "r" + std::to_string(g.round) + R"(-\dv\d-p0-g[01])")) << g.id;
  }
  for (int i = 1; i <= 4; ++i) {
    EXPECT_EQ(per_round[i], 4) << "round " << i;
    EXPECT_EQ(playing[i].size(), 4u) << "four engines play in round " << i << ", the fifth has the bye";
  }
  // Round 1: seeds 1-3 and 2-4 (top half against bottom half), seed 5 rests.
  EXPECT_TRUE(ids.contains("r1-0v2-p0-g0") && ids.contains("r1-2v0-p0-g1")) << r.out;
  EXPECT_TRUE(ids.contains("r1-1v3-p0-g0")) << r.out;
  EXPECT_EQ(playing[1].count("random7"), 0u);

  EXPECT_NE(r.out.find("Swiss standings after 4 of 4 rounds"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Round 1: alphabeta "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bye: random7"), std::string::npos) << r.out;
  EXPECT_NE(section(out / "t", "## Swiss standings").find("| Rank | Engine | Points | Buchholz | Pairs | Byes |"),
            std::string::npos);
  EXPECT_NE(read_file(out / "t" / "report.html").find("<section id=\"swiss\">"), std::string::npos);
  // tournament.json names the form, and `arena report` redraws the table from the journal alone.
  EXPECT_NE(read_file(out / "t" / "tournament.json").find("\"swiss\""), std::string::npos);
  const std::string table = section(out / "t", "## Swiss standings");
  const RunResult report = arena({"report", (out / "t").string()});
  ASSERT_EQ(report.status.code, 0) << report.summary();
  EXPECT_EQ(section(out / "t", "## Swiss standings"), table);
  const json::value standings = json::parse(read_file(out / "t" / "standings.json"));
  EXPECT_EQ(standings.at("swiss").at("rounds_complete").as_int64(), 4);
  EXPECT_EQ(standings.at("swiss").at("pairings").at(0).at("bye").as_string(), "random7");
  expect_schema_valid(out / "t" / "standings.json");
}

TEST_F(RoundsE2E, SwissCutOffMidRoundResumesToTheSameTournament) {
  // 6 games: round 1 (4 games) and half of round 2.
  expect_resume_gives_the_same_tournament("type = \"swiss\"\nrounds = 4", 5, 6, "## Swiss standings");
}

// Ctrl-C while workers wait for a round to finish (three workers, two boards a round): the run stops
// with 130, and the same command finishes the tournament. MCTS uses its whole movetime, so the run is still
// going when the signal comes; its games are not reproducible, so the resumed run is checked for shape.
TEST_F(RoundsE2E, SwissStoppedByCtrlCResumesToACompleteTournament) {
  const fs::path out = tmp_.path() / "out";
  std::string text = config_text(out, "type = \"swiss\"\nrounds = 3", 5);
  text.replace(text.find("concurrency = 2"), 15, "concurrency = 3");
  text.replace(text.find("depth = 6"), 9, "movetime_ms = 20");
  for (std::size_t at; (at = text.find(kAlphaBeta.string())) != std::string::npos;)
    text.replace(at, kAlphaBeta.string().size(), kMcts.string());
  for (std::size_t at; (at = text.find("\"--depth\", ")) != std::string::npos;) text.replace(at, 11, "\"--seed\", ");
  const fs::path config = write_config(text, "slow.toml");
  const fs::path journal = out / "t" / "games.jsonl";
  Child child({kArena.string(), "run", config.string()}, tmp_.path() / "bg.out", tmp_.path() / "bg.err");
  const auto give_up = Clock::now() + std::chrono::seconds(120);
  while (read_lines(journal).size() < 2 && Clock::now() < give_up && !child.poll())
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_LT(read_lines(journal).size(), 12u) << "the run must still be going when it is interrupted";
  child.signal_group(SIGINT);
  const ExitStatus stopped = child.wait(std::chrono::seconds(30));
  EXPECT_FALSE(stopped.timed_out);
  EXPECT_EQ(stopped.code, 130) << read_file(tmp_.path() / "bg.err");

  const RunResult resumed = arena({"run", config.string()});
  ASSERT_EQ(resumed.status.code, 0) << resumed.summary();
  EXPECT_NE(resumed.out.find("Swiss standings after 3 of 3 rounds"), std::string::npos) << resumed.out;
  std::map<int, int> per_round;
  std::set<std::string> ids;
  for (const Game& g : journal_of(out / "t")) {
    ++per_round[g.round];
    EXPECT_TRUE(ids.insert(g.id).second) << "a game twice: " << g.id;
  }
  EXPECT_EQ(per_round, (std::map<int, int>{{1, 4}, {2, 4}, {3, 4}}));
}

TEST_F(RoundsE2E, KnockoutPlaysTheSeededBracketAndShowsIt) {
  const fs::path out = tmp_.path() / "out";
  const fs::path config =
      write_config(config_text(out, "type = \"knockout\"\nrounds = 1\ntiebreak_pairs = 2", 6), "knockout.toml");
  const RunResult r = arena({"run", config.string()});
  ASSERT_EQ(r.status.code, 0) << r.summary();
  const std::vector<Game> games = journal_of(out / "t");
  // Six engines in a bracket of eight: seeds 1 and 2 rest in round 1, 4-5 and 3-6 play.
  std::map<int, std::set<std::string>> pairs_of_round;  // "high-low" by engine index, from the ids
  for (const Game& g : games) {
    const std::optional<test::Groups> m = test::match_groups(g.id, R"(r(\d)-(\d)v(\d)-p(\d)-g([01]))");
    ASSERT_TRUE(m) << g.id;
    const int a = std::stoi((*m)[2]), b = std::stoi((*m)[3]);
    pairs_of_round[std::stoi((*m)[1])].insert(std::to_string(std::min(a, b)) + "-" + std::to_string(std::max(a, b)));
    EXPECT_LT(std::stoi((*m)[4]), 3) << "one pair and at most two tie-break pairs";
  }
  EXPECT_EQ(pairs_of_round[1], (std::set<std::string>{"3-4", "2-5"}));
  EXPECT_EQ(pairs_of_round[2].size(), 2u);
  EXPECT_EQ(pairs_of_round[3].size(), 1u);
  EXPECT_EQ(pairs_of_round.size(), 3u);
  // Seeds 1 and 2 are in different halves: they can meet only in the final.
  for (const std::string& p : pairs_of_round[2]) EXPECT_NE(p, "0-1");

  EXPECT_NE(r.out.find("Quarter-finals\n  [1] alphabeta"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Final\n"), std::string::npos) << r.out;
  const std::optional<test::Groups> found = test::search_groups(r.out, R"(Champion: (\w+))");
  ASSERT_TRUE(found) << r.out;
  const std::string champion = (*found)[1];
  const std::string bracket = section(out / "t", "## Knockout bracket");
  EXPECT_NE(bracket.find("**Champion: " + champion + "**"), std::string::npos) << bracket;
  const std::string html = read_file(out / "t" / "report.html");
  EXPECT_NE(html.find("<section id=\"bracket\">"), std::string::npos);
  EXPECT_NE(html.find("Champion: " + champion), std::string::npos);
  const json::value standings = json::parse(read_file(out / "t" / "standings.json"));
  EXPECT_EQ(standings.at("knockout").at("champion").as_string(), champion);
  EXPECT_EQ(standings.at("knockout").at("bracket_size").as_int64(), 8);
  expect_schema_valid(out / "t" / "standings.json");
}

TEST_F(RoundsE2E, KnockoutCutOffResumesToTheSameBracket) {
  expect_resume_gives_the_same_tournament("type = \"knockout\"\nrounds = 1\ntiebreak_pairs = 2", 6, 3,
                                          "## Knockout bracket");
}

TEST_F(RoundsE2E, ShardingAndOneEngineAreRefused) {
  const fs::path out = tmp_.path() / "out";
  const fs::path config = write_config(config_text(out, "type = \"swiss\"\nrounds = 3", 4), "swiss.toml");
  const RunResult shard = arena({"run", config.string(), "--shard", "1/2"});
  EXPECT_EQ(shard.status.code, 2) << shard.summary();
  EXPECT_NE(shard.err.find("a swiss tournament cannot be sharded"), std::string::npos) << shard.err;
  const RunResult plan = arena({"plan", config.string(), "--shards", "2"});
  EXPECT_EQ(plan.status.code, 2) << plan.summary();
  EXPECT_FALSE(fs::exists(out));
  const RunResult plan_one = arena({"plan", config.string(), "--shards", "1"});
  EXPECT_EQ(plan_one.status.code, 0) << plan_one.summary();
  EXPECT_NE(plan_one.out.find("r1-0v2-p0-g0 alphabeta v greedy"), std::string::npos) << plan_one.out;

  const fs::path lonely = write_config(config_text(out, "type = \"knockout\"", 1), "lonely.toml");
  const RunResult one = arena({"run", lonely.string()});
  EXPECT_EQ(one.status.code, 2) << one.summary();
  EXPECT_NE(one.err.find("lonely.toml:16:1: a knockout needs at least two engines, not 1"), std::string::npos)
      << one.err;
}

}  // namespace
}  // namespace kalah::e2e
