// Tests for SPRT matches: SprtSource (pairs, pentanomial bins from the test engine's view, stopping,
// max_pairs, resuming) with fake game records, and the `arena stats` / `arena sprt` / `arena run`
// commands end to end through the built executable and the bundled bots.
// commands end to end through the built executable and the bundled bots. Past 400 lines: the source
// and the commands share the fixtures of a match.

#include <sys/wait.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "referee/record/record_json.h"
#include "referee/system/temp_folder.h"
#include "tests/files.h"

#include "arena/runner/sprt_source.h"
#include "tests/config_builder.h"
#include "tests/e2e_util.h"

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using kalah::GameRecord;
using kalah::Outcome;
using kalah::arena::Config;
using kalah::arena::GameSpec;
using kalah::arena::SprtSource;
using kalah::stats::Decision;

// Engine 0 is the base, engine 1 the test. Game 0 of a pair: base South; game 1: test South.
Config sprt_config(double elo0 = 0, double elo1 = 50, int max_pairs = 0) {
  Config c;
  c.source = "test";
  c.tournament.name = "sprt";
  c.openings.random_plies = 2;
  c.engines.resize(2);
  c.engines[0].name = "base";
  c.engines[1].name = "test";
  kalah::arena::SprtConfig s;
  s.params.elo0 = elo0;
  s.params.elo1 = elo1;
  s.params.model = kalah::stats::Model::Normalized;
  s.max_pairs = max_pairs;
  c.sprt = s;
  return c;
}

// A finished game of `spec` whose result, seen from the test engine, is `test_score`.
GameRecord record_for(const Config& c, const GameSpec& spec, double test_score) {
  GameRecord r;
  r.id = spec.id;
  r.round = spec.round;
  r.south = c.engines[spec.south].name;
  r.north = c.engines[spec.north].name;
  const double south_score = spec.south == 1 ? test_score : 1 - test_score;
  r.result = south_score == 1 ? Outcome::FirstWins : south_score == 0 ? Outcome::SecondWins : Outcome::Draw;
  return r;
}

// A game finished, then on the disk and reported, as the runner tells a source.
void finish(SprtSource& source, const GameSpec& spec, const GameRecord& record) {
  source.finished(spec, record);
  source.reported(spec, record);
}

GameRecord journaled(const Config& c, int pair, int game, double test_score) {
  return record_for(c, kalah::arena::sprt_game(c, pair, game), test_score);
}

// Plays out a source to the end with the test engine scoring `test_score` in every game.
int play_out(const Config& c, SprtSource& source, double test_score) {
  int games = 0;
  while (std::optional<GameSpec> spec = source.next()) {
    finish(source, *spec, record_for(c, *spec, test_score));
    ++games;
    if (games > 100000) break;  // a bug: never stopping
  }
  return games;
}

TEST(SprtSource, HandsOutBothGamesOfAPairInPairOrder) {
  const Config c = sprt_config();
  SprtSource source(c);
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(source.next()->id);
  EXPECT_EQ(ids, (std::vector<std::string>{"sprt-p0-g0", "sprt-p0-g1", "sprt-p1-g0", "sprt-p1-g1"}));
  EXPECT_EQ(source.total(), -1);
  EXPECT_EQ(source.in_flight(), 4);
}

TEST(SprtSource, PairCountsOnlyWhenBothGamesAreDone) {
  const Config c = sprt_config();
  SprtSource source(c);
  const GameSpec g0 = *source.next();
  const GameSpec g1 = *source.next();
  const GameSpec h0 = *source.next();
  finish(source, g0, record_for(c, g0, 1));
  finish(source, h0, record_for(c, h0, 1));
  EXPECT_EQ(source.status().pairs, 0);
  EXPECT_EQ(source.status().games, 2);
  EXPECT_EQ(source.status().pentanomial.pairs(), 0);
  EXPECT_EQ(source.status().sprt.llr, kalah::stats::sprt(kalah::stats::Pentanomial{}, c.sprt->params).llr);
  finish(source, g1, record_for(c, g1, 0.5));
  EXPECT_EQ(source.status().pairs, 1);
  EXPECT_EQ(source.status().pentanomial.counts[3], 1);  // win + draw = WD
}

// The runner tells a source of a game when it is written (finished) and when it is on the disk and reported
// (reported): what comes next goes by every game finished, what is shown by the games reported.
TEST(SprtSource, TheDecisionCountsGamesFinishedAndTheStatusOnlyThoseReported) {
  const Config c = sprt_config();
  SprtSource source(c);
  std::vector<std::pair<GameSpec, GameRecord>> written;
  while (source.decision() == kalah::stats::Decision::Continue) {
    const GameSpec spec = *source.next();
    GameRecord record = record_for(c, spec, 1.0);
    source.finished(spec, record);
    written.emplace_back(spec, std::move(record));
    ASSERT_LT(written.size(), 10000u);
  }
  EXPECT_EQ(source.decision(), kalah::stats::Decision::H1);
  EXPECT_EQ(source.status().games, 0);
  EXPECT_EQ(source.status().sprt.decision, kalah::stats::Decision::Continue);
  EXPECT_FALSE(source.next());
  for (const auto& [spec, record] : written) source.reported(spec, record);
  EXPECT_EQ(source.status().games, static_cast<int>(written.size()));
  EXPECT_EQ(source.status().pairs, static_cast<int>(written.size()) / 2);
  EXPECT_EQ(source.status().sprt.decision, kalah::stats::Decision::H1);
  // A game reported twice, or never finished, counts once or not at all.
  source.reported(written.front().first, written.front().second);
  EXPECT_EQ(source.status().games, static_cast<int>(written.size()));
}

TEST(SprtSource, PentanomialBinsAreFromTheTestEnginesView) {
  const Config c = sprt_config();
  SprtSource source(c);
  auto finish_pair = [&](Outcome first, Outcome second) {
    const GameSpec a = *source.next();
    const GameSpec b = *source.next();
    ASSERT_EQ(a.south, 0);  // base South
    ASSERT_EQ(b.south, 1);  // test South
    GameRecord ra = record_for(c, a, 0), rb = record_for(c, b, 0);
    ra.result = first;
    rb.result = second;
    finish(source, a, ra);
    finish(source, b, rb);
  };
  finish_pair(Outcome::FirstWins, Outcome::FirstWins);   // South wins both: test 0 + 1 -> WL (bin 2)
  finish_pair(Outcome::SecondWins, Outcome::FirstWins);  // test wins as North and as South -> WW
  finish_pair(Outcome::FirstWins, Outcome::SecondWins);  // base wins both -> LL
  finish_pair(Outcome::Draw, Outcome::SecondWins);       // test draws, then loses -> LD
  finish_pair(Outcome::SecondWins, Outcome::Draw);       // test wins, then draws -> WD
  EXPECT_EQ(source.status().pentanomial.counts, (std::array<double, 5>{1, 1, 1, 1, 1}));
  EXPECT_EQ(source.status().trinomial.wins, 4);
  EXPECT_EQ(source.status().trinomial.losses, 4);
  EXPECT_EQ(source.status().trinomial.draws, 2);
}

TEST(SprtTally, TestScoreFromRecordNames) {
  const Config c = sprt_config();
  const kalah::rating::SprtTally tally(c.sprt->params, c.engines[0].name, c.engines[1].name);
  GameRecord r;
  r.south = "test";
  r.north = "base";
  r.result = Outcome::FirstWins;
  EXPECT_EQ(tally.test_score(r), 1);
  r.south = "base";
  r.north = "test";
  EXPECT_EQ(tally.test_score(r), 0);
  r.result = Outcome::Draw;
  EXPECT_EQ(tally.test_score(r), 0.5);
}

TEST(SprtSource, StopsAtH1ForAClearlyStrongerTestEngine) {
  const Config c = sprt_config(0, 50);
  SprtSource source(c);
  const int games = play_out(c, source, 1.0);
  EXPECT_EQ(source.decision(), Decision::H1);
  EXPECT_TRUE(source.stopped());
  EXPECT_EQ(games, 2 * source.status().pairs);
  EXPECT_LT(source.status().pairs, 50);
  EXPECT_GE(source.status().sprt.llr, source.status().sprt.upper);
  EXPECT_FALSE(source.next());  // stays stopped
}

TEST(SprtSource, StopsAtH0ForAClearlyWeakerTestEngine) {
  const Config c = sprt_config(0, 50);
  SprtSource source(c);
  play_out(c, source, 0.0);
  EXPECT_EQ(source.decision(), Decision::H0);
}

TEST(SprtSource, PairsAlreadyHandedOutFinishAfterTheDecision) {
  const Config c = sprt_config(0, 50);
  SprtSource source(c);
  // Many workers have taken games before any finishes: far more pairs than H1 needs.
  std::vector<GameSpec> out;
  for (int i = 0; i < 200; ++i) out.push_back(*source.next());
  for (const GameSpec& g : out) finish(source, g, record_for(c, g, 1.0));
  EXPECT_EQ(source.decision(), Decision::H1);
  EXPECT_EQ(source.status().pairs, 100);  // every handed-out pair counted
  EXPECT_FALSE(source.next());
  EXPECT_EQ(source.in_flight(), 0);
}

TEST(SprtSource, RespectsMaxPairs) {
  const Config c = sprt_config(0, 50, 5);
  SprtSource source(c);
  EXPECT_EQ(source.total(), 10);
  EXPECT_EQ(play_out(c, source, 0.5), 10);
  EXPECT_EQ(source.status().pairs, 5);
  EXPECT_EQ(source.decision(), Decision::Continue);
  EXPECT_TRUE(source.stopped());
}

TEST(SprtSource, ResumesCountingResultsAlreadyInTheJournal) {
  const Config c = sprt_config();
  const std::vector<GameRecord> journal = {
      journaled(c, 0, 0, 1), journaled(c, 0, 1, 1),  // a whole pair: WW
      journaled(c, 2, 1, 0),                         // half of pair 2 (pair 1 never finished a game)
  };
  SprtSource source(c);
  for (const GameRecord& r : journal) source.add_journaled(r);
  EXPECT_EQ(source.status().pairs, 1);
  EXPECT_EQ(source.status().games, 3);
  EXPECT_EQ(source.status().pentanomial.counts[4], 1);
  EXPECT_EQ(source.next()->id, "sprt-p1-g0");
  EXPECT_EQ(source.next()->id, "sprt-p1-g1");
  const GameSpec missing = *source.next();
  EXPECT_EQ(missing.id, "sprt-p2-g0");  // the journaled game of pair 2 is not played again
  EXPECT_EQ(source.next()->id, "sprt-p3-g0");
  finish(source, missing, record_for(c, missing, 0));
  EXPECT_EQ(source.status().pairs, 2);
  EXPECT_EQ(source.status().pentanomial.counts[0], 1);  // LL
}

TEST(SprtSource, ResumeAfterTheDecisionOnlyCompletesBegunPairs) {
  const Config c = sprt_config(0, 50);
  std::vector<GameRecord> journal;
  for (int p = 0; p < 40; ++p)
    for (int g = 0; g < 2; ++g) journal.push_back(journaled(c, p, g, 1));
  journal.push_back(journaled(c, 41, 0, 1));  // pair 40 had no finished game, pair 41 one
  SprtSource source(c);
  for (const GameRecord& r : journal) source.add_journaled(r);
  EXPECT_EQ(source.decision(), Decision::H1);
  EXPECT_EQ(source.next()->id, "sprt-p41-g1");
  EXPECT_FALSE(source.next());
}

TEST(SprtSource, AShardPlaysEveryNthPairAndCountsThePeersGames) {
  Config c = sprt_config(0, 50, 9);
  c.shard = kalah::arena::Shard{2, 3};
  const kalah::system::TempFolder dir("kalah-sprt-shard");
  const std::filesystem::path peer = dir.path() / "peer.jsonl";
  SprtSource source(c, {peer, dir.path() / "not-yet.jsonl"});
  // The peer (shard 1) finished pair 0 and is writing pair 3: its last line is still half a line.
  {
    std::ofstream out(peer);
    for (int game : {0, 1}) out << kalah::to_json_line(journaled(c, 0, game, 1)) << "\n";
    const std::string half = kalah::to_json_line(journaled(c, 3, 0, 1));
    out << kalah::to_json_line(journaled(c, 3, 1, 1)) << "\n" << half.substr(0, half.size() / 2);
  }
  std::vector<std::string> ids;
  while (std::optional<GameSpec> spec = source.next()) {
    ids.push_back(spec->id);
    finish(source, *spec, record_for(c, *spec, 0.5));
  }
  // Pairs 1, 4 and 7 of max_pairs 9 are this shard's.
  EXPECT_EQ(ids, (std::vector<std::string>{"sprt-p1-g0", "sprt-p1-g1", "sprt-p4-g0", "sprt-p4-g1", "sprt-p7-g0",
                                           "sprt-p7-g1"}));
  // Its own three pairs and the peer's pair 0; pair 3 has one game in, the half line is not read.
  EXPECT_EQ(source.status().pairs, 4);
  EXPECT_EQ(source.status().games, 9);
  EXPECT_TRUE(source.peer_error().empty()) << source.peer_error();
  // The peer completes its line: read once, not twice.
  {
    std::ofstream out(peer, std::ios::app);
    const std::string half = kalah::to_json_line(journaled(c, 3, 0, 1));
    out << half.substr(half.size() / 2) << "\n";
  }
  source.refresh();
  source.refresh();
  EXPECT_EQ(source.status().pairs, 5);
  EXPECT_EQ(source.status().games, 10);
}

TEST(SprtTally, ParsesOnlySprtIds) {
  EXPECT_EQ(kalah::rating::SprtTally::parse_id("sprt-p12-g1"), (std::pair{12, 1}));
  EXPECT_FALSE(kalah::rating::SprtTally::parse_id("sprt-p12-g2"));
  EXPECT_FALSE(kalah::rating::SprtTally::parse_id("sprt-p12-g1x"));
  EXPECT_FALSE(kalah::rating::SprtTally::parse_id("r1-0v1-p0-g0"));
  EXPECT_FALSE(kalah::rating::SprtTally::parse_id("sprt-p-g1"));
}

// ---- end to end ----------------------------------------------------------------------------

struct ArenaRun {
  int exit_code = -1;
  std::string out;  // stdout only, or stdout and stderr
};

ArenaRun run_arena(const std::string& args, bool with_stderr = false) {
  const std::string command = std::string(KALAH_BINARY_DIR "/arena ") + args + (with_stderr ? " 2>&1" : " 2>/dev/null");
  ArenaRun r;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) r.out.append(buffer, n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

json::object parse_object(const std::string& text) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  EXPECT_FALSE(ec) << text;
  EXPECT_TRUE(v.is_object()) << text;
  return v.is_object() ? v.as_object() : json::object{};
}

double number(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  EXPECT_TRUE(v && v->is_number()) << key;
  return v && v->is_number() ? v->to_number<double>() : 0;
}

std::string string_of(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  EXPECT_TRUE(v && v->is_string()) << key;
  return v && v->is_string() ? std::string(v->as_string()) : "";
}

// A folder `name` for the arena to make, in this test program's temporary folder.
fs::path fresh_dir(const std::string& name) {
  static const kalah::system::TempFolder folder("kalah-sprt-test");
  const fs::path dir = folder / name;
  fs::remove_all(dir);
  return dir;
}

json::object read_json(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return parse_object(text.str());
}

const std::string kBots = KALAH_BINARY_DIR "/bots/";

// `arena stats ARGS --json`, which must succeed: the object it prints.
json::object stats_json(const std::string& args) {
  const ArenaRun r = run_arena("stats " + args + " --json");
  EXPECT_EQ(r.exit_code, 0) << args;
  return parse_object(r.out);
}

// A figure of `arena stats --json` and how near to the reference it must be.
struct Figure {
  const char* key;
  double expected;
  double tolerance = 1e-6;
};

void expect_figures(const json::object& o, std::initializer_list<Figure> figures) {
  for (const Figure& f : figures) EXPECT_NEAR(number(o, f.key), f.expected, f.tolerance) << f.key;
}

TEST(StatsCommand, WdlJsonMatchesFishtest) {
  const json::object o = stats_json("--wdl 60,20,20");
  expect_figures(o, {{"elo", 147.1907141178}, {"elo95", 66.0133812204}, {"los", 0.9999997133}});
  EXPECT_TRUE(o.contains("nelo"));
  EXPECT_TRUE(o.contains("nelo95"));
  EXPECT_FALSE(o.contains("llr"));  // no --sprt
}

TEST(StatsCommand, PentanomialSprtJsonMatchesFishtest) {
  const json::object o = stats_json("--penta 10,100,200,120,15 --sprt elo0=0,elo1=5,model=logistic");
  expect_figures(o, {{"elo", 11.7157504408},
                     {"elo95", 13.6662385267},
                     {"los", 0.9537520149},
                     {"llr", 0.9465862595},
                     {"lower", -2.9444389791664403, 1e-9},
                     {"upper", 2.9444389791664403, 1e-9}});
  EXPECT_EQ(string_of(o, "decision"), "continue");
}

TEST(StatsCommand, NormalizedIsTheDefaultModel) {
  expect_figures(stats_json("--penta 10,100,200,120,15 --sprt elo0=0,elo1=5"), {{"llr", 0.6282899302}});
}

TEST(StatsCommand, DecisionsInJson) {
  EXPECT_EQ(string_of(stats_json("--penta 0,0,0,0,200 --sprt elo1=5"), "decision"), "H1");
  EXPECT_EQ(string_of(stats_json("--penta 200,0,0,0,0 --sprt elo1=5"), "decision"), "H0");
}

TEST(StatsCommand, DegenerateSamplesPrintNoNanOrInf) {
  for (const char* args : {"--wdl 10,0,0", "--wdl 0,10,0", "--wdl 0,0,10", "--wdl 0,0,0", "--wdl 1,0,0",
                           "--penta 0,0,0,0,0", "--penta 0,0,0,0,7", "--penta 0,0,9,0,0"}) {
    for (const char* extra : {"", " --json", " --sprt elo1=5", " --sprt elo1=5,model=logistic --json"}) {
      const ArenaRun r = run_arena(std::string("stats ") + args + extra);
      EXPECT_EQ(r.exit_code, 0) << args << extra;
      std::string lower = r.out;
      for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      EXPECT_EQ(lower.find("nan"), std::string::npos) << args << extra << "\n" << r.out;
      EXPECT_EQ(lower.find("inf"), std::string::npos) << args << extra << "\n" << r.out;
      EXPECT_EQ(lower.find("null"), std::string::npos) << args << extra << "\n" << r.out;
      if (std::string(extra).find("--json") != std::string::npos) parse_object(r.out);
    }
  }
}

TEST(StatsCommand, TextSummaryIsReadable) {
  const ArenaRun r = run_arena("stats --wdl 60,20,20 --sprt elo0=0,elo1=5,model=logistic");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Elo     147.19 +- 66.01"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("LOS     100.00%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("LLR     0.71 (bounds -2.94, 2.94): continue"), std::string::npos) << r.out;
}

TEST(StatsCommand, BadInputExitsWithTwo) {
  for (const char* args :
       {"", "--wdl 1,2", "--wdl 1,2,3,4", "--wdl 1,-2,3", "--wdl 1,x,3", "--wdl 1,,3", "--penta 1,2,3,4",
        "--wdl 1,2,3 --penta 1,2,3,4,5", "--wdl 1,2,3 --sprt foo=1", "--wdl 1,2,3 --sprt elo0=5,elo1=5",
        "--wdl 1,2,3 --sprt elo0=6,elo1=5", "--wdl 1,2,3 --sprt alpha=0", "--wdl 1,2,3 --sprt alpha=1.5",
        "--wdl 1,2,3 --sprt model=bayes", "--wdl 1,2,3 --sprt elo1"}) {
    const ArenaRun r = run_arena(std::string("stats ") + args);
    EXPECT_EQ(r.exit_code, 2) << args;
  }
}

// The exit code of an SPRT that ran to its end, by its decision (docs/SPRT.md, "Using SPRT as a CI gate").
int gate_code(const std::string& decision) { return decision == "H1" ? 0 : decision == "H0" ? 1 : 3; }

// `arena sprt ARGS --out OUT`, run to its end: what it printed and its sprt.json (empty if it failed). The
// exit code must be the decision's.
struct SprtRun {
  ArenaRun run;
  json::object sprt;
};
SprtRun run_sprt(const std::string& args, const fs::path& out) {
  SprtRun r{run_arena("sprt " + args + " --out " + out.string()), {}};
  const fs::path file = out / "sprt" / "sprt.json";
  EXPECT_TRUE(fs::exists(file)) << r.run.out;
  if (fs::exists(file)) r.sprt = read_json(file);
  EXPECT_EQ(r.run.exit_code, gate_code(string_of(r.sprt, "decision"))) << r.run.out;
  return r;
}

// The same in a fresh folder of its own, removed afterwards.
json::object sprt_json_of(const std::string& name, const std::string& args) {
  const fs::path out = fresh_dir(name);
  json::object sprt = run_sprt(args, out).sprt;
  fs::remove_all(out);
  return sprt;
}

using kalah::e2e::lines_starting;

// The Elo estimate as every SPRT text prints it, from sprt.json's numbers.
std::string elo_text_of(const json::object& sprt) {
  char text[128];
  std::snprintf(text, sizeof text, "%+.1f +- %.1f (95%%, %s)", number(sprt, "elo"), number(sprt, "elo95"),
                string_of(sprt, "elo_estimator").c_str());
  return text;
}

// Two engines that differ clearly in strength, one ply of search each.
const std::string kRandomVsGreedy =
    "--base " + kBots + "kalah-random --test " + kBots + "kalah-greedy --depth 1 --elo0 0 --elo1 50 --openings-plies 2";

TEST(SprtCommand, StrongerTestEngineReachesH1) {
  const fs::path out = fresh_dir("h1");
  const SprtRun first = run_sprt(kRandomVsGreedy + " --concurrency 2", out);
  EXPECT_NE(first.run.out.find("H1 accepted"), std::string::npos) << first.run.out;
  const json::object& o = first.sprt;
  EXPECT_EQ(string_of(o, "decision"), "H1");
  EXPECT_GE(number(o, "llr"), number(o, "upper"));
  EXPECT_EQ(number(o, "games"), 2 * number(o, "pairs"));
  EXPECT_TRUE(fs::exists(out / "sprt" / "games.jsonl"));
  EXPECT_TRUE(fs::exists(out / "sprt" / "standings.md"));

  // The reports lead with the test as the terminal printed it, not with a second Elo.
  const std::string outcome = lines_starting(first.run.out, "H1 accepted").at(0);
  const json::object standings = read_json(out / "sprt" / "standings.json");
  const json::object& lead = standings.at("sprt").as_object();
  EXPECT_EQ(string_of(lead, "outcome"), outcome);
  EXPECT_EQ(string_of(lead, "decision"), "H1");
  EXPECT_EQ(number(lead, "llr"), number(o, "llr"));
  EXPECT_EQ(number(lead, "pairs"), number(o, "pairs"));
  EXPECT_EQ(lead.at("llr_by_pair").as_array().size(), static_cast<std::size_t>(number(o, "pairs")));
  EXPECT_EQ(lead.at("llr_by_pair").as_array().back().to_number<double>(), std::round(number(o, "llr") * 1e4) / 1e4);
  const std::string md = kalah::e2e::read_file(out / "sprt" / "standings.md");
  EXPECT_LT(md.find("## SPRT"), md.find("## About")) << md;
  EXPECT_NE(md.find("**" + outcome + "**"), std::string::npos) << md;
  EXPECT_NE(md.find(elo_text_of(o)), std::string::npos) << md;
  const std::string html = kalah::e2e::read_file(out / "sprt" / "report.html");
  EXPECT_NE(html.find("<h2>SPRT</h2>"), std::string::npos);
  EXPECT_NE(html.find("LLR after each pair"), std::string::npos);

  // Resuming a decided match plays nothing more and keeps the decision.
  const SprtRun again = run_sprt(kRandomVsGreedy, out);
  EXPECT_EQ(string_of(again.sprt, "decision"), "H1");
  EXPECT_EQ(number(again.sprt, "games"), number(o, "games"));
  fs::remove_all(out);
}

TEST(SprtCommand, AlphaBetaAtDepthSixAgainstDepthTwoReachesH1) {
  // Two versions of one engine that differ clearly in strength: the depth is an
  // engine option, the generous move time never binds.
  const json::object o =
      sprt_json_of("depth", "--base " + kBots + "kalah-alphabeta --base-option Depth=2 --test " + kBots +
                                "kalah-alphabeta --test-option Depth=6 --movetime 5000 "
                                "--elo0 0 --elo1 50");
  EXPECT_EQ(string_of(o, "decision"), "H1");
  EXPECT_GT(number(o, "elo"), 0);
}

TEST(SprtCommand, SameEngineTwiceDoesNotReachH1) {
  // Concurrency 1 keeps the seeded random bots' games reproducible.
  const json::object o = sprt_json_of("self", "--base " + kBots + "kalah-random --test " + kBots +
                                                  "kalah-random --depth 1 --elo0 0 --elo1 50 --openings-plies 2 "
                                                  "--max-pairs 30");
  EXPECT_NE(string_of(o, "decision"), "H1");
  EXPECT_LE(number(o, "pairs"), 30);
}

TEST(SprtCommand, RunWithAnSprtTableRunsTheSprt) {
  const fs::path out = fresh_dir("run");
  fs::create_directories(out);
  const fs::path config = out / "match.toml";
  kalah::test::TestConfig("m")
      .set("output", out.string())
      .time("depth = 1")
      .table("openings", "random_plies = 2")
      .table("sprt", "elo0 = 0\nelo1 = 50\nmax_pairs = 200")
      .engine("random", kBots + "kalah-random")
      .engine("greedy", kBots + "kalah-greedy")
      .write(config);
  const ArenaRun r = run_arena("run " + config.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json::object o = read_json(out / "m" / "sprt.json");
  EXPECT_EQ(string_of(o, "decision"), "H1");
  EXPECT_EQ(string_of(o, "test"), "greedy");
  fs::remove_all(out);
}

TEST(SprtGate, ExitCodeIsTheDecision) {
  // Alpha-beta against random decides quickly either way round; the same engine twice with a tiny pair limit
  // cannot decide.
  const std::string ab = kBots + "kalah-alphabeta", random = kBots + "kalah-random";
  const struct {
    const char* name;
    std::string args;
    const char* decision;
  } cases[] = {
      {"gate-h1", "--base " + random + " --test " + ab + " --depth 2", "H1"},
      {"gate-h0", "--base " + ab + " --test " + random + " --depth 2", "H0"},
      {"gate-undecided", "--base " + random + " --test " + random + " --depth 1 --max-pairs 3", "continue"},
  };
  for (const auto& c : cases) {
    const fs::path out = fresh_dir(c.name);
    const SprtRun r = run_sprt(c.args + " --elo0 0 --elo1 50 --openings-plies 2", out);
    EXPECT_EQ(string_of(r.sprt, "decision"), c.decision) << r.run.out;
    EXPECT_EQ(r.run.exit_code, gate_code(c.decision)) << c.name;
    // `arena report` on the same folder recomputes the test and gates the same way.
    EXPECT_EQ(run_arena("report " + (out / "sprt").string()).exit_code, r.run.exit_code) << c.name;
    fs::remove_all(out);
  }
}

TEST(SprtGate, EveryPrintedEloIsTheOneInSprtJson) {
  const fs::path out = fresh_dir("one-elo");
  const SprtRun r = run_sprt(kRandomVsGreedy, out);
  const std::string elo = elo_text_of(r.sprt);
  EXPECT_EQ(string_of(r.sprt, "elo_estimator"), "pentanomial");
  // The live line after the last pair, the closing summary, and the merge of the same folder.
  const std::vector<std::string> live = lines_starting(r.run.out, "pairs ");
  ASSERT_FALSE(live.empty()) << r.run.out;
  EXPECT_NE(live.back().find("  Elo " + elo + "  "), std::string::npos) << live.back() << "\n" << elo;
  EXPECT_EQ(lines_starting(r.run.out, "Elo "), std::vector<std::string>{"Elo     " + elo}) << r.run.out;
  const ArenaRun merged = run_arena("report " + (out / "sprt").string());
  EXPECT_EQ(lines_starting(merged.out, "Elo "), std::vector<std::string>{"Elo     " + elo}) << merged.out;
  // No second estimate: the standings table (Bradley-Terry over games) is not printed with an SPRT.
  EXPECT_EQ(r.run.out.find("Rank  Engine"), std::string::npos) << r.run.out;
  EXPECT_EQ(merged.out.find("Rank  Engine"), std::string::npos) << merged.out;
  fs::remove_all(out);
}

TEST(SprtCommand, AnOptionTheEngineDoesNotTakeStopsTheRunBeforeItsFirstGame) {
  // A misspelt option would otherwise be dropped, and the "regression test" would be self-play.
  const std::string ab = kBots + "kalah-alphabeta";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--base " + ab + " --base-option Dept=2 --test " + ab + " --test-option Depth=6",
       "engine 'base': option 'Dept' is not one the engine declares (did you mean 'Depth'?)"},
      {"--base " + ab + " --base-option Depth=2 --test " + ab + " --test-option Depth=300",
       "option 'Depth': 300 is outside the declared range [1, 254]"},
      {"--base " + kBots + "kalah-greedy --base-option Hash=16 --test " + ab,
       "engine 'base': option 'Hash' is not one the engine declares (it declares Seed spin 1"},
  };
  for (const auto& [args, says] : cases) {
    const fs::path out = fresh_dir("typo");
    const ArenaRun r =
        run_arena("sprt " + args + " --movetime 100 --elo0 0 --elo1 50 --out " + out.string(), /*with_stderr=*/true);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(says), std::string::npos) << args << "\n" << r.out;
    EXPECT_FALSE(fs::exists(out / "sprt" / "games.jsonl")) << args;
    fs::remove_all(out);
  }
}

TEST(SprtCommand, OperatorMistakesExitWithTwo) {
  EXPECT_EQ(run_arena("sprt").exit_code, 2);
  EXPECT_EQ(run_arena("sprt --base " + kBots + "kalah-random").exit_code, 2);
  EXPECT_EQ(run_arena("sprt --base /nonexistent/engine --test " + kBots + "kalah-random --depth 1").exit_code, 2);
  EXPECT_EQ(run_arena("sprt --base " + kBots + "kalah-random --test " + kBots + "kalah-greedy --depth 1 --movetime 5")
                .exit_code,
            2);
  EXPECT_EQ(
      run_arena("sprt --base " + kBots + "kalah-random --test " + kBots + "kalah-greedy --elo0 5 --elo1 0").exit_code,
      2);
}

}  // namespace
