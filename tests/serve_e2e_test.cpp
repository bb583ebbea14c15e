// `arena serve` end to end (docs/SERVE.md): the real executable over the results of real `arena run`s (one
// folder, a sharded one), on loopback. The list, the standings equal to the standings.json that `arena report`
// writes (byte for byte), a game by id, path and name tricks refused without effect, bounds (an over-long
// header, 2,000 idle connections, the connection limit, a slow client), read-only methods, the listen policy and
// the token, duplicate names, a tournament that appears while it runs. Waits are bounded loops; no timing
// is asserted.
#include <sys/resource.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>

#include "referee/system/directory_lock.h"
#include "tests/config_builder.h"
#include "tests/e2e_util.h"
#include "tests/serve_util.h"
#include "tests/serve_util_asio.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;
using namespace serve_util;

class ServeE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    temp_ = std::make_unique<system::TempFolder>("serve-e2e");
    const fs::path root = temp_->path();
    fs::create_directories(root / "results");
    fs::create_directories(root / "other");
    play("alpha", root / "results", {});
    for (const char* shard : {"1/2", "2/2"}) play("sharded", root / "results", {"--shard", shard});
    // The standings as `arena report` writes them: the documents the server must serve, byte for byte.
    for (const char* name : {"alpha", "sharded"}) {
      const RunResult report = run({kArena.string(), "report", (root / "results" / name).string()}, root);
      ASSERT_EQ(report.status.code, 0) << report.summary();
    }
    // The same tournament under another DIR: the same name, told apart.
    fs::copy(root / "results" / "alpha", root / "other" / "alpha", fs::copy_options::recursive);
    // A link to a tournament inside a DIR is never followed, so never listed.
    fs::create_symlink(root / "results" / "alpha", root / "other" / "linked");
  }
  static void TearDownTestSuite() {
    shared_.reset();
    temp_.reset();
  }

  // Plays the tournament `name` into output/name/.
  static void play(const std::string& name, const fs::path& output, const std::vector<std::string>& extra) {
    const fs::path config = temp_->path() / (name + ".toml");
    write_file(config, test::TestConfig(name)
                           .set("rounds", 2)
                           .set("concurrency", 2)
                           .set("seed", 3)
                           .output(output)
                           .time("depth = 1")
                           .table("openings", "random_plies = 2")
                           .engine("random", kRandom)
                           .engine("greedy", kGreedy)
                           .text());
    std::vector<std::string> argv{kArena.string(), "run", config.string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    const RunResult r = run(argv, temp_->path());
    ASSERT_EQ(r.status.code, 0) << r.summary();
  }

  static fs::path root() { return temp_->path(); }
  static fs::path results() { return temp_->path() / "results"; }

  // A server over results/ and other/, started once for the suite's tests that share it.
  static Server& server() {
    if (!shared_)
      shared_ = std::make_unique<Server>(
          temp_->path(),
          std::vector<std::string>{results().string(), (temp_->path() / "other").string(), "--listen", "127.0.0.1:0"});
    return *shared_;
  }

  static std::unique_ptr<system::TempFolder> temp_;
  static std::unique_ptr<Server> shared_;
};
std::unique_ptr<system::TempFolder> ServeE2E::temp_;
std::unique_ptr<Server> ServeE2E::shared_;

// Every file under `dir` with its size: what a request must not change.
std::map<std::string, std::uintmax_t> tree_of(const fs::path& dir) {
  std::map<std::string, std::uintmax_t> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    files[e.path().string()] = e.is_regular_file() && !e.is_symlink() ? e.file_size() : 0;
  return files;
}

const json::object* listed(const json::value& list, const std::string& name) {
  for (const json::value& t : list.at("tournaments").as_array())
    if (t.at("name").as_string() == name) return &t.as_object();
  return nullptr;
}

TEST_F(ServeE2E, ListsEachTournamentWithItsKindProgressAndLeader) {
  ASSERT_NE(server().port(), 0) << server().err();
  const Response r = get(server().port(), "/api/tournaments");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("Content-Type"), "application/json");
  EXPECT_EQ(r.header("Content-Security-Policy"), "default-src 'none'");
  EXPECT_EQ(r.header("X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(r.headers.count("Server"), 0u);
  const json::value list = json::parse(r.body);
  for (const char* name : {"alpha", "sharded"}) {
    const json::object* t = listed(list, name);
    ASSERT_TRUE(t) << name << ": " << r.body;
    EXPECT_EQ(t->at("kind"), "round-robin") << r.body;
    EXPECT_EQ(t->at("games"), 4) << r.body;
    EXPECT_EQ(t->at("planned"), 4) << r.body;
    EXPECT_EQ(t->at("running"), false) << r.body;
    const json::value standings = json::parse(read_file(results() / name / "standings.json"));
    EXPECT_EQ(t->at("leader"), standings.at("engines").as_array().at(0).at("name")) << r.body;
  }
  // The second DIR's "alpha" is another tournament of the same name: "alpha~2" (docs/SERVE.md).
  ASSERT_TRUE(listed(list, "alpha~2")) << r.body;
  EXPECT_FALSE(listed(list, "linked")) << r.body;
  EXPECT_EQ(list.at("tournaments").as_array().size(), 3u) << r.body;
}

// The API's documents against their JSON Schemas (docs/schema/): the list, the standings and a game.
TEST_F(ServeE2E, TheDocumentsFollowTheirSchemas) {
  ASSERT_NE(server().port(), 0) << server().err();
  const fs::path python = "/usr/bin/python3";
  if (run({python.string(), "-c", "import jsonschema"}, root(), 30s).status.code != 0)
    GTEST_SKIP() << "python3-jsonschema is not installed (apt-get install python3-jsonschema)";
  const std::string id(json::parse(read_lines(results() / "alpha" / "games.jsonl").front()).at("id").as_string());
  const std::pair<const char*, std::string> documents[] = {
      {"tournaments.schema.json", "/api/tournaments"},
      {"standings.schema.json", "/api/tournaments/sharded/standings"},
      {"games.schema.json", "/api/tournaments/alpha/games/" + id},
      {"games-list.schema.json", "/api/tournaments/sharded/games?limit=3"},
  };
  for (const auto& [schema, target] : documents) {
    const Response r = get(server().port(), target);
    ASSERT_EQ(r.status, 200) << target << ": " << r.body;
    const fs::path file = root() / "served.json";
    write_file(file, r.body);
    const RunResult checked = run({python.string(), KALAH_SOURCE_DIR "/tools/check-schema.py",
                                   std::string(KALAH_SOURCE_DIR "/docs/schema/") + schema, file.string()},
                                  root(), 60s);
    EXPECT_EQ(checked.status.code, 0) << target << ": " << checked.summary();
  }
}

// The page (docs/SERVE.md, "The page"): its HTML, script and style sheet each from a path of its own, under a
// policy that allows this server's own files and nothing inline; the HTML holds no inline script or style.
TEST_F(ServeE2E, ThePageLoadsItsScriptAsAFileUnderAPolicyWithoutInlineScript) {
  ASSERT_NE(server().port(), 0) << server().err();
  const Response page = get(server().port(), "/");
  ASSERT_EQ(page.status, 200) << page.body;
  EXPECT_EQ(page.header("Content-Type"), "text/html; charset=utf-8");
  const std::string policy = page.header("Content-Security-Policy");
  EXPECT_NE(policy.find("script-src 'self'"), std::string::npos) << policy;
  EXPECT_NE(policy.find("default-src 'none'"), std::string::npos) << policy;
  EXPECT_EQ(policy.find("unsafe-inline"), std::string::npos) << policy;
  EXPECT_EQ(policy.find("http"), std::string::npos) << "no other host: " << policy;
  // Every <script> has a src and nothing inside; no <style> element, no style or on... attribute.
  for (std::size_t at = 0; (at = page.body.find("<script", at)) != std::string::npos; ++at) {
    const std::size_t end = page.body.find('>', at);
    EXPECT_NE(page.body.substr(at, end - at).find(" src=\"/app.js\""), std::string::npos) << page.body;
    EXPECT_EQ(page.body.substr(end + 1, 9), "</script>") << page.body;
  }
  for (const char* inline_markup : {"<style", " style=", " onclick=", " onload=", "javascript:"})
    EXPECT_EQ(page.body.find(inline_markup), std::string::npos) << inline_markup;
  const Response script = get(server().port(), "/app.js");
  ASSERT_EQ(script.status, 200);
  EXPECT_EQ(script.header("Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_NE(script.body.find("new EventSource("), std::string::npos);
  EXPECT_EQ(script.body.find("innerHTML"), std::string::npos) << "strings are shown as text";
  const Response style = get(server().port(), "/app.css");
  ASSERT_EQ(style.status, 200);
  EXPECT_EQ(style.header("Content-Type"), "text/css; charset=utf-8");
}

TEST_F(ServeE2E, AFinishedGameOpensInTheViewerOfReportHtmlServedAsFiles) {
  ASSERT_NE(server().port(), 0) << server().err();
  const std::vector<std::string> lines = read_lines(results() / "alpha" / "games.jsonl");
  ASSERT_FALSE(lines.empty());
  const json::value record = json::parse(lines.front());
  const std::string id(record.at("id").as_string());
  const Response page = get(server().port(), "/tournaments/alpha/games/" + id);
  ASSERT_EQ(page.status, 200) << page.body;
  EXPECT_EQ(page.header("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(page.header("Content-Security-Policy").find("script-src 'self'"), std::string::npos);
  // The game as report.html's viewer embeds it (a JSON data block, which runs nothing), the viewer as a file.
  const std::string data = "<script type=\"application/json\" id=\"games-data\">";
  const std::size_t at = page.body.find(data);
  ASSERT_NE(at, std::string::npos) << page.body;
  const std::size_t end = page.body.find("</script>", at);
  const json::value games = json::parse(page.body.substr(at + data.size(), end - at - data.size()));
  ASSERT_EQ(games.as_array().size(), 1u);
  EXPECT_EQ(games.at(0).at("id"), record.at("id"));
  EXPECT_EQ(games.at(0).at("moves").as_array().size(), record.at("moves").as_array().size());
  const std::string viewer = "<script src=\"/viewer.js\"></script>";
  for (std::size_t s = 0; (s = page.body.find("<script", s)) != std::string::npos; ++s)
    EXPECT_TRUE(page.body.compare(s, data.size(), data) == 0 || page.body.compare(s, viewer.size(), viewer) == 0)
        << page.body.substr(s, 80);
  for (const char* inline_markup : {"<style", " style=", " onclick=", " onload=", "javascript:"})
    EXPECT_EQ(page.body.find(inline_markup), std::string::npos) << inline_markup;
  const Response script = get(server().port(), "/viewer.js");
  ASSERT_EQ(script.status, 200);
  EXPECT_EQ(script.header("Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_NE(script.body.find("games-data"), std::string::npos);
  EXPECT_EQ(get(server().port(), "/viewer.css").header("Content-Type"), "text/css; charset=utf-8");
  EXPECT_EQ(get(server().port(), "/tournaments/alpha/games/no-such-game").status, 404);
  EXPECT_EQ(get(server().port(), "/tournaments/nope/games/" + id).status, 404);
  EXPECT_EQ(get(server().port(), "/tournaments/alpha/games/..%2fgames.jsonl").status, 400);
}

// The finished games of a tournament (here a sharded one: its shards' journals in order), a page at a time: every
// game once, in journal order, with what its journal line says; bad pages refused, an unknown name not found.
TEST_F(ServeE2E, TheFinishedGamesAreListedInJournalOrderAPageAtATime) {
  ASSERT_NE(server().port(), 0) << server().err();
  std::vector<json::value> journal;
  for (const char* shard : {"1-of-2", "2-of-2"})
    for (const std::string& line : read_lines(results() / "sharded" / "shards" / shard / "games.jsonl"))
      journal.push_back(json::parse(line));
  ASSERT_EQ(journal.size(), 4u);
  const Response whole = get(server().port(), "/api/tournaments/sharded/games");
  ASSERT_EQ(whole.status, 200) << whole.body;
  EXPECT_EQ(whole.header("Content-Type"), "application/json");
  const json::value all = json::parse(whole.body);
  EXPECT_EQ(all.at("tournament"), "sharded");
  EXPECT_EQ(all.at("total"), 4);
  EXPECT_TRUE(all.at("next").is_null()) << whole.body;
  const json::array& listed_games = all.at("games").as_array();
  ASSERT_EQ(listed_games.size(), journal.size()) << whole.body;
  for (std::size_t i = 0; i < journal.size(); ++i)
    for (const char* field : {"id", "round", "south", "north", "result", "termination"})
      EXPECT_EQ(listed_games[i].at(field), journal[i].at(field)) << i << " " << field;
  // A page of one game at a time, each page's `next` the following one's `after`: the same games, in order.
  std::vector<json::value> paged;
  std::string target = "/api/tournaments/sharded/games?limit=1";
  for (int page = 0; page < 10 && !target.empty(); ++page) {
    const Response r = get(server().port(), target);
    ASSERT_EQ(r.status, 200) << target << ": " << r.body;
    const json::value v = json::parse(r.body);
    for (const json::value& g : v.at("games").as_array()) paged.push_back(g);
    target = v.at("next").is_null()
                 ? ""
                 : "/api/tournaments/sharded/games?limit=1&after=" + std::string(v.at("next").as_string());
  }
  EXPECT_TRUE(target.empty()) << "the list did not end within 10 pages";
  EXPECT_EQ(json::value(json::array(paged.begin(), paged.end())), json::value(listed_games));
  const std::string last(journal.back().at("id").as_string());
  const json::value after_last = json::parse(get(server().port(), "/api/tournaments/sharded/games?after=" + last).body);
  EXPECT_TRUE(after_last.at("games").as_array().empty()) << after_last;
  EXPECT_TRUE(after_last.at("next").is_null()) << after_last;
  EXPECT_EQ(get(server().port(), "/api/tournaments/sharded/games?limit=500").status, 200);
  for (const char* bad : {"limit=0", "limit=501", "limit=abc", "limit=-1", "limit=", "limit=1e2", "limit=%2B5",
                          "after=", "after=no-such-game", "after=..%2fgames.jsonl"}) {
    const Response r = get(server().port(), std::string("/api/tournaments/sharded/games?") + bad);
    EXPECT_EQ(r.status, 400) << bad << ": " << r.body;
    EXPECT_EQ(r.header("Content-Type"), "application/json") << bad;
  }
  EXPECT_EQ(get(server().port(), "/api/tournaments/nope/games").status, 404);
  EXPECT_EQ(get(server().port(), "/api/tournaments/%2e%2e/games").status, 400);
}

// The game's data block of a viewer page (report.html or the served one): the games it embeds.
json::value viewer_games(const std::string& page) {
  const std::string data = "<script type=\"application/json\" id=\"games-data\">";
  const std::size_t at = page.find(data);
  if (at == std::string::npos) return json::value();
  const std::size_t end = page.find("</script>", at);
  return json::parse(page.substr(at + data.size(), end - at - data.size()));
}

// A game of an analysed tournament in the viewer: each ply's value and loss and the move that lost, as report.html's
// viewer embeds them (the same object for the game), shown by the viewer's script with what an analysis adds; a
// game the analysis has no line for, as before.
TEST_F(ServeE2E, AnAnalysedGameShowsItsPerPlyLossesInTheViewerAsReportHtmlDoes) {
  const fs::path analysed = root() / "analysed";
  fs::create_directories(analysed);
  fs::copy(results() / "alpha", analysed / "alpha", fs::copy_options::recursive);
  const std::vector<std::string> lines = read_lines(analysed / "alpha" / "games.jsonl");
  ASSERT_GE(lines.size(), 2u);
  const json::value game = json::parse(lines.front()), other = json::parse(lines.back());
  const std::string id(game.at("id").as_string()), other_id(other.at("id").as_string());
  // A made-up analysis of the first game (only its figures are shown): value 0, a loss of 0, 1 or 2 a ply.
  json::array value, loss;
  for (std::size_t k = 0; k < game.at("moves").as_array().size(); ++k) {
    value.emplace_back(0);
    loss.emplace_back(static_cast<int>(k % 3));
  }
  write_file(analysed / "alpha" / "analysis.jsonl",
             json::serialize(json::object{{"id", id}, {"value", value}, {"loss", loss}}) + "\n");
  const RunResult report = run({kArena.string(), "report", (analysed / "alpha").string()}, root());
  ASSERT_EQ(report.status.code, 0) << report.summary();
  Server served(root(), {analysed.string(), "--listen", "127.0.0.1:0"});
  ASSERT_NE(served.port(), 0) << served.err();

  const Response page = get(served.port(), "/tournaments/alpha/games/" + id);
  ASSERT_EQ(page.status, 200) << page.body;
  const json::value embedded = viewer_games(page.body);
  ASSERT_TRUE(embedded.is_array()) << page.body;
  ASSERT_EQ(embedded.as_array().size(), 1u);
  EXPECT_EQ(embedded.at(0).at("loss"), json::value(loss)) << embedded;
  // The same object as report.html's viewer holds for this game.
  const json::value in_report = viewer_games(read_file(analysed / "alpha" / "report.html"));
  ASSERT_TRUE(in_report.is_array());
  bool compared = false;
  for (const json::value& g : in_report.as_array())
    if (g.at("id") == game.at("id")) {
      EXPECT_EQ(g, embedded.at(0));
      compared = true;
    }
  EXPECT_TRUE(compared) << "report.html's viewer has no game " << id;
  EXPECT_NE(page.body.find("<script src=\"/viewer-analysis.js\"></script>"), std::string::npos) << page.body;
  EXPECT_NE(page.body.find("id=\"verdict\""), std::string::npos) << page.body;
  const Response script = get(served.port(), "/viewer-analysis.js");
  ASSERT_EQ(script.status, 200);
  EXPECT_EQ(script.header("Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_NE(script.body.find("verdict"), std::string::npos);
  EXPECT_EQ(get(served.port(), "/viewer.js").body.find("verdict"), std::string::npos);

  // The API's answer: the journal line as it is, with the game's line of analysis.jsonl added; without one, the line.
  const Response api = get(served.port(), "/api/tournaments/alpha/games/" + id);
  ASSERT_EQ(api.status, 200) << api.body;
  json::object answered = json::parse(api.body).as_object();
  ASSERT_TRUE(answered.contains("analysis")) << api.body;
  EXPECT_EQ(answered.at("analysis"), json::parse(read_lines(analysed / "alpha" / "analysis.jsonl").front()));
  EXPECT_EQ(api.body.substr(0, lines.front().rfind('}')), lines.front().substr(0, lines.front().rfind('}')));
  answered.erase("analysis");
  EXPECT_EQ(json::value(answered), game);
  EXPECT_EQ(get(served.port(), "/api/tournaments/alpha/games/" + other_id).body, lines.back() + "\n");

  // A game without a line in the analysis: the viewer without losses.
  const Response plain = get(served.port(), "/tournaments/alpha/games/" + other_id);
  ASSERT_EQ(plain.status, 200) << plain.body;
  EXPECT_FALSE(viewer_games(plain.body).at(0).as_object().contains("loss")) << plain.body;
  EXPECT_NE(plain.body.find("<script src=\"/viewer.js\"></script>"), std::string::npos) << plain.body;
}

TEST_F(ServeE2E, StandingsAreTheStandingsJsonOfArenaReportByteForByte) {
  ASSERT_NE(server().port(), 0) << server().err();
  for (const char* name : {"alpha", "sharded"}) {
    const Response r = get(server().port(), std::string("/api/tournaments/") + name + "/standings");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body, read_file(results() / name / "standings.json")) << name;
  }
  const Response copy = get(server().port(), "/api/tournaments/alpha~2/standings");
  ASSERT_EQ(copy.status, 200) << copy.body;
  EXPECT_EQ(copy.body, read_file(results() / "alpha" / "standings.json"));
  const Response head = request(server().port(), "/api/tournaments/alpha/standings", http::verb::head);
  EXPECT_EQ(head.status, 200);
  EXPECT_TRUE(head.body.empty());
}

TEST_F(ServeE2E, AGameIsItsJournalLine) {
  ASSERT_NE(server().port(), 0) << server().err();
  for (const fs::path& journal :
       {results() / "alpha" / "games.jsonl", results() / "sharded" / "shards" / "2-of-2" / "games.jsonl"}) {
    const std::vector<std::string> lines = read_lines(journal);
    ASSERT_FALSE(lines.empty());
    const std::string id(json::parse(lines.back()).at("id").as_string());
    const std::string name = journal.string().find("sharded") != std::string::npos ? "sharded" : "alpha";
    const Response r = get(server().port(), "/api/tournaments/" + name + "/games/" + id);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body, lines.back() + "\n");
  }
  const Response unknown = get(server().port(), "/api/tournaments/alpha/games/no-such-game");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_TRUE(json::parse(unknown.body).as_object().contains("error")) << unknown.body;
}

TEST_F(ServeE2E, PathAndNameTricksAreRefusedWithoutEffect) {
  ASSERT_NE(server().port(), 0) << server().err();
  const auto before = tree_of(root());
  const std::map<std::string, int> expected = {
      {"/api/tournaments/../alpha/standings", 400},
      {"/api/tournaments/%2e%2e/standings", 400},
      {"/api/tournaments/alpha%2f..%2f..%2fother/standings", 400},
      {"/api/tournaments/alpha/games/..%2fgames.jsonl", 400},
      {"/api/tournaments/alpha/games/%2e%2e%2ftournament.json", 400},
      {"/api/tournaments/alpha%00/standings", 400},
      {"/api/tournaments/%zz/standings", 400},
      {"/api/tournaments/alpha/games/games.jsonl", 404},
      {"/api/tournaments/alpha/games/shards", 404},
      {"/api/tournaments/linked/standings", 404},
      {"/api/tournaments/nothing/standings", 404},
      {"/api/tournaments/alpha/report.html", 404},
      {"/etc/passwd", 404},
      {"/index.html", 404},
      {"/app.js/x", 404},
  };
  for (const auto& [target, status] : expected) {
    const Response r = get(server().port(), target);
    EXPECT_EQ(r.status, status) << target << ": " << r.body;
    EXPECT_TRUE(json::parse(r.body).as_object().contains("error")) << target << ": " << r.body;
  }
  EXPECT_EQ(tree_of(root()), before);
  EXPECT_EQ(get(server().port(), "/api/tournaments").status, 200);
}

TEST_F(ServeE2E, OnlyGetAndHeadAreAnswered) {
  ASSERT_NE(server().port(), 0) << server().err();
  for (http::verb verb : {http::verb::post, http::verb::put, http::verb::delete_, http::verb::patch}) {
    const Response r = request(server().port(), "/api/tournaments", verb);
    EXPECT_EQ(r.status, 405) << http::to_string(verb);
    EXPECT_EQ(r.header("Allow"), "GET, HEAD");
  }
  const Response body = request(server().port(), "/api/tournaments", http::verb::get, {{"Content-Length", "5"}});
  EXPECT_EQ(body.status, 413);
}

TEST_F(ServeE2E, AnOverLongHeaderIsRefusedAndTheServerStillAnswers) {
  ASSERT_NE(server().port(), 0) << server().err();
  asio::io_context io;
  tcp::socket socket = connect_to(io, server().port());
  const std::string text =
      "GET /api/tournaments HTTP/1.1\r\nHost: x\r\nX-Long: " + std::string(10 * 1024, 'a') + "\r\n\r\n";
  asio::write(socket, asio::buffer(text));
  const Response r = read_response(socket);
  EXPECT_TRUE(r.status == 431 || r.status == 400) << r.status;
  EXPECT_EQ(get(server().port(), "/api/tournaments").status, 200);
}

// Whether this process may open `n` more descriptors, its soft limit raised to its hard one where that is needed.
bool room_for_descriptors(rlim_t n) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return false;
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < n + 256) {
    if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < n + 256) return false;
    limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? n + 256 : limit.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) return false;
  }
  return true;
}

// How many of `sockets` the server has not closed: a read that would block (no end of file, no reset).
std::size_t still_open(std::vector<tcp::socket>& sockets) {
  std::size_t open = 0;
  for (tcp::socket& socket : sockets) {
    if (!socket.is_open()) continue;
    boost::system::error_code error;
    socket.non_blocking(true, error);
    char byte = 0;
    socket.read_some(asio::buffer(&byte, 1), error);
    if (error == asio::error::would_block)
      ++open;
    else
      socket.close(error);
  }
  return open;
}

TEST_F(ServeE2E, TwoThousandIdleConnectionsNeitherKeepARequestOutNorStayPastTheIdleTimeout) {
  constexpr std::size_t kIdle = 2000, kLimit = 512;  // the default --max-connections
  if (!room_for_descriptors(kIdle)) GTEST_SKIP() << "this process may not open " << kIdle << " sockets (ulimit -n)";
  Server s(root(), {results().string(), "--listen", "127.0.0.1:0", "--idle-timeout", "2"});
  ASSERT_NE(s.port(), 0) << s.err();
  asio::io_context io;
  std::vector<tcp::socket> idle;
  idle.reserve(kIdle);
  for (std::size_t i = 0; i < kIdle; ++i) idle.push_back(connect_to(io, s.port()));
  // Opened and left silent: each new one past the limit took the place of the longest idle one, so a request
  // is answered, and no more than the limit of them are open.
  EXPECT_EQ(get(s.port(), "/api/tournaments").status, 200);
  EXPECT_LE(still_open(idle), kLimit);
  // None of them stays past the idle timeout (2 s here); a generous deadline, not a measurement.
  std::size_t open = kIdle;
  for (int i = 0; i < 600 && open > 0; ++i) {
    open = still_open(idle);
    if (open > 0) std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(open, 0u) << "idle connections still open 60 s after a 2 s idle timeout";
  EXPECT_EQ(get(s.port(), "/api/tournaments").status, 200);
}

TEST_F(ServeE2E, ConnectionsBeyondTheLimitAreClosedWhileNoneIsIdle) {
  Server limited(root(), {results().string(), "--listen", "127.0.0.1:0", "--max-connections", "20"});
  ASSERT_NE(limited.port(), 0) << limited.err();
  asio::io_context io;
  std::vector<tcp::socket> busy;
  // Each has begun a request and not finished it (for up to the request timeout, 10 s): busy, not idle, so a new
  // connection cannot take its place.
  for (int i = 0; i < 20; ++i) {
    busy.push_back(connect_to(io, limited.port()));
    asio::write(busy.back(), asio::buffer(std::string_view("GET /api/tournaments HTTP/1.1\r\n")));
  }
  // The limit is reached once the server has read them all: a new connection is then closed at once.
  bool refused = false;
  for (int i = 0; i < 100 && !refused; ++i) {
    try {
      get(limited.port(), "/api/tournaments");
      std::this_thread::sleep_for(50ms);
    } catch (const boost::system::system_error&) {
      refused = true;
    }
  }
  EXPECT_TRUE(refused);
  busy.clear();
  std::optional<int> status;
  for (int i = 0; i < 100 && !status; ++i) {
    try {
      status = get(limited.port(), "/api/tournaments").status;
    } catch (const boost::system::system_error&) {
      std::this_thread::sleep_for(50ms);
    }
  }
  EXPECT_EQ(status, 200);
}

TEST_F(ServeE2E, ASlowClientIsCut) {
  ASSERT_NE(server().port(), 0) << server().err();
  asio::io_context io;
  tcp::socket socket = connect_to(io, server().port());
  // One byte of a request every half second, never its end: the server closes the connection (after its
  // request timeout) instead of waiting for ever. Bounded: 120 bytes.
  const std::string text = "GET /api/tournaments HTTP/1.1\r\nX-Slow: " + std::string(200, 'a');
  bool cut = false;
  for (std::size_t i = 0; i < 120 && !cut; ++i) {
    boost::system::error_code error;
    asio::write(socket, asio::buffer(text.data() + i, 1), error);
    if (error) cut = true;
    socket.non_blocking(true);
    char byte = 0;
    socket.read_some(asio::buffer(&byte, 1), error);
    if (error != asio::error::would_block) cut = true;  // end of file or reset: closed by the server
    socket.non_blocking(false);
    if (!cut) std::this_thread::sleep_for(500ms);
  }
  EXPECT_TRUE(cut);
  EXPECT_EQ(get(server().port(), "/api/tournaments").status, 200);
}

TEST_F(ServeE2E, ATournamentThatAppearsIsListedAndOneRunningSaysSo) {
  const fs::path dir = root() / "appearing";
  fs::create_directories(dir);
  Server s(root(), {dir.string(), "--listen", "127.0.0.1:0"});
  ASSERT_NE(s.port(), 0) << s.err();
  EXPECT_EQ(json::parse(get(s.port(), "/api/tournaments").body).at("tournaments").as_array().size(), 0u);
  fs::copy(results() / "alpha", dir / "late", fs::copy_options::recursive);
  // Held like a running arena holds it.
  Expected<system::DirectoryLock> lock = system::DirectoryLock::acquire(dir / "late");
  ASSERT_TRUE(lock) << lock.error();
  const json::object* late = nullptr;
  json::value list;
  for (int i = 0; i < 100 && !late; ++i) {
    list = json::parse(get(s.port(), "/api/tournaments").body);
    late = listed(list, "late");
    if (!late) std::this_thread::sleep_for(50ms);
  }
  ASSERT_TRUE(late);
  EXPECT_EQ(late->at("running"), true);
  EXPECT_EQ(late->at("games"), 4);
}

TEST_F(ServeE2E, AFolderReachedTwiceIsListedOnce) {
  Server s(root(), {results().string(), (results() / "alpha").string(), "--listen", "127.0.0.1:0"});
  ASSERT_NE(s.port(), 0) << s.err();
  const Response r = get(s.port(), "/api/tournaments");
  const json::value list = json::parse(r.body);
  EXPECT_TRUE(listed(list, "alpha")) << r.body;
  EXPECT_FALSE(listed(list, "alpha~2")) << r.body;
  EXPECT_EQ(list.at("tournaments").as_array().size(), 2u) << r.body;
}

TEST_F(ServeE2E, ANonLoopbackAddressWithoutATokenExits2BeforeBinding) {
  const RunResult r = run({kArena.string(), "serve", results().string(), "--listen", "0.0.0.0:0"}, root());
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("--token-file"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("listening"), std::string::npos) << r.out;
  const RunResult linked = run({kArena.string(), "serve", (root() / "other" / "linked").string()}, root());
  EXPECT_EQ(linked.status.code, 2) << linked.summary();
  EXPECT_NE(linked.err.find("symbolic link"), std::string::npos) << linked.err;
}

// The niceness of each thread of process `pid` (field 19 of /proc/PID/task/TID/stat).
std::vector<int> thread_nices(pid_t pid) {
  std::vector<int> nices;
  for (const fs::directory_entry& task : fs::directory_iterator(fs::path("/proc") / std::to_string(pid) / "task")) {
    const std::string stat = read_file(task.path() / "stat");
    std::istringstream fields(stat.substr(stat.rfind(')') + 2));  // from field 3, the state
    std::string field;
    for (int i = 3; i <= 19 && fields >> field; ++i) {
    }
    nices.push_back(std::stoi(field));
  }
  return nices;
}

// Every thread of the server takes --nice steps of niceness (10 by default) below the process that started it,
// so that the games of a run on the same machine come first (docs/SERVE.md); --nice 0 leaves it as it was.
TEST_F(ServeE2E, ItsThreadsYieldToTheGamesOfARunOnTheSameMachine) {
  errno = 0;
  const int own = ::getpriority(PRIO_PROCESS, 0);
  ASSERT_EQ(errno, 0);
  const std::vector<std::pair<std::vector<std::string>, int>> cases = {
      {{}, std::min(19, own + 10)}, {{"--nice", "0"}, own}, {{"--nice", "3"}, std::min(19, own + 3)}};
  for (const auto& [extra, expected] : cases) {
    std::vector<std::string> args{results().string(), "--listen", "127.0.0.1:0"};
    args.insert(args.end(), extra.begin(), extra.end());
    Server s(root(), args);
    ASSERT_NE(s.port(), 0) << s.err();
    const std::vector<int> nices = thread_nices(s.pid());
    EXPECT_GE(nices.size(), 3u) << "the connections', the catalog's and the intake's threads";
    for (int nice : nices) EXPECT_EQ(nice, expected) << (extra.empty() ? "by default" : extra.back());
  }
  const RunResult r = run({kArena.string(), "serve", results().string(), "--nice", "20"}, root());
  EXPECT_EQ(r.status.code, 2) << r.summary();
}

TEST_F(ServeE2E, WithATokenEveryRequestForResultsNeedsIt) {
  const std::string token = "s3cret-token-0123456789";
  write_file(root() / "token", token + "\n");
  Server s(root(), {results().string(), "--listen", "127.0.0.1:0", "--token-file", (root() / "token").string()});
  ASSERT_NE(s.port(), 0) << s.err();
  const Response none = get(s.port(), "/api/tournaments");
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(none.header("WWW-Authenticate"), "Bearer");
  EXPECT_EQ(get(s.port(), "/api/tournaments/alpha/standings").status, 401);
  EXPECT_EQ(get(s.port(), "/api/tournaments?token=wrong").status, 401);
  EXPECT_EQ(request(s.port(), "/api/tournaments", http::verb::get, {{"Authorization", "Bearer wrong"}}).status, 401);
  EXPECT_EQ(get(s.port(), "/api/tournaments?token=" + token).status, 200);
  EXPECT_EQ(request(s.port(), "/api/tournaments", http::verb::get, {{"Authorization", "Bearer " + token}}).status, 200);
  // A game in the viewer holds results: it needs the token too. The page's own files hold none: the page, opened
  // as /?token=TOKEN, loads them without it.
  const std::string id(json::parse(read_lines(results() / "alpha" / "games.jsonl").front()).at("id").as_string());
  EXPECT_EQ(get(s.port(), "/tournaments/alpha/games/" + id).status, 401);
  EXPECT_EQ(get(s.port(), "/tournaments/alpha/games/" + id + "?token=" + token).status, 200);
  for (const char* file : {"/", "/app.js", "/app.css", "/viewer.js", "/viewer.css"})
    EXPECT_EQ(get(s.port(), file).status, 200) << file;
}

}  // namespace
}  // namespace kalah::e2e
