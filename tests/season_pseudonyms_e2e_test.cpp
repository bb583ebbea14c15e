// A season with pseudonyms end to end (docs/SEASON.md, "Pseudonyms"): `[season] pseudonyms = true`, a revision of
// alice's uploaded through `arena serve --season`, entered and played on the ladder, then frozen and played in the
// final. Nothing public holds her name: no file of DIR/results (the ladder's and the final's journals, standings,
// reports, settings, the live plies' files, the contest's entries and logs) and no answer of the server's public
// routes (the list of tournaments, standings, games, each game, the game pages; the live stream sends what the
// live files and the journal hold, and never ends, so it is not asked). Her own page (GET /api/submissions/alice
// with her token, and /author.html in a browser) shows her pseudonym and finds her revision on the ladder by it;
// DIR/pseudonyms.txt (0600) maps it back to her for the organiser. A server started with the key turned off
// mid-season is refused at the key's place. Waits are bounded loops; no timing is asserted.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <regex>

#include <boost/json.hpp>

#include "tests/browser_util.h"
#include "tests/e2e_util.h"
#include "tests/season_util.h"
#include "tests/serve_util.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;
using namespace serve_util;
using namespace season_util;

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Where `text` holds `name` (ignoring case): a few characters around each place, for the failure's message.
std::string leaks(const std::string& where, const std::string& text, const std::string& name) {
  std::string out;
  const std::string low = lower(text);
  for (std::size_t at = low.find(name); at != std::string::npos; at = low.find(name, at + 1))
    out += where + ": ..." + text.substr(at < 40 ? 0 : at - 40, 80 + name.size()) + "...\n";
  return out;
}

// Every file under `dir` (its path and its bytes) that holds `name`.
std::string leaks_in_files(const fs::path& dir, const std::string& name) {
  std::string out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    out += leaks("file name", fs::relative(e.path(), dir).string(), name);
    if (e.is_regular_file() && !e.is_symlink()) out += leaks(e.path().string(), read_file(e.path()), name);
  }
  return out;
}

// The answers of every public route of the server about its tournaments that hold `name`.
std::string leaks_served(unsigned short port, const std::string& name) {
  std::string out;
  const auto fetch = [&](const std::string& target) {
    const Response r = request(port, target);
    out += leaks(target, r.body, name);
    return r;
  };
  fetch("/");
  const json::value list = json::parse(fetch("/api/tournaments").body);
  for (const json::value& t : list.at("tournaments").as_array()) {
    const std::string tournament(t.at("name").as_string());
    fetch("/api/tournaments/" + tournament + "/standings");
    const json::value games = json::parse(fetch("/api/tournaments/" + tournament + "/games?limit=500").body);
    if (!games.is_object() || !games.as_object().contains("games")) continue;
    int shown = 0;
    for (const json::value& g : games.at("games").as_array()) {
      if (++shown > 5) break;  // a few of each: every game is a journal line, all of them scanned as files
      const std::string id(g.at("id").as_string());
      fetch("/api/tournaments/" + tournament + "/games/" + id);
      fetch("/tournaments/" + tournament + "/games/" + id);
    }
  }
  return out;
}

class PseudonymsE2E : public SeasonE2E {
 protected:
  void SetUp() override {
    SeasonE2E::SetUp();
    if (HasFatalFailure()) return;
    server_.reset();
    // A short season: two gate games; a final of one colour-swapped pair per pairing, the sparring partners in it.
    edit("pseudonyms = false", "pseudonyms = true");
    edit("games = 20, min_score = 0.3", "games = 2, min_score = 0");
    edit("pairs = 2", "pairs = 1");
    edit("final = \"round-robin\"", "final = \"round-robin\"\nfinal_sparring = true");
    start();
  }
  // season.toml with `from` replaced by `to` (its server stopped).
  void edit(const std::string& from, const std::string& to) {
    std::string text = read_file(dir() / "season.toml");
    ASSERT_NE(text.find(from), std::string::npos) << from;
    text.replace(text.find(from), from.size(), to);
    write_file(dir() / "season.toml", text);
  }
  // The ladder's journal once a game of an engine whose name ends in `bot` is in it (bounded).
  bool ladder_plays(const std::string& bot) {
    const fs::path journal = dir() / "results" / "ladder" / "games.jsonl";
    for (int i = 0; i < 1500; ++i) {
      if (fs::exists(journal) && read_file(journal).find(bot + "\"") != std::string::npos) return true;
      std::this_thread::sleep_for(200ms);
    }
    return false;
  }
  RunResult season_command(const std::string& verb) {
    return run({kArena.string(), "season", verb, (dir() / "season.toml").string()}, temp_.path(), 120s);
  }
};

TEST_F(PseudonymsE2E, NoPublicPageOrFileNamesTheAuthorWhoseOwnPageShowsHerPseudonym) {
  const std::string alice = bearer(tokens_["alice"]);
  ASSERT_EQ(upload(server_->port(), alice, "ada.c", source("configs/contest/submissions/ada/ada.c")).status, 201);
  const json::object r1 = finished(server_->port(), tokens_["alice"], "alice", 1);
  ASSERT_EQ(r1.at("status"), "entered") << json::serialize(r1);

  // Her page: her pseudonym, and her revision's bot under it.
  const Response mine = request(server_->port(), "/api/submissions/alice", http::verb::get, {{"Authorization", alice}});
  ASSERT_EQ(mine.status, 200) << mine.body;
  const std::string pseudonym(json::parse(mine.body).at("pseudonym").as_string());
  EXPECT_TRUE(std::regex_match(pseudonym, std::regex("[a-z]+-[a-z]+-[1-9][0-9]"))) << pseudonym;
  const std::string bot = pseudonym + "-r1";
  EXPECT_EQ(r1.at("bot").as_string(), bot);
  // The organiser's map back: DIR/pseudonyms.txt, readable by its owner only.
  EXPECT_NE(read_file(dir() / "pseudonyms.txt").find("\nalice " + pseudonym + "\n"), std::string::npos);
  struct stat st {};
  ASSERT_EQ(::stat((dir() / "pseudonyms.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  // The ladder plays her revision (its only one, whatever its name: the first game of a revision); nothing public
  // says who she is; its engine is her pseudonym's.
  ASSERT_TRUE(ladder_plays("-r1")) << read_file(dir() / "season.log");
  EXPECT_EQ(leaks_in_files(dir() / "results", "alice"), "");
  EXPECT_EQ(leaks_served(server_->port(), "alice"), "");
  EXPECT_TRUE(ladder_plays(bot)) << read_file(dir() / "season.log");

  // Her page in a browser finds her row and games on the ladder by her pseudonym, and says it.
  if (!browser::missing_browser(temp_.path())) {
    const std::string url =
        "http://127.0.0.1:" + std::to_string(server_->port()) + "/author.html#author=alice&token=" + tokens_["alice"];
    const json::value shown = browser::open_page(temp_.path(), url, "author", server_->err());
    ASSERT_TRUE(shown.is_object());
    EXPECT_NE(json::serialize(shown.at("ladder")).find(bot), std::string::npos) << shown;
    EXPECT_NE(shown.at("public_name").as_string().find(pseudonym), std::string::npos) << shown;
  }

  // Turned off mid-season: the server is refused at the key, and her revision keeps its name.
  server_.reset();
  edit("pseudonyms = true", "pseudonyms = false");
  server_ = std::make_unique<Server>(
      temp_.path(), std::vector<std::string>{"--season", (dir() / "season.toml").string(), "--listen", "127.0.0.1:0"});
  const std::optional<ExitStatus> refused = server_->ended(30s);
  ASSERT_TRUE(refused) << server_->out();
  EXPECT_EQ(refused->code, 2);
  EXPECT_NE(server_->err().find("season.toml:8:14: season.pseudonyms = false, but this season named its revisions by "
                                "pseudonyms before (alice's revision 1 is " +
                                bot + ", not alice-r1)"),
            std::string::npos)
      << server_->err();
  server_.reset();
  edit("pseudonyms = false", "pseudonyms = true");

  // The final plays her frozen revision under the same name; freeze.json (the organiser's) says whose it is.
  const RunResult frozen = season_command("freeze");
  ASSERT_EQ(frozen.status.code, 0) << frozen.summary();
  EXPECT_NE(read_file(dir() / "freeze.json").find("\"author\":\"alice\",\"revision\":1,\"engine\":\"" + bot + "\""),
            std::string::npos)
      << read_file(dir() / "freeze.json");
  const RunResult final = season_command("final");
  ASSERT_EQ(final.status.code, 0) << final.summary();
  EXPECT_NE(read_file(dir() / "results" / "final" / "games.jsonl").find("\"" + bot + "\""), std::string::npos);
  EXPECT_EQ(leaks_in_files(dir() / "results", "alice"), "");
  start();
  ASSERT_NE(server_->port(), 0) << server_->err();
  EXPECT_EQ(leaks_served(server_->port(), "alice"), "");
  // The same pseudonym after every restart.
  const Response again =
      request(server_->port(), "/api/submissions/alice", http::verb::get, {{"Authorization", alice}});
  EXPECT_EQ(json::parse(again.body).at("pseudonym").as_string(), pseudonym);
}

}  // namespace
}  // namespace kalah::e2e
