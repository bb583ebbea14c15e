// What a season's author is told of the analysis of their ladder games (arena/season/ladder_verdict.h): a game and its
// analysis joined into a verdict, the move that lost with the best moves there, the author's JSON (their side only,
// nobody else's games), losing.jsonl's lines, and the values of every move at a ply from the real analyser.
#include <gtest/gtest.h>

#include <algorithm>

#include <boost/json.hpp>

#include "arena/analysis/analyser.h"
#include "arena/season/ladder_verdict.h"

namespace kalah::season {
namespace {

namespace json = boost::json;

// A Kalah(6,4) game of `plies` plies, each the first legal move, South `south` and North `north`, won by North.
GameRecord first_moves_game(int plies, const std::string& south, const std::string& north) {
  GameRecord g;
  g.id = "l7-2v0-g1";
  g.south = south;
  g.north = north;
  Position p = g.initial_position();
  for (int i = 0; i < plies; ++i) {
    const Move m = *legal_moves(g.variant, p).begin();
    g.moves.push_back(m);
    apply(g.variant, p, m);
  }
  g.result = Outcome::SecondWins;
  return g;
}

// Who makes each ply of `g`: true for South's first player.
std::vector<bool> south_moves(const GameRecord& g) {
  std::vector<bool> out;
  Position p = g.initial_position();
  for (Move m : g.moves) {
    out.push_back(player_to_move(p) == Seat::First);
    apply(g.variant, p, m);
  }
  return out;
}

// An analysis of `g` in which South's first move after ply `from` turns +2 into -4 and every other ply is perfect.
analysis::GameAnalysis losing_at(const GameRecord& g, std::size_t from, std::size_t& losing) {
  const std::vector<bool> south = south_moves(g);
  analysis::GameAnalysis a{g.id, {}, {}};
  losing = g.moves.size();
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    const bool loses = south[i] && i >= from && losing == g.moves.size();
    if (loses) losing = i;
    const bool after = losing < i;
    a.value.push_back(after ? (south[i] ? -4 : 4) : (south[i] ? 2 : -2));
    a.loss.push_back(loses ? 6 : 0);
  }
  return a;
}

TEST(SeasonAnalysis, TheAuthorsLostGameNamesTheMoveThatLostItsValuesAndTheBestMoves) {
  const GameRecord g = first_moves_game(10, "alice-r2", "greedy");
  std::size_t losing = 0;
  const analysis::GameAnalysis a = losing_at(g, 3, losing);
  ASSERT_LT(losing, g.moves.size());
  // The values the analyst found at that ply: the move played -4, one other +2 (the best), one not proved.
  MoveValues values{g.id, static_cast<int>(losing) + 1, {}};
  Position p = g.initial_position();
  for (std::size_t i = 0; i < losing; ++i) apply(g.variant, p, g.moves[i]);
  const MoveList list = legal_moves(g.variant, p);
  const std::vector<Move> legal(list.begin(), list.end());
  ASSERT_GE(legal.size(), 3u);
  std::vector<Move> others;
  for (Move m : legal) {
    if (m == g.moves[losing])
      values.moves.emplace_back(m, -4);
    else
      others.push_back(m);
  }
  values.moves.emplace_back(others[0], 2);
  values.moves.emplace_back(others[1], std::nullopt);
  for (std::size_t i = 2; i < others.size(); ++i) values.moves.emplace_back(others[i], -1);

  const Expected<GameVerdict> verdict = judge_ladder_game(g, a, values);
  ASSERT_TRUE(verdict) << verdict.error();
  ASSERT_EQ(verdict->losing_ply, static_cast<int>(losing));
  AuthorGames games{1, 1, 1, {*verdict}};
  const json::object page = author_analysis_json("alice", games);
  EXPECT_EQ(page.at("games"), 1);
  EXPECT_EQ(page.at("lost"), 1);
  EXPECT_EQ(page.at("losing_moves"), 1);
  ASSERT_EQ(page.at("shown").as_array().size(), 1u);
  const json::object& shown = page.at("shown").as_array()[0].as_object();
  EXPECT_EQ(shown.at("id"), json::value(g.id));
  EXPECT_EQ(shown.at("engine"), "alice-r2");
  EXPECT_EQ(shown.at("opponent"), "greedy");
  EXPECT_EQ(shown.at("side"), "south");
  EXPECT_EQ(shown.at("result"), "0-1");
  EXPECT_EQ(shown.at("outcome"), "lost");
  EXPECT_EQ(shown.at("plies"), 10);
  EXPECT_EQ(shown.at("proved"), 10);
  const std::vector<bool> south = south_moves(g);
  const int south_moves_made = static_cast<int>(std::count(south.begin(), south.end(), true));
  EXPECT_EQ(shown.at("moves"), south_moves_made);
  EXPECT_EQ(shown.at("judged"), south_moves_made);
  EXPECT_EQ(shown.at("perfect"), south_moves_made - 1);
  EXPECT_EQ(shown.at("blunders"), 1);  // a loss of 6 is a blunder (>= 4)
  EXPECT_DOUBLE_EQ(shown.at("mean_loss").as_double(), 6.0 / south_moves_made);
  const json::object& lost = shown.at("losing_move").as_object();
  EXPECT_EQ(lost.at("ply"), static_cast<int>(losing) + 1);
  EXPECT_EQ(lost.at("move"), static_cast<int>(g.moves[losing].pit));
  EXPECT_EQ(lost.at("value_before"), 2);
  EXPECT_EQ(lost.at("value_after"), -4);
  EXPECT_EQ(lost.at("best"), (json::array{static_cast<int>(others[0].pit)}));
  EXPECT_EQ(lost.at("unproved"), (json::array{static_cast<int>(others[1].pit)}));
  // Nobody else is told anything of it: not the opponent, not an author whose name starts alike.
  for (const char* other : {"greedy", "bob", "alic", "alice-r"})
    EXPECT_EQ(author_analysis_json(other, games).at("shown").as_array().size(), 0u) << other;
}

TEST(SeasonAnalysis, AWonOrDrawnGameHasNoMoveThatLostAndNorthsSideIsTheAuthors) {
  GameRecord g = first_moves_game(8, "greedy", "bob-r1");
  std::size_t losing = 0;
  const analysis::GameAnalysis a = losing_at(g, 0, losing);  // greedy (South) threw it away; bob won
  const Expected<GameVerdict> verdict = judge_ladder_game(g, a);
  ASSERT_TRUE(verdict) << verdict.error();
  const json::object won = author_analysis_json("bob", AuthorGames{1, 0, 0, {*verdict}});
  const json::object& shown = won.at("shown").as_array()[0].as_object();
  EXPECT_EQ(shown.at("side"), "north");
  EXPECT_EQ(shown.at("outcome"), "won");
  EXPECT_TRUE(shown.at("losing_move").is_null());  // greedy's, not bob's to see as his
  g.result = Outcome::Draw;
  const Expected<GameVerdict> drawn = judge_ladder_game(g, a);
  ASSERT_TRUE(drawn);
  EXPECT_FALSE(drawn->losing_ply);
  EXPECT_EQ(author_analysis_json("bob", AuthorGames{1, 0, 0, {*drawn}}).at("shown").as_array()[0].at("outcome"),
            "drawn");
  // An analysis of another length than the game is no verdict.
  analysis::GameAnalysis short_one = a;
  short_one.value.pop_back();
  short_one.loss.pop_back();
  EXPECT_FALSE(judge_ladder_game(g, short_one));
}

TEST(SeasonAnalysis, LosingLinesRoundTripAndACutOrForeignLineIsNone) {
  const MoveValues m{"l3-0v2-g1", 17, {{Move::at(1), -4}, {Move::at(2), std::nullopt}, {Move::swap(), 2}}};
  const std::string line = to_line(m);
  EXPECT_EQ(line, "{\"id\":\"l3-0v2-g1\",\"ply\":17,\"moves\":[[1,-4],[2,null],[\"swap\",2]]}\n");
  const std::optional<MoveValues> back = move_values_from_line(std::string_view(line).substr(0, line.size() - 1));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->id, m.id);
  EXPECT_EQ(back->ply, 17);
  EXPECT_EQ(back->moves, m.moves);
  for (const char* bad :
       {"{\"id\":\"x\",\"ply\":17,\"moves\":[[1,-4],[2,nu", "{\"id\":\"x\",\"ply\":0,\"moves\":[]}",
        "{\"id\":\"x\",\"ply\":3,\"moves\":[[17,1]]}", "{\"id\":\"x\",\"ply\":3,\"moves\":[[1,\"a\"]]}",
        "{\"id\":\"x\",\"ply\":3,\"moves\":[],\"more\":1}", "[1]"})
    EXPECT_FALSE(move_values_from_line(bad)) << bad;
}

TEST(SeasonAnalysis, RevisionsOfAnAuthorAreTheirNameThenRAndANumber) {
  EXPECT_TRUE(is_revision_of("alice", "alice-r1"));
  EXPECT_TRUE(is_revision_of("alice", "alice-r12"));
  EXPECT_TRUE(is_revision_of("al-r1", "al-r1-r2"));
  EXPECT_TRUE(is_revision_of("swift-otter-42", "swift-otter-42-r3"));
  for (const char* engine : {"alice", "alice-r", "alice-r1x", "alice-rr1", "alicia-r1", "xalice-r1", "greedy"})
    EXPECT_FALSE(is_revision_of("alice", engine)) << engine;
}

TEST(SeasonAnalysis, EveryMovesValueAtAPlyAgreesWithTheAnalysersValueOfThePosition) {
  // Kalah(3,2): 12 seeds, the endgame database holds every position (built in memory, no cache).
  GameRecord g;
  g.id = "g";
  g.variant.pits = 3;
  g.variant.seeds = 2;
  Position p = g.initial_position();
  for (int i = 0; i < 3; ++i) {
    g.moves.push_back(*legal_moves(g.variant, p).begin());
    apply(g.variant, p, g.moves.back());
  }
  analysis::AnalyserOptions options;
  options.database_mb = 8;
  analysis::Databases databases(options);
  analysis::Analyser analyser(options, databases);
  for (std::size_t ply = 0; ply < g.moves.size(); ++ply) {
    const MoveValues values = value_moves(analyser, g, ply);
    EXPECT_EQ(values.ply, static_cast<int>(ply) + 1);
    Position at = g.initial_position();
    for (std::size_t i = 0; i < ply; ++i) apply(g.variant, at, g.moves[i]);
    const std::optional<int> value = analyser.value(g.variant, at);
    ASSERT_TRUE(value);
    int best = -1000;
    for (const auto& [move, v] : values.moves) {
      ASSERT_TRUE(v) << to_string(move);
      best = std::max(best, *v);
    }
    EXPECT_EQ(best, *value) << "ply " << ply + 1;  // perfect play: the position's value is its best move's
    EXPECT_EQ(values.moves.size(), static_cast<std::size_t>(legal_move_count(g.variant, at)));
  }
}

}  // namespace
}  // namespace kalah::season
