// analysis.jsonl (arena/analysis): lines written and read back, every way a line can be wrong, a
// file cut by a kill, and what a game's analysis says about its players.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <unordered_map>

#include <fmt/core.h>

#include "arena/analysis/analyse.h"
#include "arena/analysis/analyser.h"
#include "arena/analysis/analysis_file.h"
#include "arena/analysis/quality.h"
#include "arena/journal/journal.h"
#include "plain_minimax.h"
#include "referee/system/temp_folder.h"
#include "tests/files.h"
#include "tests/game_records.h"

namespace kalah::analysis {
namespace {

GameAnalysis sample() { return {"r1-g3", {4, 4, std::nullopt, -2}, {0, 6, std::nullopt, 0}}; }
// The journal the samples are read against: two games of four plies.
const JournalPlies kJournal = {{"r1-g3", 4}, {"r1-g4", 4}};

TEST(AnalysisFile, ALineReadsBackAsWritten) {
  const std::string line = to_line(sample());
  EXPECT_EQ(line, "{\"id\":\"r1-g3\",\"value\":[4,4,null,-2],\"loss\":[0,6,null,0]}\n");
  Expected<GameAnalysis> back = from_line(std::string_view(line).substr(0, line.size() - 1));
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(*back, sample());
}

TEST(AnalysisFile, EveryWrongLineSaysWhatIsWrong) {
  const std::pair<const char*, const char*> cases[] = {
      {"{\"id\":\"a\",\"value\":[1],\"loss\":[0]", "not JSON"},
      {"[1,2]", "not a JSON object"},
      {"{\"id\":\"a\",\"value\":[1],\"loss\":[0],\"x\":1}", "unknown key \"x\""},
      {"{\"value\":[1],\"loss\":[0]}", "\"id\" must be"},
      {"{\"id\":\"\",\"value\":[1],\"loss\":[0]}", "\"id\" must be"},
      {"{\"id\":\"a\",\"value\":[1]}", "needs \"id\", \"value\" and \"loss\""},
      {"{\"id\":\"a\",\"value\":[1.5],\"loss\":[0]}", "\"value\"[0] must be an integer"},
      {"{\"id\":\"a\",\"value\":[1],\"loss\":[99999]}", "\"loss\"[0] must be an integer"},
      {"{\"id\":\"a\",\"value\":[1,2],\"loss\":[0]}", "\"value\" has 2 entries but \"loss\" 1"},
      {"{\"id\":\"a\",\"value\":[1],\"loss\":[-2]}", "\"loss\"[0] is negative"},
      {"{\"id\":\"a\",\"value\":[null],\"loss\":[0]}", "\"loss\"[0] is known but \"value\"[0] is null"},
  };
  for (const auto& [line, message] : cases) {
    Expected<GameAnalysis> g = from_line(line);
    ASSERT_FALSE(g) << line;
    EXPECT_NE(g.error().find(message), std::string::npos) << line << " -> " << g.error();
  }
}

TEST(AnalysisFile, AMissingFileIsAnEmptyAnalysis) {
  system::TempFolder dir{"kalah-test"};
  Expected<AnalysisFile> f = read_analysis(dir.path() / kAnalysisFile, kJournal);
  ASSERT_TRUE(f) << f.error();
  EXPECT_TRUE(f->games.empty());
  EXPECT_FALSE(f->torn_at);
}

TEST(AnalysisFile, ALineCutByAKillIsReportedWithWhereItStarts) {
  system::TempFolder dir{"kalah-test"};
  const std::filesystem::path file = dir.path() / kAnalysisFile;
  GameAnalysis second = sample();
  second.id = "r1-g4";
  const std::string whole = to_line(sample()) + "\n" + to_line(second) + to_line(sample());
  std::ofstream(file) << whole << "{\"id\":\"r1-g5\",\"val";
  Expected<AnalysisFile> f = read_analysis(file, kJournal);
  ASSERT_TRUE(f) << f.error();
  EXPECT_EQ(f->games.size(), 2u);
  EXPECT_EQ(f->duplicates, 1u);
  ASSERT_TRUE(f->torn_at);
  EXPECT_EQ(*f->torn_at, whole.size());
  EXPECT_NE(f->torn_reason.find("analysis.jsonl:5:"), std::string::npos) << f->torn_reason;
}

// A line is kept only for a game of the journal and with one entry per ply: lines for other games are counted
// (the smallest ids named), a line of another length is a misfit of its game, and nothing else is kept, so a
// crafted file of lines for games that are not there costs one line of memory, not its size.
TEST(AnalysisFile, OnlyLinesOfTheJournalsGamesWithOneEntryPerPlyAreKept) {
  system::TempFolder dir{"kalah-test"};
  const std::filesystem::path file = dir.path() / kAnalysisFile;
  {
    std::ofstream out(file);
    for (int i = 0; i < 500; ++i) out << to_line(GameAnalysis{"x" + std::to_string(1000 + i), {0, 0}, {0, 0}});
    out << to_line(GameAnalysis{"r1-g4", {1, 1}, {0, 0}}) << to_line(sample()) << to_line(sample());
  }
  Expected<AnalysisFile> f = read_analysis(file, kJournal);
  ASSERT_TRUE(f) << f.error();
  ASSERT_EQ(f->games.size(), 1u);
  EXPECT_EQ(f->games.at("r1-g3"), sample());
  EXPECT_EQ(f->misfits, (std::map<std::string, std::size_t>{{"r1-g4", 2}}));
  EXPECT_EQ(f->duplicates, 1u);
  EXPECT_EQ(f->unknown, 500u);
  ASSERT_EQ(f->unknown_named.size(), AnalysisFile::kNamedUnknown);
  EXPECT_EQ(*f->unknown_named.begin(), "x1000");
  EXPECT_EQ(*f->unknown_named.rbegin(), "x1019");
  // Streamed: every line handed out once, in order, none kept by the reader.
  int count = 0, last = 0;
  Expected<AnalysisLines> lines =
      read_analysis_lines(file, [&](GameAnalysis&&, int line) -> std::optional<std::string> {
        ++count;
        EXPECT_GT(line, last);
        last = line;
        return std::nullopt;
      });
  ASSERT_TRUE(lines) << lines.error();
  EXPECT_EQ(count, 503);
  EXPECT_EQ(lines->lines, 503u);
}

TEST(AnalysisFile, ABadLineBeforeTheLastIsAnError) {
  system::TempFolder dir{"kalah-test"};
  const std::filesystem::path file = dir.path() / kAnalysisFile;
  std::ofstream(file) << to_line(sample()) << "garbage\n" << to_line(sample());
  Expected<AnalysisFile> f = read_analysis(file, kJournal);
  ASSERT_FALSE(f);
  EXPECT_NE(f.error().find("analysis.jsonl:2: not JSON"), std::string::npos) << f.error();
}

TEST(AnalysisFile, ALinkIsNeverFollowed) {
  system::TempFolder dir{"kalah-test"};
  std::ofstream(dir.path() / "elsewhere") << to_line(sample());
  std::filesystem::create_symlink(dir.path() / "elsewhere", dir.path() / kAnalysisFile);
  EXPECT_FALSE(read_analysis(dir.path() / kAnalysisFile, kJournal));
}

TEST(AnalysisFile, ALineBeyondTheBoundIsRefusedWithoutReadingOn) {
  system::TempFolder dir{"kalah-test"};
  const std::filesystem::path file = dir.path() / kAnalysisFile;
  std::ofstream(file) << std::string(kMaxLineBytes + 10, ' ');
  Expected<AnalysisFile> f = read_analysis(file, kJournal);
  ASSERT_FALSE(f);
  EXPECT_NE(f.error().find("longer than"), std::string::npos) << f.error();
}

// The bookkeeping of a judgement (the values are made up; the solver's are tested elsewhere): movers by
// seat, an extra turn included, opening plies left out, the losing ply where a draw turns into a loss.
GameRecord game_of(const Variant& v, std::vector<Move> moves, int opening_plies) {
  GameRecord g;
  g.id = "r1-g1";
  g.south = "ada";
  g.north = "basil";
  g.variant = v;
  g.moves = std::move(moves);
  g.opening.assign(g.moves.begin(), g.moves.begin() + opening_plies);
  return g;
}

TEST(Quality, MoversFollowTheSeatsAndTheLosingPlyIsTheFirstThatTurnsAWinIntoALoss) {
  const Variant v = *parse_variant("pits=6 seeds=4");
  // South 3 ends in its store (4 seeds from pit 3: pits 4, 5, 6, store): South moves again.
  GameRecord g = game_of(v, {Move{3}, Move{1}, Move{2}, Move{6}}, 1);
  g.result = Outcome::FirstWins;  // ada won: basil lost it
  GameAnalysis a{"r1-g1", {2, 2, 0, 3}, {0, 0, 4, 0}};
  Expected<GameJudgement> j = judge_game(g, a);
  ASSERT_TRUE(j) << j.error();
  ASSERT_EQ(j->plies.size(), 4u);
  EXPECT_EQ(j->plies[0].mover, "ada");
  EXPECT_TRUE(j->plies[0].opening);
  EXPECT_EQ(j->plies[1].mover, "ada");  // the extra turn
  EXPECT_EQ(j->plies[2].mover, "basil");
  EXPECT_EQ(j->plies[3].mover, "ada");
  EXPECT_EQ(j->losing_ply, 2);  // basil: a draw (0) before, -4 after
  std::map<std::string, EngineQuality> q;
  add_game(q, *j);
  EXPECT_EQ(q["ada"].moves, 2);  // the opening ply is nobody's choice
  EXPECT_EQ(q["ada"].perfect, 2);
  EXPECT_EQ(q["basil"].blunders, 1);
  EXPECT_DOUBLE_EQ(q["basil"].mean_loss(), 4.0);
  // The same blunder in a game basil did not lose is not the move that lost it: a draw, a game ada lost,
  // a game basil lost by forfeit.
  g.result = Outcome::Draw;
  EXPECT_FALSE(judge_game(g, a)->losing_ply);
  g.result = Outcome::SecondWins;
  EXPECT_FALSE(judge_game(g, a)->losing_ply);
  g.result = Outcome::FirstWins;
  g.forfeit = Forfeit{"basil", Termination::Time, "no bestmove"};
  EXPECT_FALSE(judge_game(g, a)->losing_ply);
}

TEST(Quality, AnAnalysisOfAnotherLengthDoesNotFit) {
  const Variant v = *parse_variant("pits=6 seeds=4");
  const GameRecord g = game_of(v, {Move{3}, Move{1}}, 0);
  EXPECT_FALSE(judge_game(g, GameAnalysis{"r1-g1", {0}, {0}}));
}

}  // namespace
}  // namespace kalah::analysis

// ---- The values themselves ------------------------------------------------------------------------

namespace kalah::analysis {
namespace {

using Minimax = test::PlainMinimax;

GameRecord random_game(const Variant& v, std::uint32_t seed, int opening_plies = 0) {
  std::mt19937 rng(seed);
  GameRecord g = test::random_game(v, fmt::format("g{}", seed), "ada", "basil", [&](int n) {
    return std::uniform_int_distribution<std::size_t>(0, static_cast<std::size_t>(n) - 1)(rng);
  });
  const auto opening = static_cast<std::ptrdiff_t>(std::min<std::size_t>(opening_plies, g.moves.size()));
  g.opening.assign(g.moves.begin(), g.moves.begin() + opening);
  g.move_info.erase(g.move_info.begin(), g.move_info.begin() + opening);  // one per move after the opening
  return g;
}

AnalyserOptions exact_options() {
  AnalyserOptions o;
  o.budget = std::chrono::milliseconds(60'000);  // never reached on these boards
  o.hash_mb = 16;
  o.database_mb = 64;
  return o;  // no cache folder: the databases are built in memory
}

// Every rule key the solver supports, on boards small enough for plain minimax.
const char* const kRuleSets[] = {
    "pits=3 seeds=2",
    "pits=3 seeds=3 capture=empty",
    "pits=4 seeds=2 ending=no-move",
    "pits=3 seeds=3 remainder=none",
    "pits=3 seeds=3 majority=on",
    "pits=3 seeds=2 pie=on",
    "pits=4 seeds=2 capture=empty ending=no-move remainder=none",
};

TEST(Analyser, EveryPlyOfRandomGamesEqualsPlainMinimaxUnderEveryRuleKey) {
  for (const char* text : kRuleSets) {
    const Variant v = *parse_variant(text);
    AnalyserOptions options = exact_options();
    Databases databases(options);
    Analyser analyser(options, databases);
    Minimax minimax(v);
    for (std::uint32_t seed = 1; seed <= 12; ++seed) {
      const GameRecord g = random_game(v, seed);
      const GameAnalysis a = analyser.analyse(g);
      ASSERT_EQ(a.value.size(), g.moves.size());
      Position p = start_position(v);
      for (std::size_t i = 0; i < g.moves.size(); ++i) {
        const int expected = minimax.margin(p);
        const int kept = minimax.move_margin(p, g.moves[i]);
        const Position next = after(v, p, g.moves[i]);
        ASSERT_EQ(a.value[i], expected) << text << " game " << seed << " ply " << i << " " << to_notation(v, p);
        ASSERT_EQ(a.loss[i], expected - kept) << text << " game " << seed << " ply " << i;
        p = next;
      }
    }
  }
}

TEST(Analyser, PositionsAreCountedByTheGamesThatPassThroughThem) {
  const Variant v = *parse_variant("pits=6 seeds=4");
  SharedPositions shared;
  GameRecord a = game_of(v, {Move{3}, Move{1}, Move{2}, Move{6}}, 0);
  GameRecord b = game_of(v, {Move{3}, Move{1}, Move{1}}, 0);
  shared.add(a);
  shared.add(a);  // the other colour of a pair: the same opening again
  shared.add(b);
  Position p = start_position(v);
  EXPECT_EQ(shared.games_through(v, p), 3);
  p = after(v, after(v, p, Move{3}), Move{1});
  EXPECT_EQ(shared.games_through(v, p), 3);  // the position before the third ply
  EXPECT_EQ(shared.games_through(v, after(v, p, Move{2})), 2);
  EXPECT_EQ(shared.games_through(v, after(v, p, Move{1})), 0);  // b's last position is after its last ply
  EXPECT_EQ(shared.games_through(*parse_variant("pits=6 seeds=5"), start_position(v)), 0);
}

TEST(Analyser, HandCheckedPositions) {
  const Variant v = *parse_variant("pits=6 seeds=4");
  AnalyserOptions options = exact_options();
  options.database_mb = 1;  // the search proves these few seeds at once
  Databases databases(options);
  Analyser analyser(options, databases);
  auto value = [&](const char* notation) { return analyser.value(v, *parse_notation(v, notation)); };
  // The game is over: the stores decide (South 20, North 28: North wins by 8), from the view of the
  // side the position names.
  EXPECT_EQ(value("0,0,0,0,0,0/20/0,0,0,0,0,0/28 s"), -8);
  // South to move, one seed in pit 6: it lands in the store, South's side is empty, North's 3 seeds
  // go to North: 11 - 3.
  EXPECT_EQ(value("0,0,0,0,0,1/10/0,0,3,0,0,0/0 s"), 11 - 3);
  // A capture: South's pit 1 seed into the empty pit 2 takes North's 5 opposite (North's pit 5), and
  // South's side is then empty: South 1 + 5 = 6 against North's 1 left in pit 1.
  EXPECT_EQ(value("1,0,0,0,0,0/0/1,0,0,0,5,0/0 s"), 6 - 1);
}

TEST(Analyser, ABudgetTooSmallLeavesNullsAndOnlyThere) {
  const Variant v = *parse_variant("pits=6 seeds=6");
  AnalyserOptions options = exact_options();
  options.budget = std::chrono::milliseconds(1);
  options.database_mb = 1;  // a few seeds only: the start of Kalah(6,6) cannot be proved in 1 ms
  Databases databases(options);
  Analyser analyser(options, databases);
  const GameRecord g = random_game(v, 7);
  GameCost cost;
  const GameAnalysis a = analyser.analyse(g, &cost);
  EXPECT_FALSE(a.value.front());
  EXPECT_FALSE(a.loss.front());
  // The last plies are few seeds from the end: proved (the finished game's own value at least).
  EXPECT_TRUE(a.value.back());
  EXPECT_LT(cost.proved, cost.positions);
  for (std::size_t i = 0; i < a.loss.size(); ++i) {
    if (a.loss[i]) {
      EXPECT_TRUE(a.value[i]) << i;
    }
  }
}

TEST(Analyser, DatabaseOnlyValuesWhatTheDatabaseHolds) {
  const Variant v = *parse_variant("pits=6 seeds=4");
  AnalyserOptions options = exact_options();
  options.database_only = true;
  options.database_mb = 1;
  Databases databases(options);
  Analyser analyser(options, databases);
  const GameRecord g = random_game(v, 3);
  const GameAnalysis a = analyser.analyse(g);
  EXPECT_FALSE(a.value.front());  // 48 seeds in the pits
  EXPECT_TRUE(a.value.back());
}

// A constructed game: South wins a won position away. Kalah(3,2) is small enough to search by hand
// with the minimax above: the game's plies are chosen so that the one marked loses a proven win.
TEST(Analyser, TheMoveThatLostIsTheFirstThatTurnsAWinOrDrawIntoALoss) {
  const Variant v = *parse_variant("pits=3 seeds=2");
  Minimax minimax(v);
  // In seeded random games, the judgement names the first ply of the game's loser that threw a win or a
  // draw away, as plain minimax sees it.
  AnalyserOptions options = exact_options();
  Databases databases(options);
  Analyser analyser(options, databases);
  int found = 0;
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    const GameRecord g = random_game(v, seed);
    Expected<GameJudgement> j = judge_game(g, analyser.analyse(g));
    ASSERT_TRUE(j) << j.error();
    std::optional<int> first;
    const bool decided = g.result == Outcome::FirstWins || g.result == Outcome::SecondWins;
    const Seat loser = g.result == Outcome::FirstWins ? Seat::Second : Seat::First;
    Position p = start_position(v);
    for (std::size_t i = 0; i < g.moves.size() && !first; ++i) {
      const Position next = after(v, p, g.moves[i]);
      const int before = minimax.margin(p);
      const int kept = minimax.move_margin(p, g.moves[i]);
      if (decided && player_to_move(p) == loser && before >= 0 && kept < 0) first = static_cast<int>(i);
      p = next;
    }
    EXPECT_EQ(j->losing_ply, first) << "game " << seed;
    if (first) ++found;
  }
  EXPECT_GT(found, 10);  // random play throws games away often
}

}  // namespace
}  // namespace kalah::analysis

// ---- A results folder -----------------------------------------------------------------------------

namespace kalah::analysis {
namespace {

class AnalyseFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    journal::TournamentMeta meta;
    meta.fingerprint = "analysis-test";
    meta.engines = {"ada", "basil"};
    Expected<journal::Journal> opened = journal::Journal::open(dir_.path(), meta, false);
    ASSERT_TRUE(opened) << opened.error();
    journal::Journal j = std::move(opened).value();  // closed (and unlocked) at the end of SetUp
    const Variant v = *parse_variant("pits=4 seeds=3");
    for (std::uint32_t seed = 1; seed <= 30; ++seed) {
      GameRecord g = random_game(v, seed, 2);
      g.id = fmt::format("r1-g{}", seed);
      ASSERT_TRUE(j.append(g));
    }
  }
  AnalyseOptions options() const {
    AnalyseOptions o;
    o.analyser = exact_options();
    o.threads = 2;
    return o;
  }
  // The file's lines by id (the order depends on which thread finished first).
  std::map<std::string, std::string> lines() const {
    std::map<std::string, std::string> out;
    std::istringstream in(test::read_file(file()));
    for (std::string line; std::getline(in, line);) out[from_line(line)->id] = line;
    return out;
  }
  std::filesystem::path file() const { return dir_.path() / kAnalysisFile; }
  system::TempFolder dir_{"kalah-test"};
};

TEST_F(AnalyseFolder, EveryGameGetsOneLineAndTheJournalIsUntouched) {
  const std::string journal_before = test::read_file(dir_.path() / "games.jsonl");
  Expected<AnalyseSummary> s = analyse_folder(dir_.path(), options());
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(s->games, 30u);
  EXPECT_EQ(s->analysed, 30u);
  EXPECT_EQ(s->proved, s->positions);
  EXPECT_EQ(lines().size(), 30u);
  EXPECT_EQ(test::read_file(dir_.path() / "games.jsonl"), journal_before);
}

TEST_F(AnalyseFolder, AResumedAnalysisEqualsAFreshOne) {
  ASSERT_TRUE(analyse_folder(dir_.path(), options()));
  const std::map<std::string, std::string> fresh = lines();
  // As a kill leaves it: the first 11 lines whole, the 12th cut in the middle.
  const std::string text = test::read_file(file());
  std::size_t cut = 0;
  for (int i = 0; i < 11; ++i) cut = text.find('\n', cut) + 1;
  std::ofstream(file(), std::ios::trunc) << text.substr(0, cut + 20);
  Expected<AnalyseSummary> s = analyse_folder(dir_.path(), options());
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(s->already, 11u);
  EXPECT_EQ(s->analysed, 19u);
  ASSERT_FALSE(s->notes.empty());
  EXPECT_NE(s->notes.front().find("cut off an unfinished last line"), std::string::npos) << s->notes.front();
  EXPECT_EQ(lines(), fresh);
  // Nothing left to do: a third run changes nothing.
  const std::string whole = test::read_file(file());
  s = analyse_folder(dir_.path(), options());
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(s->analysed, 0u);
  EXPECT_EQ(test::read_file(file()), whole);
}

TEST_F(AnalyseFolder, AStopFinishesNoFurtherGameAndTheNextRunResumes) {
  std::atomic<bool> stop{false};
  AnalyseOptions o = options();
  o.stop = &stop;
  o.analyser.stop = &stop;
  o.progress = [&](const AnalyseProgress& p) {
    if (p.games_done == 5) stop = true;
  };
  Expected<AnalyseSummary> s = analyse_folder(dir_.path(), o);
  ASSERT_TRUE(s) << s.error();
  EXPECT_TRUE(s->stopped);
  EXPECT_LT(s->analysed, 30u);
  EXPECT_EQ(lines().size(), s->analysed);
  s = analyse_folder(dir_.path(), options());
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(lines().size(), 30u);
}

TEST_F(AnalyseFolder, APlantedLinkIsNeverWrittenThrough) {
  const std::filesystem::path victim = dir_.path() / "victim";
  std::ofstream(victim) << "precious\n";
  std::filesystem::create_symlink(victim, file());
  EXPECT_FALSE(analyse_folder(dir_.path(), options()));
  EXPECT_EQ(test::read_file(victim), "precious\n");
}

}  // namespace
}  // namespace kalah::analysis

namespace kalah::analysis {
namespace {

TEST_F(AnalyseFolder, TheCheckAcceptsAnHonestAnalysis) {
  ASSERT_TRUE(analyse_folder(dir_.path(), options()));
  Expected<AnalysisCheck> c = check_analysis(dir_.path());
  ASSERT_TRUE(c) << c.error();
  EXPECT_TRUE(c->present);
  EXPECT_EQ(c->games, 30u);
  EXPECT_GT(c->database_checked, 0u);
}

TEST_F(AnalyseFolder, TheCheckFindsAFigureChangedByHand) {
  ASSERT_TRUE(analyse_folder(dir_.path(), options()));
  const std::map<std::string, std::string> before = lines();
  // Each way of tampering: a loss that does not follow, a value the database contradicts (with the loss
  // moved along so that the line stays consistent), a line for a game that is not there, a cut line.
  auto rewrite = [&](const std::function<void(GameAnalysis&)>& change, const std::string& extra = "") {
    std::string text;
    for (const auto& [id, line] : before) {
      GameAnalysis a = *from_line(line);
      if (id == "r1-g7") change(a);
      text += to_line(a);
    }
    std::ofstream(file(), std::ios::trunc) << text << extra;
    Expected<AnalysisCheck> c = check_analysis(dir_.path());
    return c ? std::string("accepted") : c.error();
  };
  EXPECT_NE(rewrite([](GameAnalysis& a) { a.loss[3] = *a.loss[3] + 2; }).find("game r1-g7, ply 4: loss"),
            std::string::npos);
  EXPECT_NE(rewrite([](GameAnalysis& a) {
              const std::size_t last = a.value.size() - 1;
              *a.value[last] += 2;
              *a.loss[last] += 2;
              *a.loss[last - 1] = *a.loss[last - 1];  // left as it was: the ply before now disagrees
            }).find("game r1-g7"),
            std::string::npos);
  EXPECT_NE(rewrite([](GameAnalysis&) {}, to_line(GameAnalysis{"r9-g9", {0}, {0}}))
                .find("game 'r9-g9' is not in the journal"),
            std::string::npos);
  EXPECT_NE(rewrite([](GameAnalysis&) {}, "{\"id\":\"r1").find("unfinished last line"), std::string::npos);
  EXPECT_EQ(rewrite([](GameAnalysis&) {}), "accepted");
}

TEST(AnalysisCheck, NoFileIsNothingToCheck) {
  system::TempFolder dir{"kalah-test"};
  journal::TournamentMeta meta;
  meta.fingerprint = "x";
  meta.engines = {"a", "b"};
  ASSERT_TRUE(journal::Journal::open(dir.path(), meta, false));
  Expected<AnalysisCheck> c = check_analysis(dir.path());
  ASSERT_TRUE(c) << c.error();
  EXPECT_FALSE(c->present);
}

}  // namespace
}  // namespace kalah::analysis
