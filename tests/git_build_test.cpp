// A commit of a repository as an engine's folder: refs resolved by git (never read as options), the
// commit checked out into the build cache and built once, a failed build's log, and the lock that makes a
// second process wait for the first one's build instead of building again.
#include "arena/git/git_build.h"

#include <gtest/gtest.h>

#include <thread>

#include "e2e_util.h"
#include "git_repo.h"

namespace kalah::arena::git {
namespace {

namespace fs = std::filesystem;

// A repository with two commits: "one" (tagged "first") holds engine.txt = "one", "two" engine.txt = "two".
class Repo : public e2e::GitRepo {
 public:
  explicit Repo(const fs::path& dir) : GitRepo(dir) {
    commit({{"engine.txt", "one\n"}}, "one");
    git({"tag", "first"});
    commit({{"engine.txt", "two\n"}}, "two");
  }
};

GitSprtConfig config_for(const Repo& repo, const fs::path& cache, const std::string& build) {
  GitSprtConfig g;
  g.repo = repo.dir();
  g.worktrees = cache;
  g.build = build;
  g.run = "./engine";
  return g;
}

TEST(GitBuild, ResolvesARefToItsFullCommit) {
  e2e::TempDir tmp;
  Repo repo(tmp.path() / "repo");
  Expected<std::string> head = resolve_commit(repo.dir(), "main");
  ASSERT_TRUE(head) << head.error();
  EXPECT_EQ(*head + "\n", repo.git({"rev-parse", "HEAD"}));
  Expected<std::string> first = resolve_commit(repo.dir(), "first");
  ASSERT_TRUE(first) << first.error();
  EXPECT_NE(*first, *head);
  EXPECT_EQ(*resolve_commit(repo.dir(), "main~1"), *first);
}

TEST(GitBuild, AnUnknownRefOrOneThatLooksLikeAnOptionIsRefused) {
  e2e::TempDir tmp;
  Repo repo(tmp.path() / "repo");
  Expected<std::string> missing = resolve_commit(repo.dir(), "no-such-branch");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("'no-such-branch' does not name a commit"), std::string::npos) << missing.error();
  // Read as an option, this would write a file; after --end-of-options it is only a name that is not a ref.
  const fs::path written = tmp.path() / "written";
  EXPECT_FALSE(resolve_commit(repo.dir(), "--output=" + written.string()));
  EXPECT_FALSE(fs::exists(written));
}

TEST(GitBuild, BuildsACommitOnceAndThenTakesItFromTheCache) {
  e2e::TempDir tmp;
  Repo repo(tmp.path() / "repo");
  const std::string commit = *resolve_commit(repo.dir(), "first");
  const GitSprtConfig g = config_for(repo, tmp.path() / "cache",
                                     "echo building; (echo '#!/bin/sh'; echo \"echo $(cat engine.txt)\") > engine; "
                                     "chmod +x engine");
  std::vector<std::string> said;
  Expected<BuiltCommit> built = build_commit(g, commit, [&](const std::string& s) { said.push_back(s); });
  ASSERT_TRUE(built) << built.error();
  EXPECT_TRUE(built->built_now);
  EXPECT_EQ(built->tree, tmp.path() / "cache" / commit / "tree");
  EXPECT_EQ(e2e::read_file(built->tree / "engine"), "#!/bin/sh\necho one\n");
  EXPECT_FALSE(fs::exists(built->tree / ".git"));  // the commit's files, not a clone
  const std::string log = e2e::read_file(built->log);
  EXPECT_NE(log.find("building\n"), std::string::npos) << log;
  EXPECT_FALSE(said.empty());

  said.clear();
  const auto stamp = fs::last_write_time(built->tree / "engine");
  Expected<BuiltCommit> again = build_commit(g, commit, [&](const std::string& s) { said.push_back(s); });
  ASSERT_TRUE(again) << again.error();
  EXPECT_FALSE(again->built_now);
  EXPECT_EQ(again->seconds, built->seconds);  // the recorded time of the build that made the tree
  EXPECT_EQ(e2e::read_file(again->log), log);
  EXPECT_EQ(fs::last_write_time(again->tree / "engine"), stamp);
  EXPECT_TRUE(said.empty());

  // Another build command is another build of the same commit.
  GitSprtConfig other = g;
  other.build += "; echo again";
  Expected<BuiltCommit> rebuilt = build_commit(other, commit, [](const std::string&) {});
  ASSERT_TRUE(rebuilt) << rebuilt.error();
  EXPECT_TRUE(rebuilt->built_now);
}

TEST(GitBuild, AFailedBuildIsAnErrorWithTheTailOfItsLogAndLeavesNoMarker) {
  e2e::TempDir tmp;
  Repo repo(tmp.path() / "repo");
  const std::string commit = *resolve_commit(repo.dir(), "main");
  const GitSprtConfig g = config_for(repo, tmp.path() / "cache", "for i in $(seq 1 30); do echo line$i; done; exit 3");
  Expected<BuiltCommit> built = build_commit(g, commit, [](const std::string&) {});
  ASSERT_FALSE(built);
  EXPECT_NE(built.error().find("line30"), std::string::npos) << built.error();
  EXPECT_NE(built.error().find("line20"), std::string::npos) << built.error();
  EXPECT_EQ(built.error().find("line5\n"), std::string::npos) << built.error();
  EXPECT_NE(built.error().find("exited with code 3"), std::string::npos) << built.error();
  EXPECT_FALSE(fs::exists(tmp.path() / "cache" / commit / "built"));
}

TEST(GitBuild, TwoPreparingOneCommitAtOnceBuildItOnce) {
  e2e::TempDir tmp;
  Repo repo(tmp.path() / "repo");
  const std::string commit = *resolve_commit(repo.dir(), "main");
  const GitSprtConfig g = config_for(repo, tmp.path() / "cache", "sleep 0.3; echo built");
  std::optional<Expected<BuiltCommit>> a, b;
  {
    std::jthread first([&] { a = build_commit(g, commit, [](const std::string&) {}); });
    std::jthread second([&] { b = build_commit(g, commit, [](const std::string&) {}); });
  }
  ASSERT_TRUE(*a) << a->error();
  ASSERT_TRUE(*b) << b->error();
  EXPECT_NE((*a)->built_now, (*b)->built_now);
  const std::string log = e2e::read_file((*a)->log);
  EXPECT_EQ(e2e::lines_starting(log, "$ ").size(), 1u) << log;  // one build's command line
}

TEST(GitBuild, TailLines) {
  EXPECT_EQ(tail_lines("a\nb\nc\n", 2), "b\nc\n");
  EXPECT_EQ(tail_lines("a\nb\nc", 2), "b\nc");
  EXPECT_EQ(tail_lines("a\n", 5), "a\n");
  EXPECT_EQ(tail_lines("", 5), "");
}

}  // namespace
}  // namespace kalah::arena::git
