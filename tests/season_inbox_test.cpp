// A season's watched submissions folder on its own (docs/SEASON.md, "A watched folder"): what a look takes as ready
// (a regular file unchanged since the look before), what it refuses at sight without opening or following it (a link,
// a FIFO, a folder, a hard link) and what it only reports (an unknown author, a stray file, a linked author folder);
// and the watcher over a real revision store: a file stored then removed, a bad archive moved aside with its reason,
// a file a killed server left claimed taken once, never twice. Every look is called by the test: no waiting.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "arena/integrity/sha256.h"
#include "arena/season/inbox.h"
#include "arena/season/init.h"
#include "arena/season/watcher.h"
#include "referee/system/temp_folder.h"
#include "tests/e2e_util.h"
#include "tests/files.h"

namespace kalah::season {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::write_file;

class SeasonInbox : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(inbox() / "alice");
    fs::create_directories(inbox() / "bob");
    config_.dir = temp_.path();
    config_.limits.max_upload_bytes = 8u << 10;
  }
  fs::path inbox() const { return temp_.path() / "inbox"; }
  Inbox open_inbox() const {
    Expected<Inbox> opened = Inbox::open(inbox(), {"alice", "bob"});
    EXPECT_TRUE(opened) << opened.error();
    return std::move(opened).value();
  }
  std::string log() const {
    return fs::exists(temp_.path() / "season.log") ? read_file(temp_.path() / "season.log") : "";
  }
  // The files of INBOX/.refused/AUTHOR, and the reasons beside them.
  std::vector<std::string> refused(const std::string& author) const {
    std::vector<std::string> names;
    if (!fs::exists(inbox() / ".refused" / author)) return names;
    for (const auto& e : fs::directory_iterator(inbox() / ".refused" / author)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }

  system::TempFolder temp_{"season-inbox"};
  SeasonConfig config_;
};

std::vector<std::string> names_of(const std::vector<InboxFile>& files) {
  std::vector<std::string> out;
  for (const InboxFile& f : files) out.push_back(f.author + "/" + f.name);
  return out;
}

std::string reasons(const InboxLook& look) {
  std::string out;
  for (const auto& [file, reason] : look.refused) out += file.author + "/" + file.name + ": " + reason + "\n";
  return out;
}

// --- the key ---

TEST(SeasonWatchKey, IsAFolderOfItsOwnRelativeToTheSeasonsNeverOneTheArenaWrites) {
  const std::string bots = e2e::reachable(KALAH_BINARY_DIR "/bots").string();
  if (const char* path = std::getenv("PATH"); !path || !std::string(path).starts_with(bots))
    ::setenv("PATH", (bots + ":" + (path ? path : "")).c_str(), 1);
  system::TempFolder temp("season-watch-key");
  fs::create_directory(temp.path() / kSubmissionsFolder);
  const auto with = [&](const std::string& watch) {
    std::string text = season_toml(temp.path());
    text.replace(text.find("[season]\n"), 9, "[season]\nwatch = " + watch + "\n");
    return parse_season(text, "season.toml", temp.path());
  };
  EXPECT_TRUE(with("\"inbox\"").value().watch == temp.path() / "inbox");
  EXPECT_TRUE(with("\"/srv/lms/kalah\"").value().watch == "/srv/lms/kalah");
  EXPECT_TRUE(parse_season(season_toml(temp.path()), "season.toml", temp.path()).value().watch.empty());
  for (const auto& [watch, says] : std::vector<std::pair<std::string, std::string>>{
           {"\"revisions/x\"", "season.toml:7:9: season.watch must be a folder of its own"},
           {"\"status\"", "season.toml:7:9: season.watch must be a folder of its own"},
           {"\".\"", "season.toml:7:9: season.watch must be a folder of its own inside or beside the season's"},
           {"\"..\"", "season.toml:7:9: season.watch must be a folder of its own inside or beside the season's"},
           {"\"\"", "season.toml:7:9: season.watch must not be empty"},
           {"1", "season.toml:7:9: season.watch must be a string"},
           {"\"submissions\"", "season.toml: season.watch must be a folder of its own"},
           {"\"results/season\"", "season.toml: season.watch must be a folder of its own"}}) {
    const Expected<SeasonConfig> refused = with(watch);
    ASSERT_FALSE(refused) << watch;
    EXPECT_TRUE(refused.error().starts_with(says)) << watch << ": " << refused.error();
  }
}

// --- the looks ---

TEST_F(SeasonInbox, AFileIsReadyOnlyOnceTwoLooksSawItUnchanged) {
  Inbox box = open_inbox();
  write_file(inbox() / "alice" / "bot.py", "print(1)\n");
  EXPECT_TRUE(box.look().ready.empty());
  // Still being written: it grew between the looks.
  write_file(inbox() / "alice" / "bot.py", "print(1)\nprint(2)\n");
  EXPECT_TRUE(box.look().ready.empty());
  EXPECT_EQ(names_of(box.look().ready), std::vector<std::string>{"alice/bot.py"});
  // A name starting with '.' is a file in progress (rsync's temporary, a rename into place to come).
  write_file(inbox() / "bob" / ".bot.py.Xy12", "print(3)\n");
  box.look();
  EXPECT_EQ(names_of(box.look().ready), std::vector<std::string>{"alice/bot.py"});
}

TEST_F(SeasonInbox, LinksSpecialFilesFoldersAndHardLinksAreRefusedAtSightNeverOpened) {
  write_file(temp_.path() / "secret.py", "print('the organiser's file')\n");
  fs::create_symlink(temp_.path() / "secret.py", inbox() / "alice" / "bot.py");
  ASSERT_EQ(::mkfifo((inbox() / "alice" / "pipe.py").c_str(), 0644), 0);
  fs::create_directory(inbox() / "alice" / "sub");
  fs::create_hard_link(temp_.path() / "secret.py", inbox() / "bob" / "hard.py");
  Inbox box = open_inbox();
  const InboxLook look = box.look();
  EXPECT_TRUE(look.ready.empty());
  const std::string why = reasons(look);
  EXPECT_NE(why.find("alice/bot.py: a symbolic link: never followed"), std::string::npos) << why;
  EXPECT_NE(why.find("alice/pipe.py: a special file (a FIFO, a device or a socket): never opened"), std::string::npos)
      << why;
  EXPECT_NE(why.find("alice/sub: a folder"), std::string::npos) << why;
  EXPECT_NE(why.find("bob/hard.py: a file with 2 hard links"), std::string::npos) << why;
  EXPECT_TRUE(box.look().ready.empty()) << "never ready, however long they stay";
}

TEST_F(SeasonInbox, UnknownAuthorsStrayFilesAndLinkedAuthorFoldersAreReportedOnceAndLeftAlone) {
  fs::create_directories(inbox() / "carol");
  write_file(inbox() / "carol" / "bot.py", "print(1)\n");
  write_file(inbox() / "notes.txt", "x");
  fs::remove(inbox() / "bob");
  fs::create_directories(temp_.path() / "elsewhere");
  write_file(temp_.path() / "elsewhere" / "bot.py", "print(2)\n");
  fs::create_directory_symlink(temp_.path() / "elsewhere", inbox() / "bob");
  Inbox box = open_inbox();
  const InboxLook first = box.look();
  std::string said;
  for (const std::string& r : first.reports) said += r + "\n";
  EXPECT_NE(said.find("/inbox/carol: no author of this season has this name"), std::string::npos) << said;
  EXPECT_NE(said.find("/inbox/notes.txt: not a folder"), std::string::npos) << said;
  EXPECT_NE(said.find("/inbox/bob: a symbolic link, never followed: not taken in"), std::string::npos) << said;
  const InboxLook second = box.look();
  EXPECT_TRUE(second.reports.empty()) << "said once while it stays as it is";
  EXPECT_TRUE(second.ready.empty());
  EXPECT_TRUE(fs::exists(inbox() / "carol" / "bot.py"));
  EXPECT_TRUE(fs::exists(temp_.path() / "elsewhere" / "bot.py"));
}

// The watcher over a real store; a file taken in as an upload would be (checked, stored), without the pipeline.
class SeasonWatcher : public SeasonInbox {
 protected:
  void SetUp() override {
    SeasonInbox::SetUp();
    Expected<RevisionStore> opened = RevisionStore::open(temp_.path() / "revisions");
    ASSERT_TRUE(opened) << opened.error();
    store_.emplace(std::move(opened).value());
    taker_.take = [this](const std::string& author, const std::string& file,
                         std::string_view content) -> std::variant<Revision, Refusal> {
      UploadSummary summary;
      if (std::optional<Refusal> refusal = inspect_upload(file, content, config_.limits, summary)) return *refusal;
      Expected<Revision> r = store_->add(author, file, content, summary, "inbox");
      if (!r) return Refusal{500, r.error()};
      return *r;
    };
  }
  std::unique_ptr<InboxWatcher> watcher() {
    return std::make_unique<InboxWatcher>(config_, *store_, open_inbox(), taker_);
  }
  std::vector<Revision> revisions(const std::string& author) const { return store_->list(author).value(); }

  std::optional<RevisionStore> store_;
  InboxTaker taker_;
};

TEST_F(SeasonWatcher, AReadyFileIsStoredAsARevisionThenRemovedAndABadArchiveIsMovedAsideWithItsReason) {
  const std::unique_ptr<InboxWatcher> w = watcher();
  write_file(inbox() / "alice" / "bot.py", "print(1)\n");
  write_file(inbox() / "bob" / "bot.tar.gz", "not an archive");
  w->look_once();
  EXPECT_TRUE(revisions("alice").empty()) << "seen once";
  w->look_once();
  const std::vector<Revision> taken = revisions("alice");
  ASSERT_EQ(taken.size(), 1u);
  EXPECT_EQ(taken[0].file, "bot.py");
  EXPECT_EQ(taken[0].via, "inbox");
  EXPECT_EQ(taken[0].sha256, integrity::sha256_hex("print(1)\n"));
  EXPECT_EQ(read_file(store_->folder("alice", 1) / "bot.py"), "print(1)\n");
  EXPECT_TRUE(fs::is_empty(inbox() / "alice"));
  EXPECT_TRUE(revisions("bob").empty());
  const std::vector<std::string> aside = refused("bob");
  ASSERT_EQ(aside.size(), 2u);
  EXPECT_TRUE(aside[0].ends_with("-bot.tar.gz")) << aside[0];
  EXPECT_EQ(aside[1], aside[0] + ".why");
  EXPECT_EQ(read_file(inbox() / ".refused" / "bob" / aside[0]), "not an archive");
  EXPECT_NE(read_file(inbox() / ".refused" / "bob" / aside[1]).find("the archive cannot be read"), std::string::npos);
  EXPECT_NE(log().find("inbox/alice/bot.py taken as alice-r1 (revision 1, sha256 "), std::string::npos) << log();
  EXPECT_NE(log().find("inbox/bob/bot.tar.gz refused: the archive cannot be read"), std::string::npos) << log();
}

TEST_F(SeasonWatcher, ALinkAndAFifoAreMovedAsideUnopenedAndTheFileBehindTheLinkIsNeverTaken) {
  write_file(temp_.path() / "secret.py", "print('not an author's')\n");
  fs::create_symlink(temp_.path() / "secret.py", inbox() / "alice" / "bot.py");
  ASSERT_EQ(::mkfifo((inbox() / "alice" / "pipe.py").c_str(), 0644), 0);
  const std::unique_ptr<InboxWatcher> w = watcher();
  w->look_once();
  w->look_once();
  EXPECT_TRUE(revisions("alice").empty());
  EXPECT_EQ(read_file(temp_.path() / "secret.py"), "print('not an author's')\n");
  EXPECT_TRUE(fs::is_empty(inbox() / "alice"));
  const std::vector<std::string> aside = refused("alice");
  ASSERT_EQ(aside.size(), 4u);
  EXPECT_TRUE(fs::is_symlink(inbox() / ".refused" / "alice" / aside[0])) << "moved as a link, never followed";
  EXPECT_TRUE(fs::is_fifo(inbox() / ".refused" / "alice" / aside[2]));
  EXPECT_NE(read_file(inbox() / ".refused" / "alice" / aside[1]).find("symbolic link"), std::string::npos);
  EXPECT_NE(read_file(inbox() / ".refused" / "alice" / aside[3]).find("special file"), std::string::npos);
}

TEST_F(SeasonWatcher, AFileAKilledServerLeftClaimedIsTakenOnceNeverTwice) {
  {
    const std::unique_ptr<InboxWatcher> w = watcher();
    write_file(inbox() / "alice" / "bot.py", "print(1)\n");
    w->look_once();
    w->look_once();
  }
  ASSERT_EQ(revisions("alice").size(), 1u);
  // A kill between the store and the removal leaves the claimed file; a kill between the claim and the store, another.
  write_file(inbox() / "alice" / (std::string(kClaimPrefix) + "bot.py"), "print(1)\n");
  write_file(inbox() / "bob" / (std::string(kClaimPrefix) + "bot.py"), "print(2)\n");
  const std::unique_ptr<InboxWatcher> w = watcher();
  w->look_once();
  w->look_once();
  EXPECT_EQ(revisions("alice").size(), 1u) << log();
  ASSERT_EQ(revisions("bob").size(), 1u) << log();
  EXPECT_EQ(revisions("bob")[0].file, "bot.py");
  EXPECT_TRUE(fs::is_empty(inbox() / "alice"));
  EXPECT_TRUE(fs::is_empty(inbox() / "bob"));
  EXPECT_NE(log().find("inbox/alice/bot.py is alice-r1 already"), std::string::npos) << log();
  // The same name with other bytes is a new revision.
  write_file(inbox() / "alice" / "bot.py", "print(3)\n");
  w->look_once();
  w->look_once();
  EXPECT_EQ(revisions("alice").size(), 2u);
}

TEST_F(SeasonWatcher, AClosedSeasonTakesNothingInAndSaysWhyOnce) {
  taker_.closed = [] { return std::optional<std::string>("the season's deadline, 2026-01-01T00:00:00Z, has passed"); };
  const std::unique_ptr<InboxWatcher> w = watcher();
  write_file(inbox() / "alice" / "bot.py", "print(1)\n");
  for (int i = 0; i < 3; ++i) w->look_once();
  EXPECT_TRUE(revisions("alice").empty());
  EXPECT_TRUE(fs::exists(inbox() / "alice" / "bot.py"));
  const std::string said = log();
  const std::string line =
      "the season's deadline, 2026-01-01T00:00:00Z, has passed: " + inbox().string() + " is not taken in";
  EXPECT_NE(said.find(line), std::string::npos) << said;
  EXPECT_EQ(said.find(line), said.rfind(line)) << said;
}

}  // namespace
}  // namespace kalah::season
