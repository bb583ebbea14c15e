// A class contest end to end (docs/CONTEST.md): the example submissions of configs/contest built in the
// sandbox and checked, bad submissions refused each with its reason while the others enter, a late entry
// and a disqualification in the middle of the contest without losing a finished game.
#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <set>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "arena/contest/manifest.h"
#include "arena/schedule/schedule.h"
#include "e2e_util.h"
#include "referee/engine/sandbox.h"

namespace kalah::arena {
namespace {

namespace json = boost::json;
using namespace e2e;

const fs::path kExample = KALAH_SOURCE_DIR "/configs/contest";

std::string contest_toml(const fs::path& out, const std::string& extra = "",
                         const std::string& house = "name = \"house-random\"\ncmd = \"" + reachable(kRandom).string() +
                                                    "\"\n") {
  return "[tournament]\nname = \"class\"\nrounds = 1\nconcurrency = 2\nseed = 7\noutput = \"" + out.string() +
         "\"\nprogress_interval = 0\nreport_every = 0\nsandbox = \"bwrap\"\nmemory_mb = 512\nmax_file_mb = 16\n"
         "restart = \"always\"\n\n[time]\nbase_ms = 1000\ninc_ms = 10\n\n[submissions]\ndir = \"submissions\"\n"
         "build_timeout_s = 3\nbuild_disk_mb = 4\n" +
         extra + "\n[[engine]]\n" + house;
}

// A house bot whose name a submission may take, or imitate ("house-bot-l": 'l' for '1').
std::string house_bot_1() { return "name = \"house-bot-1\"\ncmd = \"" + reachable(kRandom).string() + "\"\n"; }

json::object read_json(const fs::path& file) { return json::parse(read_file(file)).as_object(); }

// name -> status of entries.json
std::map<std::string, std::string> statuses(const fs::path& entries) {
  std::map<std::string, std::string> out;
  const json::object file = read_json(entries);
  for (const json::value& s : file.at("submissions").as_array()) {
    const json::object& o = s.as_object();
    const std::string name(o.at("name").as_string());
    out[name.empty() ? std::string(o.at("folder").as_string()) + "/" : name] = std::string(o.at("status").as_string());
  }
  return out;
}

class ContestE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::optional<std::string> why = sandbox_unavailable()) GTEST_SKIP() << *why;
    ::chmod(tmp_.path().c_str(), 0711);  // sandboxed bots run as other users: let them through
    fs::copy(kExample / "submissions", tmp_ / "submissions", fs::copy_options::recursive);
  }
  void add_submission(const std::string& folder, const std::string& manifest,
                      const std::map<std::string, std::string>& files = {}) {
    fs::create_directories(tmp_ / "submissions" / folder);
    write_file(tmp_ / "submissions" / folder / "bot.toml", manifest);
    for (const auto& [name, text] : files) write_file(tmp_ / "submissions" / folder / name, text);
  }
  // Basil under another name: a second working Python bot.
  void add_copy_of_basil(const std::string& name) {
    fs::copy(tmp_ / "submissions" / "basil", tmp_ / "submissions" / name, fs::copy_options::recursive);
    write_file(tmp_ / "submissions" / name / "bot.toml",
               "name = \"" + name + "\"\nlanguage = \"Python\"\nrun = \"python3 basil.py\"\n");
  }
  RunResult arena(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {kArena.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run(argv, tmp_.path(), std::chrono::seconds(240));
  }
  fs::path config() const { return tmp_ / "contest.toml"; }
  fs::path results() const { return tmp_ / "out" / "class"; }

  system::TempFolder tmp_{"kalah-e2e"};
};

TEST_F(ContestE2E, EachBadSubmissionGetsItsReasonAndTheOthersEnter) {
  write_file(config(), contest_toml(tmp_ / "out"));
  add_submission("unknown-key", "name = \"odd\"\nrun = \"./odd\"\ncolour = \"blue\"\n");
  add_submission("no-run", "name = \"lazy\"\nlanguage = \"C\"\n");
  add_submission("twin-a", "name = \"twin\"\nrun = \"python3 bot.py\"\n", {{"bot.py", "print('kepok')\n"}});
  add_submission("twin-b", "name = \"twin\"\nrun = \"python3 bot.py\"\n", {{"bot.py", "print('kepok')\n"}});
  add_submission("hangs", "name = \"sleepy\"\nbuild = \"sleep 60\"\nrun = \"./sleepy\"\n");
  add_submission("fills-disk",
                 "name = \"hoarder\"\nbuild = \"i=0; while :; do head -c 500000 /dev/zero > f$i; i=$((i+1)); "
                 "done\"\nrun = \"./x\"\n");
  add_submission("no-compiler-luck", "name = \"typo\"\nbuild = \"cc -o typo typo.c\"\nrun = \"./typo\"\n",
                 {{"typo.c", "int main( { return 0; }\n"}});
  // No bytes at all, but files: each counts 4 KiB (an inode and a block), so 2000 empty ones are 7.8 MiB.
  add_submission("many-files",
                 "name = \"litter\"\nbuild = \"i=0; while [ $i -lt 2000 ]; do : > e$i; i=$((i+1)); done\"\n"
                 "run = \"./x\"\n");
  // Dies at start-up: the student forgot a file. Why is in its traceback, which the build's output and its
  // check log must show (issue 23: not only "eof before kepok: exited with code 1").
  add_submission("forgot-a-file", "name = \"forgetful\"\nrun = \"python3 bot.py\"\n",
                 {{"bot.py", "import forgotten_helper\n"}});
  // Dies at start-up deep in its own modules: a traceback longer than the line that reports it, whose last
  // line, the error, was cut mid-word ("cannot import na").
  add_submission("deep-import", "name = \"deep\"\nrun = \"python3 bot.py\"\n",
                 {{"bot.py", "import search_with_a_rather_long_module_name\n"},
                  {"search_with_a_rather_long_module_name.py",
                   "from table_with_another_long_module_name import "
                   "transposition_table_of_the_search\n"},
                  {"table_with_another_long_module_name.py", "entries = {}\n"}});

  const RunResult built = arena({"contest", "build", config().string()});
  ASSERT_EQ(built.status.code, 0) << built.summary();
  EXPECT_NE(built.out.find("ada              entered (C, built in"), std::string::npos) << built.out;
  // A bot run by a program of the system: which interpreter the sandbox runs, and its version.
  EXPECT_NE(built.out.find("basil            entered (Python, run by /usr/bin/python3"), std::string::npos)
      << built.out;
  EXPECT_NE(built.out.find(" = Python 3."), std::string::npos) << built.out;
  EXPECT_NE(built.out.find(", nothing to build, referee check passed)"), std::string::npos) << built.out;
  EXPECT_NE(read_file(results() / "logs" / "basil" / "build.log").find("(the sandbox runs /usr/bin/python3"),
            std::string::npos)
      << read_file(results() / "logs" / "basil" / "build.log");
  EXPECT_NE(built.out.find("cobbler          not entered: referee check failed: move kalah(6,4)"), std::string::npos)
      << built.out;
  EXPECT_NE(built.out.find("(illegal): bestmove 1"), std::string::npos) << built.out;
  EXPECT_NE(built.out.find("unknown-key/bot.toml:3:1: unknown key \"colour\" in bot.toml; known keys: name, author, "
                           "language, build, run, protocol"),
            std::string::npos)
      << built.out;
  EXPECT_NE(built.out.find("no-run/bot.toml:1:1: missing key \"run\" in bot.toml"), std::string::npos) << built.out;
  EXPECT_NE(
      built.out.find("twin-a/          not entered: the name 'twin' is also claimed by twin-b/; rename one of them"),
      std::string::npos)
      << built.out;
  EXPECT_NE(built.out.find("the name 'twin' is also claimed by twin-a/"), std::string::npos) << built.out;
  EXPECT_NE(built.out.find("sleepy           not entered: the build took longer than build_timeout_s = 3 s"),
            std::string::npos)
      << built.out;
  EXPECT_NE(built.out.find("hoarder          not entered: the build wrote more than build_disk_mb = 4 MiB"),
            std::string::npos)
      << built.out;
  // The 2000 files take a few milliseconds: the build is either caught while it runs (the folder is looked
  // at every 100 ms) or after it ends; both refuse it for its files.
  EXPECT_TRUE(built.out.find("litter           not entered: the build wrote more than build_disk_mb = 4 MiB") !=
                  std::string::npos ||
              built.out.find("litter           not entered: the build left more than build_disk_mb = 4 MiB") !=
                  std::string::npos)
      << built.out;
  EXPECT_NE(built.out.find("typo             not entered: the build failed (exited with code 1)"), std::string::npos)
      << built.out;
  EXPECT_NE(built.out.find("13 submissions: 2 entered, 11 not entered"), std::string::npos) << built.out;
  const std::size_t deep = built.out.find("deep             not entered: referee check failed");
  ASSERT_NE(deep, std::string::npos) << built.out;
  const std::string deep_line = built.out.substr(deep, built.out.find('\n', deep) - deep);
  EXPECT_NE(deep_line.find("ImportError: cannot import name 'transposition_table_of_the_search' from "
                           "'table_with_another_long_module_name'"),
            std::string::npos)
      << deep_line;
  const std::size_t forgetful = built.out.find("forgetful        not entered: referee check failed");
  ASSERT_NE(forgetful, std::string::npos) << built.out;
  EXPECT_NE(built.out.find("ModuleNotFoundError: No module named 'forgotten_helper'", forgetful), std::string::npos)
      << built.out;
  EXPECT_NE(read_file(results() / "logs" / "forgetful" / "check.log")
                .find("ModuleNotFoundError: No module named 'forgotten_helper'"),
            std::string::npos)
      << read_file(results() / "logs" / "forgetful" / "check.log");
  EXPECT_NE(read_file(results() / "logs" / "typo" / "build.log").find("error"), std::string::npos);

  const std::map<std::string, std::string> s = statuses(results() / "entries.json");
  EXPECT_EQ(s.at("ada"), "entered");
  EXPECT_EQ(s.at("basil"), "entered");
  EXPECT_EQ(s.at("cobbler"), "not-entered");
  EXPECT_EQ(s.at("unknown-key/"), "not-entered");

  // The contest goes on with the two that entered and the house bot.
  const RunResult played = arena({"run", config().string()});
  ASSERT_EQ(played.status.code, 0) << played.summary();
  EXPECT_EQ(read_lines(results() / "games.jsonl").size(), 6u);
  const std::string md = read_file(results() / "standings.md");
  EXPECT_NE(md.find("Not entered: cobbler (referee check failed"), std::string::npos) << md;
  // Each note links the submission's page, relative to the report; no path of the organiser's machine.
  EXPECT_NE(md.find("([submissions/no-compiler-luck.html](submissions/no-compiler-luck.html))"), std::string::npos)
      << md;
  for (const std::string& note : lines_starting(md, "> **Note:**"))
    EXPECT_EQ(note.find(tmp_.path().string()), std::string::npos) << note;
  // A page for every submission, entered or not, with its evidence: the start-up traceback in the check.
  const std::string forgetful_page = read_file(results() / "submissions" / "forgot-a-file.html");
  EXPECT_NE(forgetful_page.find("ModuleNotFoundError: No module named &#39;forgotten_helper&#39;"), std::string::npos)
      << forgetful_page;
  EXPECT_NE(forgetful_page.find("href=\"../logs/forgetful/check.log\""), std::string::npos) << forgetful_page;
  EXPECT_NE(read_file(results() / "submissions" / "no-compiler-luck.html").find("href=\"../logs/typo/build.log\""),
            std::string::npos);
  EXPECT_NE(read_file(results() / "submissions" / "unknown-key.html").find("unknown key"), std::string::npos);
  const std::string report = read_file(results() / "report.html");
  for (const char* page : {"submissions/ada.html", "submissions/cobbler.html", "submissions/twin-a.html"})
    EXPECT_NE(report.find(std::string("href=\"") + page + "\""), std::string::npos) << page;
  for (const std::string& line : read_lines(results() / "games.jsonl"))
    EXPECT_NE(line.find("\"forfeit\":null"), std::string::npos) << line;
}

// A contest never sends `bench`: a bot that announces it and never answers still enters, its check log
// saying why the bench was not checked (and no time is spent waiting for it).
TEST_F(ContestE2E, ABotWhoseBenchNeverAnswersStillEnters) {
  write_file(config(), contest_toml(tmp_ / "out"));
  add_copy_of_basil("benchy");
  std::string bot = read_file(tmp_ / "submissions" / "benchy" / "basil.py");
  const std::string kepok = R"(print("id name basil\nid author Basil (example)\nkepok", flush=True))";
  const std::size_t at = bot.find(kepok);
  ASSERT_NE(at, std::string::npos);
  bot.replace(at, kepok.size(), R"(print("id name benchy\nfeature bench\nkepok", flush=True))");
  write_file(tmp_ / "submissions" / "benchy" / "basil.py", bot);

  const RunResult built = arena({"contest", "build", config().string()});
  ASSERT_EQ(built.status.code, 0) << built.summary();
  EXPECT_NE(built.out.find("benchy           entered (Python, run by /usr/bin/python3"), std::string::npos)
      << built.out;
  EXPECT_NE(built.out.find(", nothing to build, referee check passed)\n  cobbler"), std::string::npos) << built.out;
  EXPECT_NE(read_file(results() / "logs" / "benchy" / "check.log")
                .find("SKIP bench: a contest never asks for it (arena sprt --bench does)"),
            std::string::npos)
      << read_file(results() / "logs" / "benchy" / "check.log");
}

TEST_F(ContestE2E, ALateEntryAndADisqualificationKeepEveryFinishedGame) {
  write_file(config(), contest_toml(tmp_ / "out"));
  ASSERT_EQ(arena({"contest", "build", config().string()}).status.code, 0);
  // Three engines (house-random, ada, basil): 3 pairings, 6 games; the first 4 now.
  const RunResult first = arena({"run", config().string(), "--max-games", "4", "--concurrency", "1"});
  ASSERT_EQ(first.status.code, 0) << first.summary();
  EXPECT_NE(first.out.find("stopped after 4 games as --max-games asked"), std::string::npos) << first.out;
  const std::vector<std::string> before = read_lines(results() / "games.jsonl");
  ASSERT_EQ(before.size(), 4u);
  const std::string fingerprint(read_json(results() / "tournament.json").at("fingerprint").as_string());

  // A late entry: built alone, the others are unchanged.
  add_copy_of_basil("dora");
  const RunResult late = arena({"contest", "build", config().string()});
  ASSERT_EQ(late.status.code, 0) << late.summary();
  EXPECT_NE(late.out.find("ada              entered (unchanged since"), std::string::npos) << late.out;
  EXPECT_NE(late.out.find("dora             entered (Python"), std::string::npos) << late.out;

  const RunResult second = arena({"run", config().string(), "--max-games", "4", "--concurrency", "1"});
  ASSERT_EQ(second.status.code, 0) << second.summary();
  EXPECT_NE(second.out.find("round-robin 4 engines, 12 games (4 done)"), std::string::npos) << second.out;
  const std::vector<std::string> middle = read_lines(results() / "games.jsonl");
  ASSERT_EQ(middle.size(), 8u);
  EXPECT_TRUE(std::equal(before.begin(), before.end(), middle.begin())) << "the finished games are kept as they were";
  EXPECT_EQ(std::string(read_json(results() / "tournament.json").at("fingerprint").as_string()), fingerprint);

  // Disqualified in the middle: its games are void, its other games are not played.
  const RunResult dq =
      arena({"contest", "disqualify", config().string(), "basil", "--reason", "copied another student's code"});
  ASSERT_EQ(dq.status.code, 0) << dq.summary();
  EXPECT_NE(dq.out.find("'basil' disqualified: copied another student's code; its finished games are void"),
            std::string::npos)
      << dq.out;
  const json::object meta = read_json(results() / "tournament.json");
  const json::object& settings = meta.at("settings").as_object();
  EXPECT_EQ(settings.at("entry.basil.status").as_string(), "disqualified");
  EXPECT_EQ(settings.at("entry.basil.games").as_string(), "void");
  EXPECT_EQ(settings.at("entry.basil.reason").as_string(), "copied another student's code");

  const RunResult last = arena({"run", config().string()});
  ASSERT_EQ(last.status.code, 0) << last.summary();
  const std::vector<std::string> after = read_lines(results() / "games.jsonl");
  EXPECT_TRUE(std::equal(middle.begin(), middle.end(), after.begin()));
  std::set<std::string> ids;
  std::map<std::pair<std::string, std::string>, int> met;
  for (std::size_t i = 0; i < after.size(); ++i) {
    const json::object g = json::parse(after[i]).as_object();
    EXPECT_TRUE(ids.insert(std::string(g.at("id").as_string())).second) << after[i];
    const std::string south(g.at("south").as_string()), north(g.at("north").as_string());
    if (i >= middle.size()) {
      EXPECT_TRUE(south != "basil" && north != "basil") << "played after the DQ: " << after[i];
    }
    ++met[{std::min(south, north), std::max(south, north)}];
  }
  // Every pairing of the three that still play is complete, colours swapped.
  for (const auto& pairing : std::vector<std::pair<std::string, std::string>>{
           {"ada", "house-random"}, {"ada", "dora"}, {"dora", "house-random"}})
    EXPECT_EQ(met[pairing], 2) << pairing.first << " v " << pairing.second;

  // Withdrawing the same bot again, or one that never entered, is refused with the reason.
  const RunResult again = arena({"contest", "withdraw", config().string(), "basil", "--reason", "x"});
  EXPECT_EQ(again.status.code, 2);
  EXPECT_NE(again.err.find("'basil' is already disqualified"), std::string::npos) << again.err;
  const RunResult nobody = arena({"contest", "withdraw", config().string(), "cobbler", "--reason", "x"});
  EXPECT_EQ(nobody.status.code, 2);
  EXPECT_NE(nobody.err.find("no entrant is named 'cobbler'; the entrants are: ada, basil, dora"), std::string::npos)
      << nobody.err;
}

// A bot named like a house bot (issue 36): refused at build with the reason, as is one whose name only looks
// like it (before: both entered, and `arena run` then refused the whole contest).
TEST_F(ContestE2E, ABotNamedLikeAHouseBotIsNotEnteredWithTheReason) {
  fs::remove_all(tmp_ / "submissions" / "cobbler");
  write_file(config(), contest_toml(tmp_ / "out", "", house_bot_1()));
  add_copy_of_basil("house-bot-1");
  add_copy_of_basil("house-bot-l");  // 'l' for '1'
  // A folder whose name a right-to-left override makes show as another; an author's override is dropped.
  add_submission("evil\u202Egnp", "name = \"evil\"\nrun = \"python3 bot.py\"\n");
  write_file(
      tmp_ / "submissions" / "basil" / "bot.toml",
      "name = \"basil\"\nauthor = \"Basil\u202E (example)\"\nlanguage = \"Python\"\nrun = \"python3 basil.py\"\n");
  const RunResult built = arena({"contest", "build", config().string()});
  ASSERT_EQ(built.status.code, 0) << built.summary();
  EXPECT_NE(built.out.find("evil\\u202egnp/   not entered: its folder name is not plain UTF-8 text (control "
                           "characters, bidi or zero-width controls, or invalid bytes); rename the folder"),
            std::string::npos)
      << built.out;
  EXPECT_EQ(built.out.find("\u202E"), std::string::npos) << built.out;
  EXPECT_EQ(read_file(results() / "entries.json").find("\u202E"), std::string::npos);
  EXPECT_NE(read_file(results() / "entries.json").find("\"Basil (example)\""), std::string::npos);
  EXPECT_NE(built.out.find("house-bot-1/     not entered: the name 'house-bot-1' is the name of an [[engine]] of the "
                           "config (a house bot); rename the bot"),
            std::string::npos)
      << built.out;
  EXPECT_NE(built.out.find("house-bot-l/     not entered: the name 'house-bot-l' looks like 'house-bot-1', an "
                           "[[engine]] of the config (a house bot); rename the bot"),
            std::string::npos)
      << built.out;
  // Refused before it was built: its record has its folder, not the name.
  const std::map<std::string, std::string> s = statuses(results() / "entries.json");
  EXPECT_EQ(s.at("house-bot-1/"), "not-entered");
  EXPECT_EQ(s.at("house-bot-l/"), "not-entered");
  EXPECT_EQ(s.at("ada"), "entered");
  EXPECT_EQ(s.at("basil"), "entered");
  EXPECT_NE(read_file(results() / "entries.json").find("is the name of an [[engine]] of the config"),
            std::string::npos);
  const RunResult played = arena({"run", config().string(), "--max-games", "2", "--concurrency", "1"});
  ASSERT_EQ(played.status.code, 0) << played.summary();
}

// An entrant with a house bot's name that an arena before issue 36 let in stops `arena run` while it is in the
// contest, saying how to take it out; once disqualified it never blocks the run again (before: refused even
// then), and goes by a name of its own so that its record never mixes with the house bot's.
TEST_F(ContestE2E, ADisqualifiedEntrantWithAHouseBotsNameNeverBlocksTheRun) {
  fs::remove_all(tmp_ / "submissions" / "cobbler");
  write_file(config(), contest_toml(tmp_ / "out", "", house_bot_1()));
  ASSERT_EQ(arena({"contest", "build", config().string()}).status.code, 0);
  const RunResult first = arena({"run", config().string(), "--max-games", "2", "--concurrency", "1"});
  ASSERT_EQ(first.status.code, 0) << first.summary();

  // The record such a build wrote, and its folder (a copy of basil's).
  json::object file = read_json(results() / "entries.json");
  json::object entrant;
  for (const json::value& v : file.at("submissions").as_array())
    if (v.as_object().at("name").as_string() == "basil") entrant = v.as_object();
  entrant["folder"] = "house-bot-1";
  entrant["name"] = "house-bot-1";
  entrant["order"] = 3;
  file.at("submissions").as_array().emplace_back(entrant);
  write_file(results() / "entries.json", json::serialize(file) + "\n");
  fs::copy(results() / "entries" / "basil", results() / "entries" / "house-bot-1", fs::copy_options::recursive);

  const RunResult refused = arena({"run", config().string()});
  EXPECT_EQ(refused.status.code, 2) << refused.summary();
  EXPECT_NE(refused.err.find("entrant 'house-bot-1' has the name of an [[engine]] of the config: rename that "
                             "[[engine]], or take the entrant out (arena contest disqualify "),
            std::string::npos)
      << refused.err;
  const RunResult dq = arena({"contest", "disqualify", config().string(), "house-bot-1", "--reason", "a house name"});
  ASSERT_EQ(dq.status.code, 0) << dq.summary();
  // The journal's settings name the entrant as the run does, never the house bot (whose games would be void).
  const json::object after_dq = read_json(results() / "tournament.json");
  const json::object& settings = after_dq.at("settings").as_object();
  EXPECT_EQ(settings.if_contains("entry.house-bot-1.status"), nullptr);
  ASSERT_NE(settings.if_contains("entry.house-bot-1 (entrant).status"), nullptr) << json::serialize(settings);
  EXPECT_EQ(settings.at("entry.house-bot-1 (entrant).status").as_string(), "disqualified");

  const RunResult played = arena({"run", config().string()});
  ASSERT_EQ(played.status.code, 0) << played.summary();
  EXPECT_NE(played.err.find("disqualified entrant 'house-bot-1' has the name of an [[engine]] of the config: it goes "
                            "by 'house-bot-1 (entrant)'"),
            std::string::npos)
      << played.err;
  const json::object meta = read_json(results() / "tournament.json");
  std::vector<std::string> engines;
  for (const json::value& e : meta.at("engines").as_array()) engines.emplace_back(e.as_string());
  EXPECT_EQ(engines, (std::vector<std::string>{"house-bot-1", "ada", "basil", "house-bot-1 (entrant)"}));
  // Every game of the three that play, none of the disqualified one's; the house bot's games all count.
  const std::vector<std::string> games = read_lines(results() / "games.jsonl");
  EXPECT_EQ(games.size(), 6u);
  for (const std::string& line : games) EXPECT_EQ(line.find("(entrant)"), std::string::npos) << line;
  EXPECT_EQ(meta.at("settings").as_object().if_contains("entry.house-bot-1.games"), nullptr);
  // Its submission page links its own bot page, not the house bot's.
  const std::string page = read_file(results() / "submissions" / "house-bot-1.html");
  EXPECT_EQ(page.find("href=\"../bots/house-bot-1.html\""), std::string::npos) << page;
  EXPECT_NE(page.find("href=\"../bots/house-bot-1__entrant_-"), std::string::npos) << page;
}

// The schedule of n + 1 entrants holds every game of the schedule of n, with the same id and opening:
// a late entry never changes a game that may already be in the journal. A withdrawn entrant's games go.
// The issue's whole story: the example submissions built, a late entry and a disqualification in the middle,
// a ranking by points with tie-breaks, a page for every bot with the house bot's forfeits and transcripts,
// and the published archive verified (and a journal edited by hand caught).
TEST_F(ContestE2E, AnEntrantsStderrEndsUpInItsTranscriptAndBotPageAsAHouseBotsDoes) {
  for (const char* example : {"ada", "basil", "cobbler"}) fs::remove_all(tmp_ / "submissions" / example);
  // Dies at its first move, saying why on stderr (with a control character the reports must not carry).
  add_submission(
      "crasher", "name = \"crasher\"\nlanguage = \"shell\"\nrun = \"sh crasher.sh\"\n",
      {{"crasher.sh",
        "while read -r command rest; do\n  case \"$command\" in\n    kep) printf 'id name crasher\\nkepok\\n' ;;\n"
        "    isready) echo readyok ;;\n"
        "    go) printf 'crasher: no idea what to play \\033[31m(entrant stderr)\\n' >&2; exit 1 ;;\n"
        "    quit) exit 0 ;;\n  esac\ndone\n"}});
  write_file(config(), contest_toml(tmp_ / "out", "check = false\n"));
  const RunResult built = arena({"contest", "build", config().string()});
  ASSERT_EQ(built.status.code, 0) << built.summary();
  const RunResult played = arena({"run", config().string()});
  ASSERT_EQ(played.status.code, 0) << played.summary();
  int forfeits = 0;
  for (const std::string& line : read_lines(results() / "games.jsonl")) {
    const json::object g = json::parse(line).as_object();
    if (g.at("forfeit").is_null()) continue;
    ++forfeits;
    EXPECT_EQ(g.at("forfeit").at("engine").as_string(), "crasher") << line;
    const std::string transcript =
        read_file(results() / "transcripts" / (std::string(g.at("id").as_string()) + ".log"));
    EXPECT_NE(transcript.find("crasher: no idea what to play"), std::string::npos) << transcript;
    EXPECT_EQ(transcript.find('\033'), std::string::npos) << "terminal controls are escaped";
  }
  EXPECT_EQ(forfeits, 2);
  const std::string page = read_file(results() / "bots" / "crasher.html");
  EXPECT_NE(page.find("crasher: no idea what to play"), std::string::npos) << page;
}

TEST_F(ContestE2E, TheExampleContestIsRankedExplainedAndVerifiable) {
  write_file(config(),
             contest_toml(tmp_ / "out",
                          "\n[ranking]\nby = \"points\"\ntiebreaks = [\"head-to-head\", \"sonneborn-berger\", "
                          "\"buchholz\", \"wins\", \"seed-difference\"]\n",
                          "name = \"house-crash\"\ncmd = \"" + reachable(kBadEngine).string() +
                              "\"\nargs = [\"--crash-on-go\", \"1\"]\n"));
  ASSERT_EQ(arena({"contest", "build", config().string()}).status.code, 0);
  ASSERT_EQ(arena({"run", config().string(), "--max-games", "3", "--concurrency", "1"}).status.code, 0);
  add_copy_of_basil("dora");
  ASSERT_EQ(arena({"contest", "build", config().string()}).status.code, 0);
  ASSERT_EQ(arena({"run", config().string(), "--max-games", "3", "--concurrency", "1"}).status.code, 0);
  const RunResult dq = arena({"contest", "disqualify", config().string(), "basil", "--reason", "copied code"});
  ASSERT_EQ(dq.status.code, 0) << dq.summary();
  const RunResult last = arena({"run", config().string()});
  ASSERT_EQ(last.status.code, 0) << last.summary();

  // Ranked by points, the tie-breaks in the declared order, basil disqualified and unranked.
  const std::string md = read_file(results() / "standings.md");
  EXPECT_NE(md.find("Ranked by points (a win 1, a draw 0.5, a loss 0), then head-to-head, then sonneborn-berger, then "
                    "buchholz, then wins, then seed-difference"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("- basil is disqualified (copied code)"), std::string::npos) << md;
  EXPECT_NE(
      last.out.find("Rank  Engine       Points  head-to-head  sonneborn-berger  buchholz    wins  seed-difference"),
      std::string::npos)
      << last.out;
  EXPECT_NE(last.out.find("ada and dora tied on 3 points (level on head-to-head 1, sonneborn-berger 3, buchholz 6, "
                          "wins 3): seed-difference 5 vs -2"),
            std::string::npos)
      << last.out;
  EXPECT_NE(last.out.find("9 games (6 done, 3 of them by entrants that left)"), std::string::npos) << last.out;
  EXPECT_EQ(last.err.find("not in this tournament's schedule"), std::string::npos) << last.err;
  const json::object standings = read_json(results() / "standings.json");
  EXPECT_EQ(standings.at("ranking").at("by").as_string(), "points") << json::serialize(standings);

  // A page per bot, linked from report.html; the house bot's forfeits with their transcripts.
  const std::string report = read_file(results() / "report.html");
  for (const char* bot : {"ada", "basil", "dora", "house-crash"}) {
    EXPECT_TRUE(fs::exists(results() / "bots" / (std::string(bot) + ".html"))) << bot;
    EXPECT_NE(report.find(std::string("bots/") + bot + ".html"), std::string::npos) << bot;
  }
  const std::string crash_page = read_file(results() / "bots" / "house-crash.html");
  EXPECT_NE(crash_page.find("crash"), std::string::npos);
  for (const std::string& line : read_lines(results() / "games.jsonl")) {
    const json::object g = json::parse(line).as_object();
    const bool forfeited = !g.at("forfeit").is_null();
    EXPECT_EQ(fs::exists(results() / "transcripts" / (std::string(g.at("id").as_string()) + ".log")), forfeited)
        << line;
    EXPECT_EQ(forfeited, line.find("house-crash") != std::string::npos)
        << "the house bot crashes in its games: " << line;
  }

  // The archive verifies; a hand-edited journal does not.
  const fs::path archive = tmp_ / "class.tar.gz";
  const RunResult packed = arena({"archive", results().string(), "-o", archive.string()});
  ASSERT_EQ(packed.status.code, 0) << packed.summary();
  const RunResult verified = arena({"verify", archive.string()});
  EXPECT_EQ(verified.status.code, 0) << verified.summary() << verified.out;
  EXPECT_NE(verified.out.find("arena verify: OK"), std::string::npos) << verified.out;
  // ENGINES.sha256 pins each bot's own files, not only the program that runs it (for basil, the Python
  // interpreter), and they check where the engines live.
  fs::create_directories(tmp_ / "unpacked");
  const RunResult unpacked =
      run({"/usr/bin/tar", "-xzf", archive.string(), "-C", (tmp_ / "unpacked").string()}, tmp_.path());
  ASSERT_EQ(unpacked.status.code, 0) << unpacked.summary();
  const std::string engines = read_file(tmp_ / "unpacked" / "class" / "ENGINES.sha256");
  for (const fs::path& file : {results() / "entries" / "basil" / "basil.py", results() / "entries" / "ada" / "ada",
                               results() / "entries" / "dora" / "basil.py"})
    EXPECT_NE(engines.find("  " + fs::absolute(file).lexically_normal().string() + "\n"), std::string::npos)
        << file << " in\n"
        << engines;
  const RunResult checked =
      run({"/usr/bin/sha256sum", "-c", (tmp_ / "unpacked" / "class" / "ENGINES.sha256").string()}, tmp_.path());
  EXPECT_EQ(checked.status.code, 0) << checked.summary() << checked.out;
  std::vector<std::string> lines = read_lines(results() / "games.jsonl");
  std::string edited;
  for (std::string& line : lines) {
    if (edited.empty() && line.find("\"result\":\"1-0\"") != std::string::npos &&
        line.find("\"termination\":\"normal\"") != std::string::npos) {
      line.replace(line.find("\"result\":\"1-0\""), 14, "\"result\":\"0-1\"");
      edited = line;
    }
  }
  ASSERT_FALSE(edited.empty());
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  write_file(results() / "games.jsonl", text);
  const RunResult caught = arena({"verify", results().string()});
  EXPECT_EQ(caught.status.code, 1) << caught.summary() << caught.out;
  EXPECT_NE(caught.out.find("arena verify: FAILED"), std::string::npos) << caught.out;
}

TEST(ContestSchedule, ALateEntrantOnlyAddsGamesAndAWithdrawnOneOnlyRemovesItsOwn) {
  const std::string text =
      "[tournament]\nname = \"c\"\nrounds = 2\nseed = 5\n[time]\nmovetime_ms = 10\n[openings]\nrandom_plies = 2\n"
      "[submissions]\ndir = \".\"\nbuild_sandbox = \"none\"\n";
  Expected<Config> parsed = parse_config(text, "c.toml", fs::current_path());
  ASSERT_TRUE(parsed) << parsed.error();
  auto with = [&](int n, int withdrawn) {
    Config c = *parsed;
    for (int i = 0; i < n; ++i) {
      EngineSpec e;
      e.name = "bot" + std::to_string(i);
      c.engines.push_back(e);
      c.entries.push_back(EntryState{i == withdrawn ? EntryStatus::Withdrawn : EntryStatus::Active, "", {}});
    }
    return make_schedule(c);
  };
  for (int n = 2; n < 7; ++n) {
    const std::vector<GameSpec> before = with(n, -1);
    const std::vector<GameSpec> after = with(n + 1, -1);
    EXPECT_EQ(before.size(), static_cast<std::size_t>(n * (n - 1) * 2));
    EXPECT_EQ(after.size(), static_cast<std::size_t>((n + 1) * n * 2));
    for (const GameSpec& g : before)
      EXPECT_NE(std::find(after.begin(), after.end(), g), after.end())
          << g.id << " changed when entrant " << n << " came";
  }
  const std::vector<GameSpec> all = with(5, -1);
  const std::vector<GameSpec> without = with(5, 3);
  EXPECT_EQ(without.size(), all.size() - 2 * 2 * 4);
  for (const GameSpec& g : without) {
    EXPECT_TRUE(g.south != 3 && g.north != 3) << g.id;
    EXPECT_NE(std::find(all.begin(), all.end(), g), all.end()) << g.id;
  }
}

TEST(ContestSchedule, WithABookEveryPairOfAPairingHasAnOpeningOfItsOwn) {
  // The example contest's book (120 lines): each round of a pairing used to get the same line.
  const std::string text =
      "[tournament]\nname = \"c\"\nrounds = 3\nseed = 5\n[time]\nmovetime_ms = 10\n[openings]\n"
      "file = \"" KALAH_SOURCE_DIR
      "/configs/draw-book.txt\"\n"
      "[submissions]\ndir = \".\"\nbuild_sandbox = \"none\"\n";
  Expected<Config> parsed = parse_config(text, "c.toml", fs::current_path());
  ASSERT_TRUE(parsed) << parsed.error();
  Config c = *parsed;
  for (int i = 0; i < 4; ++i) {
    EngineSpec e;
    e.name = "bot" + std::to_string(i);
    c.engines.push_back(e);
    c.entries.push_back(EntryState{});
  }
  const std::vector<GameSpec> games = make_schedule(c);
  ASSERT_EQ(games.size(), 6u * 3 * 2);
  std::set<std::string> openings;
  for (const GameSpec& g : games)
    if (g.game_in_pair == 0) {
      std::string text;
      for (Move m : g.opening) text += to_string(m) + " ";
      openings.insert(text);
    }
  EXPECT_EQ(openings.size(), 6u * 3) << "one line per colour-swapped pair";
}

TEST(ContestManifest, MistakesAreNamedWithFileLineAndColumn) {
  auto error = [](const std::string& text) {
    Expected<Manifest> m = parse_manifest(text, "sub/bot.toml");
    return m ? std::string("(parsed)") : m.error();
  };
  EXPECT_EQ(error("name = \"a b\"\nrun = \"./x\"\n"),
            "sub/bot.toml:1:8: name \"a b\" is not usable: 1 to 64 letters, digits, '.', '_' or '-' (it names the "
            "bot's folder)");
  EXPECT_EQ(error("run = \"./x\"\n"), "sub/bot.toml:1:1: missing key \"name\" in bot.toml");
  EXPECT_EQ(error("name = \"x\"\nrun = 3\n"),
            "sub/bot.toml:2:7: run must be a command (\"python3 bot.py\") or an array of words, not an integer");
  EXPECT_EQ(error("name = \"x\"\nrun = \"  \"\n"), "sub/bot.toml:2:7: run is empty: it names the program that plays");
  EXPECT_EQ(error("name = \"x\"\nrun = [\"a\", 1]\n"), "sub/bot.toml:2:13: run must hold strings only, not an integer");
  Expected<Manifest> m =
      parse_manifest("name = \"x\"\nrun = \"python3  bot.py --fast\"\nprotocol = \"mankalah\"\n", "b");
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->run, (std::vector<std::string>{"python3", "bot.py", "--fast"}));
  EXPECT_EQ(m->protocol, Protocol::Mankalah);
  EXPECT_FALSE(m->build);
}

}  // namespace
}  // namespace kalah::arena
