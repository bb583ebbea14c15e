// The one sandboxed build (arena/sandbox_build), on its own: without the bubblewrap sandbox (SandboxMode::None,
// the same code path apart from the jail), so that it runs wherever the tests do. The contest's and the git
// SPRT's end-to-end tests run it in the sandbox too.
#include "arena/sandbox_build/sandbox_build.h"

#include <sys/stat.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "referee/system/temp_folder.h"

namespace kalah::sandbox_build {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

struct Folders {
  system::TempFolder tmp{"kalah-sandbox-build-test"};
  fs::path source = tmp / "source";
  fs::path target = tmp / "entry";
  fs::path log = tmp / "build.log";
  Folders() {
    fs::create_directories(source);
    write_file(source / "in.txt", "the source\n");
  }
};

BuildLimits plain_limits() { return {.sandbox = SandboxMode::None}; }

TEST(SandboxBuild, TheCommandRunsOnACopyAndItsResultIsInstalledReadOnly) {
  Folders f;
  const BuildResult built = run_build(plain_limits(), f.source, f.target, "cat in.txt > out.txt", f.log);
  ASSERT_TRUE(built.ok) << built.reason;
  EXPECT_EQ(read_file(f.target / "out.txt"), "the source\n");
  EXPECT_EQ(read_file(f.target / "in.txt"), "the source\n");
  EXPECT_FALSE(fs::exists(f.source / "out.txt"));  // the source is never built in place
  EXPECT_EQ(fs::status(f.target / "out.txt").permissions() & fs::perms::owner_write, fs::perms::none);
  const std::string log = read_file(f.log);
  EXPECT_NE(log.find("$ cat in.txt > out.txt\n(in a none sandbox; limits: 300 s, 2048 MiB memory, 256 MiB disk)"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("[built after "), std::string::npos) << log;
}

TEST(SandboxBuild, AFailingCommandIsAReasonAndInstallsNothing) {
  Folders f;
  const BuildResult built = run_build(plain_limits(), f.source, f.target, "exit 3", f.log);
  EXPECT_FALSE(built.ok);
  EXPECT_EQ(built.reason.rfind("the build failed (", 0), 0u) << built.reason;
  EXPECT_FALSE(fs::exists(f.target));
  EXPECT_NE(read_file(f.log).find("[" + built.reason + " after "), std::string::npos);
}

TEST(SandboxBuild, ABuildThatWritesMoreThanItsDiskLimitIsRefusedNamingTheLimit) {
  Folders f;
  BuildLimits limits = plain_limits();
  limits.disk_mb = 1;
  const BuildResult built = run_build(limits, f.source, f.target, "exec head -c 2000000 /dev/zero > big", f.log);
  EXPECT_FALSE(built.ok);
  // Stopped by the kernel (a file past RLIMIT_FSIZE: `exec`, so that the signal ends the build itself, not a
  // child of its shell), by the watch while it runs, or by the count at its end.
  EXPECT_NE(built.reason.find("build_disk_mb = 1 MiB"), std::string::npos) << built.reason;
  EXPECT_FALSE(fs::exists(f.target));
}

TEST(SandboxBuild, ATreeIsBoundedByTheDiskLimitWithABlockForEveryEntry) {
  BuildLimits limits;
  limits.disk_mb = 1;
  EXPECT_EQ(disk_limit_bytes(limits), std::uintmax_t{1} << 20);
  const system::TreeBounds bounds = tree_bounds(limits);
  EXPECT_EQ(bounds.max_bytes, std::uintmax_t{1} << 20);
  EXPECT_EQ(bounds.max_entries, (std::uintmax_t{1} << 20) / kBytesPerEntry);
}

TEST(SandboxBuild, InstallingATreeReplacesTheTargetAndSaysWhatItLeftOut) {
  Folders f;
  fs::create_directories(f.target);
  write_file(f.target / "old.txt", "the last build\n");
  fs::create_symlink("/etc/passwd", f.source / "link");
  ASSERT_EQ(::mkfifo((f.source / "pipe").c_str(), 0600), 0);
  ASSERT_EQ(install_built_tree(f.source, f.target, plain_limits(), f.log), std::nullopt);
  EXPECT_FALSE(fs::exists(f.target / "old.txt"));
  EXPECT_EQ(read_file(f.target / "in.txt"), "the source\n");
  // A link is copied as a link, never followed; a FIFO is left out, and the log says so.
  ASSERT_TRUE(fs::is_symlink(fs::symlink_status(f.target / "link")));
  EXPECT_EQ(fs::read_symlink(f.target / "link"), "/etc/passwd");
  EXPECT_FALSE(fs::exists(fs::symlink_status(f.target / "pipe")));
  EXPECT_NE(read_file(f.log).find("(not copied into the entry: pipe"), std::string::npos) << read_file(f.log);
}

}  // namespace
}  // namespace kalah::sandbox_build
