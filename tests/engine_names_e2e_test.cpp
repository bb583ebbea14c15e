// Engines given without a name are called by the name they announce in their handshake (`id name`), in
// `arena match` and `referee match` alike (docs/CLI.md): on the terminal, in the journal and the reports.
// Two that announce one name are told apart by a suffix; an engine that does not start keeps its
// command's name; and a resumed `arena match` finds the same names, so its journal is taken up again.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "tests/e2e_util.h"

namespace kalah {
namespace {

namespace fs = std::filesystem;

// The Python kit's random bot announces `id name python-random`; kalah-random announces `kalah-random`.
const std::string kPythonBot = KALAH_SOURCE_DIR "/bots/python/random_bot.py";
const std::vector<std::string> kPython = {"cmd=python3", "arg=" + kPythonBot};

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

class EngineNames : public ::testing::Test {
 protected:
  // `arena match` with these flags (after `-engine`s), two pairs per pairing, into this test's folder.
  e2e::RunResult arena_match(const std::vector<std::string>& flags) {
    return e2e::run(std::vector<std::string>{e2e::kArena.string(), "match"} + flags +
                        std::vector<std::string>{"-each", "tc=10+0.1", "-rounds", "4", "-concurrency", "2", "-out",
                                                 (dir_ / "results").string()},
                    dir_.path(), std::chrono::milliseconds(120000));
  }

  e2e::RunResult referee_match(const std::vector<std::string>& flags) {
    return e2e::run(
        std::vector<std::string>{e2e::kReferee.string(), "match"} + flags +
            std::vector<std::string>{"--games", "2", "--tc", "10+0.1", "--out", (dir_ / "games.jsonl").string()},
        dir_.path(), std::chrono::milliseconds(120000));
  }

  // The engines of `arena match`'s results, as the journal's tournament.json records them.
  std::vector<std::string> recorded_engines() const {
    std::vector<std::string> names;
    const boost::json::value meta = boost::json::parse(e2e::read_file(dir_ / "results" / "match" / "tournament.json"));
    for (const boost::json::value& name : meta.at("engines").as_array()) names.emplace_back(name.as_string().c_str());
    return names;
  }

  // The players of every game of a journal, "south-north".
  static std::vector<std::string> players(const fs::path& journal) {
    std::vector<std::string> out;
    for (const std::string& line : e2e::read_lines(journal)) {
      const boost::json::object g = boost::json::parse(line).as_object();
      out.push_back(std::string(g.at("south").as_string().c_str()) + "-" + g.at("north").as_string().c_str());
    }
    return out;
  }

  system::TempFolder dir_{"kalah-e2e"};
};

TEST_F(EngineNames, ArenaMatchCallsAnEngineWithoutANameByTheNameItAnnounces) {
  const std::vector<std::string> flags = std::vector<std::string>{"-engine"} + kPython +
                                         std::vector<std::string>{"-engine", "cmd=" + e2e::kRandom.string()};
  const e2e::RunResult r = arena_match(flags);
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.out.find("python-random"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("python3"), std::string::npos) << r.out;
  EXPECT_EQ(recorded_engines(), (std::vector<std::string>{"python-random", "kalah-random"}));
  for (const std::string& game : players(dir_ / "results" / "match" / "games.jsonl"))
    EXPECT_TRUE(game == "python-random-kalah-random" || game == "kalah-random-python-random") << game;
  EXPECT_NE(e2e::read_file(dir_ / "results" / "match" / "standings.md").find("python-random"), std::string::npos);

  // The same command again takes the journal up: the names, and so the fingerprint, are the same.
  const e2e::RunResult again = arena_match(flags);
  ASSERT_EQ(again.status.code, 0) << again.summary();
  EXPECT_EQ(e2e::read_lines(dir_ / "results" / "match" / "games.jsonl").size(), 4u);
  EXPECT_EQ(recorded_engines(), (std::vector<std::string>{"python-random", "kalah-random"}));
}

TEST_F(EngineNames, ArenaMatchPrintsTheAnnouncedNamesMadeUniqueAndKeepsTheGivenOnes) {
  const e2e::RunResult r =
      e2e::run(std::vector<std::string>{e2e::kArena.string(), "match", "-engine"} + kPython +
                   std::vector<std::string>{"-engine"} + kPython +
                   std::vector<std::string>{"-engine", "cmd=/bin/true", "-engine", "cmd=" + e2e::kRandom.string(),
                                            "name=python-random", "--print-config"},
               dir_.path());
  ASSERT_EQ(r.status.code, 0) << r.summary();
  // The user's name is kept; the two Python bots announce one name and get the next free ones; /bin/true
  // does not start and keeps its command's name.
  EXPECT_NE(r.out.find("[[engine]]\nname = \"python-random-2\"\ncmd = \"python3\"\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[[engine]]\nname = \"python-random-3\"\ncmd = \"python3\"\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[[engine]]\nname = \"true\"\ncmd = \"/bin/true\"\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[[engine]]\nname = \"python-random\"\ncmd = \"" + e2e::kRandom.string() + "\"\n"),
            std::string::npos)
      << r.out;
}

TEST_F(EngineNames, RefereeMatchCallsEnginesWithoutNamesByTheNamesTheyAnnounce) {
  const e2e::RunResult r = referee_match(std::vector<std::string>{"--engine"} + kPython +
                                         std::vector<std::string>{"--engine", "cmd=" + e2e::kRandom.string()});
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_EQ(r.out.rfind("python-random vs kalah-random: ", 0), 0u) << r.out;
  EXPECT_EQ(players(dir_ / "games.jsonl"),
            (std::vector<std::string>{"python-random-kalah-random", "kalah-random-python-random"}));
}

TEST_F(EngineNames, RefereeMatchTellsTwoEnginesOfOneAnnouncedNameApart) {
  const e2e::RunResult r =
      referee_match(std::vector<std::string>{"--engine"} + kPython + std::vector<std::string>{"--engine"} + kPython);
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_EQ(r.out.rfind("python-random vs python-random-2: ", 0), 0u) << r.out;
  EXPECT_EQ(players(dir_ / "games.jsonl"),
            (std::vector<std::string>{"python-random-python-random-2", "python-random-2-python-random"}));
}

// ---- Names that lie to the eye (issue 36): bidi and zero-width controls, look-alike letters ----------------

// A name with a right-to-left override shows as another ("evil" U+202E "gnp.exe" reads "evilexe.png").
const std::string kOverride = "evil\u202Egnp.exe";
const std::string kZeroWidth = "kalah\u200B-random";
const std::string kCyrillicA = "k\u0430lah-random";  // Cyrillic a for Latin a

// `text`'s bytes in hex: how bad_engine --id-name takes the name it announces.
std::string hex(const std::string& text) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (char c : text) {
    out += digits[static_cast<unsigned char>(c) >> 4];
    out += digits[static_cast<unsigned char>(c) & 15];
  }
  return out;
}

// Every file a run writes about its engines, read whole.
std::string every_report(const fs::path& results) {
  std::string all;
  for (const char* file : {"games.jsonl", "tournament.json", "standings.md", "standings.json", "standings.csv",
                           "games.pgn", "report.html"})
    all += e2e::read_file(results / file);
  return all;
}

TEST_F(EngineNames, AnAnnouncedNameIsCleanedOfBidiAndZeroWidthControlsEverywhere) {
  const e2e::RunResult r =
      arena_match({"-engine", "cmd=" + e2e::kBadEngine.string(), "arg=--id-name", "arg=" + hex(kOverride), "-engine",
                   "cmd=" + e2e::kBadEngine.string(), "arg=--id-name", "arg=" + hex(kZeroWidth)});
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_EQ(recorded_engines(), (std::vector<std::string>{"evilgnp.exe", "kalah-random"}));
  const std::string written = every_report(dir_ / "results" / "match");
  for (const char* hidden : {"\u202E", "\u200B"}) {
    EXPECT_EQ(written.find(hidden), std::string::npos);
    EXPECT_EQ(r.out.find(hidden), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find(hidden), std::string::npos) << r.err;
  }
  EXPECT_NE(written.find("evilgnp.exe"), std::string::npos);
}

TEST_F(EngineNames, AnAnnouncedNameThatLooksLikeAnotherGetsASuffix) {
  // kalah-random announces its own name; the others announce it with a Cyrillic 'a' and with a fullwidth
  // one: each is told apart by a suffix, as a second engine of one name is.
  const e2e::RunResult r = e2e::run(
      {e2e::kArena.string(), "match", "-engine", "cmd=" + e2e::kRandom.string(), "-engine",
       "cmd=" + e2e::kBadEngine.string(), "arg=--id-name", "arg=" + hex(kCyrillicA), "-engine",
       "cmd=" + e2e::kBadEngine.string(), "arg=--id-name", "arg=" + hex("kalah-r\uFF41ndom"), "--print-config"},
      dir_.path());
  ASSERT_EQ(r.status.code, 0) << r.summary();
  EXPECT_NE(r.out.find("[[engine]]\nname = \"kalah-random\"\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[[engine]]\nname = \"" + kCyrillicA + "-2\"\n"), std::string::npos) << r.out;
  // Its "-2" would look like the Cyrillic one's: the next suffix.
  EXPECT_NE(r.out.find("[[engine]]\nname = \"kalah-r\uFF41ndom-3\"\n"), std::string::npos) << r.out;
}

TEST_F(EngineNames, AConfigNameWithAHiddenControlOrThatLooksLikeAnotherIsRefusedAtLoad) {
  auto config = [&](const std::string& first, const std::string& second) {
    return "[tournament]\nname = \"t\"\noutput = \"" + (dir_ / "results").string() +
           "\"\n[time]\ntc = \"1+0.01\"\n[[engine]]\nname = \"" + first + "\"\ncmd = \"" + e2e::kRandom.string() +
           "\"\n[[engine]]\nname = \"" + second + "\"\ncmd = \"" + e2e::kRandom.string() + "\"\n";
  };
  struct Case {
    std::string first, second, said;
  };
  const std::vector<Case> cases = {
      {"kalah-random", kOverride, "\"evil\\u202egnp.exe\" is not a usable name"},
      {kZeroWidth, "greedy", "\"kalah\\u200b-random\" is not a usable name"},
      {"kalah-random", kCyrillicA, "looks like \"kalah-random\", the engine at line "},
      {"BOT-1", "B0T-l", "\"B0T-l\" looks like \"BOT-1\""},
      {"greedy", "\uFF47reedy", "looks like \"greedy\""},
  };
  for (const Case& c : cases) {
    e2e::write_file(dir_ / "t.toml", config(c.first, c.second));
    const e2e::RunResult r = e2e::run({e2e::kArena.string(), "run", (dir_ / "t.toml").string()}, dir_.path());
    EXPECT_EQ(r.status.code, 2) << r.summary();
    EXPECT_NE(r.err.find(c.said), std::string::npos) << r.err;
    // The message shows the control as an escape; the terminal never gets it.
    for (const char* hidden : {"\u202E", "\u200B"}) EXPECT_EQ(r.err.find(hidden), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "results" / "t" / "games.jsonl"));
  }
}

TEST_F(EngineNames, RefereeMatchRefusesTwoGivenNamesThatLookAlike) {
  const e2e::RunResult r = referee_match({"--engine", "cmd=" + e2e::kRandom.string(), "name=kalah-random", "--engine",
                                          "cmd=" + e2e::kRandom.string(), "name=" + kCyrillicA});
  EXPECT_EQ(r.status.code, 2) << r.summary();
  EXPECT_NE(r.err.find("look alike"), std::string::npos) << r.err;
  const e2e::RunResult hidden = referee_match(
      {"--engine", "cmd=" + e2e::kRandom.string(), "name=" + kOverride, "--engine", "cmd=" + e2e::kRandom.string()});
  EXPECT_EQ(hidden.status.code, 2) << hidden.summary();
  EXPECT_NE(hidden.err.find("bidi and zero-width"), std::string::npos) << hidden.err;
}

}  // namespace
}  // namespace kalah
