// analysis.jsonl (arena/analysis): lines written and read back, every way a line can be wrong, a
// file cut by a kill, and what a game's analysis says about its players.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "arena/analysis/analysis_file.h"
#include "arena/analysis/quality.h"
#include "temp_dir.h"

namespace kalah::analysis {
namespace {

GameAnalysis sample() { return {"r1-g3", {4, 4, std::nullopt, -2}, {0, 6, std::nullopt, 0}}; }

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
      {"{\"id\":\"a/../b\",\"value\":[1],\"loss\":[0]}", "only letters"},
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
  test::TempDir dir;
  Expected<AnalysisFile> f = read_analysis(dir.path() / kAnalysisFile);
  ASSERT_TRUE(f) << f.error();
  EXPECT_TRUE(f->games.empty());
  EXPECT_FALSE(f->torn_at);
}

TEST(AnalysisFile, ALineCutByAKillIsReportedWithWhereItStarts) {
  test::TempDir dir;
  const std::filesystem::path file = dir.path() / kAnalysisFile;
  GameAnalysis second = sample();
  second.id = "r1-g4";
  const std::string whole = to_line(sample()) + "\n" + to_line(second) + to_line(sample());
  std::ofstream(file) << whole << "{\"id\":\"r1-g5\",\"val";
  Expected<AnalysisFile> f = read_analysis(file);
  ASSERT_TRUE(f) << f.error();
  EXPECT_EQ(f->games.size(), 2u);
  EXPECT_EQ(f->duplicates, 1u);
  ASSERT_TRUE(f->torn_at);
  EXPECT_EQ(*f->torn_at, whole.size());
  EXPECT_NE(f->torn_reason.find("analysis.jsonl:5:"), std::string::npos) << f->torn_reason;
}

TEST(AnalysisFile, ABadLineBeforeTheLastIsAnError) {
  test::TempDir dir;
  const std::filesystem::path file = dir.path() / kAnalysisFile;
  std::ofstream(file) << to_line(sample()) << "garbage\n" << to_line(sample());
  Expected<AnalysisFile> f = read_analysis(file);
  ASSERT_FALSE(f);
  EXPECT_NE(f.error().find("analysis.jsonl:2: not JSON"), std::string::npos) << f.error();
}

TEST(AnalysisFile, ALinkIsNeverFollowed) {
  test::TempDir dir;
  std::ofstream(dir.path() / "elsewhere") << to_line(sample());
  std::filesystem::create_symlink(dir.path() / "elsewhere", dir.path() / kAnalysisFile);
  EXPECT_FALSE(read_analysis(dir.path() / kAnalysisFile));
}

TEST(AnalysisFile, ALineBeyondTheBoundIsRefusedWithoutReadingOn) {
  test::TempDir dir;
  const std::filesystem::path file = dir.path() / kAnalysisFile;
  std::ofstream(file) << std::string(kMaxLineBytes + 10, ' ');
  Expected<AnalysisFile> f = read_analysis(file);
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
  const GameRecord g = game_of(v, {Move{3}, Move{1}, Move{2}, Move{6}}, 1);
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
}

TEST(Quality, AnAnalysisOfAnotherLengthDoesNotFit) {
  const Variant v = *parse_variant("pits=6 seeds=4");
  const GameRecord g = game_of(v, {Move{3}, Move{1}}, 0);
  EXPECT_FALSE(judge_game(g, GameAnalysis{"r1-g1", {0}, {0}}));
}

}  // namespace
}  // namespace kalah::analysis
