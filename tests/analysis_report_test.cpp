// What an analysis (analysis.jsonl) adds to the reports of a results folder: the engines' move quality in
// the standings of every format, each analysed game's losses and the move that lost it in report.html's
// viewer, each engine's worst moves on its page; the warnings for lines that fit no game; and nothing at
// all without an analysis.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <fmt/format.h>

#include "arena/journal/journal.h"
#include "arena/rating/standings.h"
#include "arena/report/bot_pages.h"
#include "arena/report/move_quality.h"
#include "arena/report/reporters.h"
#include "arena/report/reports.h"
#include "referee/record/record_json.h"
#include "referee/rules/position.h"
#include "referee/system/temp_folder.h"
#include "tests/files.h"

namespace kalah::report {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// Kalah(3,2): short games whose plies are easy to follow. `moves` are pits; the movers come from the rules.
GameRecord game(const std::string& id, const std::string& south, const std::string& north, std::vector<int> moves,
                std::size_t opening = 0) {
  GameRecord g;
  g.id = id;
  g.round = 1;
  g.south = south;
  g.north = north;
  g.variant.pits = 3;
  g.variant.seeds = 2;
  Position p = start_position(g.variant);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Move m = Move::at(moves[i]);
    EXPECT_TRUE(is_legal(g.variant, p, m)) << id << " ply " << i + 1;
    g.moves.push_back(m);
    if (i < opening)
      g.opening.push_back(m);
    else
      g.move_info.emplace_back().time_ms = 1;
    apply(g.variant, p, m);
  }
  EXPECT_TRUE(p.over) << id;
  g.store_south = store(g.variant, p, Side::South);
  g.store_north = store(g.variant, p, Side::North);
  g.result = outcome(g.variant, p);
  g.started_at = "2026-12-02T12:00:00Z";
  return g;
}

// Four games. The sides that move (S/N) come from the rules, extra turns included:
//   g1 alpha-beta  S N S N S N  (its first ply a forced opening), 0-1
//   g2 beta-alpha  S N S N S N S N, a draw
//   g3 alpha-gamma S S N S S S, 1-0   (its analysis line is torn: not analysed)
//   g4 gamma-beta  S N N S N N, 0-1   (its analysis line has 3 plies, not 6: ignored)
std::vector<GameRecord> four_games() {
  return {game("g1", "alpha", "beta", {1, 1, 3, 2, 1, 1}, 1), game("g2", "beta", "alpha", {1, 1, 2, 2, 1, 3, 1, 1}),
          game("g3", "alpha", "gamma", {2, 3, 2, 1, 3, 2}), game("g4", "gamma", "beta", {1, 2, 1, 3, 2, 1})};
}

// By hand, over the moves outside the opening (value/loss per ply; the values are made up, only shown):
//   g1: alpha plies 3 (loss 2) and 5 (loss 6, a blunder; value 0 before, -6 after: the move that lost),
//       beta plies 2, 4, 6 (loss 0 each)
//   g2: beta plies 1 (0), 3 (4, a blunder), 5 (not proved), 7 (1); alpha plies 2, 4, 6 (0 each), 8 (not proved)
//   g3: alpha 5 moves, gamma 1; g4: gamma 2 moves, beta 4; none judged
// alpha: 11 moves, 5 judged, 3 perfect, 1 blunder, loss 8: mean 1.60, 60% perfect
// beta:  11 moves, 6 judged, 4 perfect, 1 blunder, loss 5: mean 0.83, 67% perfect
// gamma:  3 moves, 0 judged
const char* const kAnalysis =
    "{\"id\":\"g1\",\"value\":[0,0,2,0,0,6],\"loss\":[0,0,2,0,6,0]}\n"
    "{\"id\":\"g2\",\"value\":[0,0,4,-4,null,0,1,null],\"loss\":[0,0,4,0,null,0,1,null]}\n"
    "{\"id\":\"g4\",\"value\":[1,2,3],\"loss\":[0,0,0]}\n"
    "{\"id\":\"g9\",\"value\":[1],\"loss\":[0]}\n"
    "{\"id\":\"g3\",\"value\":[1,2";  // torn: the analysis was stopped while writing it

void write(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

void write_journal(const fs::path& dir, const std::vector<GameRecord>& games) {
  std::string lines;
  for (const GameRecord& g : games) lines += to_json_line(g) + "\n";
  write(dir / "games.jsonl", lines);
}

// `arena report DIR`'s input: the folder as journal::read_results finds it.
Expected<ReportSummary> report_folder(const fs::path& dir) {
  Expected<journal::StoredResults> stored = journal::read_results(dir);
  if (!stored) return Error{stored.error()};
  ReportInput input;
  input.event = "t";
  add_results(input, *stored);
  return write_reports(dir, input);
}

// The lines of `text` that contain `part`.
std::vector<std::string> lines_with(const std::string& text, const std::string& part) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (begin < text.size()) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    const std::string line = text.substr(begin, end - begin);
    if (line.find(part) != std::string::npos) out.push_back(line);
    begin = end + 1;
  }
  return out;
}

// The games report.html embeds for its viewer.
json::array embedded_games(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"games-data\">";
  const std::size_t begin = html.find(open);
  if (begin == std::string::npos) return {};
  const std::size_t end = html.find("</script>", begin);
  return json::parse(html.substr(begin + open.size(), end - begin - open.size())).as_array();
}

const json::object& embedded(const json::array& games, const std::string& id) {
  for (const json::value& g : games)
    if (g.as_object().at("id").as_string() == id) return g.as_object();
  throw std::runtime_error("no game " + id);
}

class AnalysisReport : public ::testing::Test {
 protected:
  void SetUp() override {
    write_journal(dir_.path(), four_games());
    write(dir_.path() / "analysis.jsonl", kAnalysis);
  }
  system::TempFolder dir_{"kalah-analysis-report"};
};

TEST(MoveQuality, JudgesTheMovesOfAnalysedGamesAndCountsEveryMove) {
  std::map<std::string, AnalysisSource> sources;
  AnalysisSource source{"a/analysis.jsonl", {}};
  source.games["g1"] = {"g1", {0, 0, 2, 0, 0, 6}, {0, 0, 2, 0, 6, 0}};
  source.games["g4"] = {"g4", {1, 2, 3}, {0, 0, 0}};
  source.games["g9"] = {"g9", {1}, {0}};
  sources.emplace("", std::move(source));
  MoveQualityBuilder builder(std::move(sources));
  const std::vector<GameRecord> games = four_games();
  const std::optional<analysis::GameJudgement> g1 = builder.add(games[0], "");
  ASSERT_TRUE(g1);
  EXPECT_EQ(g1->losing_ply, 4);  // 0-based: ply 5
  EXPECT_EQ(g1->plies[4].mover, "alpha");
  EXPECT_FALSE(builder.add(games[2], ""));
  EXPECT_FALSE(builder.add(games[3], ""));
  std::vector<std::string> warnings;
  const MoveQuality q = builder.finish(warnings);
  EXPECT_EQ(q.games, 1u);
  EXPECT_EQ(warnings, (std::vector<std::string>{
                          "a/analysis.jsonl: game g4: the analysis has 3 plies but the game 6; its analysis line is "
                          "ignored",
                          "a/analysis.jsonl: game 'g9' is in no journal read; its analysis line is ignored"}));
  // alpha: plies 3 and 5 of g1 judged, 5 moves of g3 not.
  const analysis::EngineQuality& alpha = q.engines.at("alpha");
  EXPECT_EQ(alpha.moves, 7);
  EXPECT_EQ(alpha.judged, 2);
  EXPECT_EQ(alpha.blunders, 1);
  EXPECT_EQ(mean_loss_text(alpha), "4.00");
  EXPECT_EQ(perfect_text(alpha), "0%");
  EXPECT_EQ(analysed_text(alpha), "2/7");
  EXPECT_EQ(mean_loss_text(q.engines.at("gamma")), "–");
  EXPECT_EQ(blunder_rule(), "blunder: a move that loses ≥ 4 (store difference)");
}

// With KALAH_ANALYSIS_EXAMPLES=DIR the folder's journal and analysis are also written to DIR, for
// `arena report DIR` (docs/FORMATS.md, "Move quality", quotes its output).
TEST_F(AnalysisReport, TheStandingsOfEveryFormatHoldTheExactFigures) {
  if (const char* examples = std::getenv("KALAH_ANALYSIS_EXAMPLES")) {
    fs::create_directories(examples);
    for (const char* file : {"games.jsonl", "analysis.jsonl"})
      fs::copy_file(dir_.path() / file, fs::path(examples) / file, fs::copy_options::overwrite_existing);
  }
  const Expected<ReportSummary> written = report_folder(dir_.path());
  ASSERT_TRUE(written) << written.error();
  ASSERT_TRUE(written->quality);
  EXPECT_EQ(written->quality->games, 2u);

  // The terminal table of `arena report`.
  const std::string table = format_standings_table(written->standings, &*written->quality);
  EXPECT_NE(table.find("Move quality from analysis.jsonl (2 games analysed; blunder: a move that loses ≥ 4 (store "
                       "difference)), ranked by mean loss:\n"
                       "Rank  Engine  Mean loss  Perfect  Blunders       Analysed\n"),
            std::string::npos)
      << table;
  EXPECT_EQ(lines_with(table, "  beta  ").back().substr(4), "  beta         0.83      67%         1           6/11");
  EXPECT_EQ(lines_with(table, "  alpha  ").back().substr(4), "  alpha        1.60      60%         1           5/11");
  EXPECT_EQ(lines_with(table, "  gamma  ").back().substr(4), "  gamma           -        -         0            0/3");

  const std::string md = test::read_file(dir_.path() / "standings.md");
  EXPECT_NE(md.find("## Move quality\n"), std::string::npos);
  EXPECT_NE(md.find("blunder: a move that loses ≥ 4 (store difference)"), std::string::npos);
  EXPECT_EQ(lines_with(md, "| beta | 0.83").size(), 1u) << md;
  EXPECT_NE(md.find(" | beta | 0.83 | 67% | 1 | 6/11 |\n"), std::string::npos) << md;
  EXPECT_NE(md.find(" | alpha | 1.60 | 60% | 1 | 5/11 |\n"), std::string::npos) << md;
  EXPECT_NE(md.find(" | gamma | – | – | 0 | 0/3 |\n"), std::string::npos) << md;

  const std::string csv = test::read_file(dir_.path() / "standings.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "rank,name,elo,ci95,games,points,score_pct,wins,draws,losses,forfeits,forfeit_time,forfeit_crash,"
            "forfeit_illegal,forfeit_protocol,forfeit_startup,forfeit_file_size,forfeit_output,forfeit_memory,"
            "los_next,diff_next,diff_next_ci95,rank_low,rank_high,tie_group,mean_loss,perfect_pct,blunders_loss_ge_4,"
            "judged_moves,moves")
      << csv;
  EXPECT_TRUE(lines_with(csv, ",beta,").at(0).ends_with(",0.83,66.7,1,6,11")) << csv;
  EXPECT_TRUE(lines_with(csv, ",alpha,").at(0).ends_with(",1.60,60.0,1,5,11"));
  EXPECT_TRUE(lines_with(csv, ",gamma,").at(0).ends_with(",,,0,0,3"));
  // Without the new columns each row is the one without an analysis.
  const std::string plain = standings_csv(written->standings);
  std::string cut;
  for (std::size_t begin = 0; begin < csv.size();) {
    const std::size_t end = csv.find('\n', begin);
    std::string line = csv.substr(begin, end - begin);
    for (int column = 0; column < 5; ++column) line.erase(line.rfind(','));
    cut += line + "\n";
    begin = end + 1;
  }
  EXPECT_EQ(cut, plain);

  const json::value standings = json::parse(test::read_file(dir_.path() / "standings.json"));
  const json::object& about = standings.at("analysis").as_object();
  EXPECT_EQ(about.at("file").as_string(), "analysis.jsonl");
  EXPECT_EQ(about.at("games").as_int64(), 2);
  EXPECT_EQ(about.at("unit").as_string(), "store difference (a seed that changes hands counts 2)");
  EXPECT_EQ(about.at("blunder_loss").as_int64(), 4);
  EXPECT_EQ(about.at("blunder").as_string(), "blunder: a move that loses ≥ 4 (store difference)");
  // moves, judged, perfect, blunders, mean_loss, perfect_pct (-1: null)
  using Row = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, double, double>;
  std::map<std::string, Row> by_engine;
  for (const json::value& e : standings.at("engines").as_array()) {
    const json::object& a = e.at("analysis").as_object();
    auto number = [&](const char* key) { return a.at(key).is_null() ? -1.0 : a.at(key).to_number<double>(); };
    by_engine[std::string(e.at("name").as_string())] =
        Row{a.at("moves").as_int64(),    a.at("judged").as_int64(), a.at("perfect").as_int64(),
            a.at("blunders").as_int64(), number("mean_loss"),       number("perfect_pct")};
  }
  EXPECT_EQ(by_engine["alpha"], (Row{11, 5, 3, 1, 1.6, 60}));
  EXPECT_EQ(by_engine["beta"], (Row{11, 6, 4, 1, 0.83, 66.67}));
  EXPECT_EQ(by_engine["gamma"], (Row{3, 0, 0, 0, -1, -1}));
  const std::string json_text = test::read_file(dir_.path() / "standings.json");
  EXPECT_NE(json_text.find("\"mean_loss\": 1.6,"), std::string::npos) << "numbers as people write them";

  const std::string html = test::read_file(dir_.path() / "report.html");
  EXPECT_NE(html.find("<h2 id=\"move-quality\">Move quality</h2>"), std::string::npos);
  EXPECT_NE(html.find("blunder: a move that loses ≥ 4 (store difference)"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"name\">beta</td><td>0.83</td><td>67%</td><td>1</td><td>6/11</td></tr>"),
            std::string::npos);
}

// The move-quality tables rank by mean loss, not by the standings' rank, and say so: here the engine last in the
// standings plays best, and two engines with the same mean loss share a rank.
TEST(MoveQualityTables, RankByMeanLossAndSaySo) {
  rating::Standings s;
  for (const char* name : {"first", "second", "third", "fourth"}) {
    rating::EngineStanding& e = s.engines.emplace_back();
    e.name = name;
    e.rank = static_cast<int>(s.engines.size());
  }
  MoveQuality q;
  q.games = 3;
  q.engines["first"] = {.moves = 10, .judged = 10, .perfect = 5, .blunders = 2, .total_loss = 20};  // 2.00
  q.engines["second"] = {.moves = 4, .judged = 0};                                                  // none judged
  q.engines["third"] = {.moves = 10, .judged = 5, .perfect = 4, .blunders = 1, .total_loss = 10};   // 2.00
  q.engines["fourth"] = {.moves = 10, .judged = 10, .perfect = 9, .blunders = 0, .total_loss = 1};  // 0.10

  const std::string text = move_quality_text(s, q);
  EXPECT_NE(text.find("), ranked by mean loss:\n"), std::string::npos) << text;
  const std::vector<std::string> rows = {lines_with(text, " fourth ").at(0), lines_with(text, " first ").at(0),
                                         lines_with(text, " third ").at(0), lines_with(text, " second ").at(0)};
  EXPECT_LT(text.find(rows[0]), text.find(rows[1])) << text;
  EXPECT_LT(text.find(rows[1]), text.find(rows[2])) << text;
  EXPECT_LT(text.find(rows[2]), text.find(rows[3])) << text;
  EXPECT_TRUE(rows[0].starts_with("   1  fourth ")) << text;
  EXPECT_TRUE(rows[1].starts_with("  2=  first ")) << text;
  EXPECT_TRUE(rows[2].starts_with("  2=  third ")) << text;
  EXPECT_TRUE(rows[3].starts_with("   -  second ")) << text;

  const std::string md = move_quality_markdown(s, q);
  EXPECT_NE(md.find("Ranked by mean loss, the least first, not in the standings' order"), std::string::npos) << md;
  EXPECT_NE(md.find("|---:|:---|---:|---:|---:|---:|\n| 1 | fourth | 0.10 | 90% | 0 | 10/10 |\n"
                    "| 2= | first | 2.00 | 50% | 2 | 10/10 |\n| 2= | third | 2.00 | 80% | 1 | 5/10 |\n"
                    "| – | second | – | – | 0 | 0/4 |\n"),
            std::string::npos)
      << md;
  const std::string html = move_quality_html(s, q);
  EXPECT_NE(html.find("Ranked by mean loss, the least first, not in the standings&#39;"), std::string::npos) << html;
  EXPECT_NE(html.find("<tbody>\n<tr><td>1</td><td class=\"name\">fourth</td>"), std::string::npos) << html;
}

TEST_F(AnalysisReport, ALineThatFitsNoGameAndATornLastLineAreWarnings) {
  const Expected<ReportSummary> written = report_folder(dir_.path());
  ASSERT_TRUE(written) << written.error();
  const std::string file = (dir_.path() / "analysis.jsonl").string();
  ASSERT_EQ(written->warnings.size(), 3u);
  EXPECT_TRUE(written->warnings[0].starts_with(file + ":5: not JSON")) << written->warnings[0];
  EXPECT_TRUE(written->warnings[0].ends_with(": an incomplete last line, ignored (an analysis still being written?)"))
      << written->warnings[0];
  EXPECT_EQ(written->warnings[1],
            file + ": game g4: the analysis has 3 plies but the game 6; its analysis line is ignored");
  EXPECT_EQ(written->warnings[2], file + ": game 'g9' is in no journal read; its analysis line is ignored");
}

TEST_F(AnalysisReport, AnAnalysisThatCannotBeReadIsAWarningAndShowsNothing) {
  fs::remove(dir_.path() / "analysis.jsonl");
  write(dir_.path() / "elsewhere.jsonl", kAnalysis);
  fs::create_symlink(dir_.path() / "elsewhere.jsonl", dir_.path() / "analysis.jsonl");
  const Expected<ReportSummary> written = report_folder(dir_.path());
  ASSERT_TRUE(written) << written.error();
  EXPECT_FALSE(written->quality);
  ASSERT_EQ(written->warnings.size(), 1u);
  EXPECT_NE(written->warnings[0].find("analysis.jsonl: not read, so the reports show no move quality from it"),
            std::string::npos)
      << written->warnings[0];
  EXPECT_EQ(test::read_file(dir_.path() / "standings.md").find("Move quality"), std::string::npos);
}

TEST_F(AnalysisReport, WithoutAnAnalysisEveryReportIsWhatItWas) {
  fs::remove(dir_.path() / "analysis.jsonl");
  const Expected<ReportSummary> written = report_folder(dir_.path());
  ASSERT_TRUE(written) << written.error();
  EXPECT_FALSE(written->quality);
  EXPECT_EQ(written->warnings, std::vector<std::string>{});
  const rating::Standings s = rating::compute_standings(four_games(), {}, rating::Intervals::With);
  EXPECT_EQ(test::read_file(dir_.path() / "standings.csv"), standings_csv(s));
  EXPECT_EQ(test::read_file(dir_.path() / "standings.json"), standings_json(s, "t"));
  for (const char* name : {"standings.md", "standings.json", "standings.csv", "report.html", "bots/alpha.html"}) {
    const std::string text = test::read_file(dir_.path() / name);
    EXPECT_FALSE(text.empty()) << name;
    EXPECT_EQ(text.find("Move quality"), std::string::npos) << name;
    EXPECT_EQ(text.find("blunder"), std::string::npos) << name;
    EXPECT_EQ(text.find("\"loss\""), std::string::npos) << name;
  }
  EXPECT_EQ(format_standings_table(written->standings), format_standings_table(s));
}
TEST_F(AnalysisReport, TheViewerEmbedsEachPlysLossAndTheMoveThatLost) {
  const Expected<ReportSummary> written = report_folder(dir_.path());
  ASSERT_TRUE(written) << written.error();
  const std::string html = test::read_file(dir_.path() / "report.html");
  const json::array games = embedded_games(html);
  ASSERT_EQ(games.size(), 4u);
  const json::object& g1 = embedded(games, "g1");
  EXPECT_EQ(json::serialize(g1.at("loss")), "[0,0,2,0,6,0]");
  EXPECT_EQ(json::serialize(g1.at("value")), "[0,0,2,0,0,6]");
  EXPECT_EQ(g1.at("losing").as_int64(), 5);  // 1-based, as the viewer numbers plies
  EXPECT_EQ(g1.at("loser").as_string(), "alpha");
  const json::object& g2 = embedded(games, "g2");
  EXPECT_EQ(json::serialize(g2.at("loss")), "[0,0,4,0,null,0,1,null]");
  EXPECT_TRUE(g2.at("losing").is_null());
  // Games without a fitting analysis carry nothing of it.
  for (const char* id : {"g3", "g4"}) {
    EXPECT_FALSE(embedded(games, id).contains("loss")) << id;
    EXPECT_FALSE(embedded(games, id).contains("losing")) << id;
  }
  // The viewer shows them: the bars, the loss in the ply's line, the verdict.
  EXPECT_NE(html.find("<p id=\"verdict\" hidden></p>"), std::string::npos);
  EXPECT_NE(html.find("function bars(){"), std::string::npos);
  EXPECT_NE(html.find("graph();bars();draw();"), std::string::npos);
  EXPECT_NE(html.find("'; loss '+l"), std::string::npos);
  EXPECT_NE(html.find("The move that lost the game: "), std::string::npos);
  // Without an analysis the page's script is the one it always was.
  const std::string plain = report_html(written->standings, four_games(), "t");
  EXPECT_EQ(plain.find("bars"), std::string::npos);
  EXPECT_EQ(plain.find("verdict"), std::string::npos);
  EXPECT_NE(plain.find("graph();draw();"), std::string::npos);
}

TEST_F(AnalysisReport, ABotPageListsItsWorstMovesWithLinksIntoTheViewer) {
  const Expected<ReportSummary> written = report_folder(dir_.path());
  ASSERT_TRUE(written) << written.error();
  const std::string alpha = test::read_file(dir_.path() / "bots/alpha.html");
  EXPECT_NE(alpha.find("<p>Mean loss 1.60 per judged move, 60% perfect moves, 1 blunder; 5 of its 11 moves "
                       "analysed.</p>"),
            std::string::npos)
      << alpha;
  EXPECT_NE(alpha.find("blunder: a move that loses ≥ 4 (store difference)"), std::string::npos);
  const std::size_t first = alpha.find(
      "<tr><td class=\"name\">g1</td><td>5</td><td class=\"name\">beta</td><td>6</td><td>0</td><td "
      "class=\"name\">the move that lost the game</td><td><a href=\"../report.html#game-g1/5\">replay g1 at ply "
      "5</a></td></tr>");
  const std::size_t second = alpha.find(
      "<tr><td class=\"name\">g1</td><td>3</td><td class=\"name\">beta</td><td>2</td><td>2</td><td "
      "class=\"name\"></td><td><a href=\"../report.html#game-g1/3\">replay g1 at ply 3</a></td></tr>");
  ASSERT_NE(first, std::string::npos) << alpha;
  ASSERT_NE(second, std::string::npos) << alpha;
  EXPECT_LT(first, second) << "the largest loss first";
  const std::string beta = test::read_file(dir_.path() / "bots/beta.html");
  EXPECT_NE(beta.find("Its 2 largest losses."), std::string::npos) << beta;
  EXPECT_NE(beta.find("#game-g2/3\">replay g2 at ply 3</a>"), std::string::npos);
  EXPECT_NE(beta.find("#game-g2/7\">replay g2 at ply 7</a>"), std::string::npos);
  const std::string gamma = test::read_file(dir_.path() / "bots/gamma.html");
  EXPECT_NE(gamma.find("<p>Mean loss – per judged move, – perfect moves, 0 blunders; 0 of its 3 moves analysed.</p>"),
            std::string::npos)
      << gamma;
  EXPECT_NE(gamma.find("None: no judged move of it lost anything."), std::string::npos);
}

TEST(BotPagesWorstMoves, KeepTheTenLargestLossesTheEarliestFirstOnATie) {
  const arena::TournamentDescription description;
  BotPagesBuilder b({"alpha", "beta"}, description);
  const GameRecord g = four_games()[0];  // alpha's plies (0-based): 0 (the opening), 2, 4
  for (int n = 0; n < 8; ++n) {
    analysis::GameJudgement j;
    for (int ply : {0, 2, 4}) j.plies.push_back({ply, "alpha", ply == 0, 0, ply == 0 ? 9 : n + ply});
    GameRecord named = g;
    named.id = "g" + std::to_string(n);
    b.add(named, "/r");
    b.add_judgement(named, j);
  }
  const std::vector<WorstMove>& worst = b.bots().at("alpha").worst_moves;
  ASSERT_EQ(worst.size(), kBotPageWorstMoves);
  // Losses n+2 and n+4 for n = 0..7: 11 10 9 9 8 8 7 7 6 6 (the opening's 9 is nobody's choice).
  std::vector<std::string> shown;
  for (const WorstMove& m : worst) shown.push_back(fmt::format("{}/{}:{}", m.id, m.ply, m.loss));
  EXPECT_EQ(shown, (std::vector<std::string>{"g7/5:11", "g6/5:10", "g5/5:9", "g7/3:9", "g4/5:8", "g6/3:8", "g3/5:7",
                                             "g5/3:7", "g2/5:6", "g4/3:6"}));
}

// A rating list over two folders reads each one's analysis; the same game id in both is two games.
TEST(AnalysisReportList, EachFolderHasItsOwnAnalysis) {
  system::TempFolder a("kalah-analysis-a"), b("kalah-analysis-b"), out("kalah-analysis-list");
  const std::vector<GameRecord> games = four_games();
  write_journal(a.path(), {games[0]});
  write_journal(b.path(), {games[0]});
  write(a.path() / "analysis.jsonl", "{\"id\":\"g1\",\"value\":[0,0,2,0,0,6],\"loss\":[0,0,2,0,6,0]}\n");
  write(b.path() / "analysis.jsonl", "{\"id\":\"g1\",\"value\":[0,0,0,0,0,0],\"loss\":[0,0,0,0,1,0]}\n");
  ReportInput input;
  input.event = "list";
  for (const fs::path& dir : {a.path(), b.path()}) {
    Expected<journal::StoredResults> stored = journal::read_results(dir);
    ASSERT_TRUE(stored) << stored.error();
    add_results(input, *stored, dir.string() + ": ", dir.string());
  }
  const Expected<ReportSummary> written = write_reports(out.path(), input);
  ASSERT_TRUE(written) << written.error();
  EXPECT_EQ(written->warnings, std::vector<std::string>{});
  ASSERT_TRUE(written->quality);
  EXPECT_EQ(written->quality->games, 2u);
  const analysis::EngineQuality& alpha = written->quality->engines.at("alpha");
  EXPECT_EQ(alpha.judged, 4);
  EXPECT_EQ(alpha.total_loss, 2 + 6 + 0 + 1);
  EXPECT_EQ(alpha.blunders, 1);
}

}  // namespace
}  // namespace kalah::report
