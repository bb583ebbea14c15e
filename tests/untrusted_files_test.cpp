// referee/system/untrusted_files: walking, reading and copying a tree someone else made, as root would,
// without following a link, opening a FIFO or device, or reading past a bound.
#include "referee/system/untrusted_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "referee/system/temp_folder.h"
#include "tests/files.h"

namespace kalah::system {
namespace {

namespace fs = std::filesystem;

class UntrustedFiles : public ::testing::Test {
 protected:
  void write(const std::string& rel, const std::string& text, mode_t mode = 0644) {
    const fs::path p = dir_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    ::chmod(p.c_str(), mode);
  }
  // A submission as a hostile student makes it: a set-uid program, a FIFO, a link to a secret and to
  // the FIFO, a link to a folder outside, and ordinary files.
  fs::path hostile_tree() {
    write("src/bot.py", "print('kepok')\n");
    write("run", "#!/bin/sh\n", 04755);
    write("data/book.txt", "opening book\n", 02644);
    write("secret", "organiser's secret\n", 0600);
    const fs::path src = dir_ / "src";
    ::mkfifo((src / "pipe").c_str(), 0666);
    fs::create_symlink(dir_ / "secret", src / "secret-link");
    fs::create_symlink(src / "pipe", src / "pipe-link");
    fs::create_symlink("/etc", src / "etc-link");
    fs::create_directories(src / "deep");
    return src;
  }
  static std::string text(const fs::path& p) { return test::read_file(p); }

  system::TempFolder temp_{"kalah-untrusted-test"};
  const fs::path& dir_ = temp_.path();
};

TEST_F(UntrustedFiles, AWalkListsLinksAndSpecialFilesWithoutFollowingOrOpeningThem) {
  const fs::path src = hostile_tree();
  std::map<std::string, TreeItem::Kind> seen;
  std::map<std::string, std::string> content;
  WalkOptions walk;
  walk.open_files = true;
  auto error = walk_untrusted_tree(src, walk, [&](const TreeItem& item) -> std::optional<std::string> {
    seen[item.path] = item.kind;
    if (item.kind == TreeItem::Kind::File)
      read_bounded(
          item.fd, 1024, [&](std::string_view piece) { content[item.path] += piece; }, item.path);
    if (item.kind == TreeItem::Kind::Link) content[item.path] = item.link;
    return std::nullopt;
  });
  ASSERT_FALSE(error) << *error;
  const std::map<std::string, TreeItem::Kind> expected = {
      {"bot.py", TreeItem::Kind::File}, {"deep", TreeItem::Kind::Directory}, {"etc-link", TreeItem::Kind::Link},
      {"pipe", TreeItem::Kind::Other},  {"pipe-link", TreeItem::Kind::Link}, {"secret-link", TreeItem::Kind::Link}};
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(content["bot.py"], "print('kepok')\n");
  EXPECT_EQ(content["secret-link"], (dir_ / "secret").string());  // the target's name, never its content
}

TEST_F(UntrustedFiles, AWalkStopsAtItsBounds) {
  for (int i = 0; i < 30; ++i) write("many/f" + std::to_string(i), std::string(100, 'x'));
  WalkOptions few;
  few.bounds.max_entries = 20;
  auto error = walk_untrusted_tree(dir_ / "many", few, [](const TreeItem&) { return std::nullopt; });
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("more than 20 files, folders and links"), std::string::npos) << *error;
  WalkOptions small;
  small.bounds.max_bytes = 1000;
  error = walk_untrusted_tree(dir_ / "many", small, [](const TreeItem&) { return std::nullopt; });
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("MiB of files"), std::string::npos) << *error;
  fs::path deep = dir_ / "deep";
  for (int i = 0; i < 40; ++i) deep /= "d";
  fs::create_directories(deep);
  error = walk_untrusted_tree(dir_ / "deep", WalkOptions{}, [](const TreeItem&) { return std::nullopt; });
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("nested deeper than 32"), std::string::npos) << *error;
}

TEST_F(UntrustedFiles, ARootThatIsALinkIsRefused) {
  hostile_tree();
  fs::create_symlink(dir_ / "src", dir_ / "src-link");
  auto error = walk_untrusted_tree(dir_ / "src-link", WalkOptions{}, [](const TreeItem&) { return std::nullopt; });
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("not a folder (a link is never followed)"), std::string::npos) << *error;
  error = walk_untrusted_tree("/proc/self", WalkOptions{}, [](const TreeItem&) { return std::nullopt; });
  ASSERT_TRUE(error);
}

TEST_F(UntrustedFiles, ACopyDropsSetUidBitsSpecialFilesAndNeverFollowsALink) {
  const fs::path src = hostile_tree();
  fs::copy(dir_ / "run", src / "run");
  ::chmod((src / "run").c_str(), 04755);
  CopyOptions options;
  options.read_only = true;
  Expected<CopyReport> copied = copy_untrusted_tree(src, dir_ / "copy", options);
  ASSERT_TRUE(copied) << copied.error();
  struct stat st {};
  ASSERT_EQ(::stat((dir_ / "copy" / "run").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0555u);  // executable, but never set-uid, and not writable
  ASSERT_EQ(::stat((dir_ / "copy" / "bot.py").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0444u);
  ASSERT_EQ(::stat((dir_ / "copy").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0555u);
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "copy" / "pipe")));
  ASSERT_TRUE(fs::is_symlink(dir_ / "copy" / "secret-link"));
  EXPECT_EQ(fs::read_symlink(dir_ / "copy" / "secret-link"), dir_ / "secret");
  EXPECT_EQ(copied->left_out, std::vector<std::string>{"pipe (a special file (FIFO, device or socket))"});
  EXPECT_EQ(text(dir_ / "copy" / "bot.py"), "print('kepok')\n");

  // Without links, they are left out too; and a copy over an existing folder is refused.
  options.keep_links = false;
  copied = copy_untrusted_tree(src, dir_ / "copy2", options);
  ASSERT_TRUE(copied) << copied.error();
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "copy2" / "secret-link")));
  EXPECT_EQ(copied->left_out.size(), 4u);
  EXPECT_FALSE(copy_untrusted_tree(src, dir_ / "copy2", options));
  EXPECT_FALSE(remove_tree(dir_ / "copy2"));
  EXPECT_FALSE(fs::exists(dir_ / "copy2"));
}

TEST_F(UntrustedFiles, ACopyOverItsBoundIsRemovedAgain) {
  write("big/a", std::string(3000, 'a'));
  write("big/b", std::string(3000, 'b'));
  CopyOptions options;
  options.bounds.max_bytes = 4000;
  Expected<CopyReport> copied = copy_untrusted_tree(dir_ / "big", dir_ / "copy", options);
  ASSERT_FALSE(copied);
  EXPECT_FALSE(fs::exists(dir_ / "copy"));
}

TEST_F(UntrustedFiles, ReadingRefusesLinksFifosAndProcFilesAndIsBounded) {
  hostile_tree();
  const fs::path src = dir_ / "src";
  EXPECT_EQ(read_regular_file(src / "bot.py", 100).value(), "print('kepok')\n");
  Expected<std::string> read = read_regular_file(src / "secret-link", 100);
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().find("a symbolic link"), std::string::npos) << read.error();
  read = read_regular_file(src / "pipe", 100);  // would block forever if opened for a plain read
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().find("not a regular file"), std::string::npos) << read.error();
  read = read_regular_file(src / "pipe-link", 100, /*follow_link=*/true);
  ASSERT_FALSE(read);
  read = read_regular_file("/proc/self/status", 1 << 20, true);
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().find("pseudo file system"), std::string::npos) << read.error();
  read = read_regular_file(src / "bot.py", 5);
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().find("larger than 5 bytes"), std::string::npos) << read.error();
}

TEST_F(UntrustedFiles, WritingOurOwnFileNeverGoesThroughAPlantedLink) {
  write("victim", "precious\n");
  fs::create_symlink(dir_ / "victim", dir_ / "check.log");
  auto error = write_own_file(dir_ / "check.log", "overwritten\n");
  ASSERT_TRUE(error);
  EXPECT_EQ(text(dir_ / "victim"), "precious\n");
  ::mkfifo((dir_ / "fifo.log").c_str(), 0666);
  error = write_own_file(dir_ / "fifo.log", "x", /*append=*/true);  // no reader: would block without O_NONBLOCK
  ASSERT_TRUE(error);
  EXPECT_FALSE(write_own_file(dir_ / "new.log", "one\n"));
  EXPECT_FALSE(write_own_file(dir_ / "new.log", "two\n", /*append=*/true));
  EXPECT_EQ(text(dir_ / "new.log"), "one\ntwo\n");
}

TEST_F(UntrustedFiles, RemovingATreeRemovesLinksNotWhatTheyName) {
  write("keep/precious", "x\n");
  write("tree/a/b", "y\n");
  fs::create_symlink(dir_ / "keep", dir_ / "tree" / "a" / "link");
  ::chmod((dir_ / "tree" / "a").c_str(), 0555);
  EXPECT_FALSE(remove_tree(dir_ / "tree"));
  EXPECT_FALSE(fs::exists(dir_ / "tree"));
  EXPECT_EQ(text(dir_ / "keep" / "precious"), "x\n");
  EXPECT_FALSE(remove_tree(dir_ / "tree"));  // already gone: fine
}

}  // namespace
}  // namespace kalah::system
