// A season end to end (docs/SEASON.md): `arena season init`, then `arena serve --season` on a free loopback port
// with uploads over real HTTP connections: a revision acknowledged only once stored (and still there after kill -9),
// numbered per author, listed to its author only; every refused upload (no token, unknown token, too large, too
// many files, a bad archive, a link, a special file, a bad form) stores nothing; the failed-token limit; one server
// per season; the ladder: entered revisions play all term, a superseded one leaves the ranking, a restart after kill -9
// replays no game. Waits are bounded loops; no timing is asserted.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include <boost/json.hpp>

#include "tests/browser_util.h"
#include "tests/e2e_util.h"
#include "tests/season_archives.h"
#include "tests/season_util.h"
#include "tests/serve_util.h"
#include "tests/serve_util_asio.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;
using namespace serve_util;
using namespace season_util;
using test::ArchiveEntry;
using test::make_archive;

TEST_F(SeasonE2E, AnUploadIsStoredNumberedAndListedToItsAuthorOnly) {
  const std::string bot = "import sys\nprint('bestmove 1')\n";
  const Response first = upload(server_->port(), bearer(tokens_["alice"]), "bot.py", bot);
  ASSERT_EQ(first.status, 201) << first.body;
  const json::value answer = json::parse(first.body);
  EXPECT_EQ(answer.at("author"), "alice");
  EXPECT_EQ(answer.at("revision"), 1);
  EXPECT_EQ(answer.at("status"), "queued");
  EXPECT_EQ(read_file(dir() / "revisions" / "alice" / "1" / "bot.py"), bot);
  const std::string archive = make_archive({{"bot", "", AE_IFDIR}, {"bot/bot.py", bot}, {"bot/lib.py", "x = 1\n"}});
  const Response second = upload(server_->port(), bearer(tokens_["alice"]), "bot.tar.gz", archive);
  ASSERT_EQ(second.status, 201) << second.body;
  EXPECT_EQ(json::parse(second.body).at("revision"), 2);
  EXPECT_EQ(read_file(dir() / "revisions" / "alice" / "2" / "bot.tar.gz"), archive);
  const Response bobs = upload(server_->port(), bearer(tokens_["bob"]), "main.c", "int main(void) { return 0; }\n");
  ASSERT_EQ(bobs.status, 201) << bobs.body;
  EXPECT_EQ(json::parse(bobs.body).at("revision"), 1);

  const Response mine = request(server_->port(), "/api/submissions/alice", http::verb::get,
                                {{"Authorization", bearer(tokens_["alice"])}});
  ASSERT_EQ(mine.status, 200) << mine.body;
  const json::value page = json::parse(mine.body);
  const json::array& revisions = page.at("revisions").as_array();
  ASSERT_EQ(revisions.size(), 2u);
  EXPECT_EQ(revisions[1].at("file"), "bot.tar.gz");
  EXPECT_EQ(revisions[1].at("kind"), "tar.gz");
  EXPECT_EQ(revisions[1].at("files"), 2);
  // Its status moves on behind the answer (the next test follows it to its end).
  const std::set<std::string> statuses{"queued",      "building", "build-failed", "check-failed",
                                       "gate-failed", "entered",  "superseded"};
  EXPECT_TRUE(statuses.contains(std::string(revisions[1].at("status").as_string()))) << mine.body;
  EXPECT_EQ(revisions[0].at("sha256"), json::parse(first.body).at("sha256"));
  // Another author's page with a valid token of one's own, or a page without a token.
  EXPECT_EQ(
      request(server_->port(), "/api/submissions/alice", http::verb::get, {{"Authorization", bearer(tokens_["bob"])}})
          .status,
      404);
  EXPECT_EQ(
      request(server_->port(), "/api/submissions/carol", http::verb::get, {{"Authorization", bearer(tokens_["bob"])}})
          .status,
      404);
  EXPECT_EQ(request(server_->port(), "/api/submissions/alice").status, 401);
}

TEST_F(SeasonE2E, AnAcknowledgedUploadSurvivesKillMinus9) {
  const Response done = upload(server_->port(), bearer(tokens_["bob"]), "bot.py", "print(1)\n");
  ASSERT_EQ(done.status, 201) << done.body;
  server_->kill_now();
  start();
  const Response listed =
      request(server_->port(), "/api/submissions/bob", http::verb::get, {{"Authorization", bearer(tokens_["bob"])}});
  ASSERT_EQ(listed.status, 200) << listed.body;
  EXPECT_EQ(json::parse(listed.body).at("revisions").as_array().size(), 1u);
  EXPECT_EQ(json::parse(upload(server_->port(), bearer(tokens_["bob"]), "bot.py", "print(2)\n").body).at("revision"),
            2);
}

TEST_F(SeasonE2E, EveryRefusedUploadStoresNothing) {
  const std::map<std::string, std::uintmax_t> before = stored();
  const std::string alice = bearer(tokens_["alice"]);
  std::vector<ArchiveEntry> many;
  for (int i = 0; i < 4; ++i) many.push_back({"f" + std::to_string(i) + ".py", "x"});
  struct Case {
    const char* what;
    Response response;
    int status;
    const char* says;
  };
  const unsigned short port = server_->port();
  for (const Case& c : {
           Case{"no token", upload(port, "", "bot.py", "x"), 401, "a token is required"},
           Case{"unknown token", upload(port, bearer(std::string(64, 'a')), "bot.py", "x"), 401, "unknown token"},
           Case{"not bearer", upload(port, "Basic " + tokens_["alice"], "bot.py", "x"), 401, "a token is required"},
           Case{"too big", upload(port, alice, "bot.py", std::string(8 * 1024 + 1, 'x')), 413, "max_upload_kb"},
           Case{"body over the bound", upload(port, alice, "bot.py", std::string(64 * 1024, 'x')), 413, "larger than"},
           Case{"too many files", upload(port, alice, "bot.zip", make_archive(many, true)), 422, "max_files"},
           Case{"bad archive", upload(port, alice, "bot.tar.gz", "not an archive"), 422, "cannot be read"},
           Case{"a link", upload(port, alice, "bot.tgz", make_archive({{"bot.py", "", AE_IFLNK, "/etc/passwd"}})), 422,
                "symbolic link"},
           Case{"a FIFO", upload(port, alice, "bot.tgz", make_archive({{"bot.py", "x"}, {"pipe", "", AE_IFIFO}})), 422,
                "FIFO"},
           Case{"a device", upload(port, alice, "bot.tgz", make_archive({{"null", "", AE_IFCHR}})), 422, "device"},
           Case{"an escape", upload(port, alice, "bot.tgz", make_archive({{"../../bot.py", "x"}})), 422,
                "relative path"},
           Case{"another field", upload(port, alice, "bot.py", "x", "upload"), 400, "unexpected field"},
           Case{"another kind", upload(port, alice, "bot.exe", "x"), 415, ".tar.gz"},
       }) {
    EXPECT_EQ(c.response.status, c.status) << c.what << ": " << c.response.body;
    EXPECT_NE(c.response.body.find(c.says), std::string::npos) << c.what << ": " << c.response.body;
  }
  EXPECT_EQ(stored(), before);
}

TEST_F(SeasonE2E, AnOversizedBodyIsRefusedBeforeItIsSent) {
  // As curl sends a large file: the headers, then the body only after `100 Continue`.
  asio::io_context io;
  tcp::socket socket = connect_to(io, server_->port());
  const std::string head = "POST /api/submissions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + tokens_["alice"] +
                           "\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000000\r\n"
                           "Expect: 100-continue\r\n\r\n";
  asio::write(socket, asio::buffer(head));
  const Response r = read_response(socket);
  EXPECT_EQ(r.status, 413) << r.body;
  EXPECT_FALSE(fs::exists(dir() / "revisions" / "alice"));
}

TEST_F(SeasonE2E, FailedTokensFromAnAddressAreLimited) {
  for (int i = 0; i < 10; ++i)
    ASSERT_EQ(upload(server_->port(), bearer("wrong-token-" + std::to_string(i)), "bot.py", "x").status, 401);
  // Now even the right token waits.
  const Response limited = upload(server_->port(), bearer(tokens_["alice"]), "bot.py", "x");
  EXPECT_EQ(limited.status, 429) << limited.body;
  EXPECT_FALSE(fs::exists(dir() / "revisions" / "alice"));
}

TEST_F(SeasonE2E, ASecondServerOnTheSameSeasonIsRefused) {
  Server second(temp_.path(), {"--season", (dir() / "season.toml").string(), "--listen", "127.0.0.1:0"});
  EXPECT_EQ(second.port(), 0);
  const std::optional<ExitStatus> ended = second.ended(std::chrono::milliseconds(10000));
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->code, 2);
  EXPECT_NE(second.err().find("is in use by pid"), std::string::npos) << second.err();
  // The first still answers.
  EXPECT_EQ(upload(server_->port(), bearer(tokens_["bob"]), "bot.py", "x").status, 201);
}

TEST_F(SeasonE2E, TheDeadlineRefusesLaterUploads) {
  server_.reset();
  std::string config = read_file(dir() / "season.toml");
  const std::string from = "# deadline = 2027-02-15T23:59:00Z";
  config.replace(config.find(from), from.size(), "deadline = 2020-01-01T00:00:00Z");
  write_file(dir() / "season.toml", config);
  start();
  const Response late = upload(server_->port(), bearer(tokens_["alice"]), "bot.py", "x");
  EXPECT_EQ(late.status, 403) << late.body;
  EXPECT_NE(late.body.find("2020-01-01T00:00:00Z, has passed"), std::string::npos) << late.body;
  EXPECT_FALSE(fs::exists(dir() / "revisions" / "alice"));
}

TEST_F(SeasonE2E, ARevisionIsBuiltCheckedGatedAndEnteredOrKeptOutWithItsLog) {
  const unsigned short port = server_->port();
  const std::string alice = bearer(tokens_["alice"]), bob = bearer(tokens_["bob"]);
  // A single C file, built by the default command; a Python bot in an archive with the kit beside it.
  ASSERT_EQ(upload(port, alice, "ada.c", source("configs/contest/submissions/ada/ada.c")).status, 201);
  const std::string python = make_archive(
      {{"bot.py", source("bots/python/example_bot.py")}, {"kalah_engine.py", source("bots/python/kalah_engine.py")}});
  ASSERT_EQ(upload(port, bob, "bot.tar.gz", python).status, 201);
  // Each failure with its log: a build that fails, a Python file that speaks no KEP, an archive with nothing to run.
  ASSERT_EQ(upload(port, alice, "bot.c", "int main(void) { return oops; }\n").status, 201);
  ASSERT_EQ(upload(port, alice, "bot.py", "print('hello')\n").status, 201);
  ASSERT_EQ(upload(port, alice, "bot.zip", make_archive({{"main.py", "print(1)\n"}}, true)).status, 201);

  const json::object ada = finished(port, tokens_["alice"], "alice", 1);
  EXPECT_EQ(ada.at("status"), "entered") << json::serialize(ada);
  EXPECT_EQ(ada.at("bot"), "alice-r1");
  EXPECT_NE(json::serialize(ada.at("logs").at("build.log")).find("cc -O2 -o bot bot.c -lm"), std::string::npos);
  EXPECT_NE(json::serialize(ada.at("logs").at("gate.log")).find("kalah-random"), std::string::npos);
  const json::object py = finished(port, tokens_["bob"], "bob", 1);
  EXPECT_EQ(py.at("status"), "entered") << json::serialize(py);
  const json::object broken = finished(port, tokens_["alice"], "alice", 2);
  EXPECT_EQ(broken.at("status"), "build-failed") << json::serialize(broken);
  EXPECT_NE(json::serialize(broken.at("logs").at("build.log")).find("oops"), std::string::npos);
  const json::object mute = finished(port, tokens_["alice"], "alice", 3);
  EXPECT_EQ(mute.at("status"), "check-failed") << json::serialize(mute);
  EXPECT_TRUE(mute.at("logs").as_object().contains("check.log"));
  const json::object nothing = finished(port, tokens_["alice"], "alice", 4);
  EXPECT_EQ(nothing.at("status"), "build-failed") << json::serialize(nothing);
  EXPECT_NE(json::serialize(nothing.at("reason")).find("no bot.toml"), std::string::npos);
}

// A bot that speaks KEP and plays legal moves but chooses the worst one it sees (the kit's example with max turned
// into min) builds and passes its check, then scores far below the gate's min_score against kalah-random.
TEST_F(SeasonE2E, ABotThatLosesToRandomIsGateFailedWithItsFiguresAndItsLog) {
  std::string worst = source("bots/python/example_bot.py");
  const std::string best_move = "return max(position.legal_moves()";
  ASSERT_NE(worst.find(best_move), std::string::npos) << "the kit's example changed: choose its worst move otherwise";
  worst.replace(worst.find(best_move), best_move.size(), "return min(position.legal_moves()");
  const std::string archive =
      make_archive({{"bot.py", worst}, {"kalah_engine.py", source("bots/python/kalah_engine.py")}});
  ASSERT_EQ(upload(server_->port(), bearer(tokens_["bob"]), "bot.tar.gz", archive).status, 201);
  const json::object gated = finished(server_->port(), tokens_["bob"], "bob", 1);
  EXPECT_EQ(gated.at("status"), "gate-failed") << json::serialize(gated);
  const std::string reason(gated.at("reason").as_string());
  EXPECT_TRUE(reason.starts_with("gate: scored ") && reason.ends_with("needs 30%")) << reason;
  ASSERT_TRUE(gated.at("logs").as_object().contains("gate.log")) << json::serialize(gated);
  EXPECT_NE(json::serialize(gated.at("logs").at("gate.log")).find("kalah-random"), std::string::npos);
  // Not entered in the contest, so never on the ladder.
  const json::value entries = json::parse(read_file(dir() / "results" / "season" / "entries.json"));
  bool listed = false;
  for (const json::value& e : entries.at("submissions").as_array())
    if (e.at("folder") == "bob-r1") {
      listed = true;
      EXPECT_NE(e.at("status"), "entered") << json::serialize(e);
    }
  EXPECT_TRUE(listed) << json::serialize(entries);
}

TEST_F(SeasonE2E, ANewEnteredRevisionSupersedesTheAuthorsEarlierOne) {
  const std::string ada = source("configs/contest/submissions/ada/ada.c");
  ASSERT_EQ(upload(server_->port(), bearer(tokens_["alice"]), "ada.c", ada).status, 201);
  ASSERT_EQ(upload(server_->port(), bearer(tokens_["alice"]), "ada.c", ada + "/* again */\n").status, 201);
  const json::object second = finished(server_->port(), tokens_["alice"], "alice", 2);
  EXPECT_EQ(second.at("status"), "entered") << json::serialize(second);
  // Superseded just after the next one entered.
  const json::object first = finished(server_->port(), tokens_["alice"], "alice", 1, {"queued", "building", "entered"});
  EXPECT_EQ(first.at("status"), "superseded") << json::serialize(first);
  EXPECT_EQ(first.at("reason"), "superseded by alice-r2");
  EXPECT_NE(read_file(dir() / "results" / "season" / "entries.json").find("withdrawn"), std::string::npos);
}

TEST_F(SeasonE2E, ARevisionLeftBuildingByAKilledServerIsTakenUpAgain) {
  ASSERT_EQ(upload(server_->port(), bearer(tokens_["alice"]), "ada.c", source("configs/contest/submissions/ada/ada.c"))
                .status,
            201);
  server_->kill_now();  // whatever it was doing: queued, building, checking or gating
  start();
  const json::object done = finished(server_->port(), tokens_["alice"], "alice", 1);
  EXPECT_EQ(done.at("status"), "entered") << json::serialize(done);
}

// A server killed after the contest withdrew an author's earlier revision but before the store recorded it
// superseded (its status file still says entered): the next start finishes the supersession.
TEST_F(SeasonE2E, ASupersessionAKilledServerLeftHalfDoneIsFinishedAtTheNextStart) {
  const std::string alice = bearer(tokens_["alice"]);
  const std::string ada = source("configs/contest/submissions/ada/ada.c");
  ASSERT_EQ(upload(server_->port(), alice, "ada.c", ada).status, 201);
  ASSERT_EQ(finished(server_->port(), tokens_["alice"], "alice", 1).at("status"), "entered");
  ASSERT_EQ(upload(server_->port(), alice, "ada.c", ada + "/* again */\n").status, 201);
  ASSERT_EQ(finished(server_->port(), tokens_["alice"], "alice", 2).at("status"), "entered");
  ASSERT_EQ(finished(server_->port(), tokens_["alice"], "alice", 1, {"queued", "building", "entered"}).at("status"),
            "superseded")
      << read_file(dir() / "season.log");
  server_->kill_now();
  const fs::path status = dir() / "status" / "alice" / "1.json";
  std::string text = read_file(status);
  text.replace(text.find("\"superseded\""), std::string("\"superseded\"").size(), "\"entered\"");
  write_file(status, text);
  start();
  const json::object first = finished(server_->port(), tokens_["alice"], "alice", 1, {"queued", "building", "entered"});
  EXPECT_EQ(first.at("status"), "superseded") << json::serialize(first) << read_file(dir() / "season.log");
  EXPECT_EQ(finished(server_->port(), tokens_["alice"], "alice", 2).at("status"), "entered");
}

TEST_F(SeasonE2E, TheLadderPlaysEveryEnteredRevisionAllTermAndResumesAfterKillMinus9) {
  const std::string alice = bearer(tokens_["alice"]), bob = bearer(tokens_["bob"]);
  const std::string ada = source("configs/contest/submissions/ada/ada.c");
  ASSERT_EQ(upload(server_->port(), alice, "ada.c", ada).status, 201);
  ASSERT_EQ(upload(server_->port(), bob, "bot.py", source("bots/python/example_bot.py")).status, 201);
  // The Python bot needs the kit beside it: the single file fails its check, the archive enters.
  const std::string python = make_archive(
      {{"bot.py", source("bots/python/example_bot.py")}, {"kalah_engine.py", source("bots/python/kalah_engine.py")}});
  ASSERT_EQ(upload(server_->port(), bob, "bot.tar.gz", python).status, 201);
  const json::object ada_r1 = finished(server_->port(), tokens_["alice"], "alice", 1);
  ASSERT_EQ(ada_r1.at("status"), "entered") << json::serialize(ada_r1);
  const json::object python_r2 = finished(server_->port(), tokens_["bob"], "bob", 2);
  ASSERT_EQ(python_r2.at("status"), "entered") << json::serialize(python_r2);
  // Both play on the ladder, against each other or the sparring partners.
  std::vector<LadderGame> games = ladder_until(
      dir(), [](const std::vector<LadderGame>& g) { return plays_in(g, "alice-r1") && plays_in(g, "bob-r2"); });
  ASSERT_TRUE(plays_in(games, "alice-r1") && plays_in(games, "bob-r2")) << read_file(dir() / "season.log");
  EXPECT_FALSE(plays_in(games, "bob-r1"));  // never entered
  for (const LadderGame& g : games)         // the sparring partners never meet each other
    EXPECT_TRUE(g.south.find("-r") != std::string::npos || g.north.find("-r") != std::string::npos) << g.id;
  const json::value listed = json::parse(request(server_->port(), "/api/tournaments").body);
  EXPECT_NE(json::serialize(listed).find("\"name\":\"ladder\""), std::string::npos) << json::serialize(listed);

  // A second revision of alice's enters: the first leaves the ranking, its games stay.
  ASSERT_EQ(upload(server_->port(), alice, "ada.c", ada + "/* again */\n").status, 201);
  ASSERT_EQ(finished(server_->port(), tokens_["alice"], "alice", 2).at("status"), "entered");
  ASSERT_EQ(finished(server_->port(), tokens_["alice"], "alice", 1, {"queued", "building", "entered"}).at("status"),
            "superseded")
      << read_file(dir() / "season.log");
  games = ladder_until(dir(), [](const std::vector<LadderGame>& g) { return plays_in(g, "alice-r2"); });
  ASSERT_TRUE(plays_in(games, "alice-r2")) << read_file(dir() / "season.log");
  // The ladder's next run records it as the contest's entries.json has it: withdrawn, superseded by alice-r2; it plays
  // no more, and its games stay in the standings the server computes.
  const fs::path settings = dir() / "results" / "ladder" / "tournament.json";
  for (int i = 0; i < 300 && read_file(settings).find("superseded by alice-r2") == std::string::npos; ++i)
    std::this_thread::sleep_for(200ms);
  EXPECT_NE(read_file(settings).find("superseded by alice-r2"), std::string::npos) << read_file(settings);
  EXPECT_NE(read_file(settings).find("\"entry.alice-r1.status\": \"withdrawn\""), std::string::npos);
  std::map<std::string, json::object> rows;
  for (int i = 0; i < 300 && !rows.contains("alice-r2"); ++i) {
    rows = ladder_standings(server_->port());
    if (!rows.contains("alice-r2")) std::this_thread::sleep_for(200ms);
  }
  ASSERT_TRUE(rows.contains("alice-r1") && rows.contains("alice-r2")) << rows.size();
  EXPECT_GT(rows["alice-r1"].at("games").to_number<int>(), 0);
  // Superseded: listed with its games, not ranked (issue 40: "leaves the ranking").
  EXPECT_TRUE(rows["alice-r1"].at("rank").is_null()) << json::serialize(rows["alice-r1"]);
  EXPECT_EQ(rows["alice-r1"].at("status"), "withdrawn");
  EXPECT_TRUE(rows["alice-r2"].at("rank").is_int64()) << json::serialize(rows["alice-r2"]);
  EXPECT_FALSE(rows["alice-r2"].contains("status"));

  // kill -9 at any moment: the finished games stay, none is played again, the ladder goes on.
  const std::size_t before = ladder_games(dir()).size();
  server_->kill_now();
  const std::size_t kept = ladder_games(dir()).size();
  EXPECT_GE(kept, before);
  start();
  games = ladder_until(dir(), [kept](const std::vector<LadderGame>& g) { return g.size() >= kept + 4; });
  ASSERT_GE(games.size(), kept + 4) << read_file(dir() / "season.log");
  std::set<std::string> ids;
  for (const LadderGame& g : games) EXPECT_TRUE(ids.insert(g.id).second) << "played twice: " << g.id;
  for (std::size_t i = kept; i < games.size(); ++i) {
    EXPECT_NE(games[i].south, "alice-r1");
    EXPECT_NE(games[i].north, "alice-r1");
  }
  EXPECT_EQ(finished(server_->port(), tokens_["alice"], "alice", 2).at("status"), "entered");
  EXPECT_EQ(read_file(dir() / "season.log").find("ladder: stopped"), std::string::npos)
      << read_file(dir() / "season.log");
}

// The author's page in a real browser: opened with the name and token in the link's fragment, it shows the
// revisions with their statuses and logs, the revision's row on the ladder and its games, each a link to the viewer;
// the token leaves the address bar. Skipped, with the reason, without chromium or a Node with WebSocket.
TEST_F(SeasonE2E, TheAuthorsPageShowsTheRevisionsLogsLadderRowAndGames) {
  if (const std::optional<std::string> missing = browser::missing_browser(temp_.path())) GTEST_SKIP() << *missing;
  ASSERT_EQ(upload(server_->port(), bearer(tokens_["alice"]), "ada.c", source("configs/contest/submissions/ada/ada.c"))
                .status,
            201);
  ASSERT_EQ(upload(server_->port(), bearer(tokens_["alice"]), "bot.c", "int main(void) { return oops; }\n").status,
            201);
  ASSERT_EQ(finished(server_->port(), tokens_["alice"], "alice", 2).at("status"), "build-failed");
  const std::vector<LadderGame> games =
      ladder_until(dir(), [](const std::vector<LadderGame>& g) { return plays_in(g, "alice-r1"); });
  ASSERT_TRUE(plays_in(games, "alice-r1")) << read_file(dir() / "season.log");
  const std::string url =
      "http://127.0.0.1:" + std::to_string(server_->port()) + "/author.html#author=alice&token=" + tokens_["alice"];
  const json::value shown = browser::open_page(temp_.path(), url, "author", server_->err());
  ASSERT_TRUE(shown.is_object());
  const std::string revisions = json::serialize(shown.at("revisions"));
  EXPECT_NE(revisions.find("r1entered"), std::string::npos) << revisions;
  EXPECT_NE(revisions.find("r2build-failed"), std::string::npos) << revisions;
  EXPECT_NE(shown.at("logs").as_string().find("oops"), std::string::npos) << shown;
  EXPECT_NE(json::serialize(shown.at("ladder")).find("alice-r1"), std::string::npos) << shown;
  EXPECT_TRUE(shown.at("author_link").as_string().starts_with("/tournaments/ladder/games/")) << shown;
  EXPECT_EQ(shown.at("address").as_string().find(tokens_["alice"]), std::string::npos) << shown;
  // Another author's token shows nothing of alice's.
  const std::string wrong =
      "http://127.0.0.1:" + std::to_string(server_->port()) + "/author.html#author=alice&token=" + tokens_["bob"];
  const json::value refused = browser::open_page(temp_.path(), wrong, "author-refused", server_->err());
  ASSERT_TRUE(refused.is_object());
  EXPECT_EQ(refused.at("message"), "Your submissions could not be read: not found") << refused;
  EXPECT_TRUE(refused.at("revisions").as_array().empty()) << refused;
}

}  // namespace
}  // namespace kalah::e2e
