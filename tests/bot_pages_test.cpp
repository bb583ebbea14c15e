// The bot pages' renderer on fixed games: results per opponent, forfeits with their transcripts, escaping of
// everything an engine controls, the page's file name, and a contest entrant's voided games.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "arena/report/bot_pages.h"

namespace kalah::report {
namespace {

GameRecord game(std::string id, std::string south, std::string north, Outcome result,
                std::optional<Forfeit> forfeit = std::nullopt) {
  GameRecord g;
  g.id = std::move(id);
  g.round = 1;
  g.south = std::move(south);
  g.north = std::move(north);
  g.result = result;
  g.moves = {Move::at(3), Move::at(4)};
  if (forfeit) {
    g.termination = forfeit->reason;
    g.forfeit = std::move(forfeit);
  }
  return g;
}

TEST(BotPages, FileNamesKeepPlainNamesAndHashTheRest) {
  EXPECT_EQ(bot_page_path("alpha-1.2_b"), "bots/alpha-1.2_b.html");
  const std::string odd = bot_page_path("a/../b <x>");
  EXPECT_EQ(odd.substr(0, 16), "bots/a_.._b__x_-");
  EXPECT_EQ(odd.find('/', 5), std::string::npos);
  EXPECT_NE(bot_page_path(".."), "bots/...html");
  EXPECT_EQ(bot_page_path("..").find("bots/_."), 0u);
  EXPECT_NE(bot_page_path("a b"), bot_page_path("a_b"));  // two engines never share a page
}

TEST(BotPages, ResultsPerOpponentForfeitsAndTranscripts) {
  const arena::TournamentDescription description;
  BotPagesBuilder b({"alpha", "beta"}, description);
  b.add(game("g1", "alpha", "beta", Outcome::FirstWins), "/r");
  b.add(game("g2", "beta", "alpha", Outcome::FirstWins,
             Forfeit{"alpha", Termination::Illegal, "bestmove 9 (legal: 1 2 <3>)"}),
        "/r");
  b.add(game("g3", "alpha", "beta", Outcome::Draw), "/r");
  const BotResults& alpha = b.bots().at("alpha");
  EXPECT_EQ(alpha.games, 3);
  EXPECT_EQ(alpha.forfeits, 1);
  ASSERT_EQ(alpha.forfeit_games.size(), 1u);
  EXPECT_EQ(alpha.versus.at("beta").wins, 1);
  EXPECT_EQ(alpha.versus.at("beta").draws, 1);
  EXPECT_EQ(alpha.versus.at("beta").losses, 1);
  EXPECT_EQ(b.bots().at("beta").forfeits, 0);

  ShownTranscript t;
  t.file = "transcripts/g2.log";
  t.lines = "      3 alpha < bestmove 9 </pre><script>x()</script>\n";
  t.stderr_tail = "panic: <img src=x onerror=y()>\n";
  t.stderr_total = 31;
  const std::string page = bot_page_html(alpha, "ev<t>", {{"g2", t}});
  EXPECT_NE(page.find("<p>3 games, 1.5 points (50.0%), 1 wins, 1 draws, 1 losses, 1 by forfeit.</p>"),
            std::string::npos);
  // A Swiss bye's point counts in its points here as in every table (issue 23: one meaning of points).
  EXPECT_NE(bot_page_html(alpha, "ev", {}, 1.0)
                .find("<p>3 games, 2.5 points (1.0 of them for byes, points without a game; 50.0% of the games' "
                      "points), 1 wins, 1 draws, 1 losses, 1 by forfeit.</p>"),
            std::string::npos);
  EXPECT_NE(page.find("<h3>g2, round 1, as North against beta: illegal</h3>"), std::string::npos);
  EXPECT_NE(page.find("bestmove 9 (legal: 1 2 &lt;3&gt;)"), std::string::npos);
  EXPECT_NE(page.find("&lt;/pre&gt;&lt;script&gt;x()&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(page.find("panic: &lt;img src=x onerror=y()&gt;"), std::string::npos);
  EXPECT_NE(page.find("the last 31 of 31 bytes"), std::string::npos);
  EXPECT_NE(page.find("<a href=\"../transcripts/g2.log\">transcripts/g2.log</a>"), std::string::npos);
  EXPECT_NE(page.find("<a href=\"../report.html#game-g2/end\">replay g2</a>"), std::string::npos);
  EXPECT_NE(page.find("<title>alpha – ev&lt;t&gt;</title>"), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  // A forfeit without a transcript says so.
  EXPECT_NE(bot_page_html(alpha, "ev", {}).find("No transcript was kept for this game."), std::string::npos);
}

TEST(BotPages, AVoidedEntrantsGamesAreListedButNotCounted) {
  arena::TournamentDescription description;
  description.entries["gamma"] = {arena::EntryStatus::Disqualified, "copied <code>", false, std::nullopt};
  BotPagesBuilder b({"alpha", "gamma"}, description);
  b.add(game("g1", "alpha", "gamma", Outcome::SecondWins), "/r");
  b.add(game("g2", "gamma", "alpha", Outcome::FirstWins), "/r");
  const BotResults& alpha = b.bots().at("alpha");
  EXPECT_EQ(alpha.games, 0);
  EXPECT_EQ(alpha.voided, 2);
  const std::string page = bot_page_html(alpha, "ev", {});
  EXPECT_NE(page.find("2 more games were voided"), std::string::npos);
  EXPECT_NE(page.find("<td>loss (voided)</td>"), std::string::npos);
  const std::string gamma = bot_page_html(b.bots().at("gamma"), "ev", {});
  EXPECT_NE(gamma.find("<b>Disqualified</b>: copied &lt;code&gt;. Its games are voided"), std::string::npos);
}

}  // namespace
}  // namespace kalah::report
