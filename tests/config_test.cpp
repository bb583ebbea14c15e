// Config loading: every kind of operator mistake comes back with its exact file:line:column message,
// and a good file becomes exactly the expected struct.
// Past 400 lines because it is the catalogue of config mistakes, one table row each, with their messages.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "arena/config/config.h"
#include "arena/config/openings.h"
#include "arena/config/paths.h"
#include "referee/engine/kgp_engine.h"
#include "referee/engine/sandbox.h"
#include "referee/system/temp_folder.h"
#include "tests/config_builder.h"
#include "tests/support/bots_on_path.h"

namespace kalah::arena {
namespace {

namespace fs = std::filesystem;

// A scratch area per test: <tmp>/work stands in for the working directory, <tmp>/conf holds the
// config file's directory.
class ConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(temp_.path().empty()) << temp_.error();
    root_ = temp_.path();
    work_ = root_ / "work";
    conf_ = root_ / "conf";
    fs::create_directories(work_);
    fs::create_directories(conf_);
  }
  system::TempFolder temp_{"kalah-config"};

  void write(const fs::path& path, const std::string& text, bool executable = false) const {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    ::chmod(path.c_str(), executable ? 0755 : 0644);
  }

  Expected<Config> parse(const std::string& text) const { return parse_config(text, "t.toml", conf_, work_); }

  // {work} and {conf} in an expected message stand for the scratch directories.
  std::string expand(std::string text) const {
    for (auto [token, value] : {std::pair<std::string, std::string>{"{work}", work_.string()},
                                std::pair<std::string, std::string>{"{conf}", conf_.string()}}) {
      for (size_t at = text.find(token); at != std::string::npos; at = text.find(token, at))
        text.replace(at, token.size(), value);
    }
    return text;
  }

  fs::path root_, work_, conf_;
};

// The smallest valid config; cases below change one thing in a copy of it.
const char* const kMinimal = R"([tournament]
name = "t"
[time]
base_ms = 1000
[[engine]]
name = "a"
cmd = "/bin/true"
[[engine]]
name = "b"
cmd = "/bin/cat"
)";

struct BadCase {
  const char* what;
  const char* toml;
  const char* message;
};

const BadCase kBadCases[] = {
    {"syntax error", "[tournament]\nname = \"t\"\nrounds = = 2\n",
     "t.toml:3:10: Error while parsing value: could not determine value type"},
    {"unclosed table header", "[tournament\nname = \"t\"\n",
     "t.toml:1:12: Error while parsing table header: expected ']', saw '\\n'"},
    {"unknown top-level table", "[tournment]\nname = \"t\"\n",
     "t.toml:1:2: unknown table or key \"tournment\" at the top level (did you mean \"tournament\"?); known: "
     "[tournament], "
     "[variant], [time], [openings], [sprt], [rating], [ranking], [submissions], [analysis], [season], [[engine]]"},
    {"unknown key in [tournament]", "[tournament]\nname = \"t\"\nround = 2\n",
     "t.toml:3:1: unknown key \"round\" in [tournament] (did you mean \"rounds\"?); known keys: name, type, rounds, "
     "concurrency, seed, output, rating_interval, progress_interval, report_every, publish, seed_engines, max_plies, "
     "sandbox, "
     "keep_sandbox, memory_mb, memory_enforcement, max_file_mb, max_processes, max_output_kb, restart, pin, cpus, "
     "pairs, tiebreak_pairs, pgnout, adjudicate, transcripts, budget_games, target_width, boundaries, stages"},
    {"unknown key in [variant]", "[tournament]\nname = \"t\"\n[variant]\npits = 6\n  pit = 6\n",
     "t.toml:5:3: unknown key \"pit\" in [variant] (did you mean \"pits\"?); known keys: pits, seeds, capture, "
     "ending, "
     "remainder, majority, pie, start"},
    {"unknown key in [time]", "[tournament]\nname = \"t\"\n[time]\nbase = 1000\n",
     "t.toml:4:1: unknown key \"base\" in [time]; known keys: tc, base_ms, inc_ms, moves, delay_ms, delay, "
     "movetime_ms, depth, "
     "nodes, margin_ms, startup_ms, ping_ms, hard_limit_ms, clock"},
    {"clock not a kind", "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\nclock = \"thread\"\n",
     "t.toml:5:9: time.clock must be \"wall\" or \"cpu\", not \"thread\""},
    {"clock not a string", "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\nclock = 1\n",
     "t.toml:5:9: time.clock must be \"wall\" or \"cpu\", not an integer"},
    {"unknown key in [openings]", "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[openings]\nplies = 2\n",
     "t.toml:6:1: unknown key \"plies\" in [openings]; known keys: random_plies, file, order, format"},
    {"unknown key in [sprt]",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[sprt]\nelo0 = 0\nelo1 = 5\nelo2 = 9\n",
     "t.toml:8:1: unknown key \"elo2\" in [sprt]; known keys: elo0, elo1, alpha, beta, model, "
     "max_pairs, summary, repo, base_ref, test_ref, build, run, worktrees, build_sandbox, base_name, test_name, "
     "base_options, test_options, bench, base_bench, test_bench"},
    {"[[engine]] beside [sprt] repo",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[sprt]\nelo0 = 0\nelo1 = 5\nrepo = \".\"\n"
     "base_ref = \"main\"\ntest_ref = \"HEAD\"\nrun = \"./engine\"\nworktrees = \"w\"\n"
     "[[engine]]\nname = \"a\"\ncmd = \"kalah-random\"\n",
     "t.toml:13:1: [[engine]] tables cannot be combined with [sprt] repo: the engines are the two commits "
     "(base_ref, then test_ref)"},
    {"a ref that looks like an option",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[sprt]\nelo0 = 0\nelo1 = 5\nrepo = \".\"\n"
     "base_ref = \"--output=x\"\ntest_ref = \"HEAD\"\nrun = \"./engine\"\n",
     "t.toml:9:12: sprt.base_ref \"--output=x\" is not a git ref: it must not start with '-' or hold spaces or "
     "control characters"},
    {"unknown key in [[engine]]",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\n"
     "command = \"/bin/true\"\n",
     "t.toml:7:1: unknown key \"command\" in [[engine]]; known keys: name, cmd, args, dir, options, "
     "protocol, restart, stderr, sandbox, keep_sandbox, memory_mb, memory_enforcement, max_file_mb, max_processes, "
     "max_output_kb, time, kgp_no_move, kgp_transport"},
    {"rounds of the wrong type", "[tournament]\nname = \"t\"\nrounds = \"2\"\n",
     "t.toml:3:10: tournament.rounds must be an integer, not a string"},
    {"rounds as a float", "[tournament]\nname = \"t\"\nrounds = 2.5\n",
     "t.toml:3:10: tournament.rounds must be an integer, not a float"},
    {"negative rounds", "[tournament]\nname = \"t\"\nrounds = -1\n",
     "t.toml:3:10: tournament.rounds must be from 1 to 100000, not -1"},
    {"concurrency zero", "[tournament]\nname = \"t\"\nconcurrency = 0\n",
     "t.toml:3:15: tournament.concurrency must be from 1 to 256, not 0"},
    {"unknown tournament type", "[tournament]\nname = \"t\"\ntype = \"dutch\"\n",
     "t.toml:3:8: tournament.type must be \"round-robin\", \"gauntlet\", \"swiss\", \"knockout\", \"adaptive\" or "
     "\"staged\", not "
     "\"dutch\""},
    {"tiebreak_pairs in a Swiss tournament", "[tournament]\nname = \"t\"\ntype = \"swiss\"\ntiebreak_pairs = 2\n",
     "t.toml:4:18: tournament.tiebreak_pairs only applies to type = \"knockout\""},
    {"tiebreak_pairs out of range", "[tournament]\nname = \"t\"\ntype = \"knockout\"\ntiebreak_pairs = 101\n",
     "t.toml:4:18: tournament.tiebreak_pairs must be from 0 to 100, not 101"},
    {"Swiss with one engine",
     "[tournament]\nname = \"t\"\ntype = \"swiss\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n",
     "t.toml:6:1: a Swiss tournament needs at least two engines, not 1"},
    {"knockout with one engine",
     "[tournament]\nname = \"t\"\ntype = \"knockout\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n",
     "t.toml:6:1: a knockout needs at least two engines, not 1"},
    {"sprt in a knockout",
     "[tournament]\nname = \"t\"\ntype = \"knockout\"\n[time]\nbase_ms = 100\n[sprt]\nelo0 = 0\nelo1 = 5\n"
     "[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/true\"\n",
     "t.toml:6:1: [sprt] plays an open-ended match of two engines; it cannot be combined with tournament.type = "
     "\"knockout\""},
    {"missing tournament name", "[tournament]\nrounds = 2\n", "t.toml:1:1: missing key \"name\" in [tournament]"},
    {"tournament name with a space", "[tournament]\nname = \"my cup\"\n",
     "t.toml:2:8: tournament.name must use only letters, digits, '.', '_' and '-' (it names the "
     "results directory), not \"my cup\""},
    {"no [tournament]", "[time]\nbase_ms = 1000\n",
     "t.toml:1:1: missing table [tournament] (it needs at least a name)"},
    {"tournament not a table", "tournament = 3\n",
     "t.toml:1:14: tournament must be a table ([tournament]), not an integer"},
    {"seed_engines in a round robin", "[tournament]\nname = \"t\"\nseed_engines = [\"a\"]\n",
     "t.toml:3:16: tournament.seed_engines only applies to type = \"gauntlet\""},
    {"pits out of range", "[tournament]\nname = \"t\"\n[variant]\npits = 20\n",
     "t.toml:4:8: variant.pits must be from 1 to 16, not 20"},
    {"unknown capture rule", "[tournament]\nname = \"t\"\n[variant]\ncapture = \"all\"\n",
     "t.toml:4:11: variant.capture must be \"standard\" or \"empty\", not \"all\""},
    {"majority neither boolean nor on/off", "[tournament]\nname = \"t\"\n[variant]\nmajority = \"maybe\"\n",
     "t.toml:4:12: variant.majority must be true, false, \"on\" or \"off\", not \"maybe\""},
    {"pie as a number", "[tournament]\nname = \"t\"\n[variant]\npie = 1\n",
     "t.toml:4:7: variant.pie must be true, false, \"on\" or \"off\", not an integer"},
    {"no [time]", "[tournament]\nname = \"t\"\n",
     "t.toml:1:1: missing table [time]; give exactly one of tc, base_ms (with inc_ms and moves), movetime_ms, depth or "
     "nodes"},
    {"both movetime and base", "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\nmovetime_ms = 100\n",
     "t.toml:5:1: time.movetime_ms and time.base_ms are two time controls; give exactly one of tc, base_ms (with "
     "inc_ms and moves), movetime_ms, depth or nodes"},
    {"depth before nodes", "[tournament]\nname = \"t\"\n[time]\nnodes = 1000\ndepth = 4\n",
     "t.toml:5:1: time.depth and time.nodes are two time controls; give exactly one of tc, base_ms (with inc_ms and "
     "moves), movetime_ms, depth or nodes"},
    {"no time control", "[tournament]\nname = \"t\"\n[time]\nmargin_ms = 10\n",
     "t.toml:3:1: [time] has no time control; give exactly one of tc, base_ms (with inc_ms and moves), movetime_ms, "
     "depth or nodes"},
    {"zero moves per time control", "[tournament]\nname = \"t\"\n[time]\ntc = \"0/60+1\"\n",
     "t.toml:4:6: time.tc '0/60+1': the moves per time control must be 1 to 1000, not 0"},
    {"moves with a tc", "[tournament]\nname = \"t\"\n[time]\ntc = \"60+1\"\nmoves = 40\n",
     "t.toml:5:1: time.moves needs time.base_ms (tc has its own: \"40/60+0.6\")"},
    {"tc and base_ms", "[tournament]\nname = \"t\"\n[time]\ntc = \"60+1\"\nbase_ms = 40\n",
     "t.toml:5:1: time.base_ms and time.tc are two time controls; give exactly one of tc, base_ms (with inc_ms and "
     "moves), movetime_ms, depth or nodes"},
    {"inf without depth or nodes", "[tournament]\nname = \"t\"\n[time]\ntc = \"inf\"\n",
     "t.toml:4:6: time.tc = \"inf\" means no clock: give depth or nodes to end each search"},
    {"inf with movetime", "[tournament]\nname = \"t\"\n[time]\ntc = \"inf\"\nmovetime_ms = 5\n",
     "t.toml:4:6: time.tc = \"inf\" means no clock: give depth or nodes to end each search, not time.movetime_ms"},
    {"engine time not a table",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
     "time = \"1+0\"\n",
     "t.toml:8:8: engine.time must be a table (time = { tc = \"40/60+0.6\" }), not a string"},
    {"engine time with two modes",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
     "time = { tc = \"1+0\", depth = 3 }\n",
     "t.toml:8:22: engine.time.depth and engine.time.tc are two time controls; give exactly one of tc, base_ms (with "
     "inc_ms and moves), movetime_ms, depth or nodes"},
    {"clock in an engine's own time",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
     "time = { tc = \"1+0\", clock = \"cpu\" }\n",
     "t.toml:8:22: unknown key \"clock\" in engine.time; known keys: tc, base_ms, inc_ms, moves, delay_ms, delay, "
     "movetime_ms, depth, nodes, margin_ms, startup_ms, ping_ms, hard_limit_ms"},
    {"delay_ms with a tc", "[tournament]\nname = \"t\"\n[time]\ntc = \"60+1\"\ndelay_ms = 500\n",
     "t.toml:5:1: time.delay_ms needs time.base_ms (tc has its own: \"60+0.5d2\")"},
    {"delay without delay_ms", "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\ndelay = \"bronstein\"\n",
     "t.toml:5:1: time.delay needs time.delay_ms"},
    {"unknown delay kind", "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\ndelay_ms = 5\ndelay = \"fischer\"\n",
     "t.toml:6:9: time.delay must be \"simple\" or \"bronstein\", not \"fischer\""},
    {"a delay in tc that is not one", "[tournament]\nname = \"t\"\n[time]\ntc = \"60d0\"\n",
     "t.toml:4:6: time.tc '60d0': the delay must be > 0 and at most an hour"},
    {"increment without base", "[tournament]\nname = \"t\"\n[time]\nmovetime_ms = 100\ninc_ms = 10\n",
     "t.toml:5:1: time.inc_ms needs time.base_ms"},
    {"hard limit with a clock", "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\nhard_limit_ms = 10\n",
     "t.toml:5:1: time.hard_limit_ms only applies with depth or nodes"},
    {"random plies and a file",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[openings]\nrandom_plies = 2\nfile = \"b.txt\"\n",
     "t.toml:7:1: openings.random_plies and openings.file exclude each other; give one"},
    {"order without a file", "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[openings]\norder = \"random\"\n",
     "t.toml:6:1: openings.order only applies to openings.file"},
    {"random plies impossible in the variant",
     "[tournament]\nname = \"t\"\n[variant]\npits = 1\nseeds = 1\n[time]\nbase_ms = 100\n"
     "[openings]\nrandom_plies = 1\n",
     "t.toml:9:16: openings.random_plies: found no 1-ply opening that leaves the game running in "
     "this variant"},
    {"missing openings file", "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[openings]\nfile = \"none.txt\"\n",
     "t.toml:6:8: openings.file \"none.txt\" not found (tried {conf}/none.txt)"},
    {"bad opening move", "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[openings]\nfile = \"bad.txt\"\n",
     "{conf}/bad.txt:3:3: move 9 is not legal here (legal: 1 2 3 4 5 6)"},
    {"opening that is not a move",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[openings]\nfile = \"junk.txt\"\n",
     "{conf}/junk.txt:1:7: 'x' is not a move (a pit number or 'swap')"},
    {"opening that ends the game",
     "[tournament]\nname = \"t\"\n[variant]\npits = 1\nseeds = 1\n[time]\nbase_ms = 100\n"
     "[openings]\nfile = \"short.txt\"\n",
     "{conf}/short.txt:1:1: the game ends with move 1; an opening must leave the game running"},
    {"sprt elo1 not above elo0", "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[sprt]\nelo0 = 5\nelo1 = 0\n",
     "t.toml:7:8: sprt.elo1 (0) must be greater than sprt.elo0 (5)"},
    {"sprt alpha too large",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[sprt]\nelo0 = 0\nelo1 = 5\nalpha = 0.5\n",
     "t.toml:8:9: sprt.alpha must be greater than 0 and less than 0.5, not 0.5"},
    {"sprt with three engines",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[sprt]\nelo0 = 0\nelo1 = 5\n"
     "[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/true\"\n"
     "[[engine]]\nname = \"c\"\ncmd = \"/bin/true\"\n",
     "t.toml:5:1: [sprt] needs exactly two engines (the base first, then the test), not 3"},
    {"no engines", "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n",
     "t.toml:1:1: no [[engine]] tables; a tournament needs at least two engines"},
    {"only one engine",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n",
     "t.toml:5:1: a tournament needs at least two engines, not 1"},
    {"engine as a plain table",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[engine]\nname = \"a\"\ncmd = \"/bin/true\"\n",
     "t.toml:5:1: engine must be an array of tables ([[engine]]), not a table"},
    {"duplicate engine names",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
     "[[engine]]\nname = \"a\"\ncmd = \"/bin/cat\"\n",
     "t.toml:9:8: engine.name \"a\" is already used by the engine at line 6"},
    {"engine without cmd", "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\n",
     "t.toml:5:1: missing key \"cmd\" in [[engine]]"},
    {"missing executable",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"bots/none\"\n",
     "t.toml:7:7: engine.cmd \"bots/none\" not found (tried {work}/bots/none, {conf}/bots/none)"},
    {"missing program on PATH",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\n"
     "cmd = \"kalah-no-such-program\"\n",
     "t.toml:7:7: engine.cmd \"kalah-no-such-program\" not found (tried PATH, " KALAH_BINARY_DIR
     "/tests/bots/kalah-no-such-program, " KALAH_BINARY_DIR "/tests/kalah-no-such-program, "
     "{work}/kalah-no-such-program, {conf}/kalah-no-such-program)"},
    {"non-executable cmd",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"plain.txt\"\n",
     "t.toml:7:7: engine.cmd \"plain.txt\" ({conf}/plain.txt) is not executable"},
    {"directory as cmd",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/tmp\"\n",
     "t.toml:7:7: engine.cmd \"/tmp\" (/tmp) is a directory, not a program"},
    {"engine arg not a string",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
     "args = [\"-d\", 3]\n",
     "t.toml:8:15: engine.args[1] must be a string, not an integer"},
    {"engine option of the wrong type",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
     "options = { Depth = [1, 2] }\n",
     "t.toml:8:21: engine.options.Depth must be a string, number or boolean, not an array"},
    {"engine dir missing",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
     "dir = \"nowhere\"\n",
     "t.toml:8:7: engine.dir \"nowhere\" not found (tried {work}/nowhere, {conf}/nowhere)"},
    {"unknown protocol",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
     "protocol = \"uci\"\n",
     "t.toml:8:12: engine.protocol must be \"kep\", \"mankalah\" or \"kgp\", not \"uci\""},
    {"kgp agent under the pie rule",
     "[tournament]\nname = \"t\"\n[variant]\npie = \"on\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\n"
     "cmd = \"/bin/true\"\nprotocol = \"kgp\"\n",
     "t.toml:10:12: engine \"a\" is a KGP agent, and KGP has no pie rule (no swap move): play it with pie = \"off\""},
    {"kgp_no_move without kgp",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
     "kgp_no_move = \"random\"\n",
     "t.toml:8:15: engine.kgp_no_move applies to protocol = \"kgp\" only"},
    {"kgp server placeholder in a kep engine's args",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
     "args = [\":{kgp_port}\"]\n",
     "t.toml:8:9: engine.args[0]: {kgp_host}, {kgp_port} and {kgp_url} name the server of a KGP agent, and this "
     "engine is none (protocol = \"kgp\")"},
    {"kgp_transport without kgp",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
     "kgp_transport = \"websocket\"\n",
     "t.toml:8:17: engine.kgp_transport applies to protocol = \"kgp\" only"},
    {"unknown kgp_transport",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
     "protocol = \"kgp\"\nkgp_transport = \"wss\"\n",
     "t.toml:9:17: engine.kgp_transport must be \"tcp\" or \"websocket\", not \"wss\""},
    {"kgp_url of an agent served over TCP",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
     "args = [\"{kgp_url}\"]\nprotocol = \"kgp\"\n",
     "t.toml:8:9: engine.args[0]: {kgp_url} is the URL of a server over a WebSocket, and this agent's is served over "
     "TCP: set kgp_transport = \"websocket\", or name it by {kgp_host} and {kgp_port}"},
    {"misspelt kgp server placeholder",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
     "args = [\"-v\", \"{kgp_host}:{kgp_prt}\"]\nprotocol = \"kgp\"\n",
     "t.toml:8:15: engine.args[1]: '{kgp_prt}' is no placeholder: the server's address is {kgp_host} and {kgp_port}, "
     "or {kgp_url} over a WebSocket"},
    {"unknown seed engine",
     "[tournament]\nname = \"t\"\ntype = \"gauntlet\"\nseed_engines = [\"a\", \"z\"]\n[time]\nbase_ms = 100\n"
     "[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/true\"\n",
     "t.toml:4:22: tournament.seed_engines: no engine is named \"z\""},
    {"every engine a seed",
     "[tournament]\nname = \"t\"\ntype = \"gauntlet\"\nseed_engines = [\"a\", \"b\"]\n[time]\nbase_ms = 100\n"
     "[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/true\"\n",
     "t.toml:4:16: tournament.seed_engines names every engine; a gauntlet needs at least one other"},
    {"rating anchor that is not an engine",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[rating]\nanchor = \"c\"\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n",
     "t.toml:6:10: rating.anchor \"c\" is not an engine of this tournament (they are: a, b)"},
    {"rating anchor_elo without an anchor",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[rating]\nanchor_elo = 1500\n[[engine]]\nname = \"a\"\ncmd "
     "= \"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n",
     "t.toml:6:14: rating.anchor_elo needs rating.anchor (the engine held at that Elo)"},
    {"mankalah agent with random openings",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[openings]\nrandom_plies = 2\n[[engine]]\nname = "
     "\"jar\"\ncmd = \"/bin/true\"\nprotocol = \"mankalah\"\n",
     "t.toml:10:12: engine \"jar\" speaks the ManKalah protocol, whose agents can only play a whole game from the "
     "standard start, but this config gives random openings (openings.random_plies): remove that, or play this "
     "engine in a tournament without openings"},
    {"mankalah agent with a start position",
     "[tournament]\nname = \"t\"\n[variant]\nstart = \"4,4,4,4,4,4/4,4,4,4,4,5 0-0 S\"\n[time]\nbase_ms = "
     "1000\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n[[engine]]\nname = \"jar\"\ncmd = "
     "\"/bin/true\"\nprotocol = \"mankalah\"\n",
     "t.toml:13:12: engine \"jar\" speaks the ManKalah protocol, whose agents can only play a whole game from the "
     "standard start, but this config gives [variant] start: remove that, or play this engine in a tournament "
     "without openings"},
    {"mankalah agent with a book",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[openings]\nfile = \"short.txt\"\n[[engine]]\nname = "
     "\"jar\"\ncmd = \"/bin/true\"\nprotocol = \"mankalah\"\n",
     "t.toml:10:12: engine \"jar\" speaks the ManKalah protocol, whose agents can only play a whole game from the "
     "standard start, but this config gives an openings book (openings.file): remove that, or play this engine "
     "in a tournament without openings"},
    {"start position with the wrong pit count",
     "[tournament]\nname = \"t\"\n[variant]\npits = 4\nstart = \"4,4,4/4,4,4 0-0 S\"\n",
     "t.toml:5:9: variant.start: bad start position '4,4,4/4,4,4 0-0 S': each side needs 4 pits (the variant's "
     "pits), not 3 and 3"},
    {"finished start position", "[tournament]\nname = \"t\"\n[variant]\nstart = \"0,0,0,0,0,0/1,2,3,4,5,6 20-3 S\"\n",
     "t.toml:4:9: variant.start: bad start position '0,0,0,0,0,0/1,2,3,4,5,6 20-3 S': the game is already over "
     "there"},
    {"start position with a negative count",
     "[tournament]\nname = \"t\"\n[variant]\nstart = \"4,-4,4,4,4,4/4,4,4,4,4,4 0-0 S\"\n",
     "t.toml:4:9: variant.start: bad start position '4,-4,4,4,4,4/4,4,4,4,4,4 0-0 S': the pits must be seed "
     "counts (whole numbers >= 0) separated by commas"},
    {"start position with the pie rule",
     "[tournament]\nname = \"t\"\n[variant]\npie = \"on\"\nstart = \"4,4,4,4,4,4/4,4,4,4,4,4 0-0 S\"\n",
     "t.toml:5:9: variant.start: bad start position '4,4,4,4,4,4/4,4,4,4,4,4 0-0 S': the pie rule applies only "
     "from the standard start: use pie=off with a start position"},
    {"book line that is not a position",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[openings]\nfile = \"short.txt\"\nformat = "
     "\"positions\"\n",
     "{conf}/short.txt:1:1: expected a start position (openings.format = \"positions\"), e.g. "
     "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S"},
    {"ranking by something else",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[ranking]\n"
     "by = \"rating\"\n",
     "t.toml:12:6: ranking.by must be \"elo\" or \"points\", not \"rating\""},
    {"unknown key in [ranking]",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[ranking]\n"
     "by = \"points\"\ntie_breaks = [\"wins\"]\n",
     "t.toml:13:1: unknown key \"tie_breaks\" in [ranking] (did you mean \"tiebreaks\"?); known keys: by, tiebreaks, "
     "points, cuts"},
    {"unknown tie-break",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[ranking]\n"
     "by = \"points\"\ntiebreaks = [\"wins\", \"median\"]\n",
     "t.toml:13:22: ranking.tiebreaks[1]: unknown tie-break \"median\"; known: head-to-head, "
     "sonneborn-berger, buchholz, wins, seed-difference"},
    {"tie-break listed twice",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[ranking]\n"
     "by = \"points\"\ntiebreaks = [\"wins\", \"buchholz\", \"wins\"]\n",
     "t.toml:13:34: ranking.tiebreaks[2]: \"wins\" is listed twice"},
    {"tie-break that is not a string",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[ranking]\n"
     "by = \"points\"\ntiebreaks = [\"wins\", 3]\n",
     "t.toml:13:22: ranking.tiebreaks[1] must be a string, not an integer"},
    {"tie-breaks ranking by Elo",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[ranking]\n"
     "tiebreaks = [\"wins\"]\n",
     "t.toml:12:13: ranking.tiebreaks applies only with ranking.by = \"points\""},
    {"points where a draw beats a win",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[ranking]\n"
     "by = \"points\"\npoints = { win = 1, draw = 2 }\n",
     "t.toml:13:10: ranking.points (win=1 draw=2 loss=0): a win must be worth more than a loss, and "
     "a draw between the two (loss <= draw <= win)"},
    {"unknown key in ranking.points",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[ranking]\n"
     "by = \"points\"\npoints = { win = 3, tie = 1 }\n",
     "t.toml:13:21: unknown key \"tie\" in ranking.points; known keys: win, draw, loss"},
    {"cuts that are not a list",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[ranking]\n"
     "cuts = 3\n",
     "t.toml:12:8: ranking.cuts must be an array of whole numbers, not an integer"},
    {"a cut of 0",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[ranking]\n"
     "cuts = [1, 0]\n",
     "t.toml:12:12: ranking.cuts[1] = 0: a cut is a number of places from the top, 1 to 1000000"},
    {"cuts out of order",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[ranking]\n"
     "by = \"points\"\ncuts = [3, 1]\n",
     "t.toml:13:12: ranking.cuts[1] = 1: the cuts must be listed in ascending order, each once (after 3)"},
    {"a cut that is not a whole number",
     "[tournament]\nname = \"t\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[ranking]\n"
     "cuts = [1.5]\n",
     "t.toml:12:9: ranking.cuts[0] must be a whole number, not a float"},
    {"ranking a knockout by points",
     "[tournament]\nname = \"t\"\ntype = \"knockout\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = "
     "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[ranking]\n"
     "by = \"points\"\n",
     "t.toml:13:6: ranking.by = \"points\" applies to round-robin and gauntlet tournaments; a "
     "knockout tournament ranks by its own rules (docs/SCHEDULE.md, docs/RANKING.md)"},
};

// `{kgp_port}` reaches `referee kgp-host` written out (after its `--`) as it is: the host replaces it.
TEST_F(ConfigTest, AServerPlaceholderAfterAnExplicitKgpHostIsKept) {
  std::string text = kMinimal;
  text.replace(text.find("cmd = \"/bin/true\"\n"), 18,
               "cmd = \"/bin/true\"\nargs = [\"kgp-host\", \"--\", \"kgpc\", \":{kgp_port}\", \"{dir}/x\"]\n");
  Expected<Config> c = parse(text);
  ASSERT_TRUE(c.ok()) << c.error();
  ASSERT_EQ(c->engines[0].args.size(), 5u);
  EXPECT_EQ(c->engines[0].args[3], ":{kgp_port}");
}

TEST_F(ConfigTest, AKgpAgentRunsThroughRefereeKgpHost) {
  // The referee beside the arena; beside this test it is one folder up, on PATH for the test.
  const char* path = std::getenv("PATH");
  ::setenv("PATH", (std::string(KALAH_BINARY_DIR) + ":" + (path ? path : "/usr/bin:/bin")).c_str(), 1);
  std::string text = kMinimal;
  text.replace(text.find("cmd = \"/bin/true\"\n"), 18,
               "cmd = \"/bin/true\"\nargs = [\"x\"]\nprotocol = \"kgp\"\nkgp_no_move = \"random\"\n");
  Expected<Config> c = parse(text);
  ASSERT_TRUE(c.ok()) << c.error();
  const EngineSpec& e = c->engines[0];
  EXPECT_EQ(e.protocol, Protocol::Kep);
  EXPECT_EQ(e.cmd.filename(), "referee");
  EXPECT_EQ(e.cmd_as_written, "referee");
  EXPECT_EQ(e.args, (std::vector<std::string>{"kgp-host", "--no-move", "random", "--", "/bin/true", "x"}));
  // The agent's own command, for the commands that speak KGP to it; a host for each game.
  ASSERT_TRUE(e.kgp.has_value());
  EXPECT_EQ(e.kgp->cmd, "/bin/true");
  EXPECT_EQ(e.kgp->args, std::vector<std::string>{"x"});
  EXPECT_TRUE(e.kgp->random_no_move);
  EXPECT_EQ(e.restart, RestartPolicy::Always);
  std::string kept = text;
  kept.replace(kept.find("protocol = \"kgp\"\n"), 17, "protocol = \"kgp\"\nrestart = \"on-crash\"\n");
  Expected<Config> across_games = parse(kept);
  ASSERT_TRUE(across_games.ok()) << across_games.error();
  EXPECT_EQ(across_games->engines[0].restart, RestartPolicy::OnCrash);
  // A bare name is found again by the host, on its own PATH (a sandbox's is the system's).
  text.replace(text.find("cmd = \"/bin/true\""), 17, "cmd = \"true\"");
  Expected<Config> bare = parse(text);
  ASSERT_TRUE(bare.ok()) << bare.error();
  EXPECT_EQ(bare->engines[0].args, (std::vector<std::string>{"kgp-host", "--no-move", "random", "--", "true", "x"}));
}

TEST_F(ConfigTest, AKgpAgentOverAWebSocketIsServedByItsHostWithTheEnginesStartupDeadline) {
  const char* path = std::getenv("PATH");
  ::setenv("PATH", (std::string(KALAH_BINARY_DIR) + ":" + (path ? path : "/usr/bin:/bin")).c_str(), 1);
  std::string text = kMinimal;
  text.replace(text.find("cmd = \"/bin/true\"\n"), 18,
               "cmd = \"/bin/true\"\nargs = [\"{kgp_url}\"]\nprotocol = \"kgp\"\nkgp_transport = \"websocket\"\n");
  Expected<Config> c = parse(text);
  ASSERT_TRUE(c.ok()) << c.error();
  const EngineSpec& e = c->engines[0];
  EXPECT_EQ(e.args, (std::vector<std::string>{"kgp-host", "--websocket", "--", "/bin/true", "{kgp_url}"}));
  ASSERT_TRUE(e.kgp.has_value());
  EXPECT_TRUE(e.kgp->websocket);
  // As it starts for a game, the host is told the engine's start-up deadline less what it keeps for kepok:
  // a fifth, at most a second.
  EXPECT_EQ(
      with_kgp_startup(e, std::chrono::milliseconds(2000)).args,
      (std::vector<std::string>{"kgp-host", "--startup-ms", "1600", "--websocket", "--", "/bin/true", "{kgp_url}"}));
  EXPECT_EQ(with_kgp_startup(e, std::chrono::milliseconds(60000)).args[2], "59000");
  // Any other engine is started as it is.
  EXPECT_EQ(with_kgp_startup(c->engines[1], std::chrono::milliseconds(2000)).args, c->engines[1].args);
}

TEST_F(ConfigTest, BadConfigsGiveExactMessages) {
  write(conf_ / "bad.txt", "# two good lines, then a bad one\n3\n1 9\n");
  write(conf_ / "junk.txt", "3 6 1 x\n");
  write(conf_ / "short.txt", "1\n");
  write(conf_ / "plain.txt", "not a program\n");
  for (const BadCase& c : kBadCases) {
    SCOPED_TRACE(c.what);
    auto result = parse(c.toml);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error(), expand(c.message));
  }
  EXPECT_GE(std::size(kBadCases), 15u);
}

}  // namespace

// So that a failed comparison of a whole [tournament] table shows its fields (found by gtest
// through argument-dependent lookup, so it lives in the namespace of TournamentConfig).
void PrintTo(const TournamentConfig& t, std::ostream* os) {
  *os << "{name=" << t.name << " type=" << to_string(t.type) << " rounds=" << t.rounds
      << " concurrency=" << t.concurrency << " seed=" << t.seed << " output=" << t.output
      << " rating_interval=" << t.rating_interval << " progress_interval=" << t.progress_interval
      << " seed_engines=" << t.seed_engines.size() << " max_plies=" << t.max_plies << "}";
}

namespace {

TEST_F(ConfigTest, MinimalConfigGetsTheDefaults) {
  auto result = parse(kMinimal);
  ASSERT_TRUE(result.ok()) << result.error();
  const Config& c = *result;
  EXPECT_EQ(c.source, "t.toml");
  TournamentConfig defaults;  // a minimal config leaves every [tournament] key at its default
  defaults.name = "t";
  EXPECT_EQ(c.tournament, defaults);

  EXPECT_EQ(c.variant, Variant{});
  EXPECT_EQ(c.time.mode, TimeControl::Mode::Fischer);
  EXPECT_EQ(c.time.base_ms, 1000);
  EXPECT_EQ(c.time.inc_ms, 0);
  EXPECT_EQ(c.time.margin_ms, 50);
  EXPECT_EQ(c.time.startup_ms, 5000);
  EXPECT_EQ(c.time.ping_ms, 5000);
  EXPECT_EQ(c.time.hard_limit_ms, 60000);
  EXPECT_EQ(c.openings.random_plies, 0);
  EXPECT_TRUE(c.openings.book.empty());
  EXPECT_FALSE(c.sprt.has_value());
  ASSERT_EQ(c.engines.size(), 2u);
  EXPECT_EQ(c.engines[0].name, "a");
  EXPECT_EQ(c.engines[0].cmd, "/bin/true");
  EXPECT_EQ(c.engines[0].dir, work_);
  EXPECT_TRUE(c.engines[0].args.empty());
  EXPECT_TRUE(c.engines[0].options.empty());
  EXPECT_EQ(c.engines[0].protocol, Protocol::Kep);
  EXPECT_EQ(c.engines[0].restart, RestartPolicy::OnCrash);
  EXPECT_TRUE(c.engines[0].stderr_file.empty());
  EXPECT_EQ(c.results_dir(), fs::path("results/t"));
  EXPECT_EQ(c.engine_index("b"), 1);
  EXPECT_EQ(c.engine_index("z"), -1);
}

// Delays (docs/CONFIG.md, "Delays"): in tc after the clock, or as delay_ms and delay beside base_ms; in the
// fingerprint only when set, so that the journals of configs without one resume.
TEST_F(ConfigTest, DelaysInTcOrBesideBaseMs) {
  const std::string engines =
      "[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/true\"\n";
  auto in_tc = parse("[tournament]\nname = \"t\"\n[time]\ntc = \"60+0.5b2\"\n" + engines);
  ASSERT_TRUE(in_tc.ok()) << in_tc.error();
  EXPECT_EQ(in_tc->time.delay_ms, 2000);
  EXPECT_EQ(in_tc->time.delay, DelayKind::Bronstein);
  EXPECT_EQ(in_tc->time.describe(), "60+0.5b2 (Bronstein delay)");
  auto keys = parse(
      "[tournament]\nname = \"t\"\n[time]\nbase_ms = 60000\ninc_ms = 500\ndelay_ms = 2000\n"
      "delay = \"bronstein\"\n" +
      engines);
  ASSERT_TRUE(keys.ok()) << keys.error();
  EXPECT_EQ(keys->time, in_tc->time);
  EXPECT_EQ(fingerprint(*keys), fingerprint(*in_tc));
  EXPECT_NE(fingerprint(*keys).find("inc_ms=500 delay_ms=2000 delay=bronstein "), std::string::npos)
      << fingerprint(*keys);
  auto simple = parse("[tournament]\nname = \"t\"\n[time]\nbase_ms = 60000\ndelay_ms = 2000\n" + engines);
  ASSERT_TRUE(simple.ok()) << simple.error();
  EXPECT_EQ(simple->time.delay, DelayKind::Simple);
  auto none = parse("[tournament]\nname = \"t\"\n[time]\nbase_ms = 60000\n" + engines);
  ASSERT_TRUE(none.ok()) << none.error();
  EXPECT_EQ(fingerprint(*none).find("delay"), std::string::npos) << fingerprint(*none);
}

TEST_F(ConfigTest, TimeControlsAsChessToolsWriteThemAndTimeOdds) {
  auto result = parse(
      "[tournament]\nname = \"t\"\n[time]\ntc = \"40/1:00+0.6\"\nmargin_ms = 20\n"
      "[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n"
      "[[engine]]\nname = \"b\"\ncmd = \"/bin/true\"\ntime = { tc = \"2:00+1\" }\n"
      "[[engine]]\nname = \"c\"\ncmd = \"/bin/true\"\ntime = { tc = \"inf\", depth = 6 }\n"
      "[[engine]]\nname = \"d\"\ncmd = \"/bin/true\"\ntime = { margin_ms = 20 }\n");
  ASSERT_TRUE(result.ok()) << result.error();
  const Config& c = *result;
  EXPECT_EQ(c.time.mode, TimeControl::Mode::Fischer);
  EXPECT_EQ(c.time.moves, 40);
  EXPECT_EQ(c.time.base_ms, 60000);
  EXPECT_EQ(c.time.inc_ms, 600);
  EXPECT_EQ(c.time.describe(), "40/60+0.6");
  EXPECT_FALSE(c.engines[0].time.has_value());
  ASSERT_TRUE(c.engines[1].time.has_value());
  EXPECT_EQ(c.engines[1].time->describe(), "120+1");
  EXPECT_EQ(c.engines[1].time->moves, 0);
  EXPECT_EQ(c.engines[1].time->margin_ms, 20);  // the tournament's, where the engine's table is silent
  ASSERT_TRUE(c.engines[2].time.has_value());
  EXPECT_EQ(c.engines[2].time->mode, TimeControl::Mode::Depth);
  EXPECT_EQ(c.engines[2].time->depth, 6);
  EXPECT_FALSE(c.engines[3].time.has_value());  // the same as the tournament's: no odds
  // Time odds are part of what the games depend on.
  EXPECT_NE(fingerprint(c).find("name=\"b\" cmd=\"/bin/true\" args=[] options={} protocol=kep time={base_ms=120000"),
            std::string::npos)
      << fingerprint(c);

  auto plain = parse(
      "[tournament]\nname = \"t\"\n[time]\nbase_ms = 5000\nmoves = 10\n[[engine]]\nname = \"a\"\ncmd = "
      "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/true\"\n");
  ASSERT_TRUE(plain.ok()) << plain.error();
  EXPECT_EQ(plain->time.describe(), "10/5+0");
}

TEST_F(ConfigTest, AStartPositionSetsSeedsAndTheStandardStartIsNone) {
  auto with_start = [&](const std::string& variant) {
    return parse("[tournament]\nname = \"t\"\n[variant]\n" + variant +
                 "\n[time]\nbase_ms = 100\n[[engine]]\nname = \"a\"\ncmd = \"/bin/true\"\n[[engine]]\nname = "
                 "\"b\"\ncmd = \"/bin/true\"\n");
  };
  auto uneven = with_start("pits = 4\nstart = \"9,0,1,2/3,3,3,3 1-0 N\"");
  ASSERT_TRUE(uneven.ok()) << uneven.error();
  ASSERT_TRUE(uneven->start.has_value());
  EXPECT_EQ(uneven->variant.seeds, 4);  // 25 seeds: a 2 x 4 x 4 board holds 32
  EXPECT_TRUE(uneven->uses_positions());
  EXPECT_EQ(to_start_notation(uneven->variant, uneven->start_or_standard()), "9,0,1,2/3,3,3,3 1-0 N");
  EXPECT_NE(fingerprint(*uneven).find("start=9,0,1,2/3,3,3,3 1-0 N"), std::string::npos);

  auto standard = with_start("start = \"4,4,4,4,4,4/4,4,4,4,4,4 0-0 S\"");
  ASSERT_TRUE(standard.ok()) << standard.error();
  EXPECT_FALSE(standard->start.has_value());
  EXPECT_FALSE(standard->uses_positions());
  EXPECT_EQ(standard->variant.seeds, 4);
}

TEST_F(ConfigTest, FullConfigParsesIntoTheExpectedStruct) {
  write(conf_ / "book" / "main.txt", "# main line openings\n3 6 1\n\n2   # one move\n");
  fs::create_directories(work_ / "run");
  fs::create_directories(work_ / "logs");  // an engine's stderr folder must exist (it is not created)
  const char* text = R"(# every key once
[tournament]
name = "full-1.0"
type = "gauntlet"
rounds = 3
concurrency = 8
seed = 42
output = "out"
rating_interval = 20
progress_interval = 5
seed_engines = ["b"]
max_plies = 400

[variant]
pits = 7
seeds = 7
capture = "empty"
ending = "no-move"
remainder = "none"
majority = "on"
pie = true

[time]
movetime_ms = 250
margin_ms = 10
startup_ms = 2000
ping_ms = 1000

[openings]
file = "book/main.txt"
order = "random"

[sprt]
elo0 = -1.5
elo1 = 4
alpha = 0.1
model = "logistic"
max_pairs = 5000

[[engine]]
name = "a"
cmd = "/bin/true"
args = ["--depth", "3"]
dir = "run"
options = { Depth = 12, Ratio = 1.5, Ponder = false, Book = "x y" }
protocol = "kep"
restart = "always"
stderr = "logs/a.err"

[[engine]]
name = "b"
cmd = "/bin/cat"
)";
  auto result = parse(text);
  ASSERT_TRUE(result.ok()) << result.error();
  const Config& c = *result;
  EXPECT_EQ(c.tournament, (TournamentConfig{.name = "full-1.0",
                                            .type = TournamentType::Gauntlet,
                                            .rounds = 3,
                                            .concurrency = 8,
                                            .seed = 42,
                                            .output = "out",
                                            .rating_interval = 20,
                                            .progress_interval = 5,
                                            .seed_engines = {1},
                                            .max_plies = 400,
                                            .adjudicate = {},
                                            .sandbox = SandboxMode::None,
                                            .keep_sandbox = false,
                                            .limits = {},
                                            .restart = RestartPolicy::OnCrash,
                                            .pin = false,
                                            .cpus = {},
                                            .pgnout = {},
                                            .transcripts = TranscriptMode::Forfeits,
                                            .stages = {}}));

  Variant v;
  v.pits = 7;
  v.seeds = 7;
  v.capture = Capture::Empty;
  v.ending = Ending::NoMove;
  v.remainder = Remainder::None;
  v.majority = true;
  v.pie = true;
  EXPECT_EQ(c.variant, v);

  EXPECT_EQ(c.time.mode, TimeControl::Mode::MoveTime);
  EXPECT_EQ(c.time.movetime_ms, 250);
  EXPECT_EQ(c.time.margin_ms, 10);
  EXPECT_EQ(c.time.startup_ms, 2000);
  EXPECT_EQ(c.time.ping_ms, 1000);

  EXPECT_EQ(c.openings.file, conf_ / "book" / "main.txt");
  EXPECT_EQ(c.openings.order, OpeningOrder::Random);
  const std::vector<OpeningLine> book{{{}, {Move::at(3), Move::at(6), Move::at(1)}}, {{}, {Move::at(2)}}};
  EXPECT_EQ(c.openings.book, book);

  ASSERT_TRUE(c.sprt.has_value());
  EXPECT_EQ(c.sprt->params.elo0, -1.5);
  EXPECT_EQ(c.sprt->params.elo1, 4.0);
  EXPECT_EQ(c.sprt->params.alpha, 0.1);
  EXPECT_EQ(c.sprt->params.beta, 0.05);
  EXPECT_EQ(c.sprt->params.model, stats::Model::Logistic);
  EXPECT_EQ(c.sprt->max_pairs, 5000);

  ASSERT_EQ(c.engines.size(), 2u);
  const EngineSpec& a = c.engines[0];
  EXPECT_EQ(a.cmd_as_written, "/bin/true");
  EXPECT_EQ(a.args, (std::vector<std::string>{"--depth", "3"}));
  EXPECT_EQ(a.dir, work_ / "run");
  const std::vector<EngineOption> options{{"Book", "x y"}, {"Depth", "12"}, {"Ponder", "false"}, {"Ratio", "1.5"}};
  EXPECT_EQ(a.options, options);
  EXPECT_EQ(a.protocol, Protocol::Kep);
  EXPECT_EQ(a.restart, RestartPolicy::Always);
  EXPECT_EQ(a.stderr_file, work_ / "logs" / "a.err");
}

TEST_F(ConfigTest, SwitchesAcceptOnOffStrings) {
  std::string text = kMinimal;
  text += "[variant]\nmajority = \"on\"\npie = \"off\"\n";
  auto result = parse(text);
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_TRUE(result->variant.majority);
  EXPECT_FALSE(result->variant.pie);
}

// restart and the limits in [tournament] are every engine's defaults; an [[engine]] key overrides them.
TEST_F(ConfigTest, TournamentRestartAndLimitsAreEveryEnginesDefaults) {
  std::string text = kMinimal;
  text.replace(text.find("name = \"t\"\n"), 11,
               "name = \"t\"\nrestart = \"always\"\nmax_output_kb = 64\nmax_file_mb = 5\n");
  text += "restart = \"on-crash\"\nmax_output_kb = 8\n";  // the last [[engine]], b's
  auto result = parse(text);
  ASSERT_TRUE(result.ok()) << result.error();
  const Config& c = *result;
  EXPECT_EQ(c.engines[0].restart, RestartPolicy::Always);
  EXPECT_EQ(c.engines[0].limits.max_output_kb, 64);
  EXPECT_EQ(c.engines[0].limits.max_file_mb, 5);
  EXPECT_EQ(c.engines[1].restart, RestartPolicy::OnCrash);
  EXPECT_EQ(c.engines[1].limits.max_output_kb, 8);
  EXPECT_EQ(c.engines[1].limits.max_file_mb, 5);
}

TEST_F(ConfigTest, RatingAnchorIsAnEngineAndAnElo) {
  auto result = parse(std::string(kMinimal) + "[rating]\nanchor = \"b\"\nanchor_elo = 1500.5\n");
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result->rating.anchor, "b");
  EXPECT_EQ(result->rating.anchor_elo, 1500.5);
  EXPECT_TRUE(parse(kMinimal)->rating.anchor.empty());
}

TEST_F(ConfigTest, RankingReadsTheContestRulesAndDefaultsToElo) {
  auto result = parse(std::string(kMinimal) +
                      "[ranking]\nby = \"points\"\ntiebreaks = [\"head-to-head\", \"sonneborn-berger\", "
                      "\"seed-difference\"]\npoints = { win = 3, draw = 1 }\n");
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result->ranking.by, rating::RankBy::Points);
  EXPECT_EQ(result->ranking.tiebreaks,
            (std::vector<rating::TieBreak>{rating::TieBreak::HeadToHead, rating::TieBreak::SonnebornBerger,
                                           rating::TieBreak::SeedDifference}));
  EXPECT_EQ(result->ranking.points, (rating::PointsRule{3, 1, 0}));
  EXPECT_EQ(parse(kMinimal)->ranking, rating::RankingRules{});
  auto by_elo = parse(std::string(kMinimal) + "[ranking]\nby = \"elo\"\n");
  ASSERT_TRUE(by_elo.ok()) << by_elo.error();
  EXPECT_EQ(by_elo->ranking, rating::RankingRules{});
  // How the standings rank changes no game.
  EXPECT_EQ(fingerprint(*result), fingerprint(*parse(kMinimal)));
}

// Cuts go with any order and any kind of tournament (docs/RANKING.md, "Top k").
TEST_F(ConfigTest, RankingCutsGoWithEveryOrderAndKind) {
  auto by_elo = parse(std::string(kMinimal) + "[ranking]\ncuts = [1, 3, 10]\n");
  ASSERT_TRUE(by_elo.ok()) << by_elo.error();
  EXPECT_EQ(by_elo->ranking.by, rating::RankBy::Elo);
  EXPECT_EQ(by_elo->ranking.cuts, (std::vector<int>{1, 3, 10}));
  auto by_points = parse(std::string(kMinimal) + "[ranking]\nby = \"points\"\ncuts = [2]\n");
  ASSERT_TRUE(by_points.ok()) << by_points.error();
  EXPECT_EQ(by_points->ranking.cuts, (std::vector<int>{2}));
  const std::string knockout =
      "[tournament]\nname = \"t\"\ntype = \"knockout\"\n[time]\nbase_ms = 1000\n[[engine]]\nname = \"a\"\ncmd = "
      "\"/bin/true\"\n[[engine]]\nname = \"b\"\ncmd = \"/bin/cat\"\n[ranking]\ncuts = [1]\n";
  auto ko = parse(knockout);
  ASSERT_TRUE(ko.ok()) << ko.error();
  EXPECT_EQ(ko->ranking.cuts, (std::vector<int>{1}));
}

TEST_F(ConfigTest, AnalysisIsOffUnlessConfiguredAndChangesNoGame) {
  EXPECT_FALSE(parse(kMinimal)->analysis);
  auto result = parse(std::string(kMinimal) + "[analysis]\nbudget_ms = 200\nthreads = 3\ndb_only = true\n");
  ASSERT_TRUE(result.ok()) << result.error();
  ASSERT_TRUE(result->analysis);
  EXPECT_EQ(result->analysis->budget_ms, 200);
  EXPECT_EQ(result->analysis->threads, 3);
  EXPECT_TRUE(result->analysis->db_only);
  EXPECT_EQ(result->analysis->db_mb, 1024);
  auto defaults = parse(std::string(kMinimal) + "[analysis]\n");
  ASSERT_TRUE(defaults.ok()) << defaults.error();
  EXPECT_EQ(defaults->analysis->budget_ms, 1000);
  EXPECT_EQ(defaults->analysis->threads, 0);  // the tournament's concurrency
  EXPECT_EQ(fingerprint(*result), fingerprint(*parse(kMinimal)));
  auto misspelt = parse(std::string(kMinimal) + "[analysis]\nbudget = 200\n");
  ASSERT_FALSE(misspelt.ok());
  EXPECT_NE(misspelt.error().find("budget"), std::string::npos) << misspelt.error();
  EXPECT_EQ(misspelt.error().rfind("t.toml:", 0), 0u) << misspelt.error();
  auto zero = parse(std::string(kMinimal) + "[analysis]\nbudget_ms = 0\n");
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.error().find("analysis.budget_ms"), std::string::npos) << zero.error();
}

TEST_F(ConfigTest, GauntletSeedDefaultsToTheFirstEngine) {
  std::string text = kMinimal;
  text.replace(text.find("name = \"t\"\n"), 11, "name = \"t\"\ntype = \"gauntlet\"\n");
  auto result = parse(text);
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result->tournament.seed_engines, std::vector<int>{0});
}

TEST_F(ConfigTest, RelativeCommandPrefersTheWorkingDirectory) {
  write(work_ / "bots" / "both", "#!/bin/sh\n", true);
  write(conf_ / "bots" / "both", "#!/bin/sh\n", true);
  write(conf_ / "bots" / "conf-only", "#!/bin/sh\n", true);
  std::string text = kMinimal;
  text.replace(text.find("/bin/true"), 9, "bots/both");
  text.replace(text.find("/bin/cat"), 8, "bots/conf-only");
  auto result = parse(text);
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result->engines[0].cmd, work_ / "bots" / "both");
  EXPECT_EQ(result->engines[0].cmd_as_written, "bots/both");
  EXPECT_EQ(result->engines[1].cmd, conf_ / "bots" / "conf-only");
}

TEST_F(ConfigTest, BareCommandIsLookedUpOnPath) {
  auto found = resolve_command("sh", work_, conf_, "/nonexistent:" + (root_ / "bin").string() + ":/bin");
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_EQ(*found, fs::path("/bin/sh"));
  // A program of the same name on an earlier PATH entry wins, as in a shell.
  write(root_ / "bin" / "sh", "#!/bin/sh\n", true);
  found = resolve_command("sh", work_, conf_, "/nonexistent:" + (root_ / "bin").string() + ":/bin");
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_EQ(*found, root_ / "bin" / "sh");
  // Not on PATH: the working directory, then the config directory.
  write(conf_ / "mybot", "#!/bin/sh\n", true);
  found = resolve_command("mybot", work_, conf_, "/bin");
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_EQ(*found, conf_ / "mybot");
}

TEST_F(ConfigTest, RelativeConfigDirectoryIsTakenFromTheWorkingDirectory) {
  write(work_ / "cfg" / "bot", "#!/bin/sh\n", true);
  auto found = resolve_command("bot", work_, "cfg", "");
  ASSERT_TRUE(found.ok()) << found.error();
  EXPECT_EQ(*found, work_ / "cfg" / "bot");
  EXPECT_EQ(absolute_from("/a/b", "../c/./d/"), fs::path("/a/c/d"));
  EXPECT_EQ(absolute_from("/a", "/x"), fs::path("/x"));
}

TEST_F(ConfigTest, EngineDirFallsBackToTheConfigDirectory) {
  fs::create_directories(conf_ / "engines");
  std::string text = kMinimal;
  text += "dir = \"engines\"\n";
  auto result = parse(text);
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result->engines[1].dir, conf_ / "engines");
}

TEST_F(ConfigTest, LoadConfigReadsTheFileAndResolvesAgainstItsDirectory) {
  write(conf_ / "book.txt", "1\n");
  std::string text = kMinimal;
  text += "[openings]\nfile = \"book.txt\"\n";
  write(conf_ / "c.toml", text);
  auto result = load_config(conf_ / "c.toml");
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result->source, (conf_ / "c.toml").string());
  EXPECT_EQ(result->openings.file, conf_ / "book.txt");

  write(conf_ / "bad.toml", "[tournament]\nname = 3\n");
  result = load_config(conf_ / "bad.toml");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error(), (conf_ / "bad.toml").string() + ":2:8: tournament.name must be a string, not an integer");

  result = load_config(conf_ / "missing.toml");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error(), (conf_ / "missing.toml").string() + ": the config file does not exist");
}

TEST(ConfigBook, SkipsCommentsAndBlankLinesAndAcceptsSwap) {
  Variant pie;
  pie.pie = true;
  auto book = parse_book("# header\n\n  3 swap\t1 \r\n4 # comment\n", "b.txt", pie, start_position(pie));
  ASSERT_TRUE(book.ok()) << book.error();
  const std::vector<OpeningLine> expected{{{}, {Move::at(3), Move::swap(), Move::at(1)}}, {{}, {Move::at(4)}}};
  EXPECT_EQ(*book, expected);

  // 3 ends in the store: South moves again, and without the pie rule there is no swap.
  auto bad = parse_book("3 swap\n", "b.txt", Variant{}, start_position(Variant{}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "b.txt:1:3: move swap is not legal here (legal: 1 2 4 5 6)");
}

TEST(ConfigRandomOpening, IsLegalAndLeavesTheGameRunning) {
  for (int pits : {1, 2, 3, 6}) {
    Variant v;
    v.pits = pits;
    v.seeds = 2;
    for (int plies = 0; plies <= 4; ++plies) {
      for (std::uint64_t seed = 0; seed < 20; ++seed) {
        SCOPED_TRACE("pits " + std::to_string(pits) + " plies " + std::to_string(plies) + " seed " +
                     std::to_string(seed));
        std::mt19937_64 rng(seed);
        auto opening = random_opening(v, plies, rng);
        if (!opening) continue;  // some tiny boards cannot last that long
        ASSERT_EQ(opening->size(), static_cast<size_t>(plies));
        Position p = start_position(v);
        for (Move m : *opening) {
          ASSERT_TRUE(is_legal(v, p, m));
          apply(v, p, m);
        }
        EXPECT_FALSE(p.over);
      }
    }
  }
}

TEST_F(ConfigTest, FingerprintCoversTheGamesButNotTheLogistics) {
  auto base = parse(kMinimal);
  ASSERT_TRUE(base.ok()) << base.error();
  const std::string print = fingerprint(*base);
  EXPECT_EQ(fingerprint_hash(*base).size(), 16u);

  auto with = [&](const std::string& from, const std::string& to) {
    std::string text = kMinimal;
    text.replace(text.find(from), from.size(), to);
    auto result = parse(text);
    EXPECT_TRUE(result.ok()) << result.error();
    return result.ok() ? fingerprint(*result) : std::string();
  };
  // Logistics: same fingerprint.
  EXPECT_EQ(with("name = \"t\"\n",
                 "name = \"other\"\nconcurrency = 4\noutput = \"x\"\n"
                 "rating_interval = 3\nprogress_interval = 1\n"),
            print);
  EXPECT_EQ(with("cmd = \"/bin/cat\"\n", "cmd = \"/bin/cat\"\nrestart = \"always\"\ndir = \"/tmp\"\n"), print);
  // Anything that changes the games: a different fingerprint.
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"name = \"t\"\n", "name = \"t\"\nrounds = 2\n"},
           {"name = \"t\"\n", "name = \"t\"\nseed = 2\n"},
           {"name = \"t\"\n", "name = \"t\"\nmax_plies = 10\n"},
           {"name = \"t\"\n", "name = \"t\"\nadjudicate = { store_majority = true }\n"},
           {"name = \"t\"\n", "name = \"t\"\nadjudicate = { resign = { movecount = 3, score = 500 } }\n"},
           {"name = \"t\"\n", "name = \"t\"\n[variant]\npie = true\n"},
           {"base_ms = 1000", "base_ms = 1001"},
           {"base_ms = 1000", "base_ms = 1000\nmargin_ms = 1"},
           {"base_ms = 1000", "base_ms = 1000\n[openings]\nrandom_plies = 2"},
           {"name = \"a\"", "name = \"c\""},
           {"/bin/true\"\n", "/bin/true\"\nargs = [\"x\"]\n"},
           {"/bin/true\"\n", "/bin/true\"\noptions = { Depth = 3 }\n"},
       }) {
    SCOPED_TRACE(to);
    EXPECT_NE(with(from, to), print);
  }
  EXPECT_EQ(print.substr(0, print.find('\n')), "kalah-arena-config 1");
}

TEST_F(ConfigTest, AdjudicateReadsEveryRuleAndIsOffUnlessConfigured) {
  auto with = [&](const std::string& line) {
    std::string text = kMinimal;
    text.replace(text.find("name = \"t\"\n"), 11, "name = \"t\"\n" + line + "\n");
    return parse(text);
  };
  Expected<Config> none = parse(kMinimal);
  ASSERT_TRUE(none.ok()) << none.error();
  EXPECT_FALSE(none->tournament.adjudicate.any());
  EXPECT_EQ(fingerprint(*none).find("adjudicate"), std::string::npos);  // old fingerprints stay as they were

  Expected<Config> all = with(
      "adjudicate = { store_majority = true, database_seeds = 12, draw = { movenumber = 40, movecount = 4, score = 1 "
      "}, resign = { movecount = 3, score = 20, twosided = true } }");
  ASSERT_TRUE(all.ok()) << all.error();
  const AdjudicationConfig& a = all->tournament.adjudicate;
  EXPECT_TRUE(a.store_majority);
  EXPECT_EQ(a.database_seeds, 12);
  EXPECT_EQ(a.draw, (DrawRule{40, 4, 1}));
  EXPECT_EQ(a.resign, (ResignRule{3, 20, true}));
  EXPECT_EQ(a.describe(),
            "store_majority=true database_seeds=12 draw=movenumber:40,movecount:4,score:1 "
            "resign=movecount:3,score:20,twosided:true");
  EXPECT_NE(fingerprint(*all).find("\nadjudicate=store_majority=true database_seeds=12 "), std::string::npos);

  const struct {
    const char* line;
    const char* message;
  } bad[] = {
      {"adjudicate = true", "t.toml:3:14: tournament.adjudicate must be a table"},
      {"adjudicate = { majority = true }", "t.toml:3:16: unknown key \"majority\" in tournament.adjudicate"},
      {"adjudicate = { store_majority = 1 }", "t.toml:3:33: tournament.adjudicate.store_majority"},
      {"adjudicate = { database_seeds = 24 }",
       "t.toml:3:33: tournament.adjudicate.database_seeds must be from 0 to 23"},
      {"adjudicate = { database_seeds = -1 }",
       "t.toml:3:33: tournament.adjudicate.database_seeds must be from 0 to 23"},
      {"adjudicate = { draw = 3 }", "t.toml:3:23: tournament.adjudicate.draw must be a table"},
      {"adjudicate = { draw = { movecount = 3 } }", "missing key \"score\" in tournament.adjudicate.draw"},
      {"adjudicate = { resign = { score = 3 } }", "missing key \"movecount\" in tournament.adjudicate.resign"},
      {"adjudicate = { resign = { movecount = 3, score = 0 } }", "tournament.adjudicate.resign.score"},
      {"adjudicate = { resign = { movecount = 3, score = 9, two_sided = true } }",
       "unknown key \"two_sided\" in tournament.adjudicate.resign"},
      {"adjudicate = { database_seeds = 10 }\n[variant]\nmajority = true",
       "t.toml:3:33: tournament.adjudicate.database_seeds: the endgame database does not apply under the majority "
       "rule"},
  };
  for (const auto& c : bad) {
    SCOPED_TRACE(c.line);
    Expected<Config> result = with(c.line);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().find(c.message), std::string::npos) << result.error();
  }
}

TEST_F(ConfigTest, SwissAndKnockoutAreTypesWithTheirOwnFingerprints) {
  auto with = [&](const std::string& keys) {
    std::string text = kMinimal;
    text.replace(text.find("name = \"t\"\n"), 11, "name = \"t\"\n" + keys);
    return parse(text);
  };
  auto swiss = with("type = \"swiss\"\nrounds = 5\n");
  ASSERT_TRUE(swiss.ok()) << swiss.error();
  EXPECT_EQ(swiss->tournament.type, TournamentType::Swiss);
  EXPECT_EQ(swiss->tournament.rounds, 5);
  EXPECT_TRUE(plays_by_rounds(swiss->tournament.type));
  auto knockout = with("type = \"knockout\"\n");
  ASSERT_TRUE(knockout.ok()) << knockout.error();
  EXPECT_EQ(knockout->tournament.tiebreak_pairs, 3);  // the default
  auto fewer = with("type = \"knockout\"\ntiebreak_pairs = 0\n");
  ASSERT_TRUE(fewer.ok()) << fewer.error();
  EXPECT_EQ(fewer->tournament.tiebreak_pairs, 0);
  auto base = parse(kMinimal);
  ASSERT_TRUE(base.ok());
  EXPECT_FALSE(plays_by_rounds(base->tournament.type));
  // Every form and every tie-break limit is another tournament; a round robin's fingerprint has no
  // tiebreak_pairs line, so that the journals written before the key existed still resume.
  const std::string prints[] = {fingerprint(*base), fingerprint(*swiss), fingerprint(*knockout), fingerprint(*fewer)};
  for (std::size_t i = 0; i < std::size(prints); ++i)
    for (std::size_t j = i + 1; j < std::size(prints); ++j) EXPECT_NE(prints[i], prints[j]);
  EXPECT_EQ(prints[0].find("tiebreak_pairs"), std::string::npos);
  EXPECT_NE(prints[2].find("tiebreak_pairs=3\n"), std::string::npos);
}

// The bundled examples must load (from the source tree, as the README runs them) whenever the
// bots they name have been built.
// The tests' config builder (tests/config_builder.h) writes what it is told, as the parser reads it: the
// keys of [tournament] typed, strings quoted, tables merged when named twice, engines last.
TEST(TestConfig, ItsTextIsTheConfigItDescribes) {
  const system::TempFolder temp("kalah-config-builder");
  const std::string text = test::TestConfig("built")
                               .set("rounds", 3)
                               .set("type", "round-robin")
                               .set("pin", false)
                               .output(temp / "out \"dir\"")
                               .time("depth = 2")
                               .table("openings", "random_plies = 2")
                               .table("variant", "pits = 4")
                               .table("variant", "seeds = 3")
                               .engine("a", "/bin/cat")
                               .engine("b", "/bin/cat", "args = [\"--x\"]")
                               .text();
  const Expected<Config> c = parse_config(text, "built.toml", temp.path(), temp.path());
  ASSERT_TRUE(c.ok()) << c.error() << "\n" << text;
  EXPECT_EQ(c->tournament.name, "built");
  EXPECT_EQ(c->tournament.rounds, 3);
  EXPECT_EQ(c->tournament.output, temp / "out \"dir\"");
  EXPECT_EQ(c->time.mode, TimeControl::Mode::Depth);
  EXPECT_EQ(c->time.depth, 2);
  EXPECT_EQ(c->openings.random_plies, 2);
  EXPECT_EQ(c->variant.pits, 4);
  EXPECT_EQ(c->variant.seeds, 3);
  ASSERT_EQ(c->engines.size(), 2u);
  EXPECT_EQ(c->engines[0].name, "a");
  EXPECT_EQ(c->engines[1].name, "b");
  EXPECT_EQ(c->engines[1].args, std::vector<std::string>{"--x"});
  EXPECT_EQ(text.find("[tournament]"), 0u);
  EXPECT_LT(text.rfind("[variant]"), text.find("[[engine]]"));
}

// Every tournament config in configs/ (the class contest's included) parses; each is checked, whatever an
// earlier one did. They name the bundled bots ("kalah-random"), built in the build tree beside the arena
// (bots/), which finds them there; this test is not the arena, so it puts that folder first on PATH. A
// bundled bot a config names and the build does not have is a failure naming the config and the bot.
TEST(ConfigExamples, BundledConfigsAreValid) {
  const fs::path source = KALAH_SOURCE_DIR;
  const test::BundledBotsOnPath bots(KALAH_BINARY_DIR "/bots");
  std::vector<fs::path> configs;
  for (const fs::path& folder : {source / "configs", source / "configs" / "contest"})
    for (const fs::directory_entry& e : fs::directory_iterator(folder))
      if (e.is_regular_file() && e.path().extension() == ".toml") configs.push_back(e.path());
  std::sort(configs.begin(), configs.end());
  // A contest's bots play in a sandbox: where there is none, its configs cannot be read to the end.
  const std::optional<std::string> unsandboxed = sandbox_unavailable();
  std::vector<std::string> unchecked;
  for (const char* name : {"quick.toml", "gauntlet.toml", "variants.toml", "ladder.toml", "swiss.toml", "knockout.toml",
                           "contest.toml", "contest/contest.toml", "contest/gated.toml", "staged.toml"})
    EXPECT_NE(std::find(configs.begin(), configs.end(), source / "configs" / name), configs.end()) << name;
  for (const fs::path& file : configs) {
    SCOPED_TRACE(file.string());
    std::ifstream in(file);
    ASSERT_TRUE(in) << file;
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const Expected<Config> result = parse_config(text, file.string(), file.parent_path(), source);
    if (!result.ok()) {
      const std::string& error = result.error();
      if (error.find("engine.cmd \"kalah-") != std::string::npos && error.find("not found") != std::string::npos)
        ADD_FAILURE() << file << " names a bundled bot that is not built in " KALAH_BINARY_DIR "/bots: " << error;
      else if (unsandboxed && error.find("sandbox") != std::string::npos)
        unchecked.push_back(file.string() + " (" + *unsandboxed + ")");
      else if (error.find("is out of the sandbox's reach") != std::string::npos)
        // A checkout in a private folder (CI's clone under /root, mode 0700): the bots it built cannot be
        // reached by a sandboxed engine's uid, which is the machine's state, not the config's fault.
        unchecked.push_back(file.string() + " (the build is out of the sandbox's reach: " + error + ")");
      else
        ADD_FAILURE() << error;
      continue;
    }
    if (file.parent_path() == source / "configs") {
      EXPECT_EQ(result->tournament.name + ".toml", file.filename());
    }
    if (file.filename() == "ladder.toml") {
      // One book line per colour-swapped pair, so that no game repeats another.
      EXPECT_EQ(result->openings.book.size(), 800u);
    }
  }
  if (!unchecked.empty())
    GTEST_SKIP() << "not checked to the end, for want of a sandbox that reaches the bots: "
                 << ::testing::PrintToString(unchecked);
}

}  // namespace
}  // namespace kalah::arena
