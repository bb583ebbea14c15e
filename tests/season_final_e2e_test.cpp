// A season's end, end to end (docs/SEASON.md, "Deadline and final"): a C and a Python revision entered through
// `arena serve --season`, then `arena season freeze` (refused while the server runs), an upload after a restart
// refused as frozen, `arena season final` playing a round robin of exactly the frozen revisions into
// DIR/results/final (refused before the freeze, killed half-way and resumed from its journal, then resumed to
// nothing more once done), and `arena verify` on it; a final that stops itself (final = "adaptive"); and a staged
// final (final = "staged").
#include <gtest/gtest.h>

#include <csignal>
#include <optional>
#include <set>

#include <boost/json.hpp>

#include "tests/e2e_util.h"
#include "tests/season_archives.h"
#include "tests/season_util.h"
#include "tests/serve_util.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;
using namespace serve_util;
using namespace season_util;
using test::make_archive;

class SeasonFinalE2E : public SeasonE2E {
 protected:
  RunResult season_command(const std::string& verb) {
    return run({kArena.string(), "season", verb, (dir() / "season.toml").string()}, temp_.path(), 120s);
  }
};

TEST_F(SeasonFinalE2E, AFrozenSeasonRefusesUploadsAndItsFinalPlaysTheFrozenRevisionsVerifiably) {
  // A short season: two gate games; ten colour-swapped pairs in the final, so that it can be killed half-way.
  server_.reset();
  edit("games = 20, min_score = 0.3", "games = 2, min_score = 0");
  edit("pairs = 2", "pairs = 10");
  start();
  const std::string ada = source("configs/contest/submissions/ada/ada.c");
  ASSERT_EQ(upload(server_->port(), bearer(tokens_["alice"]), "ada.c", ada).status, 201);
  const std::string python = make_archive(
      {{"bot.py", source("bots/python/example_bot.py")}, {"kalah_engine.py", source("bots/python/kalah_engine.py")}});
  ASSERT_EQ(upload(server_->port(), bearer(tokens_["bob"]), "bot.tar.gz", python).status, 201);
  ASSERT_EQ(finished(server_->port(), tokens_["alice"], "alice", 1).at("status"), "entered");
  ASSERT_EQ(finished(server_->port(), tokens_["bob"], "bob", 1).at("status"), "entered");

  const RunResult busy = season_command("freeze");
  EXPECT_EQ(busy.status.code, 2) << busy.summary();
  EXPECT_NE(busy.err.find("is in use by pid"), std::string::npos) << busy.err;
  EXPECT_FALSE(fs::exists(dir() / "freeze.json"));
  server_.reset();
  const RunResult early = season_command("final");
  EXPECT_EQ(early.status.code, 2) << early.summary();
  EXPECT_NE(early.err.find("is not frozen"), std::string::npos) << early.err;

  const RunResult frozen = season_command("freeze");
  ASSERT_EQ(frozen.status.code, 0) << frozen.summary();
  EXPECT_NE(frozen.out.find("(no deadline set): uploads are refused from now on"), std::string::npos) << frozen.out;
  EXPECT_NE(frozen.out.find("  alice  alice-r1 (revision 1, sha256 "), std::string::npos) << frozen.out;
  EXPECT_NE(frozen.out.find("  bob    bob-r1 (revision 1, sha256 "), std::string::npos) << frozen.out;
  const std::string record = read_file(dir() / "freeze.json");
  const RunResult again = season_command("freeze");
  ASSERT_EQ(again.status.code, 0) << again.summary();
  EXPECT_NE(again.out.find("already"), std::string::npos) << again.out;
  EXPECT_EQ(read_file(dir() / "freeze.json"), record);

  start();
  EXPECT_NE(server_->out().find("the season is frozen since"), std::string::npos) << server_->out();
  const Response late = upload(server_->port(), bearer(tokens_["alice"]), "ada.c", ada);
  EXPECT_EQ(late.status, 403) << late.body;
  EXPECT_NE(late.body.find("the season is frozen since"), std::string::npos) << late.body;
  EXPECT_FALSE(fs::exists(dir() / "revisions" / "alice" / "2"));
  server_.reset();

  // The final killed (kill -9) after its first games, then resumed from its journal by the same command.
  const fs::path results = dir() / "results" / "final";
  const auto journaled = [&] {
    return fs::exists(results / "games.jsonl") ? read_lines(results / "games.jsonl").size() : 0;
  };
  {
    Child first({kArena.string(), "season", "final", (dir() / "season.toml").string()}, temp_.path() / "final.out",
                temp_.path() / "final.err");
    std::optional<ExitStatus> ended;
    for (int i = 0; i < 1200 && journaled() < 2 && !(ended = first.poll()); ++i) std::this_thread::sleep_for(25ms);
    if (!ended) {
      first.signal(SIGKILL);
      first.wait(10s);
    }
  }
  const std::size_t kept = journaled();
  EXPECT_GE(kept, 2u);
  EXPECT_LT(kept, 20u);  // not all: the resume below has games to play
  const RunResult played = season_command("final");
  ASSERT_EQ(played.status.code, 0) << played.summary();
  EXPECT_NE(played.out.find("round-robin, 2 engines: alice-r1, bob-r1"), std::string::npos) << played.out;
  const std::vector<std::string> games = read_lines(results / "games.jsonl");
  ASSERT_EQ(games.size(), 20u);
  std::set<std::string> ids;
  for (const std::string& line : games) {
    const json::value game = json::parse(line);
    EXPECT_TRUE(ids.insert(std::string(game.at("id").as_string())).second) << "played twice: " << line;
    const std::set<std::string> sides{std::string(game.at("south").as_string()),
                                      std::string(game.at("north").as_string())};
    EXPECT_EQ(sides, (std::set<std::string>{"alice-r1", "bob-r1"})) << line;
  }
  // Played to its end: the same command again plays nothing more.
  const RunResult resumed = season_command("final");
  ASSERT_EQ(resumed.status.code, 0) << resumed.summary();
  EXPECT_EQ(read_lines(results / "games.jsonl").size(), 20u);

  const RunResult verified = run({kArena.string(), "verify", results.string()}, temp_.path(), 120s);
  EXPECT_EQ(verified.status.code, 0) << verified.summary();
  EXPECT_NE(verified.out.find("arena verify: OK"), std::string::npos) << verified.out;
}

// final = "adaptive": a progressive cutoff over the frozen revisions and the sparring partners (final_sparring),
// its places declared by final_boundaries. It plays colour-swapped pairs only while a declared place is open and
// stops on its own, inside its budget; it says why it stopped and is verifiable like any tournament.
TEST_F(SeasonFinalE2E, AnAdaptiveFinalStopsOnItsBoundariesInsideItsBudgetAndIsVerifiable) {
  server_.reset();
  edit("games = 20, min_score = 0.3", "games = 2, min_score = 0");
  edit("final = \"round-robin\"",
       "final = \"adaptive\"\nfinal_boundaries = [1]\nfinal_budget_games = 400\nfinal_sparring = true");
  start();
  ASSERT_EQ(upload(server_->port(), bearer(tokens_["alice"]), "ada.c", source("configs/contest/submissions/ada/ada.c"))
                .status,
            201);
  ASSERT_EQ(finished(server_->port(), tokens_["alice"], "alice", 1).at("status"), "entered");
  server_.reset();
  const RunResult frozen = season_command("freeze");
  ASSERT_EQ(frozen.status.code, 0) << frozen.summary();

  const RunResult played = season_command("final");
  ASSERT_EQ(played.status.code, 0) << played.summary();
  EXPECT_NE(played.out.find("adaptive"), std::string::npos) << played.out;
  EXPECT_NE(played.out.find("stopped (interval clear of every boundary)"), std::string::npos) << played.out;
  const fs::path results = dir() / "results" / "final";
  const std::vector<std::string> games = read_lines(results / "games.jsonl");
  EXPECT_GE(games.size(), 2u);
  EXPECT_LT(games.size(), 400u) << "it stopped on its boundary, not at its budget";
  EXPECT_EQ(games.size() % 2, 0u) << "colour-swapped pairs";
  std::set<std::string> engines;
  for (const std::string& line : games) {
    const json::value game = json::parse(line);
    engines.insert(std::string(game.at("south").as_string()));
    engines.insert(std::string(game.at("north").as_string()));
  }
  EXPECT_TRUE(engines.contains("alice-r1")) << "the frozen revision plays";
  // The declared place, in the standings: each engine's chance of first place.
  const json::value standings = json::parse(read_file(results / "standings.json"));
  EXPECT_NE(json::serialize(standings).find("\"cuts\""), std::string::npos) << standings;
  // Decided: the same command again plays nothing more.
  const RunResult again = season_command("final");
  ASSERT_EQ(again.status.code, 0) << again.summary();
  EXPECT_EQ(read_lines(results / "games.jsonl").size(), games.size());

  const RunResult verified = run({kArena.string(), "verify", results.string()}, temp_.path(), 120s);
  EXPECT_EQ(verified.status.code, 0) << verified.summary();
  EXPECT_NE(verified.out.find("arena verify: OK"), std::string::npos) << verified.out;
}

// final = "staged": the frozen revision and the sparring partners (final_sparring) play a round robin on each board
// of final_stages in turn, in folders of their own under results/final; who left after each stage and the final
// order are in staged.json, which `arena verify` derives again from the stages' journals.
TEST_F(SeasonFinalE2E, AStagedFinalPlaysItsBoardsInTurnAndIsVerifiable) {
  server_.reset();
  edit("games = 20, min_score = 0.3", "games = 2, min_score = 0");
  edit("final = \"round-robin\"",
       "final = \"staged\"\nfinal_stages = [{ variant = \"pits=4 seeds=3\", rounds = 1 }, { variant = \"pits=5 "
       "seeds=3\" }]\nfinal_sparring = true");
  start();
  ASSERT_EQ(upload(server_->port(), bearer(tokens_["alice"]), "ada.c", source("configs/contest/submissions/ada/ada.c"))
                .status,
            201);
  ASSERT_EQ(finished(server_->port(), tokens_["alice"], "alice", 1).at("status"), "entered");
  server_.reset();
  const RunResult frozen = season_command("freeze");
  ASSERT_EQ(frozen.status.code, 0) << frozen.summary();
  EXPECT_NE(frozen.out.find("staged stages=[pits=4 seeds=3"), std::string::npos) << frozen.out;

  const RunResult played = season_command("final");
  ASSERT_EQ(played.status.code, 0) << played.summary();
  const fs::path results = dir() / "results" / "final";
  const json::object record = json::parse(read_file(results / "staged.json")).as_object();
  EXPECT_TRUE(record.at("finished").as_bool()) << record;
  const json::array& stages = record.at("stages").as_array();
  ASSERT_EQ(stages.size(), 2u);
  std::set<std::string> first;
  for (const json::value& name : stages[0].at("engines").as_array()) first.insert(std::string(name.as_string()));
  EXPECT_EQ(first, (std::set<std::string>{"alice-r1", "random", "greedy"}));
  EXPECT_EQ(stages[0].at("rounds").as_int64(), 1);
  EXPECT_EQ(stages[1].at("rounds").as_int64(), 2) << "the contest's rounds, as the stage gives none";
  EXPECT_EQ(record.at("ranking").as_array().size(), 3u);
  // Finished: the same command plays nothing more.
  const std::vector<std::string> games = read_lines(results / "stage-1" / "games.jsonl");
  const RunResult again = season_command("final");
  ASSERT_EQ(again.status.code, 0) << again.summary();
  EXPECT_EQ(read_lines(results / "stage-1" / "games.jsonl"), games);

  const RunResult verified = run({kArena.string(), "verify", results.string()}, temp_.path(), 120s);
  EXPECT_EQ(verified.status.code, 0) << verified.summary();
  EXPECT_NE(verified.out.find("arena verify: OK — staged"), std::string::npos) << verified.out;

  // The season's server lists each stage of the final beside the ladder.
  start();
  const std::string listed = json::serialize(json::parse(request(server_->port(), "/api/tournaments").body));
  EXPECT_NE(listed.find("\"name\":\"final.stage-1\""), std::string::npos) << listed;
  EXPECT_NE(listed.find("\"name\":\"ladder\""), std::string::npos) << listed;
}

}  // namespace
}  // namespace kalah::e2e
