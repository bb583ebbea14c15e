// `arena serve`'s access rules on their own (docs/SERVE.md): the listen address and its exposure policy, the
// token file and its comparison, and the request target read into a route, a 404 or a 400.
#include "arena/serve/access.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include "referee/system/temp_folder.h"
#include "tests/files.h"

namespace kalah::serve {
namespace {

namespace fs = std::filesystem;

TEST(ServeListen, ReadsIPv4AndBracketedIPv6AndSaysWhichAreLoopback) {
  const Expected<ListenAddress> local = parse_listen("127.0.0.1:8080");
  ASSERT_TRUE(local) << local.error();
  EXPECT_EQ(local->address, "127.0.0.1");
  EXPECT_EQ(local->port, 8080);
  EXPECT_TRUE(local->loopback);
  const Expected<ListenAddress> six = parse_listen("[::1]:0");
  ASSERT_TRUE(six) << six.error();
  EXPECT_EQ(six->address, "::1");
  EXPECT_TRUE(six->loopback);
  const Expected<ListenAddress> all = parse_listen("0.0.0.0:80");
  ASSERT_TRUE(all) << all.error();
  EXPECT_FALSE(all->loopback);
  EXPECT_TRUE(parse_listen("127.0.0.2:1")->loopback);
}

TEST(ServeListen, RefusesHostNamesBadPortsAndUnbracketedIPv6) {
  for (const char* bad : {"localhost:8080", "127.0.0.1", "127.0.0.1:", ":8080", "127.0.0.1:65536", "127.0.0.1:8o",
                          "::1:8080", "[::1:8080", "[]:80", "127.0.0.1:-1"})
    EXPECT_FALSE(parse_listen(bad)) << bad;
}

TEST(ServeListen, ANonLoopbackAddressNeedsATokenOrPublic) {
  const ListenAddress all = *parse_listen("0.0.0.0:8080");
  const std::optional<std::string> refusal = exposure_refusal(all, false, false);
  ASSERT_TRUE(refusal);
  EXPECT_NE(refusal->find("--token-file"), std::string::npos) << *refusal;
  EXPECT_NE(refusal->find("--public"), std::string::npos) << *refusal;
  EXPECT_FALSE(exposure_refusal(all, true, false));
  EXPECT_FALSE(exposure_refusal(all, false, true));
  EXPECT_FALSE(exposure_refusal(*parse_listen("127.0.0.1:8080"), false, false));
}

TEST(ServeToken, IsTheFirstLineOfARegularFileNeverALink) {
  system::TempFolder dir("serve-test");
  test::write_file(dir / "token", "0123456789abcdef0123\r\nsecond line\n");
  const Expected<std::string> token = read_token_file(dir / "token");
  ASSERT_TRUE(token) << token.error();
  EXPECT_EQ(*token, "0123456789abcdef0123");
  fs::create_symlink(dir / "token", dir / "link");
  EXPECT_FALSE(read_token_file(dir / "link"));
  test::write_file(dir / "short", "abc\n");
  EXPECT_FALSE(read_token_file(dir / "short"));
  test::write_file(dir / "spaced", "0123456789 abcdef0123\n");
  EXPECT_FALSE(read_token_file(dir / "spaced"));
  test::write_file(dir / "big", std::string(kMaxTokenFileBytes + 1, 'a'));
  EXPECT_FALSE(read_token_file(dir / "big"));
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  EXPECT_FALSE(read_token_file(dir / "fifo"));  // refused, not waited on
  EXPECT_FALSE(read_token_file(dir / "missing"));
}

TEST(ServeToken, ComparesWholeTokens) {
  EXPECT_TRUE(same_token("0123456789abcdef", "0123456789abcdef"));
  EXPECT_FALSE(same_token("0123456789abcdeF", "0123456789abcdef"));
  EXPECT_FALSE(same_token("0123456789abcde", "0123456789abcdef"));
  EXPECT_FALSE(same_token("0123456789abcdef0", "0123456789abcdef"));
  EXPECT_FALSE(same_token("", "0123456789abcdef"));
}

Route route_of(std::string_view target) {
  std::optional<std::string> token;
  const Target parsed = parse_target(target, token);
  EXPECT_TRUE(std::holds_alternative<Route>(parsed)) << target;
  return std::holds_alternative<Route>(parsed) ? std::get<Route>(parsed) : Route{};
}

TEST(ServeTarget, ReadsTheRoutesWithDecodedNamesAndIds) {
  EXPECT_EQ(route_of("/api/tournaments").kind, Route::Kind::Tournaments);
  const Route standings = route_of("/api/tournaments/my%20cup/standings");
  EXPECT_EQ(standings.kind, Route::Kind::Standings);
  EXPECT_EQ(standings.name, "my cup");
  const Route game = route_of("/api/tournaments/quick~2/games/r1-p2-g1?x=1");
  EXPECT_EQ(game.kind, Route::Kind::Game);
  EXPECT_EQ(game.name, "quick~2");
  EXPECT_EQ(game.id, "r1-p2-g1");
  const Route live = route_of("/api/tournaments/quick/live");
  EXPECT_EQ(live.kind, Route::Kind::Live);
  EXPECT_EQ(live.name, "quick");
  const Route viewer = route_of("/tournaments/quick~2/games/r1-p2-g1?token=abc");
  EXPECT_EQ(viewer.kind, Route::Kind::GamePage);
  EXPECT_EQ(viewer.name, "quick~2");
  EXPECT_EQ(viewer.id, "r1-p2-g1");
  for (const auto& [target, file] : {std::pair{"/", "index.html"},
                                     {"/?token=abc", "index.html"},
                                     {"/app.js", "app.js"},
                                     {"/app.css", "app.css"},
                                     {"/viewer.js", "viewer.js"},
                                     {"/viewer.css", "viewer.css"}}) {
    const Route page = route_of(target);
    EXPECT_EQ(page.kind, Route::Kind::Page) << target;
    EXPECT_EQ(page.name, file) << target;
  }
}

TEST(ServeTarget, ReadsTheListOfGamesWithItsPage) {
  const Route first = route_of("/api/tournaments/quick/games");
  EXPECT_EQ(first.kind, Route::Kind::Games);
  EXPECT_EQ(first.name, "quick");
  EXPECT_EQ(first.after, std::nullopt);
  EXPECT_EQ(first.limit, kDefaultGamesLimit);
  const Route page = route_of("/api/tournaments/quick/games?after=r1-p2%2Dg1&limit=500&token=abc");
  EXPECT_EQ(page.after, "r1-p2-g1");
  EXPECT_EQ(page.limit, 500u);
  EXPECT_EQ(route_of("/api/tournaments/quick/games?limit=007").limit, 7u);
  EXPECT_EQ(route_of("/viewer-analysis.js").name, "viewer-analysis.js");
  for (const char* bad : {"limit=0", "limit=501", "limit=1000", "limit=", "limit=x", "limit=-1", "limit=+5", "limit=5x",
                          "limit=0x10", "after=", "after=%zz"}) {
    std::optional<std::string> token;
    const std::string target = std::string("/api/tournaments/quick/games?") + bad;
    EXPECT_TRUE(std::holds_alternative<Malformed>(parse_target(target, token))) << target;
  }
  // Another route's query is not read as a page.
  EXPECT_EQ(route_of("/api/tournaments/quick/standings?limit=0").kind, Route::Kind::Standings);
}

TEST(ServeTarget, TakesTheTokenFromTheQuery) {
  std::optional<std::string> token;
  EXPECT_TRUE(std::holds_alternative<Route>(parse_target("/api/tournaments?a=b&token=ab%2Bc+d", token)));
  EXPECT_EQ(token, "ab+c d");
  EXPECT_TRUE(std::holds_alternative<Route>(parse_target("/api/tournaments", token)));
  EXPECT_FALSE(token);
}

TEST(ServeTarget, UnknownPathsAreNotFound) {
  for (const char* target :
       {"/index.html", "/app.js/", "/api", "/api/tournaments/", "/api/tournaments/quick",
        "/api/tournaments/quick/games/", "/api/tournaments/quick/games/id/more", "/api/tournaments/quick/crosstable",
        "/etc/passwd", "/api//tournaments", "/API/tournaments", "/tournaments/quick", "/tournaments/quick/games",
        "/tournaments/quick/games/id/more", "/tournaments/quick/games/", "/viewer.js/"}) {
    std::optional<std::string> token;
    EXPECT_TRUE(std::holds_alternative<NotFound>(parse_target(target, token))) << target;
  }
}

TEST(ServeTarget, PathTricksAreMalformed) {
  for (const std::string& target : std::vector<std::string>{
           "/api/tournaments/../standings", "/api/tournaments/%2e%2e/standings", "/api/tournaments/%2E%2E/standings",
           "/api/tournaments/./standings", "/api/tournaments/a%2fb/standings", "/api/tournaments/a%2Fb/standings",
           "/api/tournaments/a%5cb/standings", "/api/tournaments/a%00/standings", "/api/tournaments/q/games/%2e%2e%2fx",
           "/api/tournaments/q/games/..", "/api/tournaments/%zz/standings", "/api/tournaments/%4/standings",
           "/api/tournaments/q/standings?token=%", "api/tournaments", "", "/api/tournaments/q/games/a%0ab",
           "/tournaments/q/games/..%2fgames.jsonl", "/tournaments/%2e%2e/games/x",
           "/api/tournaments/" + std::string(kMaxTargetLength, 'a') + "/standings"}) {
    std::optional<std::string> token;
    EXPECT_TRUE(std::holds_alternative<Malformed>(parse_target(target, token))) << target;
  }
}

}  // namespace
}  // namespace kalah::serve
