// Standings (hand-checked numbers) and every reporter: JSON, Markdown, CSV,
// PGN, HTML and the terminal table.
// Past 400 lines: every reporter is checked against the same hand-built tournament.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include <boost/json/parse.hpp>
#include <fmt/format.h>

#include "arena/config/description.h"
#include "arena/rating/standings.h"
#include "arena/report/context.h"
#include "arena/report/elo_history.h"
#include "arena/report/form_report.h"
#include "arena/report/ranking_report.h"
#include "arena/report/reporters.h"
#include "arena/report/reports.h"
#include "arena/report/text_util.h"
#include "referee/record/record_json.h"
#include "referee/system/temp_folder.h"
#include "tests/support/text_match.h"

namespace kalah::report {
namespace {

namespace fs = std::filesystem;

// The tournament's description as tournament.json's settings `s` give it.
arena::TournamentDescription described(const std::map<std::string, std::string>& s) {
  Expected<arena::TournamentDescription> d = arena::description_from_settings(s);
  EXPECT_TRUE(d) << d.error();
  return d ? *d : arena::TournamentDescription{};
}

Outcome parse_result(const std::string& r) {
  return r == "1-0" ? Outcome::FirstWins : r == "0-1" ? Outcome::SecondWins : Outcome::Draw;
}

// A game with the given result; the moves are a short legal start so that the
// HTML replay has something to show (standings only read the result).
GameRecord game(int n, const std::string& south, const std::string& north, const std::string& result,
                Termination termination = Termination::Normal, std::optional<Forfeit> forfeit = std::nullopt) {
  GameRecord g;
  g.id = fmt::format("g{:02}", n);
  g.round = (n + 1) / 2;
  g.south = south;
  g.north = north;
  g.moves = {Move::at(3), Move::at(1), Move::at(2)};
  g.opening = {Move::at(3)};
  g.move_info.resize(2);
  g.move_info[0].time_ms = 10;
  g.move_info[1].time_ms = 20.5;
  g.move_info[1].depth = 4;
  g.result = parse_result(result);
  g.store_south = 25;
  g.store_north = 23;
  g.termination = termination;
  g.forfeit = std::move(forfeit);
  g.started_at = "2026-12-02T12:00:00Z";
  return g;
}

// 20 games among alpha, beta and gamma, counted by hand below.
std::vector<GameRecord> hand_games() {
  const std::string A = "alpha", B = "beta", C = "gamma";
  return {
      game(1, A, B, "1-0"),
      game(2, B, A, "0-1"),
      game(3, A, B, "1-0"),
      game(4, B, A, "1/2-1/2"),
      game(5, A, B, "1/2-1/2"),
      game(6, B, A, "1-0"),
      game(7, A, C, "1-0"),
      game(8, C, A, "0-1"),
      game(9, A, C, "1-0"),
      game(10, C, A, "0-1", Termination::Time, Forfeit{C, Termination::Time, "no bestmove within 2050 ms"}),
      game(11, B, C, "1-0"),
      game(12, C, B, "1/2-1/2"),
      game(13, B, C, "0-1", Termination::Crash, Forfeit{B, Termination::Crash, "killed by signal 11"}),
      game(14, C, B, "0-1"),
      game(15, B, C, "1-0", Termination::Illegal, Forfeit{C, Termination::Illegal, "bestmove 9 (legal: 1 2 4)"}),
      game(16, C, B, "1-0"),
      game(17, B, C, "1/2-1/2"),
      game(18, C, B, "0-1", Termination::Protocol, Forfeit{C, Termination::Protocol, "'bestmuve 3'"}),
      game(19, A, B, "1-0", Termination::Majority),
      game(20, B, A, "1-0", Termination::Startup, Forfeit{A, Termination::Startup, "no kepok within 5000 ms"}),
  };
}

const std::vector<std::string> kEngines = {"gamma", "beta", "alpha"};  // deliberately not in rank order

std::string fixed_1(double x) { return fmt::format("{:.1f}", x); }

const EngineStanding& find(const Standings& s, const std::string& name) {
  for (const EngineStanding& e : s.engines)
    if (e.name == name) return e;
  throw std::runtime_error("no engine " + name);
}

// Tallies by hand (see hand_games):
//   alpha: 12 games, 8 W 2 D 2 L = 9.0 points (75%), 1 forfeit (startup)
//   beta:  16 games, 6 W 4 D 6 L = 8.0 points (50%), 1 forfeit (crash)
//   gamma: 12 games, 2 W 2 D 8 L = 3.0 points (25%), 3 forfeits (time, illegal, protocol)
//   South: 10 W 4 D 6 L = 12/20 = 60%
TEST(ReportStandings, CountsMatchAHandTally) {
  const Standings s = rating::compute_standings(hand_games(), kEngines);
  EXPECT_EQ(s.games, 20);
  EXPECT_EQ(s.ignored, 0);
  ASSERT_EQ(s.engines.size(), 3u);
  EXPECT_EQ(s.engines[0].name, "alpha");
  EXPECT_EQ(s.engines[1].name, "beta");
  EXPECT_EQ(s.engines[2].name, "gamma");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(s.engines[i].rank, i + 1);

  // Results by hand from the table above: games, W, D, L, points, score %, forfeits and their reasons
  // (time, crash, illegal, protocol, startup).
  const struct {
    const char* name;
    int games, wins, draws, losses;
    double points, score_pct;
    int forfeits;
    std::array<int, kForfeitReasons.size()> by_reason;
  } expected[] = {
      {"alpha", 12, 8, 2, 2, 9.0, 75.0, 1, {0, 0, 0, 0, 1}},
      {"beta", 16, 6, 4, 6, 8.0, 50.0, 1, {0, 1, 0, 0, 0}},
      {"gamma", 12, 2, 2, 8, 3.0, 25.0, 3, {1, 0, 1, 1, 0}},
  };
  for (const auto& x : expected) {
    SCOPED_TRACE(x.name);
    const EngineStanding& e = find(s, x.name);
    EXPECT_EQ(e.games, x.games);
    EXPECT_EQ(e.wins, x.wins);
    EXPECT_EQ(e.draws, x.draws);
    EXPECT_EQ(e.losses, x.losses);
    EXPECT_DOUBLE_EQ(e.points, x.points);
    EXPECT_DOUBLE_EQ(e.score_pct, x.score_pct);
    EXPECT_EQ(e.forfeits, x.forfeits);
    EXPECT_EQ(e.forfeits_by_reason, x.by_reason);
  }
  const EngineStanding& a = find(s, "alpha");
  const EngineStanding& b = find(s, "beta");
  const EngineStanding& c = find(s, "gamma");

  // Elo: mean 0, in score order, finite intervals; LOS to the next one, none for the last.
  EXPECT_NEAR(a.elo + b.elo + c.elo, 0.0, 1e-6);
  EXPECT_GT(a.elo, b.elo);
  EXPECT_GT(b.elo, c.elo);
  for (const EngineStanding& e : s.engines) EXPECT_GT(e.ci95, 0);
  ASSERT_TRUE(a.los_next && b.los_next);
  EXPECT_GT(*a.los_next, 0.5);
  EXPECT_LT(*a.los_next, 1.0);
  EXPECT_GT(*b.los_next, 0.5);
  EXPECT_FALSE(c.los_next);
  // The difference to the next one, and its interval: consistent with the LOS
  // (LOS = Phi(diff / sd)), narrower than the two intervals added.
  for (const EngineStanding* e : {&a, &b}) {
    const EngineStanding& next = e == &a ? b : c;
    ASSERT_TRUE(e->diff_next && e->diff_next_ci95);
    EXPECT_NEAR(*e->diff_next, e->elo - next.elo, 1e-9);
    EXPECT_GT(*e->diff_next_ci95, 0.0);
    EXPECT_LT(*e->diff_next_ci95, e->ci95 + next.ci95);
    const double sd = *e->diff_next_ci95 / 1.96;
    EXPECT_NEAR(*e->los_next, 0.5 * std::erfc(-*e->diff_next / (sd * std::sqrt(2.0))), 1e-9);
  }
  EXPECT_FALSE(c.diff_next);
  EXPECT_FALSE(s.prior_used);
}

TEST(ReportStandings, CrosstableTerminationsAndFirstMover) {
  const Standings s = rating::compute_standings(hand_games(), kEngines);
  // Rank order alpha, beta, gamma: [row][column] = points of row / games.
  const auto cell = [&](int r, int c) { return std::pair(s.crosstable[r][c].points, s.crosstable[r][c].games); };
  EXPECT_EQ(cell(0, 1), std::pair(5.0, 8));
  EXPECT_EQ(cell(1, 0), std::pair(3.0, 8));
  EXPECT_EQ(cell(0, 2), std::pair(4.0, 4));
  EXPECT_EQ(cell(2, 0), std::pair(0.0, 4));
  EXPECT_EQ(cell(1, 2), std::pair(5.0, 8));
  EXPECT_EQ(cell(2, 1), std::pair(3.0, 8));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(cell(i, i), std::pair(0.0, 0));

  const auto count = [&](Termination t) { return s.terminations[static_cast<int>(t)]; };
  EXPECT_EQ(count(Termination::Normal), 14);
  EXPECT_EQ(count(Termination::Majority), 1);
  EXPECT_EQ(count(Termination::Adjudicated), 0);
  EXPECT_EQ(count(Termination::Time), 1);
  EXPECT_EQ(count(Termination::Crash), 1);
  EXPECT_EQ(count(Termination::Illegal), 1);
  EXPECT_EQ(count(Termination::Protocol), 1);
  EXPECT_EQ(count(Termination::Startup), 1);

  const FirstMover& fm = s.first_mover;
  EXPECT_EQ(fm.games, 20);
  EXPECT_EQ(fm.wins, 10);
  EXPECT_EQ(fm.draws, 4);
  EXPECT_EQ(fm.losses, 6);
  EXPECT_DOUBLE_EQ(fm.score_pct, 60.0);
  EXPECT_GT(fm.elo, 0);
  EXPECT_GT(fm.ci95, 0);
  // South's own score: Elo(0.6) = 400 log10(1.5).
  EXPECT_NEAR(fm.raw_elo, 400 * std::log10(1.5), 1e-6);
  EXPECT_GT(fm.los, 0.5);
}

// Two engines, colours balanced: alpha scores 3/4 as South and as North, so the
// first-move term is 0 and the fit is the closed form 400 log10(0.75 / 0.25)
// split evenly around the mean.
TEST(ReportStandings, EloOfABalancedMatchHasAClosedForm) {
  std::vector<GameRecord> games = {
      game(1, "alpha", "beta", "1-0"),
      game(2, "alpha", "beta", "1/2-1/2"),
      game(3, "beta", "alpha", "0-1"),
      game(4, "beta", "alpha", "1/2-1/2"),
  };
  const Standings s = rating::compute_standings(games, {"alpha", "beta"});
  const double diff = 400 * std::log10(3.0);
  EXPECT_NEAR(find(s, "alpha").elo, diff / 2, 0.01);
  EXPECT_NEAR(find(s, "beta").elo, -diff / 2, 0.01);
  EXPECT_NEAR(s.first_mover.elo, 0.0, 0.01);
  EXPECT_DOUBLE_EQ(s.first_mover.score_pct, 50.0);
}

TEST(ReportStandings, UnknownNamesAreAddedAndBadRecordsIgnored) {
  std::vector<GameRecord> games = hand_games();
  games.push_back(game(21, "delta", "alpha", "0-1"));
  GameRecord unfinished = game(22, "alpha", "beta", "1-0");
  unfinished.result = Outcome::Ongoing;
  games.push_back(unfinished);
  games.push_back(game(23, "alpha", "alpha", "1-0"));
  const Standings s = rating::compute_standings(games, {"alpha", "beta", "gamma", "idle"});
  EXPECT_EQ(s.games, 21);
  EXPECT_EQ(s.ignored, 2);
  ASSERT_EQ(s.engines.size(), 5u);
  EXPECT_EQ(find(s, "delta").games, 1);
  // An engine without games is ranked last, with finite numbers.
  EXPECT_EQ(s.engines.back().name, "idle");
  EXPECT_EQ(s.engines.back().games, 0);
  EXPECT_TRUE(std::isfinite(s.engines.back().elo));
}

TEST(Standings, MoveTimesAreCreditedToTheEngineThatMoved) {
  // Kalah(6,4): South 3 (opening: 3 seeds reach its store, an extra turn), South 1 (ends in its pit 5),
  // North 3 (an extra turn), North 6 (ends on South's side). Timed: 20 by South, 30 and 40 by North.
  GameRecord g = game(1, "s", "n", "1-0");
  g.moves = {Move::at(3), Move::at(1), Move::at(3), Move::at(6)};
  g.opening = {Move::at(3)};
  g.move_info.assign(3, MoveInfo{});
  g.move_info[0].time_ms = 20;
  g.move_info[1].time_ms = 30;
  g.move_info[2].time_ms = 40;
  // With the pie rule: South 1, North swaps (30 ms), and the first player, now North, moves on (40 ms).
  GameRecord pie = game(2, "s", "n", "0-1");
  pie.variant.pie = true;
  pie.moves = {Move::at(1), Move::swap(), Move::at(2)};
  pie.opening = {};
  pie.move_info.assign(3, MoveInfo{});
  pie.move_info[0].time_ms = 5;
  pie.move_info[1].time_ms = 30;
  pie.move_info[2].time_ms = 40;
  const Standings st = rating::compute_standings({g, pie}, {"s", "n"});
  const auto& by_name = [&](const std::string& name) -> const EngineStanding& {
    return *std::find_if(st.engines.begin(), st.engines.end(), [&](const EngineStanding& e) { return e.name == name; });
  };
  EXPECT_EQ(by_name("s").moves_timed, 3);  // 20; 5, 40
  EXPECT_DOUBLE_EQ(by_name("s").mean_move_ms, 65.0 / 3);
  EXPECT_DOUBLE_EQ(by_name("s").max_move_ms, 40);
  EXPECT_EQ(by_name("n").moves_timed, 3);  // 30, 40; 30
  EXPECT_DOUBLE_EQ(by_name("n").mean_move_ms, 100.0 / 3);
  EXPECT_DOUBLE_EQ(by_name("n").max_move_ms, 40);
  const std::string md = standings_markdown(st, "t");
  EXPECT_NE(md.find("| s | 3 | 21.7 | 40.0 |"), std::string::npos) << md;
}

// On the CPU clock a move's time is the CPU time charged and its record holds the wall time beside it: "Time use"
// says which it shows and shows both, in standings.md, report.html and standings.json. On the wall clock it is
// what it always was.
TEST(Standings, OnTheCpuClockTimeUseIsLabelledCpuTimeWithTheWallTimeBeside) {
  std::vector<GameRecord> games = {game(1, "alpha", "beta", "1-0"), game(2, "beta", "alpha", "0-1")};
  const Standings wall = rating::compute_standings(games, {"alpha", "beta"});
  EXPECT_FALSE(rating::charged_cpu_time(wall));
  // game(): two timed moves after the opening, 10 ms (South) and 20.5 ms (North), now CPU time charged.
  for (GameRecord& g : games) {
    g.move_info[0].wall_ms = 30;
    g.move_info[1].wall_ms = 61;
  }
  const Standings cpu = rating::compute_standings(games, {"alpha", "beta"});
  ASSERT_TRUE(rating::charged_cpu_time(cpu));
  const EngineStanding& alpha = find(cpu, "alpha");  // South in g01 (10 ms, 30 wall), North in g02 (20.5, 61)
  EXPECT_EQ(alpha.moves_timed, 2);
  EXPECT_DOUBLE_EQ(alpha.mean_move_ms, 15.25);
  EXPECT_EQ(alpha.moves_wall_timed, 2);
  EXPECT_DOUBLE_EQ(alpha.mean_wall_ms, 45.5);
  EXPECT_DOUBLE_EQ(alpha.max_wall_ms, 61);

  const std::string md = standings_markdown(cpu, "t");
  EXPECT_NE(md.find("## Time use\n\nCPU time charged per move"), std::string::npos) << md;
  EXPECT_NE(md.find("| Engine | Moves | Mean CPU ms | Max CPU ms | Mean wall ms | Max wall ms | Mean depth |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| alpha | 2 | 15.2 | 20.5 | 45.5 | 61.0 | 4.0 |"), std::string::npos) << md;
  EXPECT_EQ(md.find("Thinking time per move as the referee measured it (request sent to answer read)"),
            std::string::npos);
  const std::string html = report_html(cpu, games, "t");
  EXPECT_NE(html.find("<h2>Time use</h2>\n<p class=\"note\">CPU time charged per move"), std::string::npos);
  EXPECT_NE(html.find("<th>Mean CPU ms</th><th>Max CPU ms</th><th>Mean wall ms</th><th>Max wall ms</th>"),
            std::string::npos);
  EXPECT_NE(html.find("<td class=\"name\">alpha</td><td>2</td><td>15.2</td><td>20.5</td><td>45.5</td><td>61.0</td>"),
            std::string::npos);
  const boost::json::value json = boost::json::parse(standings_json(cpu, "t"));
  for (const boost::json::value& e : json.at("engines").as_array()) {
    const boost::json::object& time = e.at("time").as_object();
    EXPECT_EQ(time.at("clock").as_string(), "cpu");
    EXPECT_EQ(time.at("wall_mean_ms").to_number<double>(), 45.5);
    EXPECT_EQ(time.at("wall_max_ms").to_number<double>(), 61);
  }

  // The wall clock: no CPU label, no wall columns, no new keys.
  const std::string wall_md = standings_markdown(wall, "t");
  EXPECT_NE(wall_md.find("Thinking time per move as the referee measured it (request sent to answer read)"),
            std::string::npos);
  EXPECT_EQ(wall_md.find("CPU"), std::string::npos);
  EXPECT_EQ(report_html(wall, games, "t").find("Mean CPU ms"), std::string::npos);
  EXPECT_EQ(standings_json(wall, "t").find("wall_"), std::string::npos);
}

// An engine without a counted game has no rating: the fit's value for it would be its prior alone ("0.0 ± 436.8"
// for a disqualified entrant). Every report shows none, and no Elo difference or LOS next to it.
TEST(ReportStandings, AnEngineWithoutGamesHasNoEloInAnyReport) {
  const Standings s = rating::compute_standings(hand_games(), {"alpha", "beta", "gamma", "idle"});
  const EngineStanding& idle = find(s, "idle");
  ASSERT_EQ(idle.games, 0);
  ASSERT_EQ(idle.rank, 4);
  EXPECT_FALSE(idle.diff_next);
  EXPECT_FALSE(idle.los_next);
  EXPECT_FALSE(find(s, "gamma").diff_next) << "nothing to compare gamma's Elo with";
  EXPECT_FALSE(find(s, "gamma").los_next);
  EXPECT_TRUE(find(s, "beta").diff_next);

  EXPECT_NE(standings_markdown(s, "t").find("| 4 | idle | – | – | 0 | 0.0 | 0.0% |"), std::string::npos);
  const std::string csv = standings_csv(s);
  EXPECT_NE(csv.find("\n4,idle,,,0,0.0,0.0,"), std::string::npos) << csv;
  const boost::json::value json = boost::json::parse(standings_json(s, "t"));
  for (const boost::json::value& e : json.at("engines").as_array()) {
    const bool rated = e.at("name").as_string() != "idle";
    EXPECT_EQ(e.at("elo").is_null(), !rated) << e;
    EXPECT_EQ(e.at("ci95").is_null(), !rated) << e;
  }
  const std::string html = report_html(s, {}, "t");
  EXPECT_NE(html.find("<td class=\"name\">idle</td><td>0.0</td><td>0</td><td>0</td><td>0</td><td>0</td><td>0.0%</td>"
                      "<td>–</td><td>–</td><td>0</td><td>–</td><td>–</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find(">no games, no Elo</text>"), std::string::npos);
  const std::string table = format_standings_table(s);
  const std::size_t line = table.find("   4  idle ");
  ASSERT_NE(line, std::string::npos) << table;
  EXPECT_TRUE(table.substr(line, table.find('\n', line) - line).starts_with("   4  idle          -       -      0 "))
      << table;

  // A contest's disqualified entrant whose games are void: its ranking row has no Elo either.
  rating::StandingsBuilder builder(kEngines);
  rating::RankingSetup setup;
  setup.rules.by = rating::RankBy::Points;
  setup.entries["gamma"] = {rating::EntryStatus::Disqualified, "copied code", true};
  builder.set_ranking(setup);
  for (const GameRecord& g : hand_games()) builder.add(g);
  const Standings ranked = builder.standings();
  ASSERT_TRUE(ranked.ranking);
  EXPECT_NE(ranking_markdown(*ranked.ranking).find("| gamma | 0 | 0-0-0 | 0 | – | – |\n"), std::string::npos)
      << ranking_markdown(*ranked.ranking);
  EXPECT_NE(standings_markdown(ranked, "t").find("| gamma | – | – | 0 |"), std::string::npos);
  const boost::json::value ranked_json = boost::json::parse(standings_json(ranked, "t"));
  for (const boost::json::value& row : ranked_json.at("ranking").at("rows").as_array())
    EXPECT_EQ(row.at("elo").is_null(), row.at("name").as_string() == "gamma") << row;
  EXPECT_NE(ranking_csv(*ranked.ranking, nullptr).find(",0,0,0,0,,,disqualified,"), std::string::npos)
      << ranking_csv(*ranked.ranking, nullptr);
  EXPECT_NE(ranking_text_table(*ranked.ranking).find("  0-0-0      0        -       -\n"), std::string::npos)
      << ranking_text_table(*ranked.ranking);
}

// ---------------------------------------------------------------- reporters

TEST(ReportCsv, HeaderAndRowsAreExact) {
  const Standings s = rating::compute_standings(hand_games(), kEngines);
  const auto e = [&](int i) { return s.engines[i]; };
  const auto f1 = [](double x) { return fmt::format("{:.1f}", x); };
  const std::string expected =
      "rank,name,elo,ci95,games,points,score_pct,wins,draws,losses,forfeits,forfeit_time,forfeit_crash,"
      "forfeit_illegal,forfeit_protocol,forfeit_startup,forfeit_file_size,forfeit_output,forfeit_memory,los_next,"
      "diff_next,"
      "diff_next_ci95\n" +
      fmt::format("1,alpha,{},{},12,9.0,75.0,8,2,2,1,0,0,0,0,1,0,0,0,{:.4f},{},{}\n", f1(e(0).elo), f1(e(0).ci95),
                  *e(0).los_next, f1(*e(0).diff_next), f1(*e(0).diff_next_ci95)) +
      fmt::format("2,beta,{},{},16,8.0,50.0,6,4,6,1,0,1,0,0,0,0,0,0,{:.4f},{},{}\n", f1(e(1).elo), f1(e(1).ci95),
                  *e(1).los_next, f1(*e(1).diff_next), f1(*e(1).diff_next_ci95)) +
      fmt::format("3,gamma,{},{},12,3.0,25.0,2,2,8,3,1,0,1,1,0,0,0,0,,,\n", f1(e(2).elo), f1(e(2).ci95));
  EXPECT_EQ(standings_csv(s), expected);
}

// The limits of untrusted engines (docs/SECURITY.md) are forfeit reasons of their own: they survive the
// journal, have their own CSV columns, and the Markdown table shows a reason's column only when it occurs.
TEST(ReportForfeits, LimitReasonsHaveTheirOwnColumns) {
  const std::vector<GameRecord> games = {
      game(1, "alpha", "beta", "0-1", Termination::FileSize,
           Forfeit{"alpha", Termination::FileSize, "killed by signal 25 (SIGXFSZ): it wrote past its file-size limit"}),
      game(2, "beta", "alpha", "1-0", Termination::Output,
           Forfeit{"alpha", Termination::Output, "wrote more than its max_output_kb = 64 KB to stderr in this game"}),
      game(3, "alpha", "beta", "1-0")};
  for (const GameRecord& g : games) {
    const Expected<GameRecord> back = record_from_json(to_json_line(g));
    ASSERT_TRUE(back) << back.error();
    EXPECT_EQ(back->termination, g.termination);
    if (g.forfeit) {
      EXPECT_EQ(back->forfeit->reason, g.forfeit->reason);
    }
  }
  EXPECT_NE(to_json_line(games[0]).find(R"("reason":"file-size")"), std::string::npos);
  EXPECT_NE(to_json_line(games[1]).find(R"("reason":"output")"), std::string::npos);

  const Standings s = rating::compute_standings(games, {"alpha", "beta"});
  const std::string csv = standings_csv(s);
  EXPECT_NE(csv.find(",forfeit_startup,forfeit_file_size,forfeit_output,forfeit_memory,"), std::string::npos) << csv;
  const EngineStanding& alpha = find(s, "alpha");
  EXPECT_EQ(alpha.forfeits, 2);
  EXPECT_NE(
      csv.find(fmt::format("alpha,{},{},3,1.0,33.3,1,0,2,2,0,0,0,0,0,1,1,", fixed_1(alpha.elo), fixed_1(alpha.ci95))),
      std::string::npos)
      << csv;
  const std::string md = standings_markdown(s, "limits", {});
  EXPECT_NE(md.find("| Engine | Forfeits | file-size | output |\n|:---|---:|---:|---:|\n| alpha | 2 | 1 | 1 |"),
            std::string::npos)
      << md;
}

// ---------------------------------------------------------------- the "About" section

TEST(ReportContext, ComesFromTheSettingsAndTheDatesInDisplayOrder) {
  const std::map<std::string, std::string> settings = {
      {"variant", "pits=4 seeds=3 capture=empty ending=no-move remainder=none majority=on pie=on"},
      {"time", "10+0.1"},
      {"openings", "book main.txt (2 lines, in order)"},
      {"type", "round-robin"},
      {"rounds", "2"},
      {"seed", "7"},
      {"run.concurrency", "2"},
      {"run.arena_version", "abc1234"},
      {"run.machine", "Some CPU, 2 CPUs"},
      {"engine.a.command", "/home/alice/bots/a --book /home/alice/b.txt"},
      {"engine.a.options", "Depth=3"},
      {"run.engine.a.id", "A 1.0 by Alice"},
      {"run.engine.a.limits", "sandbox=bwrap memory_mb=64"},
      {"engine.b.command", "b"}};
  const Context c = make_context(described(settings), {"a", "b", "ghost"}, "2026-12-01", "2026-12-03", false);
  std::vector<std::string> labels;
  for (const auto& [label, text] : c.about) labels.push_back(label);
  EXPECT_EQ(labels, (std::vector<std::string>{"Played", "Variant", "Time control", "Openings", "Tournament",
                                              "Concurrency", "Seed", "Arena", "Machine"}));
  EXPECT_EQ(c.about[0].second, "2026-12-01 to 2026-12-03 (UTC)");
  EXPECT_EQ(c.about[1].second,
            "Kalah(4,3): 4 pits a side, 3 seeds in each; empty capture (the last seed in an own empty pit is always "
            "captured, with the facing pit); the game ends when the player to move has no seeds; seeds left in pits "
            "are not scored; it also ends when a store holds more than half of the seeds; pie rule (North may swap "
            "after South's first move). Keys: pits=4 seeds=3 capture=empty ending=no-move remainder=none majority=on "
            "pie=on");
  EXPECT_EQ(c.about[4].second, "round-robin, 2 rounds");
  EXPECT_EQ(c.about[7].second, "kalah-arena abc1234");
  ASSERT_EQ(c.engines.size(), 2u) << "an engine the settings do not know is left out";
  EXPECT_EQ(c.engines[0].command, "/home/alice/bots/a --book /home/alice/b.txt");
  EXPECT_EQ(c.engines[0].announced, "A 1.0 by Alice");
  EXPECT_EQ(c.engines[0].limits, "sandbox=bwrap memory_mb=64");

  const Context published = make_context(described(settings), {"a", "b"}, "2026-12-01", "2026-12-01", true);
  EXPECT_EQ(published.about[0].second, "2026-12-01 (UTC)");
  EXPECT_EQ(published.engines[0].command, "~/bots/a --book ~/b.txt");

  const std::string html = context_html(c);
  EXPECT_NE(html.find("<section id=\"about\">"), std::string::npos);
  EXPECT_NE(html.find("<dt>Time control</dt><dd>10+0.1</dd>"), std::string::npos);
  EXPECT_NE(html.find("A 1.0 by Alice"), std::string::npos);
  const std::string md = context_markdown(c);
  EXPECT_NE(md.find("- **Time control**: 10+0.1\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| a | /home/alice/bots/a --book /home/alice/b.txt | Depth=3 | A 1.0 by Alice | sandbox=bwrap "
                    "memory\\_mb=64 |"),
            std::string::npos)
      << md;
  EXPECT_EQ(context_markdown(Context{}), "");
  EXPECT_EQ(context_html(Context{}), "");
}

// The viewer marks what each ply did. Kalah(6,4): South 3 ends in its store (an extra turn); South 6 and
// North 3 end on the other side; South 1 sows 5 seeds from pit 1 into its empty pit 6 and takes North's
// pit 1 (5 seeds) with it: a capture.
TEST(ReportHtml, PliesAreMarkedForExtraTurnsAndCaptures) {
  GameRecord g = game(1, "a", "b", "1-0");
  g.moves = {Move::at(3), Move::at(6), Move::at(3), Move::at(1)};
  g.move_info.resize(4);
  g.move_info[1].depth = 7;
  g.move_info[1].score = -3;
  const std::string html = report_html(rating::compute_standings({g}, {"a", "b"}), {g}, "flags");
  EXPECT_NE(html.find(R"("flags":"x--c")"), std::string::npos);
  EXPECT_NE(html.find(R"("depth":[null,7,null,null],"score":[null,-3,null,null])"), std::string::npos);
  EXPECT_NE(html.find("[0,5,1,6,6,0,8,0,5,0,6,5,5,1]"), std::string::npos) << "the board after the capture";
}

// The Elo-over-games chart: at most kMaxPoints checkpoints however long the run, increasing, ending
// at the last game, and the last one equal to the final standings.
TEST(ReportEloHistory, KeepsAFewCheckpointsEndingAtTheFinalStandings) {
  rating::StandingsBuilder builder({"a", "b", "c"});
  EloHistoryRecorder recorder;
  const char* names[] = {"a", "b", "c"};
  for (int n = 1; n <= 3000; ++n) {
    GameRecord g = game(n, names[n % 3], names[(n + 1) % 3], n % 5 == 0 ? "1/2-1/2" : n % 2 ? "1-0" : "0-1");
    builder.add(g);
    recorder.game_added(builder);
  }
  const Standings final = builder.standings();
  const EloHistory h = recorder.finish(builder, final);
  EXPECT_LE(h.games.size(), EloHistoryRecorder::kMaxPoints + 1);
  EXPECT_GE(h.games.size(), EloHistoryRecorder::kMaxPoints / 2);
  EXPECT_TRUE(std::is_sorted(h.games.begin(), h.games.end()));
  EXPECT_EQ(std::adjacent_find(h.games.begin(), h.games.end()), h.games.end()) << "no checkpoint twice";
  EXPECT_EQ(h.games.back(), 3000);
  ASSERT_EQ(h.names.size(), 3u);
  for (std::size_t e = 0; e < 3; ++e) {
    EXPECT_EQ(h.names[e], final.engines[e].name);
    EXPECT_DOUBLE_EQ(h.series[e].back().elo, final.engines[e].elo);
    EXPECT_DOUBLE_EQ(h.series[e].back().ci95, final.engines[e].ci95);
  }
  const std::string html = report_html(final, {}, "history", {}, 0, {}, h);
  EXPECT_NE(html.find("<svg id=\"elo-history\""), std::string::npos);
  EXPECT_EQ(report_html(final, {}, "history").find("elo-history"), std::string::npos) << "no history, no chart";
}

// A journal naming 1000 engines: each fit costs ~1000^3 (2.5 s here), and the chart used to refit at each of the
// first 100 games and 50 more per doubling (a 20 KB archive kept `arena verify` busy past its time limit). The
// fitting work is bounded now: two checkpoint fits, then the final standings; 100 engines keep every checkpoint.
TEST(ReportEloHistory, ThousandsOfEnginesCostAFewFitsNotOneAGame) {
  EXPECT_EQ(EloHistoryRecorder::fit_points(3), EloHistoryRecorder::kMaxPoints);
  EXPECT_EQ(EloHistoryRecorder::fit_points(100), EloHistoryRecorder::kMaxPoints);
  EXPECT_EQ(EloHistoryRecorder::fit_points(1000), 2u);
  std::vector<std::string> names;
  for (int i = 0; i < 1000; ++i) names.push_back("e" + std::to_string(i));
  rating::StandingsBuilder builder(names);
  EloHistoryRecorder recorder;
  for (int n = 1; n <= 300; ++n) {
    builder.add(game(n, names[static_cast<std::size_t>(n % 1000)], names[static_cast<std::size_t>((7 * n + 1) % 1000)],
                     n % 2 ? "1-0" : "0-1"));
    recorder.game_added(builder);
  }
  EXPECT_LE(recorder.fits(), 2u);
  const Standings final = builder.standings();
  const EloHistory h = recorder.finish(builder, final);
  EXPECT_EQ(h.games.back(), 300);
  EXPECT_LE(h.games.size(), 3u);
  ASSERT_EQ(h.names.size(), 1000u);
  EXPECT_DOUBLE_EQ(h.series[0].back().elo, final.engines[0].elo);
}

// The mean depth is over the moves an engine reported a depth for, credited to the engine that moved.
TEST(ReportStandings, MeanDepthIsOverTheMovesThatReportedOne) {
  GameRecord g = game(1, "a", "b", "1-0");
  g.moves = {Move::at(3), Move::at(6), Move::at(3), Move::at(1)};  // a (extra turn), a, b, a
  g.opening.clear();
  g.move_info.resize(4);
  g.move_info[0].depth = 4;
  g.move_info[1].depth = 8;
  g.move_info[2].depth = 5;
  const Standings s = rating::compute_standings({g}, {"a", "b"});
  EXPECT_EQ(find(s, "a").moves_with_depth, 2);
  EXPECT_DOUBLE_EQ(find(s, "a").mean_depth, 6.0);
  EXPECT_EQ(find(s, "b").moves_with_depth, 1);
  EXPECT_DOUBLE_EQ(find(s, "b").mean_depth, 5.0);
  EXPECT_NE(standings_json(s, "d").find(R"("mean_depth": 6)"), std::string::npos) << standings_json(s, "d");
}

// The two games of a colour-swapped pair (schedule ids "r1-0v1-p0-g0" / "r1-1v0-p0-g1", or an SPRT's
// "sprt-p3-g0" / "sprt-p3-g1") make one pentanomial count per crosstable cell; half a pair makes none.
TEST(ReportStandings, ColourSwappedPairsArePentanomialCounts) {
  auto with_id = [](GameRecord g, const std::string& id) {
    g.id = id;
    return g;
  };
  const std::vector<GameRecord> games = {
      with_id(game(1, "a", "b", "1-0"), "r1-0v1-p0-g0"), with_id(game(2, "b", "a", "1/2-1/2"), "r1-1v0-p0-g1"),
      with_id(game(3, "a", "b", "1-0"), "r1-0v1-p1-g0"), with_id(game(4, "a", "b", "1-0"), "sprt-p3-g0"),
      with_id(game(5, "b", "a", "0-1"), "sprt-p3-g1"),   with_id(game(6, "b", "a", "1-0"), "not-a-pair")};
  const Standings s = rating::compute_standings(games, {"a", "b"});
  ASSERT_EQ(s.engines[0].name, "a");
  EXPECT_EQ(s.crosstable[0][1].penta, (std::array<int, 5>{0, 0, 0, 1, 1}));
  EXPECT_EQ(s.crosstable[1][0].penta, (std::array<int, 5>{1, 1, 0, 0, 0}));
  EXPECT_EQ(s.crosstable[0][1].pairs(), 2);
  EXPECT_EQ(s.crosstable[0][1].wins, 4);
  EXPECT_EQ(s.crosstable[0][1].draws, 1);
  EXPECT_EQ(s.crosstable[0][1].losses, 1);
  EXPECT_NE(report_html(s, {}, "p").find("[0 0 0 1 1]"), std::string::npos);
}

// A path in Markdown is a code span: shown as written (an underscore is not escaped into "\_"), whatever
// backticks or line breaks it holds.
TEST(ReportMarkdown, ACodeSpanShowsAPathAsWritten) {
  EXPECT_EQ(markdown_code("/tmp/kalah_x/report.html"), "`/tmp/kalah_x/report.html`");
  EXPECT_EQ(markdown_code("a`b"), "``a`b``");
  EXPECT_EQ(markdown_code("``x"), "``` ``x ```");
  EXPECT_EQ(markdown_code("two\nlines"), "`two lines`");
}

// Engine names are anybody's text: in a spreadsheet they stay text, in Markdown they stay plain.
TEST(ReportCsv, NamesCannotBecomeFormulasOrMarkup) {
  EXPECT_EQ(csv_field("=1+2"), "'=1+2");
  EXPECT_EQ(csv_field("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(csv_field("+cmd"), "'+cmd");
  EXPECT_EQ(csv_field("-x"), "'-x");
  EXPECT_EQ(csv_field("=a,b"), "\"'=a,b\"");
  EXPECT_EQ(csv_field("plain-name"), "plain-name");
  EXPECT_EQ(markdown_escape("a|b*c_[d]<e>&#~`"), "a\\|b\\*c\\_\\[d\\]&lt;e&gt;&amp;\\#\\~\\`");
  const std::vector<GameRecord> games = {game(1, "=1+2", "a|b<i>", "1-0"), game(2, "a|b<i>", "=1+2", "0-1")};
  const Standings s = rating::compute_standings(games, {"=1+2", "a|b<i>"});
  const std::string csv = standings_csv(s);
  EXPECT_NE(csv.find("\n1,'=1+2,"), std::string::npos) << csv;
  const std::string md = standings_markdown(s, "e");
  EXPECT_NE(md.find("a\\|b&lt;i&gt;"), std::string::npos) << md;
  EXPECT_EQ(md.find("<i>"), std::string::npos) << md;
  EXPECT_EQ(report_html(s, games, "e").find("<i>"), std::string::npos);
}

// An anchor moves every rating by the same amount (the likelihood sees differences only): holding beta
// at 1500 adds exactly 1500 - beta's rating to each engine's; beta's own interval becomes 0 and the
// others' are relative to it. The reports say where the ratings are held.
TEST(ReportStandings, AnAnchorShiftsEveryRatingByTheSameAmount) {
  rating::StandingsBuilder plain(kEngines);
  rating::StandingsBuilder anchored(kEngines);
  anchored.set_anchor(rating::Anchor{"beta", 1500});
  for (const GameRecord& g : hand_games()) {
    plain.add(g);
    anchored.add(g);
  }
  const Standings a = plain.standings();
  const Standings b = anchored.standings();
  ASSERT_TRUE(b.anchor);
  const double shift = 1500 - find(a, "beta").elo;
  for (const char* name : {"alpha", "beta", "gamma"}) EXPECT_NEAR(find(b, name).elo, find(a, name).elo + shift, 1e-6);
  EXPECT_NEAR(find(b, "beta").elo, 1500, 1e-9);
  EXPECT_NEAR(find(b, "beta").ci95, 0, 1e-6);
  EXPECT_GT(find(b, "alpha").ci95, 0);
  EXPECT_NEAR(*find(b, "alpha").diff_next, *find(a, "alpha").diff_next, 1e-6) << "differences do not move";
  EXPECT_NE(standings_markdown(b, "x").find("beta held at 1500 (± relative to it)"), std::string::npos);
  EXPECT_NE(standings_json(b, "x").find(R"x("normalisation": "beta held at 1500 (± relative to it)")x"),
            std::string::npos);
  EXPECT_NE(standings_json(a, "x").find(R"("normalisation": "mean 0")"), std::string::npos);
}

TEST(ReportCsv, NamesWithCommasAreQuoted) {
  std::vector<GameRecord> games = {game(1, "a,b", "say \"hi\"", "1-0")};
  const std::string csv = standings_csv(rating::compute_standings(games, {}));
  EXPECT_NE(csv.find("\"a,b\""), std::string::npos) << csv;
  EXPECT_NE(csv.find("\"say \"\"hi\"\"\""), std::string::npos) << csv;
}

TEST(ReportJson, HoldsStandingsCrosstableTerminationsAndFirstMover) {
  const Standings s = rating::compute_standings(hand_games(), kEngines);
  const boost::json::value v = boost::json::parse(standings_json(s, "hand"));
  EXPECT_EQ(v.at("event").as_string(), "hand");
  EXPECT_EQ(v.at("games").as_int64(), 20);
  const auto& engines = v.at("engines").as_array();
  ASSERT_EQ(engines.size(), 3u);
  EXPECT_EQ(engines[0].at("name").as_string(), "alpha");
  EXPECT_EQ(engines[0].at("points").to_number<double>(), 9.0);
  EXPECT_EQ(engines[2].at("forfeits_by_reason").at("illegal").as_int64(), 1);
  EXPECT_TRUE(engines[2].at("los_next").is_null());
  EXPECT_TRUE(engines[2].at("diff_next").is_null());
  EXPECT_GT(engines[0].at("diff_next").to_number<double>(), 0.0);
  EXPECT_GT(engines[0].at("diff_next_ci95").to_number<double>(), 0.0);
  const auto& row = v.at("crosstable").as_array()[0];
  EXPECT_EQ(row.at("name").as_string(), "alpha");
  EXPECT_EQ(row.at("against").at("beta").at("points").to_number<double>(), 5.0);
  EXPECT_EQ(row.at("against").at("gamma").at("games").as_int64(), 4);
  EXPECT_EQ(v.at("terminations").at("normal").as_int64(), 14);
  EXPECT_EQ(v.at("first_mover").at("south_wins").as_int64(), 10);
}

TEST(ReportMarkdown, HasEveryTable) {
  const std::string md = standings_markdown(rating::compute_standings(hand_games(), kEngines), "hand");
  for (const char* part :
       {"# hand: standings",
        "| Rank | Engine | Elo | ± | Games | Points | Score | W | D | L | Forfeits | Elo over next | ± | LOS next |",
        "| 1 | alpha | +", "| 12 | 9.0 | 75.0% | 8 | 2 | 2 | 1 |", "## Crosstable", "|  | alpha | beta | gamma |",
        "| alpha | · | 5.0/8 | 4.0/4 |", "| gamma | 0.0/4 | 3.0/8 | · |", "## Terminations", "| normal | 14 |",
        "| majority | 1 |", "## Forfeits", "| gamma | 3 | 1 | 0 | 1 | 1 | 0 |", "## First-mover advantage",
        "| 20 | 10 | 4 | 6 | 60.0% |"})
    EXPECT_NE(md.find(part), std::string::npos) << "missing: " << part << "\n" << md;
}

TEST(ReportTable, ListsEnginesInRankOrder) {
  const std::string table = format_standings_table(rating::compute_standings(hand_games(), kEngines));
  const std::size_t a = table.find("alpha"), b = table.find("beta"), c = table.find("gamma");
  ASSERT_NE(c, std::string::npos) << table;
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  EXPECT_NE(table.find("Rank"), std::string::npos);
  EXPECT_NE(table.find("75.0%"), std::string::npos) << table;
  EXPECT_NE(table.find("20 games"), std::string::npos) << table;
}

// Reads a PGN file the way Ordo does (tags found line by line) and returns
// (white, black, result) per game.
std::vector<std::tuple<std::string, std::string, std::string>> ordo_read(const std::string& pgn) {
  std::vector<std::tuple<std::string, std::string, std::string>> games;
  std::string white, black, result;
  std::istringstream in(pgn);
  for (std::string line; std::getline(in, line);) {
    const auto tag = [&](const std::string& name, std::string& out) {
      const std::string open = "[" + name + " \"";
      const std::size_t at = line.find(open);
      if (at == std::string::npos) return;
      const std::size_t end = line.find("\"]", at);
      ASSERT_NE(end, std::string::npos) << line;
      out = line.substr(at + open.size(), end - at - open.size());
    };
    tag("White", white);
    tag("Black", black);
    tag("Result", result);
    if (!white.empty() && !black.empty() && !result.empty()) {
      games.emplace_back(white, black, result);
      white.clear(), black.clear(), result.clear();
    }
  }
  return games;
}

TEST(ReportPgn, RatingToolsReadTagsAndResults) {
  const std::vector<GameRecord> games = hand_games();
  const std::string pgn = games_pgn(games, "hand");
  const auto read = ordo_read(pgn);
  ASSERT_EQ(read.size(), games.size());
  for (std::size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(std::get<0>(read[i]), games[i].south);
    EXPECT_EQ(std::get<1>(read[i]), games[i].north);
    EXPECT_EQ(std::get<2>(read[i]), to_string(games[i].result));
  }
  for (const char* part :
       {"[Event \"hand\"]", "[Site \"Kalah Arena\"]", "[Date \"2026.12.02\"]", "[Round \"1\"]",
        "[Variant \"pits=6 seeds=4 capture=standard ending=side-empty remainder=owner "
        "majority=off pie=off\"]",
        "[Termination \"time forfeit\"]", "[KalahTermination \"time\"]", "[TimeControl \"?\"]", "[GameId \"g10\"]",
        "\n{plies: S3 S1 N2 } 1-0\n", "{gamma forfeits (time): no bestmove within 2050 ms} 0-1\n"})
    EXPECT_NE(pgn.find(part), std::string::npos) << "missing: " << part;

  // BayesElo's lexer reads "1-", "0-" and "1/" as a result: only the last
  // token of each movetext may start that way.
  std::istringstream in(pgn);
  int results = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '[') continue;
    std::istringstream words(line);
    std::vector<std::string> tokens;
    for (std::string w; words >> w;) tokens.push_back(w);
    bool in_comment = false;
    for (std::size_t t = 0; t < tokens.size(); ++t) {
      const std::string& w = tokens[t];
      if (w.front() == '{') in_comment = true;
      const bool looks_like_result =
          !in_comment && (w.rfind("1-", 0) == 0 || w.rfind("0-", 0) == 0 || w.rfind("1/", 0) == 0);
      if (w.back() == '}') in_comment = false;
      if (looks_like_result) {
        EXPECT_EQ(t + 1, tokens.size()) << line;
        ++results;
      }
    }
  }
  EXPECT_EQ(results, 20);
}

TEST(ReportHtml, IsSelfContainedAndHoldsEveryGame) {
  const std::vector<GameRecord> games = hand_games();
  const std::string html = report_html(rating::compute_standings(games, kEngines), games, "hand <&> event");
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("<h1>hand &lt;&amp;&gt; event</h1>"), std::string::npos);
  // The standings row under its heads: Points, W, D, L, Games, Score, ...
  EXPECT_NE(html.find("<th>Points</th><th>W</th><th>D</th><th>L</th><th>Games</th><th>Score</th>"), std::string::npos);
  EXPECT_NE(html.find(">alpha</td><td>9.0</td><td>8</td><td>2</td><td>2</td><td>12</td><td>75.0%</td>"),
            std::string::npos)
      << html;
  for (const GameRecord& g : games) EXPECT_NE(html.find("\"id\":\"" + g.id + "\""), std::string::npos) << g.id;
  // The embedded boards come from the rules: after 3 (South, extra turn), 1, 2.
  EXPECT_NE(html.find("\"boards\":[[4,4,4,4,4,4,0,4,4,4,4,4,4,0],[4,4,0,5,5,5,1,4,4,4,4,4,4,0],"
                      "[0,5,1,6,6,5,1,4,4,4,4,4,4,0],[0,5,1,6,6,5,1,4,0,5,5,5,5,0]]"),
            std::string::npos);
}

TEST(ReportHtml, EmbeddedJsonCannotCloseTheScript) {
  std::vector<GameRecord> games = {game(1, "</script><b>", "x", "1-0")};
  const std::string html = report_html(rating::compute_standings(games, {}), games, "e");
  EXPECT_EQ(html.find("</script><b>"), std::string::npos);
  EXPECT_NE(html.find("\\u003c/script\\u003e\\u003cb\\u003e"), std::string::npos);
}

TEST(ReportHtml, IllegalMoveStopsTheReplayWithANote) {
  GameRecord g = game(1, "a", "b", "0-1", Termination::Illegal, Forfeit{"a", Termination::Illegal, "bestmove 3"});
  g.moves = {Move::at(3), Move::at(3)};  // pit 3 is empty on the extra turn
  const std::string html = report_html(rating::compute_standings({g}, {}), {g}, "e");
  EXPECT_NE(html.find("Move 2 (3) is not legal in this position"), std::string::npos);
}

// No output may contain nan or inf, even when one engine won every game (its
// plain maximum-likelihood Elo would be infinite).
TEST(ReportAll, NoNanOrInfWhenOneEngineWinsEverything) {
  std::vector<GameRecord> games;
  int n = 0;
  for (int round = 0; round < 3; ++round) {
    games.push_back(game(++n, "champ", "b", "1-0"));
    games.push_back(game(++n, "b", "champ", "0-1"));
    games.push_back(game(++n, "champ", "c", "1-0"));
    games.push_back(game(++n, "c", "champ", "0-1"));
    games.push_back(game(++n, "b", "c", round == 0 ? "1/2-1/2" : "1-0"));
  }
  for (const std::vector<GameRecord>& set : {games, std::vector<GameRecord>{}, hand_games()}) {
    const Standings s = rating::compute_standings(set, {"champ", "b", "c"});
    const std::string outputs[] = {standings_json(s, "e"), standings_markdown(s, "e"), standings_csv(s),
                                   games_pgn(set, "e"),    report_html(s, set, "e"),   format_standings_table(s)};
    for (const std::string& out : outputs) EXPECT_FALSE(test::search(out, R"(\b-?(nan|inf|infinity)\b)", true)) << out;
    for (const EngineStanding& e : s.engines) {
      EXPECT_TRUE(std::isfinite(e.elo) && std::isfinite(e.ci95)) << e.name;
      if (e.los_next) {
        EXPECT_TRUE(std::isfinite(*e.los_next));
      }
    }
  }
  const Standings s = rating::compute_standings(games, {"champ", "b", "c"});
  EXPECT_TRUE(s.prior_used);
  EXPECT_EQ(s.engines[0].name, "champ");
  EXPECT_DOUBLE_EQ(s.engines[0].score_pct, 100.0);
}

// A game with random legal moves (for the written example files). With
// `forfeit_at`, the engine to move after that many plies loses on time.
GameRecord random_game(int n, const std::string& south, const std::string& north, std::uint64_t seed,
                       const Variant& variant, std::optional<std::size_t> forfeit_at = std::nullopt) {
  std::mt19937_64 rng(seed);
  GameRecord g = game(n, south, north, "1-0");
  g.variant = variant;
  g.moves.clear();
  g.opening.clear();
  g.move_info.clear();
  Position p = start_position(g.variant);
  while (!p.over && g.moves.size() != forfeit_at) {
    const MoveList legal = legal_moves(g.variant, p);
    const Move m = legal.moves[std::uniform_int_distribution<int>(0, legal.size - 1)(rng)];
    if (g.moves.empty()) {  // a one-ply opening
      g.opening.push_back(m);
    } else {
      g.move_info.emplace_back();
      g.move_info.back().time_ms = 0.5 * static_cast<double>(1 + rng() % 60);
      g.move_info.back().depth = 6;
      g.move_info.back().score = static_cast<int>(rng() % 11) - 5;
      g.move_info.back().nodes = static_cast<long long>(rng() % 5000);
    }
    g.moves.push_back(m);
    apply(g.variant, p, m);
  }
  g.store_south = store(g.variant, p, Side::South);
  g.store_north = store(g.variant, p, Side::North);
  g.swapped = p.swapped;
  g.duration_ms = 3.25 * static_cast<double>(g.moves.size());
  if (p.over) {
    g.result = outcome(g.variant, p);
    return g;
  }
  const bool first_player_to_move = (p.to_move == Side::South) != p.swapped;
  g.result = first_player_to_move ? Outcome::SecondWins : Outcome::FirstWins;
  g.termination = Termination::Time;
  g.forfeit = Forfeit{first_player_to_move ? south : north, Termination::Time, "no bestmove within 2050 ms"};
  return g;
}

// Time odds: each side's own clock in tags of its own; a start position in KalahStart, never FEN/SetUp.
TEST(ReportPgn, TimeOddsAndAStartPositionHaveTagsOfTheirOwn) {
  const Variant v;
  GameRecord g = random_game(1, "a", "b", 7, v);
  std::string pgn = pgn_game(g, "e", "10+0.1", "10+0.1", "10+0.1");
  EXPECT_NE(pgn.find("[TimeControl \"10+0.1\"]\n[Termination"), std::string::npos) << pgn;
  pgn = pgn_game(g, "e", "10+0.1", "40/60+0.6", "10+0.1");
  EXPECT_NE(pgn.find("[TimeControl \"?\"]\n[WhiteTimeControl \"40/60+0.6\"]\n[BlackTimeControl \"10+0.1\"]\n"),
            std::string::npos)
      << pgn;
  EXPECT_EQ(pgn.find("KalahStart"), std::string::npos);
  g.start = *parse_start(v, "5,5,5,5,5,5/3,3,3,3,3,3 0-0 S");
  g.moves = {Move::at(1)};
  pgn = pgn_game(g, "e");
  EXPECT_NE(pgn.find("[Variant \"" + to_string(v) + "\"]\n[KalahStart \"5,5,5,5,5,5/3,3,3,3,3,3 0-0 S\"]\n"),
            std::string::npos)
      << pgn;
  EXPECT_NE(pgn.find("{plies: S1 }"), std::string::npos) << pgn;
  EXPECT_EQ(pgn.find("FEN"), std::string::npos);
}

// The plies are one comment, side and pit per ply, wrapped before 80 columns; outside comments the
// movetext is the result alone, so chess tools read no move numbers.
TEST(ReportPgn, PliesAreACommentAndTheMovetextIsTheResult) {
  Variant v;
  v.pie = true;
  GameRecord g = random_game(1, "a", "b", 99, v);
  g.opening.clear();
  ASSERT_GT(g.moves.size(), 20u) << "long enough to wrap";
  const std::string pgn = games_pgn({g}, "e", "10+0.1");
  EXPECT_NE(pgn.find("[TimeControl \"10+0.1\"]\n"), std::string::npos);
  const std::string body = pgn.substr(pgn.find("\n\n") + 2);
  std::string outside, inside;
  int depth = 0;
  for (char c : body) {
    if (c == '{') ++depth;
    (depth > 0 ? inside : outside) += c;
    if (c == '}') --depth;
  }
  std::istringstream rest(outside);
  std::vector<std::string> tokens;
  for (std::string w; rest >> w;) tokens.push_back(w);
  EXPECT_EQ(tokens, std::vector<std::string>{to_string(g.result)});
  std::istringstream plies(inside.substr(inside.find("{plies:") + 7));
  std::size_t count = 0;
  for (std::string w; plies >> w && w != "}";) {
    EXPECT_TRUE(test::full_match(w, "[SN]([1-9][0-9]?|swap)")) << w;
    ++count;
  }
  EXPECT_EQ(count, g.moves.size());
  std::istringstream in(pgn);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '[') {
      EXPECT_LT(line.size(), 80u) << line;
    }
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The names of the temporary files (".<name>.tmp-<host>-<pid>-<n>", referee/system/files.h) in `dir`.
std::vector<std::string> temporaries_in(const fs::path& dir) {
  std::vector<std::string> found;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().find(".tmp-") != std::string::npos)
      found.push_back(entry.path().filename().string());
  return found;
}

// Writes the reports of a small tournament. With KALAH_REPORT_EXAMPLES=DIR set,
// they are also written to DIR (docs/FORMATS.md quotes them).
TEST(ReportAll, WritesEveryFile) {
  // Kalah(4,3) with the pie rule keeps the example lines short.
  Variant variant;
  variant.pits = 4;
  variant.seeds = 3;
  variant.pie = true;
  std::vector<GameRecord> games;
  const std::vector<std::string> names = {"alpha", "beta", "gamma"};
  int n = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (i != j)
        for (int k = 0; k < 2; ++k) {
          ++n;
          games.push_back(random_game(n, names[i], names[j], 1000 + n, variant,
                                      n == 4 ? std::optional<std::size_t>(5) : std::nullopt));
        }

  const system::TempFolder temp("kalah-report-test");
  std::vector<fs::path> dirs = {temp.path()};
  if (const char* examples = std::getenv("KALAH_REPORT_EXAMPLES")) dirs.emplace_back(examples);
  for (const fs::path& dir : dirs) {
    fs::create_directories(dir);
    {
      std::ofstream out(dir / "games.jsonl");
      for (const GameRecord& g : games) out << to_json_line(g) << "\n";
    }
    const Expected<ReportSummary> written = write_reports(dir, {.journals = {{dir / "games.jsonl", "example"}},
                                                                .engine_names = names,
                                                                .event = "example",
                                                                .notes = {},
                                                                .description = {},
                                                                .publish = false,
                                                                .anchor = {}});
    ASSERT_TRUE(written) << written.error();
    EXPECT_EQ(written->games, games.size());
    for (const char* file : kReportFiles) EXPECT_TRUE(fs::exists(dir / file)) << file;
    EXPECT_EQ(temporaries_in(dir), std::vector<std::string>{});
    EXPECT_EQ(read_all(dir / "standings.csv"),
              standings_csv(rating::compute_standings(games, names, rating::Intervals::With)));
    EXPECT_EQ(read_all(dir / "games.pgn"), games_pgn(games, "example"));
  }
  const fs::path missing = "/proc/no-such-dir/x";
  const Expected<ReportSummary> failed = write_reports(missing, {.journals = {{missing / "games.jsonl", "x"}},
                                                                 .engine_names = names,
                                                                 .event = "e",
                                                                 .notes = {},
                                                                 .description = {},
                                                                 .publish = false,
                                                                 .anchor = {}});
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().find("/proc/no-such-dir/x"), std::string::npos) << failed.error();
}

// A report that fails half-way (here report.html cannot replace a directory of that name) says why and
// leaves no temporary file behind: neither the one that failed nor those written before it.
TEST(WriteReports, AFailureLeavesNoTemporaryFileBehind) {
  const system::TempFolder temp("kalah-report-fail");
  const fs::path& dir = temp.path();
  fs::create_directories(dir / "report.html" / "occupied");
  Variant variant;
  {
    std::ofstream out(dir / "games.jsonl");
    for (int n = 1; n <= 4; ++n) out << to_json_line(random_game(n, "a", "b", 7 + n, variant, std::nullopt)) << "\n";
  }
  const Expected<ReportSummary> written = write_reports(dir, {.journals = {{dir / "games.jsonl", "t"}},
                                                              .engine_names = {"a", "b"},
                                                              .event = "t",
                                                              .notes = {},
                                                              .description = {},
                                                              .publish = false,
                                                              .anchor = {}});
  ASSERT_FALSE(written);
  EXPECT_NE(written.error().find("report.html"), std::string::npos) << written.error();
  EXPECT_EQ(temporaries_in(dir), std::vector<std::string>{});
}

// ---- merging journals, streamed

class MergeReportTest : public ::testing::Test {
 protected:
  fs::path journal(const std::string& name, const std::vector<GameRecord>& games, const std::string& tail = "") {
    const fs::path path = dir_ / name;
    std::ofstream out(path);
    for (const GameRecord& g : games) out << to_json_line(g) << "\n";
    out << tail;
    return path;
  }

  std::vector<GameRecord> games(int from, int to) {
    Variant v;
    v.pits = 4;
    v.seeds = 3;
    std::vector<GameRecord> out;
    const std::vector<std::string> names = {"alpha", "beta", "gamma"};
    for (int n = from; n < to; ++n) out.push_back(random_game(n, names[n % 3], names[(n + 1) % 3], 50 + n, v));
    return out;
  }

  system::TempFolder temp_{"kalah-merge-test"};
  const fs::path& dir_ = temp_.path();
};

TEST_F(MergeReportTest, CountsAGameInTwoJournalsOnceAndNamesIncompleteOnes) {
  const std::vector<GameRecord> all = games(0, 30);
  const std::vector<GameRecord> first(all.begin(), all.begin() + 20), second(all.begin() + 15, all.end());
  // The second journal repeats five games of the first and was cut in the middle of a line.
  const fs::path a = journal("a.jsonl", first);
  const fs::path b = journal("b.jsonl", second, "{\"id\":\"half");
  const Expected<ReportSummary> merged =
      write_reports(dir_ / "out", {.journals = {{a, "shard 1/3", 20}, {b, "shard 2/3", 20}},
                                   .engine_names = {"alpha", "beta", "gamma"},
                                   .event = "merged",
                                   .notes = {"shard 3/3 has no journal"},
                                   .description = {},
                                   .publish = false,
                                   .anchor = {}});
  ASSERT_TRUE(merged) << merged.error();
  EXPECT_EQ(merged->games, 30u);
  EXPECT_EQ(merged->standings.games, 30);
  EXPECT_EQ(read_all(dir_ / "out" / "standings.csv"),
            standings_csv(rating::compute_standings(all, {"alpha", "beta", "gamma"}, rating::Intervals::With)));
  EXPECT_EQ(read_all(dir_ / "out" / "games.pgn"), games_pgn(all, "merged"));
  // The second holds 15 games of its 20 (five of them also in the first): incomplete.
  EXPECT_EQ(merged->notes, (Notes{"shard 3/3 has no journal", "shard 2/3 is incomplete: 15 of 20 games"}));
  ASSERT_EQ(merged->warnings.size(), 2u);
  EXPECT_NE(merged->warnings[0].find("b.jsonl:16: incomplete last line ignored"), std::string::npos)
      << merged->warnings[0];
  EXPECT_NE(merged->warnings[1].find("5 games are also in an earlier journal"), std::string::npos)
      << merged->warnings[1];
  const std::string md = read_all(dir_ / "out" / "standings.md");
  EXPECT_NE(md.find("> **Note:** shard 2/3 is incomplete: 15 of 20 games"), std::string::npos) << md;
  EXPECT_NE(read_all(dir_ / "out" / "standings.json").find("\"notes\""), std::string::npos);
}

TEST_F(MergeReportTest, TheBuilderGivesTheSameStandingsAtEveryPointAsAFreshComputation) {
  const std::vector<GameRecord> all = games(0, 60);
  const std::vector<std::string> names = {"alpha", "beta"};  // gamma only appears in the games
  rating::StandingsBuilder builder(names);
  std::vector<GameRecord> so_far;
  for (const GameRecord& g : all) {
    builder.add(g);
    so_far.push_back(g);
    if (so_far.size() % 15 != 0) continue;
    EXPECT_EQ(standings_json(builder.standings(), "e"), standings_json(rating::compute_standings(so_far, names), "e"))
        << so_far.size() << " games";
    EXPECT_EQ(builder.games(), static_cast<int>(so_far.size()));
  }
  EXPECT_EQ(builder.names(), (std::vector<std::string>{"alpha", "beta", "gamma"}));
}

TEST_F(MergeReportTest, TheViewerHoldsTheLastGamesOfABigRun) {
  const std::size_t n = kViewerGames + 25;
  const std::vector<GameRecord> all = games(0, static_cast<int>(n));
  const fs::path a = journal("a.jsonl", all);
  const Expected<ReportSummary> written = write_reports(dir_ / "out", {.journals = {{a, "a"}},
                                                                       .engine_names = {},
                                                                       .event = "big",
                                                                       .notes = {},
                                                                       .description = {},
                                                                       .publish = false,
                                                                       .anchor = {}});
  ASSERT_TRUE(written) << written.error();
  const std::string html = read_all(dir_ / "out" / "report.html");
  EXPECT_NE(html.find(fmt::format("The viewer holds the last {} of the {} games", kViewerGames, n)), std::string::npos);
  EXPECT_EQ(html.find("\"id\":\"" + all[24].id + "\""), std::string::npos) << "an early game is left out";
  EXPECT_NE(html.find("\"id\":\"" + all[25].id + "\""), std::string::npos);
  EXPECT_NE(html.find("\"id\":\"" + all.back().id + "\""), std::string::npos);
}

// A Swiss tournament's and a knockout's own standings, drawn from the description and the results by id.
TEST(FormReport, SwissTableAndKnockoutBracket) {
  const std::vector<std::string> names = {"alpha", "beta", "gamma"};
  EXPECT_FALSE(tournament_form(described({{"type", "round-robin"}, {"rounds", "2"}}), names, {}));
  EXPECT_FALSE(tournament_form(described({{"type", "knockout"}, {"rounds", "1"}}), names, {})) << "no tiebreak_pairs";

  // Round 1 of three engines: alpha (seed 1) v beta, gamma rests; alpha wins both games.
  const arena::GameResults swiss_results = {{"r1-0v1-p0-g0", 1.0}, {"r1-1v0-p0-g1", 0.0}};
  const auto swiss = tournament_form(described({{"type", "swiss"}, {"rounds", "2"}}), names, swiss_results);
  ASSERT_TRUE(swiss);
  const std::string text = form_text(*swiss);
  EXPECT_NE(text.find("Swiss standings after 1 of 2 rounds"), std::string::npos) << text;
  EXPECT_NE(text.find("Round 1: alpha 2.0-0.0 beta; bye: gamma\n"), std::string::npos) << text;
  // Round 2 is paired (alpha 2 points, gamma 1 from the bye, beta 0): gamma rested, so beta does now, and
  // gamma, never first yet, is South in the pair's first game.
  EXPECT_NE(text.find("Round 2: gamma playing alpha; bye: beta\n"), std::string::npos) << text;
  EXPECT_NE(text.find("after 1 of 2 rounds (round 2 in progress)"), std::string::npos) << text;
  const std::string md = form_markdown(*swiss);
  EXPECT_NE(md.find("| 1 | alpha | 2.0 | 2.0 | 2 | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 3 | gamma | 1.0 | 2.0 | 1 | 1 |"), std::string::npos) << "the pair in progress counts" << md;
  EXPECT_NE(md.find("\n## Rating list\n"), std::string::npos);
  EXPECT_NE(form_html(*swiss).find("<section id=\"swiss\">"), std::string::npos);

  // Three engines in a bracket of four: alpha has the bye, beta v gamma is tied after its pair and
  // its one tie-break pair, so beta goes through as the better seed; the final is still to play.
  const arena::GameResults knockout_results = {
      {"r1-1v2-p0-g0", 1.0}, {"r1-2v1-p0-g1", 1.0}, {"r1-1v2-p1-g0", 0.5}, {"r1-2v1-p1-g1", 0.5}};
  const auto knockout = tournament_form(described({{"type", "knockout"}, {"rounds", "1"}, {"tiebreak_pairs", "1"}}),
                                        names, knockout_results);
  ASSERT_TRUE(knockout);
  const std::string bracket = form_text(*knockout);
  EXPECT_NE(bracket.find("Semi-finals\n  [1] alpha"), std::string::npos) << bracket;
  EXPECT_NE(bracket.find("beta goes through as the better seed (tied after 2 pairs)"), std::string::npos) << bracket;
  EXPECT_NE(bracket.find("Final\n  [1] alpha"), std::string::npos) << bracket;
  EXPECT_NE(bracket.find("playing (0 pairs done)"), std::string::npos) << bracket;
  EXPECT_NE(bracket.find("Champion: not decided yet"), std::string::npos) << bracket;
  const std::string page = form_html(*knockout);
  EXPECT_NE(page.find("<section id=\"bracket\">"), std::string::npos);
  EXPECT_NE(page.find("<h3>Final</h3>"), std::string::npos);
  EXPECT_NE(form_markdown(*knockout).find("| Semi-finals | \\[2\\] beta | 2.0-2.0 | \\[3\\] gamma | beta goes through"),
            std::string::npos)
      << form_markdown(*knockout);
}

}  // namespace
}  // namespace kalah::report
