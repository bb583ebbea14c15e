// A commit of a repository as an engine's folder: refs resolved by git (never read as options), the
// commit checked out into the build cache and built once, a failed build's log, and the lock that makes a
// second process wait for the first one's build instead of building again. And the repository and the
// builds as hostile (issue 36): a build that rewrites another commit's cached tree, a repository whose
// config names a filter driver, a commit whose files are larger than build_disk_mb.
#include "arena/git/git_build.h"

#include <gtest/gtest.h>

#include <thread>

#include "arena/config/command_line.h"
#include "e2e_util.h"
#include "git_repo.h"
#include "referee/engine/sandbox.h"

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
  system::TempFolder tmp{"kalah-e2e"};
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
  system::TempFolder tmp{"kalah-e2e"};
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
  system::TempFolder tmp{"kalah-e2e"};
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
  system::TempFolder tmp{"kalah-e2e"};
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
  system::TempFolder tmp{"kalah-e2e"};
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

void quiet(const std::string&) {}

// Everything under `dir`, folders with a '/', files with their size ("tree/a.txt 12"; the lock file's size
// is its holder's pid, left out), for what a checkout leaves.
std::vector<std::string> files_under(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::recursive_directory_iterator(); ++it) {
    const fs::file_status status = it->symlink_status(ec);
    const std::string name = it->path().lexically_relative(dir).string();
    if (name == "arena.lock")
      out.push_back(name);
    else
      out.push_back(name + (fs::is_regular_file(status) ? " " + std::to_string(fs::file_size(it->path(), ec)) : "/"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A pull request's build without a build sandbox runs as the arena's user, and the red team's found the
// cache: it rewrote the base's built engine (every game a start-up forfeit of the base, H1, and the poisoned
// entry served to every later pull request against that base). The base's marker holds the seal of the
// tree it built: the next use finds the tree no longer matching it and builds the base again.
TEST(GitBuild, ABuildThatRewritesAnotherCommitsCachedTreeIsCaughtByTheSealAndRebuilt) {
  system::TempFolder tmp{"kalah-e2e"};
  e2e::GitRepo repo(tmp.path() / "repo");
  const fs::path cache = tmp.path() / "cache";
  const std::string make = "printf '#!/bin/sh\\necho honest\\n' > engine; chmod +x engine\n";
  const std::string base = repo.commit({{"make.sh", make}}, "honest");
  const fs::path base_engine = cache / base / "tree" / "engine";
  const std::string test =
      repo.commit({{"make.sh", make + "chmod -R u+w '" + (cache / base / "tree").string() +
                                   "'\nprintf '#!/bin/sh\\nexit 1\\n' > '" + base_engine.string() + "'\n"}},
                  "hostile");
  GitSprtConfig g;
  g.repo = repo.dir();
  g.worktrees = cache;
  g.build = "sh make.sh";
  g.run = "./engine";
  Expected<BuiltCommit> first = build_commit(g, base, quiet);
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(first->seal.size(), 64u);
  Expected<BuiltCommit> hostile = build_commit(g, test, quiet);
  ASSERT_TRUE(hostile) << hostile.error();
  ASSERT_EQ(e2e::read_file(base_engine), "#!/bin/sh\nexit 1\n") << "the attack did not land: the test proves nothing";
  Expected<std::string> now = tree_seal(first->tree, g);
  ASSERT_TRUE(now) << now.error();
  EXPECT_NE(*now, first->seal);

  std::vector<std::string> said;
  Expected<BuiltCommit> again = build_commit(g, base, [&](const std::string& s) { said.push_back(s); });
  ASSERT_TRUE(again) << again.error();
  EXPECT_TRUE(again->built_now) << "the rewritten tree was taken from the cache";
  EXPECT_EQ(e2e::read_file(base_engine), "#!/bin/sh\necho honest\n");
  EXPECT_EQ(again->seal, first->seal);
  ASSERT_FALSE(said.empty());
  EXPECT_NE(said.front().find("does not match its seal (its files changed after its build): building it again"),
            std::string::npos)
      << said.front();

  // A marker rewritten without a seal (or an old one) is no seal either.
  e2e::write_file(cache / base / "built", "commit " + base + "\nbuild sh make.sh\nsandbox none\nseconds 1\n");
  Expected<BuiltCommit> unsealed = build_commit(g, base, quiet);
  ASSERT_TRUE(unsealed) << unsealed.error();
  EXPECT_TRUE(unsealed->built_now);
  // Taken from the cache when nothing changed.
  Expected<BuiltCommit> cached = build_commit(g, base, quiet);
  ASSERT_TRUE(cached) << cached.error();
  EXPECT_FALSE(cached->built_now);
}

// The red team's repository defined a filter driver in its .git/config and named it in .gitattributes: `git
// archive` ran it, as root, before any sandbox. The commit's files are read through a clean git folder of the
// arena's: no filter, fsmonitor or hook of the repository runs, and no attribute changes a file (export-subst,
// a required filter, the repository's own info/attributes).
TEST(GitBuild, TheRepositorysFilterDriversFsmonitorAndHooksNeverRun) {
  system::TempFolder tmp{"kalah-e2e"};
  e2e::GitRepo repo(tmp.path() / "repo");
  const fs::path ran = tmp.path() / "ran";
  const std::string attributes = "* filter=evil\nsubst.txt export-subst\nhidden.txt export-ignore\n";
  const std::string commit = repo.commit({{".gitattributes", attributes},
                                          {"engine.txt", "one\n"},
                                          {"subst.txt", "$Format:%H$\n"},
                                          {"hidden.txt", "kept\n"}},
                                         "hostile attributes");
  // Configured after the commit, so that git add did not run them.
  const std::string record = "sh -c 'echo $0 >> " + ran.string() + "; sed s/one/EVIL/'";
  repo.git({"config", "filter.evil.smudge", record + " smudge"});
  repo.git({"config", "filter.evil.clean", record + " clean"});
  repo.git({"config", "filter.evil.process", record + " process"});
  repo.git({"config", "filter.evil.required", "true"});
  repo.git({"config", "core.fsmonitor", ran.string()});
  e2e::write_file(repo.dir() / ".git" / "info" / "attributes", "* filter=evil\n");
  for (const char* hook : {"post-checkout", "reference-transaction", "pre-auto-gc", "post-index-change"}) {
    e2e::write_file(repo.dir() / ".git" / "hooks" / hook,
                    "#!/bin/sh\necho " + std::string(hook) + " >> " + ran.string() + "\n");
    fs::permissions(repo.dir() / ".git" / "hooks" / hook, fs::perms::owner_all);
  }
  Expected<std::string> resolved = resolve_commit(repo.dir(), "main");
  ASSERT_TRUE(resolved) << resolved.error();
  EXPECT_EQ(*resolved, commit);
  GitSprtConfig g;
  g.repo = repo.dir();
  g.worktrees = tmp.path() / "cache";
  g.build = "cat engine.txt";
  g.run = "./engine";
  Expected<BuiltCommit> built = build_commit(g, commit, quiet);
  ASSERT_TRUE(built) << built.error();
  EXPECT_FALSE(fs::exists(ran)) << e2e::read_file(ran);
  EXPECT_EQ(e2e::read_file(built->tree / "engine.txt"), "one\n");
  EXPECT_EQ(e2e::read_file(built->tree / "subst.txt"), "$Format:%H$\n");
  EXPECT_EQ(e2e::read_file(built->tree / "hidden.txt"), "kept\n");
  EXPECT_EQ(files_under(tmp.path() / "cache" / commit),
            (std::vector<std::string>{"arena.lock", "build.log " + std::to_string(fs::file_size(built->log)),
                                      "built " + std::to_string(fs::file_size(tmp.path() / "cache" / commit / "built")),
                                      "tree/", "tree/.gitattributes " + std::to_string(attributes.size()),
                                      "tree/engine.txt 4", "tree/hidden.txt 5", "tree/subst.txt 12"}));
}

// The red team's commit held a file of 600 MB (1 MB in git): written out before build_disk_mb was looked at,
// and left in the cache after the refusal. The sizes come from `git ls-tree -l` first: a commit larger than
// build_disk_mb is refused before any of its files is written, and nothing of it is left.
TEST(GitBuild, ACommitLargerThanBuildDiskMbIsRefusedBeforeAnyFileIsWrittenAndLeavesNothing) {
  system::TempFolder tmp{"kalah-e2e"};
  e2e::GitRepo repo(tmp.path() / "repo");
  const std::string commit =
      repo.commit({{"small.txt", "small\n"}, {"zeros.bin", std::string(std::size_t{40} << 20, '\0')}}, "a large file");
  GitSprtConfig g;
  g.repo = repo.dir();
  g.worktrees = tmp.path() / "cache";
  g.build = "echo never built";
  g.run = "./engine";
  g.build_limits.disk_mb = 8;
  Expected<BuiltCommit> built = build_commit(g, commit, quiet);
  ASSERT_FALSE(built);
  EXPECT_NE(built.error().find("its files take 40.0 MiB (with 4 KiB for each file, folder or link), more than "
                               "build_disk_mb = 8 MiB; refused before writing any of them"),
            std::string::npos)
      << built.error();
  const fs::path dir = tmp.path() / "cache" / commit;
  const std::vector<std::string> left = files_under(dir);
  ASSERT_EQ(left.size(), 2u) << ::testing::PrintToString(left);
  EXPECT_EQ(left[0], "arena.lock");
  EXPECT_TRUE(left[1].starts_with("build.log ")) << left[1];
  EXPECT_LT(fs::file_size(dir / "build.log"), 4096u);
  EXPECT_EQ(e2e::read_file(dir / "build.log").find("never built"), std::string::npos);

  // Within the limit, the same commit builds.
  g.build_limits.disk_mb = 64;
  Expected<BuiltCommit> fits = build_commit(g, commit, quiet);
  ASSERT_TRUE(fits) << fits.error();
  EXPECT_EQ(fs::file_size(fits->tree / "zeros.bin"), std::uintmax_t{40} << 20);
}

// The engines are the commits' code (the test's a pull request's): `--build-sandbox bwrap` sandboxes them too,
// unless the sandbox is given in so many words; `--sandbox bwrap` with the limits keys does it for any SPRT.
TEST(GitBuild, ABuildSandboxSandboxesTheEnginesTooUnlessTheSandboxIsGiven) {
  if (std::optional<std::string> why = sandbox_unavailable()) GTEST_SKIP() << *why;
  system::TempFolder tmp{"kalah-e2e"};
  Repo repo(tmp.path() / "repo");
  SprtCommandLine o;
  o.repo = repo.dir().string();
  o.base_ref = "first";
  o.test_ref = "main";
  o.run = "./engine";
  o.worktrees = (tmp.path() / "cache").string();
  o.build_sandbox = "bwrap";
  auto sandboxes = [&](const SprtCommandLine& options) {
    Expected<Config> c = sprt_config(options, tmp.path());
    EXPECT_TRUE(c) << c.error();
    if (!c) return std::pair{SandboxMode::None, SandboxMode::None};
    return std::pair{c->sprt->git->base.engine.sandbox, c->sprt->git->test.engine.sandbox};
  };
  EXPECT_EQ(sandboxes(o), std::pair(SandboxMode::Bwrap, SandboxMode::Bwrap));
  o.sandbox = "none";
  EXPECT_EQ(sandboxes(o), std::pair(SandboxMode::None, SandboxMode::None));
  o.build_sandbox.clear();
  o.sandbox = "bwrap";
  o.max_processes = 16;
  o.max_output_kb = 64;
  o.memory_mb = 512;
  o.memory_enforcement = "rlimit";
  Expected<Config> c = sprt_config(o, tmp.path());
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->sprt->git->test.engine.sandbox, SandboxMode::Bwrap);
  EXPECT_EQ(c->sprt->git->test.engine.limits.max_processes, 16);
  EXPECT_EQ(c->sprt->git->test.engine.limits.max_output_kb, 64);
  EXPECT_EQ(c->sprt->git->test.engine.limits.memory_mb, 512);
  EXPECT_EQ(c->sprt->git->test.engine.limits.memory_enforcement, MemoryEnforcement::Rlimit);
  EXPECT_EQ(c->sprt->git->build_limits.sandbox, SandboxMode::None);
}

TEST(GitBuild, TailLines) {
  EXPECT_EQ(tail_lines("a\nb\nc\n", 2), "b\nc\n");
  EXPECT_EQ(tail_lines("a\nb\nc", 2), "b\nc");
  EXPECT_EQ(tail_lines("a\n", 5), "a\n");
  EXPECT_EQ(tail_lines("", 5), "");
}

}  // namespace
}  // namespace kalah::arena::git
