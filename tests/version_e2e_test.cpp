// `arena --version` and `referee --version`: the version and the git commit the build came from, and what a
// build from a source tree without git (a tarball) says instead (cmake/version.cmake).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/e2e_util.h"
#include "tests/support/text_match.h"

namespace kalah::e2e {
namespace {

const std::string kGit = "/usr/bin/git";

// The header cmake/version.cmake writes for the source tree `source`.
std::string version_header(const fs::path& source, const fs::path& scratch) {
  const fs::path out = scratch / "kalah_version.h";
  const RunResult r = run({KALAH_CMAKE, "-DSOURCE_DIR=" + source.string(), "-DOUT=" + out.string(),
                           "-DPROJECT_VERSION=9.8.7", "-P", KALAH_SOURCE_DIR "/cmake/version.cmake"},
                          scratch);
  EXPECT_EQ(r.status.code, 0) << r.summary();
  return read_file(out);
}

TEST(Version, BothExecutablesPrintTheVersionAndTheCommitTheyWereBuiltFrom) {
  system::TempFolder tmp{"kalah-e2e"};
  const bool from_git = run({kGit, "-C", KALAH_SOURCE_DIR, "rev-parse", "HEAD"}, tmp.path()).status.code == 0;
  for (const fs::path& program : {kArena, kReferee}) {
    const RunResult r = run({program.string(), "--version"}, tmp.path());
    ASSERT_EQ(r.status.code, 0) << r.summary();
    EXPECT_EQ(r.err, "");
    const std::optional<test::Groups> m = test::match_groups(
        r.out,
        program.filename().string() +
            R"( \d+\.\d+\.\d+\nbuilt from (git commit ([0-9a-f]{40}) \([^)\n]+\)|a source tree without git: the commit is not known)\n)");
    ASSERT_TRUE(m) << r.out;
    if (!from_git) continue;
    // A commit of this repository (the build may be older than its HEAD).
    ASSERT_FALSE((*m)[2].empty()) << r.out;
    EXPECT_EQ(run({kGit, "-C", KALAH_SOURCE_DIR, "cat-file", "-e", (*m)[2] + "^{commit}"}, tmp.path()).status.code, 0)
        << (*m)[2];
  }
}

TEST(Version, ASourceTreeWithoutGitBuildsAndSaysTheCommitIsUnknown) {
  system::TempFolder tmp{"kalah-e2e"};
  const std::string unknown =
      "#define KALAH_ARENA_VERSION \"unknown\"\n#define KALAH_GIT_COMMIT \"\"\n"
      "#define KALAH_PROJECT_VERSION \"9.8.7\"\n";
  // An unpacked tarball.
  fs::create_directories(tmp / "tarball");
  EXPECT_NE(version_header(tmp / "tarball", tmp.path()).find(unknown), std::string::npos);
  // The same unpacked inside someone else's repository: that repository's commit is not ours.
  ASSERT_EQ(run({kGit, "init", "-q", (tmp / "home").string()}, tmp.path()).status.code, 0);
  fs::create_directories(tmp / "home" / "src" / "kalah-arena");
  EXPECT_NE(version_header(tmp / "home" / "src" / "kalah-arena", tmp.path()).find(unknown), std::string::npos);
}

}  // namespace
}  // namespace kalah::e2e
