// A season's watched submissions folder end to end (docs/SEASON.md, "A watched folder"): `arena serve --season` with
// `[season] watch = "inbox"` takes a file dropped as inbox/AUTHOR/FILE in as that author's revision (built, checked,
// gated and entered like an upload); refuses a link, a FIFO and a bad archive with their reasons beside them, never
// following or opening them; reports an unknown author; after kill -9 at any moment loses no file and takes none
// twice (killed 12 times as it takes 24 files in, mostly between a store and the removal); and takes nothing in
// once the season is frozen. Waits are bounded loops; no timing is asserted.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <functional>
#include <map>

#include <boost/json.hpp>

#include "arena/integrity/sha256.h"
#include "tests/season_util.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;
using namespace serve_util;
using namespace season_util;

class SeasonInboxE2E : public SeasonE2E {
 protected:
  // The season watches DIR/inbox from its next start on.
  void watch() {
    server_.reset();
    std::string config = read_file(dir() / "season.toml");
    config.replace(config.find("[season]\n"), 9, "[season]\nwatch = \"inbox\"\n");
    write_file(dir() / "season.toml", config);
    start();
  }
  fs::path inbox() const { return dir() / "inbox"; }
  // As a sync that renames into place drops a file: written under a name starting with '.', then renamed.
  void drop(const std::string& author, const std::string& name, const std::string& content) {
    fs::create_directories(inbox() / author);
    write_file(inbox() / author / ("." + name + ".part"), content);
    fs::rename(inbox() / author / ("." + name + ".part"), inbox() / author / name);
  }
  json::array revisions(const std::string& author) {
    const Response r = request(server_->port(), "/api/submissions/" + author, http::verb::get,
                               {{"Authorization", bearer(tokens_[author])}});
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body).at("revisions").as_array();
  }
  std::string log() const { return fs::exists(dir() / "season.log") ? read_file(dir() / "season.log") : ""; }
  // Whether the author's inbox folder holds nothing but names starting with '.' other than claimed files.
  bool emptied(const std::string& author) const {
    for (const auto& e : fs::directory_iterator(inbox() / author)) {
      const std::string name = e.path().filename();
      if (!name.starts_with('.') || name.starts_with(".arena-taking-")) return false;
    }
    return true;
  }
};

// Waits (bounded: 60 s) for `done`.
bool eventually(const std::function<bool()>& done) {
  for (int i = 0; i < 600; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(100ms);
  }
  return done();
}

TEST_F(SeasonInboxE2E, AFileDroppedInTheInboxBecomesAnEnteredRevision) {
  watch();
  EXPECT_NE(server_->out().find("arena serve: watching " + inbox().string()), std::string::npos) << server_->out();
  const std::string ada = source("configs/contest/submissions/ada/ada.c");
  drop("alice", "ada.c", ada);
  ASSERT_TRUE(eventually([&] { return emptied("alice") && !revisions("alice").empty(); })) << log();
  const json::object done = finished(server_->port(), tokens_["alice"], "alice", 1);
  EXPECT_EQ(done.at("status"), "entered") << json::serialize(done);
  EXPECT_EQ(done.at("via"), "inbox");
  EXPECT_EQ(done.at("file"), "ada.c");
  EXPECT_EQ(std::string(done.at("sha256").as_string()), integrity::sha256_hex(ada));
  EXPECT_EQ(read_file(dir() / "revisions" / "alice" / "1" / "ada.c"), ada);
  EXPECT_NE(log().find("inbox/alice/ada.c taken as alice-r1"), std::string::npos) << log();
}

TEST_F(SeasonInboxE2E, ALinkAFifoABadArchiveAndAnUnknownAuthorAreRefusedOrReportedNeverFollowed) {
  watch();
  write_file(temp_.path() / "secret.py", "print('the organiser's own file')\n");
  fs::create_directories(inbox() / "alice");
  fs::create_symlink(temp_.path() / "secret.py", inbox() / "alice" / "bot.py");
  ASSERT_EQ(::mkfifo((inbox() / "alice" / "pipe.py").c_str(), 0644), 0);
  drop("alice", "bot.zip", "not a zip");
  drop("carol", "bot.py", "print(1)\n");
  drop("bob", "bot.py", "print(2)\n");
  ASSERT_TRUE(eventually([&] { return emptied("alice") && revisions("bob").size() == 1; })) << log();
  EXPECT_TRUE(revisions("alice").empty());
  EXPECT_EQ(read_file(temp_.path() / "secret.py"), "print('the organiser's own file')\n");
  std::map<std::string, std::string> why;  // a refused file's name without its stamp -> its reason
  for (const auto& e : fs::directory_iterator(inbox() / ".refused" / "alice"))
    if (const std::string name = e.path().filename(); name.ends_with(".why"))
      why[name.substr(name.find('-', 11) + 1)] = read_file(e.path());
  ASSERT_EQ(why.size(), 3u) << log();
  EXPECT_NE(why["bot.py.why"].find("a symbolic link: never followed"), std::string::npos) << why["bot.py.why"];
  EXPECT_NE(why["pipe.py.why"].find("a special file"), std::string::npos) << why["pipe.py.why"];
  EXPECT_NE(why["bot.zip.why"].find("the archive cannot be read"), std::string::npos) << why["bot.zip.why"];
  EXPECT_TRUE(fs::exists(inbox() / "carol" / "bot.py"));
  EXPECT_NE(log().find("inbox/carol: no author of this season has this name"), std::string::npos) << log();
}

TEST_F(SeasonInboxE2E, AServerKilledAtAnyMomentLosesNoFileAndTakesNoneTwice) {
  watch();
  constexpr int kFiles = 24;
  std::map<std::string, int> digests;  // each file's SHA-256 -> how often it is stored
  for (int i = 1; i <= kFiles; ++i) {
    const std::string content = "print(" + std::to_string(i) + ")\n";
    drop("alice", "b" + std::to_string(i) + ".py", content);
    digests[integrity::sha256_hex(content)] = 0;
  }
  const auto stored = [&] {
    std::size_t n = 0;
    if (fs::exists(dir() / "revisions" / "alice"))
      for (const auto& e : fs::directory_iterator(dir() / "revisions" / "alice"))
        n += !e.path().filename().string().starts_with('.');
    return n;
  };
  // Killed as soon as it stored one more, while it takes the next in: at a different moment of the work each time.
  for (int kills = 0; kills < 12 && !emptied("alice"); ++kills) {
    const std::size_t before = stored();
    for (int i = 0; i < 20000 && stored() == before && !emptied("alice"); ++i)
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    server_->kill_now();
    start();
  }
  ASSERT_TRUE(eventually([&] { return emptied("alice"); })) << log();
  for (const json::value& r : revisions("alice")) ++digests[std::string(r.at("sha256").as_string())];
  for (const auto& [digest, count] : digests) EXPECT_EQ(count, 1) << digest << "\n" << log();
  EXPECT_EQ(digests.size(), std::size_t{kFiles}) << "nothing else was stored";
  EXPECT_FALSE(fs::exists(inbox() / ".refused"));
}

TEST_F(SeasonInboxE2E, AFrozenSeasonTakesNothingInAndSaysWhy) {
  server_.reset();
  const RunResult frozen = run({kArena.string(), "season", "freeze", (dir() / "season.toml").string()}, temp_.path());
  ASSERT_EQ(frozen.status.code, 0) << frozen.summary();
  drop("alice", "bot.py", "print(1)\n");
  watch();
  EXPECT_NE(server_->out().find("uploads are refused, the watched folder is not taken in"), std::string::npos)
      << server_->out();
  EXPECT_NE(log().find("(arena season freeze): " + inbox().string() + " is not taken in"), std::string::npos) << log();
  EXPECT_TRUE(fs::exists(inbox() / "alice" / "bot.py"));
  EXPECT_FALSE(fs::exists(dir() / "revisions" / "alice"));
}

}  // namespace
}  // namespace kalah::e2e
