// The typed config written as TOML (arena/config/config_toml.h) and the command lines' clocks: `arena sprt`'s
// options give the whole clock the one parser reads, and what is written reads back to the same config.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "arena/config/command_line.h"
#include "arena/config/config_toml.h"
#include "referee/engine/sandbox.h"
#include "referee/system/temp_folder.h"
#include "tests/e2e_util.h"
#include "tests/support/bots_on_path.h"

namespace kalah::arena {
namespace {

namespace fs = std::filesystem;

SprtCommandLine two_engines() {
  SprtCommandLine o;
  o.base = "/bin/true";
  o.test = "/bin/cat";
  return o;
}

TEST(ConfigToml, SprtOptionsGiveTheWholeClockTheOneParserReads) {
  SprtCommandLine o = two_engines();
  o.tc = "40/60+0.6d2";
  Expected<Config> c = sprt_config(o, fs::current_path());
  ASSERT_TRUE(c) << c.error();
  Expected<TimeControl> parsed = parse_fischer(o.tc);
  ASSERT_TRUE(parsed) << parsed.error();
  EXPECT_EQ(c->time, *parsed);
  EXPECT_EQ(c->time.moves, 40);
  EXPECT_EQ(c->time.delay_ms, 2000);

  // Without a limit, TimeControl's own clock; a move time, a depth or a node count as given.
  c = sprt_config(two_engines(), fs::current_path());
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->time, TimeControl{});
  o = two_engines();
  o.depth = 3;
  c = sprt_config(o, fs::current_path());
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->time.mode, TimeControl::Mode::Depth);
  EXPECT_EQ(c->time.depth, 3);

  o = two_engines();
  o.tc = "fast";
  EXPECT_EQ(sprt_config(o, fs::current_path()).error().rfind("--tc 'fast': expected SECONDS", 0), 0u);
}

// An SPRT started from options before they became typed values wrote its config as the TOML below: the same
// options give the same fingerprint, so that run resumes.
TEST(ConfigToml, SprtOptionsGiveTheFingerprintTheirOldTomlGave) {
  const std::string engines =
      "[[engine]]\nname = \"base\"\ncmd = \"/bin/true\"\n[engine.options]\n\"Hash\" = \"3\"\n"
      "[[engine]]\nname = \"test\"\ncmd = \"/bin/cat\"\nargs = [\"-u\"]\n";
  const std::string old_text =
      "[tournament]\nname = \"sprt\"\nconcurrency = 2\nseed = 9\n[variant]\npits = 5\nseeds = 4\n"
      "capture = \"standard\"\nending = \"side-empty\"\nremainder = \"owner\"\nmajority = \"off\"\npie = \"off\"\n"
      "[time]\nbase_ms = 5000\ninc_ms = 50\n[openings]\nrandom_plies = 4\n[sprt]\nelo0 = 0\nelo1 = 5\n"
      "alpha = 0.05\nbeta = 0.05\nmodel = \"normalized\"\nmax_pairs = 100\n" +
      engines;
  Expected<Config> old_config = parse_config(old_text, "old.toml", fs::current_path());
  ASSERT_TRUE(old_config) << old_config.error();
  SprtCommandLine o = two_engines();
  o.test = "/bin/cat -u";
  o.base_options = {"Hash=3"};
  o.concurrency = 2;
  o.seed = 9;
  o.variant = "pits=5";
  o.tc = "5+0.05";
  o.max_pairs = 100;
  Expected<Config> c = sprt_config(o, fs::current_path());
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(fingerprint(*c), fingerprint(*old_config));
}

TEST(ConfigToml, TimeItemsWriteTheModesLimitsAndTheDeadlinesThatDiffer) {
  TimeControl t;
  EXPECT_EQ(time_items(t, TimeControl{}), (std::vector<std::string>{"tc = \"10+0.1\""}));
  t.moves = 40;
  t.delay_ms = 500;
  t.delay = DelayKind::Bronstein;
  t.ping_ms = 900;
  EXPECT_EQ(time_items(t, TimeControl{}), (std::vector<std::string>{"tc = \"40/10+0.1b0.5\"", "ping_ms = 900"}));
  TimeControl depth;
  depth.mode = TimeControl::Mode::Depth;
  depth.depth = 4;
  depth.hard_limit_ms = 3000;
  EXPECT_EQ(time_items(depth, TimeControl{}), (std::vector<std::string>{"depth = 4", "hard_limit_ms = 3000"}));
}

// What to_toml() writes reads back to the same config: the same fingerprint (every key that decides the games)
// and, written again, the same text (every key it writes).
void expect_round_trip(const Config& c, const fs::path& base_dir, const fs::path& work_dir) {
  Expected<std::string> text = to_toml(c, work_dir);
  ASSERT_TRUE(text) << text.error();
  Expected<Config> back = parse_config(*text, "printed.toml", base_dir, work_dir);
  ASSERT_TRUE(back) << back.error() << "\n" << *text;
  EXPECT_EQ(fingerprint(*back), fingerprint(c)) << *text;
  Expected<std::string> again = to_toml(*back, work_dir);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(*again, *text);
  ASSERT_EQ(back->engines.size(), c.engines.size());
  for (std::size_t i = 0; i < c.engines.size(); ++i) {
    const EngineSpec &a = back->engines[i], &b = c.engines[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.cmd, b.cmd);
    EXPECT_EQ(a.args, b.args);
    EXPECT_EQ(a.dir, b.dir);
    EXPECT_EQ(a.options, b.options);
    EXPECT_EQ(a.restart, b.restart);
    EXPECT_EQ(a.sandbox, b.sandbox);
    EXPECT_EQ(a.limits, b.limits);
    EXPECT_EQ(a.time, b.time);
    EXPECT_EQ(a.stderr_file, b.stderr_file);
  }
  EXPECT_EQ(back->tournament, c.tournament);
  EXPECT_EQ(back->time, c.time);
  EXPECT_EQ(back->openings.file, c.openings.file);
  EXPECT_EQ(back->openings.random_plies, c.openings.random_plies);
  EXPECT_EQ(back->sprt.has_value(), c.sprt.has_value());
  EXPECT_EQ(back->rating.anchor, c.rating.anchor);
  EXPECT_EQ(back->ranking, c.ranking);
}

TEST(ConfigToml, EveryKeyReadsBackToTheSameConfig) {
  system::TempFolder dir{"kalah-config-toml"};
  e2e::write_file(dir / "book.txt", "3 1\n4 2\n");
  const std::string text = R"(
[tournament]
name = "every-key"
type = "gauntlet"
pairs = 3
seed_engines = ["cat"]
concurrency = 2
seed = 42
output = "out"
pgnout = "copy.pgn"
rating_interval = 5
progress_interval = 0
report_every = 0
publish = true
max_plies = 300
transcripts = "all"
restart = "always"
memory_mb = 256
max_output_kb = 64
adjudicate = { store_majority = true, draw = { movenumber = 40, movecount = 4, score = 1 }, resign = { movecount = 3, score = 20, twosided = true } }
[variant]
pits = 5
seeds = 3
pie = "on"
[time]
tc = "40/60+0.6b2"
margin_ms = 20
startup_ms = 7000
clock = "cpu"
[openings]
file = "book.txt"
order = "random"
[rating]
anchor = "cat"
anchor_elo = 1500.5
[ranking]
by = "points"
tiebreaks = ["wins", "head-to-head"]
points = { win = 3, draw = 1.5 }
cuts = [1, 2]
[analysis]
budget_ms = 200
db_only = true
[[engine]]
name = "true"
cmd = "/bin/true"
args = ["--x", "y z"]
options = { Hash = 16, Name = "deep", Fast = true }
restart = "on-crash"
time = { depth = 3, hard_limit_ms = 9000, ping_ms = 800 }
[[engine]]
name = "cat"
cmd = "/bin/cat"
dir = "/tmp"
memory_mb = 512
stderr = "cat.log"
[[engine]]
name = "sh"
cmd = "sh"
protocol = "mankalah"
time = { movetime_ms = 300 }
)";
  // ManKalah agents play from the standard start only: the third engine's table without openings.
  const std::string without_book = text.substr(0, text.find("[openings]")) + text.substr(text.find("[rating]"));
  for (const std::string& config : {text.substr(0, text.find("[[engine]]\nname = \"sh\"")), without_book}) {
    Expected<Config> c = parse_config(config, "every.toml", dir.path(), dir.path());
    ASSERT_TRUE(c) << c.error();
    expect_round_trip(*c, dir.path(), dir.path());
  }

  const std::string sprt = R"(
[tournament]
name = "sprt"
[time]
nodes = 5000
[openings]
random_plies = 2
[sprt]
elo0 = -1.5
elo1 = 3
alpha = 0.1
model = "logistic"
max_pairs = 300
summary = "summary.md"
test_bench = 12345
[[engine]]
name = "base"
cmd = "/bin/true"
[[engine]]
name = "test"
cmd = "/bin/cat"
)";
  Expected<Config> c = parse_config(sprt, "sprt.toml", dir.path(), dir.path());
  ASSERT_TRUE(c) << c.error();
  expect_round_trip(*c, dir.path(), dir.path());
  EXPECT_TRUE(c->sprt->bench);

  fs::create_directory(dir / "repo");
  const std::string git =
      "[tournament]\nname = \"git\"\n[time]\ndepth = 2\n[sprt]\nelo0 = 0\nelo1 = 5\nrepo = \"repo\"\n"
      "base_ref = \"main\"\ntest_ref = \"HEAD\"\nbuild = \"make\"\nrun = \"./engine --x\"\n"
      "worktrees = \"cache\"\ntest_name = \"pr\"\ntest_options = { Hash = 8 }\n";
  c = parse_config(git, "git.toml", dir.path(), dir.path());
  ASSERT_TRUE(c) << c.error();
  expect_round_trip(*c, dir.path(), dir.path());
}

// A KGP agent is written as its own command, protocol and keys, not as the `referee kgp-host` that runs it.
TEST(ConfigToml, AKgpAgentReadsBackToItself) {
  const char* path = std::getenv("PATH");
  const std::string saved = path ? path : "";
  ::setenv("PATH", (std::string(KALAH_BINARY_DIR ":") + saved).c_str(), 1);  // the referee, its host
  struct Restore {
    std::string path;
    ~Restore() { ::setenv("PATH", path.c_str(), 1); }
  } restore{saved};
  const std::string text =
      "[tournament]\nname = \"kgp\"\n[time]\ntc = \"5+0.1\"\n"
      "[[engine]]\nname = \"agent\"\ncmd = \"/bin/true\"\nargs = [\"--port\", \"{kgp_port}\"]\nprotocol = \"kgp\"\n"
      "kgp_no_move = \"random\"\n[[engine]]\nname = \"kept\"\ncmd = \"sh\"\nprotocol = \"kgp\"\n"
      "kgp_transport = \"websocket\"\nargs = [\"{kgp_url}\"]\nrestart = \"on-crash\"\n"
      "[[engine]]\nname = \"kep\"\ncmd = \"/bin/cat\"\n";
  Expected<Config> c = parse_config(text, "kgp.toml", fs::current_path(), fs::current_path());
  ASSERT_TRUE(c) << c.error();
  ASSERT_TRUE(c->engines[0].kgp && c->engines[1].kgp);
  expect_round_trip(*c, fs::current_path(), fs::current_path());
  Expected<std::string> written = to_toml(*c, fs::current_path());
  ASSERT_TRUE(written) << written.error();
  EXPECT_NE(written->find("name = \"agent\"\ncmd = \"/bin/true\"\nargs = [\"--port\", \"{kgp_port}\"]\nprotocol = "
                          "\"kgp\"\nkgp_no_move = \"random\"\n"),
            std::string::npos)
      << *written;
}

// The bundled configs (configs/*.toml) read back to themselves, but for what to_toml() leaves to its file: a
// contest's and a staged tournament's.
TEST(ConfigToml, TheBundledConfigsReadBackToThemselves) {
  const fs::path source = KALAH_SOURCE_DIR;
  const test::BundledBotsOnPath bots(KALAH_BINARY_DIR "/bots");
  int written = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(source / "configs")) {
    if (!e.is_regular_file() || e.path().extension() != ".toml") continue;
    SCOPED_TRACE(e.path().string());
    // Read as ConfigExamples reads them: the bundled configs' relative folders are the source tree's.
    const std::string text = e2e::read_file(e.path());
    Expected<Config> c = parse_config(text, e.path().string(), e.path().parent_path(), source);
    if (!c && c.error().find("sandbox") != std::string::npos) continue;  // no sandbox here: ConfigExamples says so
    ASSERT_TRUE(c) << c.error();
    if (!to_toml(*c, source)) {
      EXPECT_TRUE(c->submissions || c->tournament.staged());
      continue;
    }
    expect_round_trip(*c, e.path().parent_path(), source);
    ++written;
  }
  EXPECT_GE(written, 6);
}

}  // namespace
}  // namespace kalah::arena
