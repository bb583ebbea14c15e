// referee/system: atomic replacement (and what it leaves behind when it fails or is killed),
// finding executables, the UTC clock.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "referee/system/directory_lock.h"
#include "referee/system/executable.h"
#include "referee/system/files.h"
#include "referee/system/path_walk.h"
#include "referee/system/temp_folder.h"
#include "referee/system/utc_time.h"
#include "tests/files.h"
#include "tests/support/text_match.h"

namespace kalah::system {
namespace {

namespace fs = std::filesystem;

class SystemTest : public ::testing::Test {
 protected:
  // Every name in the test's folder.
  std::set<std::string> names() const {
    std::set<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.insert(e.path().filename().string());
    return out;
  }

  std::string read(const fs::path& path) const {
    std::string content;
    EXPECT_FALSE(read_file(path, content).has_value()) << path;
    return content;
  }

  void make_file(const fs::path& path, const std::string& content, fs::perms perms) const {
    std::ofstream(path) << content;
    fs::permissions(path, perms);
  }

  // The host part of temporary names: gethostname with '/' and '-' replaced.
  static std::string host_name() {
    char buffer[256] = {};
    ::gethostname(buffer, sizeof buffer - 1);
    std::string host(buffer);
    for (char& c : host)
      if (c == '/' || c == '-') c = '_';
    return host.empty() ? "localhost" : host;
  }

  system::TempFolder temp_{"kalah-system-test"};
  const fs::path& dir_ = temp_.path();
};

// ---- atomic replacement

TEST_F(SystemTest, AtomicWriteReplacesTheFileAndLeavesNothingElse) {
  const fs::path file = dir_ / "standings.json";
  for (Durability d : {Durability::Durable, Durability::Rebuildable}) {
    ASSERT_FALSE(write_file_atomically(file, "old", d));
    ASSERT_FALSE(write_file_atomically(file, "new content\n", d));
    EXPECT_EQ(read(file), "new content\n");
    EXPECT_EQ(names(), std::set<std::string>{"standings.json"});
  }
}

TEST_F(SystemTest, AtomicWriteJoinsItsPartsWithoutCopies) {
  const fs::path file = dir_ / "table.bin";
  const std::string big(1 << 20, 'x');
  const std::string_view parts[] = {"head", std::string_view("\0\1", 2), big};
  ASSERT_FALSE(write_file_atomically(file, parts));
  const std::string content = read(file);
  EXPECT_EQ(content.size(), 4 + 2 + big.size());
  EXPECT_EQ(content.substr(0, 6), std::string("head\0\1", 6));
}

// Failures name the path and leave no temporary behind (cases that fail for root too: CI is root).
TEST_F(SystemTest, AtomicWriteFailuresLeaveNoTemporary) {
  const std::optional<std::string> missing_dir = write_file_atomically(dir_ / "no" / "such" / "file", "x");
  ASSERT_TRUE(missing_dir);
  EXPECT_NE(missing_dir->find("cannot create"), std::string::npos) << *missing_dir;

  fs::create_directory(dir_ / "report.html");  // the target is a directory: the rename fails
  const std::optional<std::string> onto_dir = write_file_atomically(dir_ / "report.html", "x");
  ASSERT_TRUE(onto_dir);
  EXPECT_NE(onto_dir->find("cannot replace"), std::string::npos) << *onto_dir;
  EXPECT_EQ(names(), std::set<std::string>{"report.html"});
}

// A link planted where a temporary could go is never written through: temporaries are created
// with O_EXCL|O_NOFOLLOW under a name unique to the process and call.
TEST_F(SystemTest, AtomicWriteNeverFollowsAPlantedLink) {
  const fs::path victim = dir_ / "victim";
  make_file(victim, "untouched", fs::perms::owner_read | fs::perms::owner_write);
  // Every name this process's next temporaries could take.
  for (int i = 0; i < 256; ++i)
    fs::create_symlink(victim,
                       dir_ / (".f.tmp-" + host_name() + "-" + std::to_string(::getpid()) + "-" + std::to_string(i)));
  const std::optional<std::string> error = write_file_atomically(dir_ / "f", "new");
  ASSERT_TRUE(error) << "the temporary's name was taken by a link: the write must fail, not follow it";
  EXPECT_NE(error->find("cannot create"), std::string::npos) << *error;
  EXPECT_EQ(read(victim), "untouched");
  EXPECT_FALSE(fs::exists(dir_ / "f"));
}

TEST_F(SystemTest, StaleTemporariesOfDeadWritersAreRemovedAndLiveOnesKept) {
  const std::string host = host_name();
  // A pid that is certainly not running: a child that has been reaped.
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ASSERT_GT(dead, 0);
  int status = 0;
  ASSERT_EQ(::waitpid(dead, &status, 0), dead);

  const std::string stale = ".games.pgn.tmp-" + host + "-" + std::to_string(dead) + "-3";
  const std::string mine = ".games.pgn.tmp-" + host + "-" + std::to_string(::getpid()) + "-0";
  const std::string parent = ".games.pgn.tmp-" + host + "-" + std::to_string(::getppid()) + "-0";
  const std::string other_host = ".games.pgn.tmp-elsewhere-" + std::to_string(dead) + "-3";
  const std::vector<std::string> not_ours = {"games.pgn", ".games.pgn.tmp-" + host + "-x-1",
                                             ".games.pgn.tmp-" + host + "-12-", "notes.tmp-1-2"};
  for (const std::string& n : {stale, mine, parent, other_host}) make_file(dir_ / n, "t", fs::perms::owner_all);
  for (const std::string& n : not_ours) make_file(dir_ / n, "t", fs::perms::owner_all);

  EXPECT_EQ(remove_stale_temporaries(dir_), std::vector<std::string>{stale});
  std::set<std::string> left = {mine, parent, other_host};
  left.insert(not_ours.begin(), not_ours.end());
  EXPECT_EQ(names(), left);
  EXPECT_TRUE(remove_stale_temporaries(dir_ / "missing").empty());
}

// ---- executables

// ---- the results-directory lock

TEST_F(SystemTest, ADirectoryLockRefusesASecondHolderNamingTheFirst) {
  Expected<DirectoryLock> first = DirectoryLock::acquire(dir_);
  ASSERT_TRUE(first.ok()) << first.error();
  // flock locks belong to an open file: a second open in this very process is a second holder.
  Expected<DirectoryLock> second = DirectoryLock::acquire(dir_);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().find(dir_.string() + " is in use by pid " + std::to_string(::getpid()) + " on host "),
            std::string::npos)
      << second.error();
  first = Error{"released"};  // the lock goes with its descriptor
  EXPECT_TRUE(DirectoryLock::acquire(dir_).ok());
}

TEST_F(SystemTest, ADirectoryLockDiesWithAKilledHolder) {
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Expected<DirectoryLock> held = DirectoryLock::acquire(dir_);
    const char c = held.ok() ? 'y' : 'n';
    if (::write(ready[1], &c, 1) != 1) ::_exit(1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ::close(ready[0]);
  ::close(ready[1]);
  ASSERT_EQ(c, 'y');
  Expected<DirectoryLock> refused = DirectoryLock::acquire(dir_);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("in use by pid " + std::to_string(child)), std::string::npos) << refused.error();
  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(DirectoryLock::acquire(dir_).ok()) << "the kernel dropped the killed holder's lock";
}

// A server's ladder forks an engine while a build holds a contest's lock: the child holds a copy of the lock's open
// file until its exec. The build's release and the next acquire in the same process must not fail on that copy.
TEST_F(SystemTest, ADirectoryLockReleasedWhileAForkedChildHoldsItsCopyIsTakenOnceTheChildExecs) {
  Expected<DirectoryLock> first = DirectoryLock::acquire(dir_);
  ASSERT_TRUE(first.ok()) << first.error();
  int go[2];
  ASSERT_EQ(::pipe(go), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // between fork and exec, holding the copy
    char c = 0;
    if (::read(go[0], &c, 1) != 1) ::_exit(1);
    ::usleep(100'000);
    ::execl("/bin/true", "true", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(go[0]);
  first = Error{"released"};
  ASSERT_EQ(::write(go[1], "x", 1), 1);
  ::close(go[1]);
  Expected<DirectoryLock> again = DirectoryLock::acquire(dir_);
  EXPECT_TRUE(again.ok()) << again.error();
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
}

TEST_F(SystemTest, AtomicFileStreamsLargeContentAndCommitsOnce) {
  const fs::path target = dir_ / "big.txt";
  make_file(target, "old", fs::perms::owner_read | fs::perms::owner_write);
  std::string expected;
  {
    AtomicFile file;
    ASSERT_FALSE(AtomicFile::create(target, file));
    for (int i = 0; i < 50'000; ++i) {
      const std::string line = "line " + std::to_string(i) + " " + std::string(i % 97, 'x') + "\n";
      expected += line;
      ASSERT_FALSE(file.write(line));
    }
    EXPECT_EQ(read(target), "old") << "nothing is visible before commit";
    ASSERT_FALSE(file.commit(Durability::Rebuildable));
  }
  EXPECT_EQ(read(target), expected);
  EXPECT_EQ(names(), (std::set<std::string>{"big.txt"}));
  {
    AtomicFile abandoned;
    ASSERT_FALSE(AtomicFile::create(target, abandoned));
    ASSERT_FALSE(abandoned.write("never committed"));
  }
  EXPECT_EQ(read(target), expected);
  EXPECT_EQ(names(), (std::set<std::string>{"big.txt"})) << "an abandoned file leaves no temporary";
}

TEST_F(SystemTest, FindsExecutablesByPathOrOnPath) {
  fs::create_directories(dir_ / "bin");
  fs::create_directories(dir_ / "first");
  fs::create_directories(dir_ / "engine-dir");
  const auto exec = fs::perms::owner_all;
  make_file(dir_ / "bin" / "engine", "#!/bin/sh\n", exec);
  make_file(dir_ / "first" / "engine", "not executable\n", fs::perms::owner_read);
  make_file(dir_ / "plain", "x", fs::perms::owner_read | fs::perms::owner_write);
  const std::string path = (dir_ / "first").string() + "::" + (dir_ / "engine-dir").string() + ":bin";

  // Bare names: PATH entries in order; a non-executable file and a directory are passed over;
  // empty entries are skipped and relative entries are taken against the working directory.
  Expected<fs::path> found = find_executable("engine", path, dir_);
  ASSERT_TRUE(found) << found.error();
  EXPECT_EQ(*found, dir_ / "bin" / "engine");
  EXPECT_FALSE(find_executable("engine-dir", path + ":" + dir_.string(), dir_));
  Expected<fs::path> absent = find_executable("kalah-no-such-engine", path, dir_);
  ASSERT_FALSE(absent);
  EXPECT_EQ(absent.error(), "'kalah-no-such-engine' not found in PATH");
  EXPECT_FALSE(find_executable("engine", ":", dir_)) << "an empty entry must not mean the working directory";

  // With a '/': a path, relative to the working directory; PATH plays no part.
  Expected<fs::path> relative = find_executable("bin/../bin/engine", "", dir_);
  ASSERT_TRUE(relative) << relative.error();
  EXPECT_EQ(*relative, dir_ / "bin" / "engine");
  EXPECT_EQ(*find_executable((dir_ / "bin" / "engine").string(), "", "/"), dir_ / "bin" / "engine");
  EXPECT_EQ(find_executable("./plain", "", dir_).error(), "'./plain' is not executable");
  EXPECT_EQ(find_executable("./bin", "", dir_).error(), "'./bin' is a directory, not a program");
  EXPECT_EQ(find_executable("./gone", "", dir_).error(), "'./gone' not found");
  EXPECT_EQ(find_executable("", path, dir_).error(), "the command is empty");

  EXPECT_TRUE(is_executable_file("/bin/sh"));
  EXPECT_FALSE(is_executable_file(dir_ / "plain"));
  EXPECT_FALSE(is_executable_file(dir_ / "bin"));
  EXPECT_FALSE(path_variable().empty());
}

// ---- the walk to a path

TEST_F(SystemTest, AWalkFollowsEveryLinkToWhereItLeadsAndNamesTheFoldersOnTheWay) {
  // dir/real/bot; dir/open/bot -> ../real/bot (relative); dir/open/via -> dir/real (absolute, a folder).
  const fs::path dir = fs::canonical(dir_);
  fs::create_directories(dir / "real");
  fs::create_directories(dir / "open");
  make_file(dir / "real" / "bot", "x", fs::perms::owner_all);
  fs::create_symlink("../real/bot", dir / "open" / "bot");
  fs::create_directory_symlink(dir / "real", dir / "open" / "via");
  const fs::path real = fs::canonical(dir / "real" / "bot");

  const PathWalk file = walk_path(dir / "open" / "bot");
  EXPECT_EQ(file.target, real);
  ASSERT_EQ(file.links.size(), 1u);
  EXPECT_EQ(file.links[0].first, dir / "open" / "bot");
  EXPECT_EQ(file.links[0].second, "../real/bot");
  // The link's own folder is on the way, and so is the folder it leads into.
  const std::set<fs::path> folders(file.folders.begin(), file.folders.end());
  EXPECT_TRUE(folders.contains(dir / "open"));
  EXPECT_TRUE(folders.contains(real.parent_path()));

  EXPECT_EQ(walk_path(dir / "open" / "via" / "bot").target, real);
  EXPECT_EQ(walk_path(dir / "open" / "via" / ".." / "real" / "bot").target, real) << "'..' after a link, as the kernel";
  // A part that does not exist is kept as written; a path without links is its own target.
  EXPECT_EQ(walk_path(dir / "open" / "via" / "new" / "x").target, real.parent_path() / "new" / "x");
  const PathWalk plain = walk_path(real);
  EXPECT_EQ(plain.target, real);
  EXPECT_TRUE(plain.links.empty());
}

TEST_F(SystemTest, AWalkStopsAtALoopOfLinks) {
  const fs::path dir = fs::canonical(dir_);
  fs::create_symlink(dir / "b", dir / "a");
  fs::create_symlink(dir / "a", dir / "b");
  const PathWalk loop = walk_path(dir / "a" / "x");
  EXPECT_TRUE(loop.too_many_links);
  EXPECT_EQ(loop.links.size(), static_cast<std::size_t>(kMaxLinksOnAWalk));
}

// ---- clock

// The one temporary folder of the product and the tests: private, removed with everything in it, and
// when it cannot be made either an error to report or an exception.
TEST(TempFolder, IsPrivateAndRemovedWithEverythingInIt) {
  fs::path made;
  {
    const TempFolder temp("kalah-temp-test");
    made = temp.path();
    ASSERT_TRUE(fs::is_directory(made)) << made;
    EXPECT_TRUE(made.filename().string().starts_with("kalah-temp-test-")) << made;
    EXPECT_EQ(fs::status(made).permissions() & fs::perms::all, fs::perms::owner_all);
    fs::create_directories(temp / "a" / "b");
    test::write_file(temp / "a" / "b" / "c", "x");
    const TempFolder placed("/tmp/kalah-temp-test");
    EXPECT_EQ(placed.path().parent_path(), fs::path("/tmp"));
  }
  EXPECT_FALSE(fs::exists(made)) << made;
}

TEST(TempFolder, ThatCannotBeMadeIsAnErrorOrAnException) {
  const TempFolder quiet("kalah-no-such-folder/x", std::nothrow);
  EXPECT_TRUE(quiet.path().empty());
  EXPECT_NE(quiet.error().find("/kalah-no-such-folder/x-"), std::string::npos) << quiet.error();
  EXPECT_THROW(
      {
        const TempFolder loud("kalah-no-such-folder/x");
        (void)loud;
      },
      std::runtime_error);
}

TEST(SystemClock, UtcNowIsIso8601ToTheSecond) {
  const std::string now = utc_now_iso8601();
  EXPECT_TRUE(test::full_match(now, R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")) << now;
  EXPECT_GE(now, "2026-01-01T00:00:00Z");
}

}  // namespace
}  // namespace kalah::system
