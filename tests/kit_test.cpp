// The engine authors' kit end to end: `cmake --install` of this build into a temporary prefix, the bot
// template that install ships (kit/bot-template) configured and built out of tree against the installed
// CMake package and played by the installed referee, the package's refusal of a too-old compiler, and
// the Python kit's bots (bots/python) played by the referee. The Python rules and protocol loop have
// their own tests (tests/kit/kalah_engine_test.py, CTest's python_kit_test).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include <boost/json.hpp>

#include "tests/e2e_util.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// Compiling the template takes a while on a busy machine.
constexpr auto kBuildLimit = std::chrono::minutes(4);

// Runs a command and fails the test (with its output) unless it exits 0.
e2e::RunResult must_run(const std::vector<std::string>& argv, const fs::path& scratch,
                        std::chrono::milliseconds limit = kBuildLimit) {
  e2e::RunResult r = e2e::run(argv, scratch, limit);
  EXPECT_EQ(r.status.code, 0) << argv[0] << " " << (argv.size() > 1 ? argv[1] : "") << ": " << r.summary();
  return r;
}

// Runs of white space as one space: CMake wraps its messages.
std::string squeeze(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t';
    if (!space || (!out.empty() && out.back() != ' ')) out += space ? ' ' : c;
  }
  return out;
}

// The games `referee match` wrote to `out`: each must have ended by the rules, without a forfeit.
int expect_no_forfeits(const fs::path& out) {
  int games = 0;
  for (const std::string& line : e2e::read_lines(out)) {
    const json::object game = json::parse(line).as_object();
    EXPECT_TRUE(game.at("forfeit").is_null()) << line;
    const json::string& end = game.at("termination").as_string();
    EXPECT_TRUE(end == "normal" || end == "majority") << line;
    ++games;
  }
  return games;
}

// `referee match` of two engines for `games` games of `variant`; returns how many games it wrote, each
// checked by expect_no_forfeits().
int match(const fs::path& referee, const std::vector<std::string>& first, const std::vector<std::string>& second,
          int games, const std::string& variant, const fs::path& dir) {
  static int count = 0;
  const fs::path out = dir / ("games" + std::to_string(++count) + ".jsonl");
  std::vector<std::string> argv = {referee.string(), "match", "--engine"};
  argv.insert(argv.end(), first.begin(), first.end());
  argv.push_back("--engine");
  argv.insert(argv.end(), second.begin(), second.end());
  argv.insert(argv.end(),
              {"--games", std::to_string(games), "--tc", "2+0.02", "--variant", variant, "--out", out.string()});
  must_run(argv, dir, std::chrono::minutes(2));
  return expect_no_forfeits(out);
}

class Kit : public ::testing::Test {
 protected:
  // Installs this build as an engine author would, into a prefix of the test's own.
  void SetUp() override {
    must_run({CMAKE_COMMAND, "--install", KALAH_BINARY_DIR, "--prefix", prefix_.string()}, tmp_.path());
  }

  // Configures the installed template, copied to a folder of its own, with `compiler`.
  e2e::RunResult configure_template(const std::string& compiler) {
    const fs::path source = tmp_ / "mybot";
    fs::copy(prefix_ / "share/kalah-arena/bot-template", source, fs::copy_options::recursive);
    return e2e::run(
        {CMAKE_COMMAND, "-S", source.string(), "-B", (source / "build").string(),
         "-DCMAKE_PREFIX_PATH=" + prefix_.string(), "-DCMAKE_CXX_COMPILER=" + compiler, "-DCMAKE_BUILD_TYPE=Release"},
        tmp_.path(), kBuildLimit);
  }

  system::TempFolder tmp_{"kalah-e2e"};
  const fs::path prefix_ = tmp_ / "prefix";
};

TEST_F(Kit, InstallHoldsThePackageTheKitAndTheExecutablesAndNothingElse) {
  const std::string lib = KALAH_INSTALL_LIBDIR;
  std::string build_type = KALAH_BUILD_TYPE;
  std::transform(build_type.begin(), build_type.end(), build_type.begin(), [](char c) { return std::tolower(c); });
  const std::set<std::string> expected = {
      "bin/arena",
      "bin/kalah-alphabeta",
      "bin/kalah-greedy",
      "bin/kalah-mcts",
      "bin/kalah-python-random",
      "bin/kalah-random",
      "bin/kalah-solver",
      "bin/referee",
      "include/kalah-arena/bots/common/bot.h",
      "include/kalah-arena/referee/protocol/protocol.h",
      "include/kalah-arena/referee/rules/expected.h",
      "include/kalah-arena/referee/rules/opening.h",
      "include/kalah-arena/referee/rules/perft.h",
      "include/kalah-arena/referee/rules/position.h",
      "include/kalah-arena/referee/rules/variant.h",
      lib + "/cmake/KalahArena/KalahArenaCompiler.cmake",
      lib + "/cmake/KalahArena/KalahArenaConfig.cmake",
      lib + "/cmake/KalahArena/KalahArenaConfigVersion.cmake",
      lib + "/cmake/KalahArena/KalahArenaTargets-" + build_type + ".cmake",
      lib + "/cmake/KalahArena/KalahArenaTargets.cmake",
      lib + "/libkalah_bot.a",
      lib + "/libkalah_protocol.a",
      lib + "/libkalah_rules.a",
      "share/kalah-arena/bot-template/CMakeLists.txt",
      "share/kalah-arena/bot-template/README.md",
      "share/kalah-arena/bot-template/main.cpp",
      "share/kalah-arena/ci/sprt-pr.sh",
      "share/kalah-arena/python/example_bot.py",
      "share/kalah-arena/python/kalah_engine.py",
      "share/kalah-arena/python/random_bot.py",
  };
  std::set<std::string> installed;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(prefix_)) {
    if (e.is_directory()) continue;
    // Lexically: fs::relative() would follow a link (bin/kalah-python-random) to what it points at.
    installed.insert(e.path().lexically_relative(prefix_).string());
    // The package points into the prefix only, never back at this source or build tree.
    if (e.path().extension() == ".cmake") {
      const std::string text = e2e::read_file(e.path());
      EXPECT_EQ(text.find(KALAH_SOURCE_DIR), std::string::npos) << e.path();
      EXPECT_EQ(text.find(KALAH_BINARY_DIR), std::string::npos) << e.path();
    }
  }
  EXPECT_EQ(installed, expected);
  // The Python bot by its name is the installed script, reached by a link inside the prefix, and plays.
  EXPECT_EQ(fs::canonical(prefix_ / "bin/kalah-python-random"),
            fs::canonical(prefix_ / "share/kalah-arena/python/random_bot.py"));
  EXPECT_EQ(match(prefix_ / "bin/referee", {"cmd=" + (prefix_ / "bin/kalah-python-random").string(), "name=python"},
                  {"cmd=" + (prefix_ / "bin/kalah-random").string(), "name=random"}, 2, "pits=6 seeds=4", tmp_.path()),
            2);
  // The installed engines run from the prefix alone.
  const e2e::RunResult help = must_run({(prefix_ / "bin/referee").string(), "--help"}, tmp_.path());
  EXPECT_NE(help.out.find("match"), std::string::npos) << help.out;
}

TEST_F(Kit, TheTemplateBuildsOutOfTreeAgainstTheInstalledPackageAndPlaysWithoutForfeits) {
#ifdef KALAH_INSTRUMENTED
  GTEST_SKIP() << "a sanitizer build installs instrumented libraries, which the template does not link with the "
                  "sanitizer runtime";
#endif
  const e2e::RunResult configured = configure_template(KALAH_CXX_COMPILER);
  ASSERT_EQ(configured.status.code, 0) << configured.summary();
  must_run({CMAKE_COMMAND, "--build", (tmp_ / "mybot/build").string()}, tmp_.path());
  const fs::path bot = tmp_ / "mybot/build/mybot";
  ASSERT_TRUE(fs::exists(bot));
  const fs::path referee = prefix_ / "bin/referee";
  const std::vector<std::string> mybot = {"cmd=" + bot.string(), "name=mybot"};
  const std::vector<std::string> greedy = {"cmd=" + (prefix_ / "bin/kalah-greedy").string(), "name=greedy"};
  EXPECT_EQ(match(referee, mybot, greedy, 4, "pits=6 seeds=4", tmp_.path()), 4);
  // The pie rule: the template's bot may answer swap, and must know whose store it then owns.
  EXPECT_EQ(match(referee, greedy, mybot, 4, "pits=4 seeds=3 pie=on capture=empty", tmp_.path()), 4);
}

// A wrapper around the build's GCC that reports itself as GCC 9.4 to CMake's compiler identification.
TEST_F(Kit, ATooOldCompilerStopsTheConfigureNamingItAndTheMinimum) {
  if (std::string(KALAH_CXX_COMPILER_ID) != "GNU") GTEST_SKIP() << "the fake old compiler wraps GCC";
  const fs::path fake = tmp_ / "g++-9";
  e2e::write_file(fake, std::string("#!/bin/sh\nexec '") + KALAH_CXX_COMPILER +
                            "' -U__GNUC__ -D__GNUC__=9 -U__GNUC_MINOR__ -D__GNUC_MINOR__=4 -U__GNUC_PATCHLEVEL__ "
                            "-D__GNUC_PATCHLEVEL__=0 \"$@\"\n");
  fs::permissions(fake, fs::perms::owner_all);
  const e2e::RunResult r = configure_template(fake.string());
  EXPECT_NE(r.status.code, 0) << r.summary();
  EXPECT_NE(
      squeeze(r.err).find("KalahArena: the C++ compiler is GCC 9.4.0; Kalah Arena's headers need C++20, GCC 10 or "
                          "newer. Choose another compiler with -DCMAKE_CXX_COMPILER=... in a new build folder."),
      std::string::npos)
      << r.summary();
  EXPECT_EQ(r.err.find("error:"), std::string::npos) << "stopped before compiling anything\n" << r.summary();
}

// The check itself for compilers this machine does not have (tests/kit/compiler_check.cmake).
TEST(KitCompilerCheck, NamesTheCompilerAndTheMinimumOrAcceptsIt) {
  system::TempFolder tmp{"kalah-e2e"};
  const auto check = [&](const std::string& id, const std::string& version, const std::string& features) {
    const e2e::RunResult r = e2e::run({CMAKE_COMMAND, "-DID=" + id, "-DVERSION=" + version, "-DFEATURES=" + features,
                                       "-P", KALAH_SOURCE_DIR "/tests/kit/compiler_check.cmake"},
                                      tmp.path(), std::chrono::seconds(30));
    EXPECT_EQ(r.status.code, 0) << r.summary();
    return squeeze(r.err);
  };
  const std::string hint = ". Choose another compiler with -DCMAKE_CXX_COMPILER=... in a new build folder. ";
  EXPECT_EQ(check("GNU", "9.4.0", "cxx_std_17;cxx_std_20"),
            "the C++ compiler is GCC 9.4.0; Kalah Arena's headers need C++20, GCC 10 or newer" + hint);
  EXPECT_EQ(check("GNU", "10.1.0", "cxx_std_17;cxx_std_20"), "ok ");
  EXPECT_EQ(check("Clang", "9.0.1", "cxx_std_17;cxx_std_20"),
            "the C++ compiler is Clang 9.0.1; Kalah Arena's headers need C++20, Clang 10 or newer" + hint);
  EXPECT_EQ(check("Clang", "14.0.6", "cxx_std_17;cxx_std_20"), "ok ");
  EXPECT_EQ(check("Intel", "19.1", "cxx_std_14;cxx_std_17"),
            "the C++ compiler is Intel 19.1, which does not support C++20; Kalah Arena's headers need C++20 (GCC 10 or "
            "Clang 10 or newer)" +
                hint);
  EXPECT_EQ(check("", "", ""),
            "no C++ compiler is enabled: give project() the language CXX before find_package(KalahArena) ");
}

TEST(KitPython, TheExampleBotAndTheRandomBotPlayWithoutForfeits) {
  system::TempFolder tmp{"kalah-e2e"};
  const fs::path referee = KALAH_BINARY_DIR "/referee";
  const std::vector<std::string> greedy = {"cmd=" KALAH_BINARY_DIR "/bots/kalah-greedy", "name=greedy"};
  const std::vector<std::string> example = {"cmd=python3", "arg=" KALAH_SOURCE_DIR "/bots/python/example_bot.py",
                                            "name=example", "option.Depth=2"};
  const std::vector<std::string> random = {"cmd=python3", "arg=" KALAH_SOURCE_DIR "/bots/python/random_bot.py", "arg=7",
                                           "name=random"};
  EXPECT_EQ(match(referee, example, greedy, 4, "pits=6 seeds=4", tmp.path()), 4);
  EXPECT_EQ(match(referee, greedy, example, 4, "pits=5 seeds=3 pie=on ending=no-move remainder=none", tmp.path()), 4);
  EXPECT_EQ(match(referee, random, greedy, 4, "pits=4 seeds=4 pie=on majority=on", tmp.path()), 4);
}

// Every combination of the rule keys: the referee checks each of the Python bot's moves with the C++ rules,
// and the bot replays the other's moves with its own, so a disagreement on a legal move set shows as a
// forfeit (or as the bot's "illegal move in position" followed by one).
TEST(KitPython, TheRandomBotAndTheRefereeAgreeOnEveryRuleCombination) {
  system::TempFolder tmp{"kalah-e2e"};
  const fs::path referee = KALAH_BINARY_DIR "/referee";
  const std::vector<std::string> other = {"cmd=" KALAH_BINARY_DIR "/bots/kalah-random", "name=random"};
  int combination = 0;
  for (const char* capture : {"standard", "empty"})
    for (const char* ending : {"side-empty", "no-move"})
      for (const char* remainder : {"owner", "none"})
        for (const char* majority : {"off", "on"})
          for (const char* pie : {"off", "on"}) {
            ++combination;
            const std::string variant = "pits=" + std::to_string(1 + combination % 8) +
                                        " seeds=" + std::to_string(1 + combination % 5) + " capture=" + capture +
                                        " ending=" + ending + " remainder=" + remainder + " majority=" + majority +
                                        " pie=" + pie;
            SCOPED_TRACE(variant);
            const std::vector<std::string> python = {"cmd=python3",
                                                     "arg=" KALAH_SOURCE_DIR "/bots/python/random_bot.py",
                                                     "arg=" + std::to_string(combination), "name=python"};
            EXPECT_EQ(match(referee, python, other, 4, variant, tmp.path()), 4);
          }
  EXPECT_EQ(combination, 32);
}

}  // namespace
}  // namespace kalah
