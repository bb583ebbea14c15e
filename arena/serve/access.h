// Who may reach `arena serve` (docs/SERVE.md): the address it listens on, the rule that anything but a
// loopback address needs a token or an explicit --public, the token read from its file, and the request
// target read into one of the API's routes. Pure of Asio and Beast, so that it is tested on its own.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "referee/rules/expected.h"

namespace kalah::serve {

// "ADDR:PORT": an IPv4 address, or an IPv6 one in brackets ("[::1]:8080"); never a host name (no resolver).
struct ListenAddress {
  std::string address;     // as the operating system takes it: "127.0.0.1", "::1"
  std::uint16_t port = 0;  // 0: any free port (the bound one is printed)
  bool loopback = false;
};
inline constexpr const char* kDefaultListen = "127.0.0.1:8080";
Expected<ListenAddress> parse_listen(std::string_view text);

// Why the server must not start on `listen`: a non-loopback address without a token file or --public.
std::optional<std::string> exposure_refusal(const ListenAddress& listen, bool has_token, bool is_public);

// The token file: a regular file (never a link), at most kMaxTokenFileBytes, the token its first line
// (without a trailing '\r'), at least kMinTokenLength bytes of printable ASCII without spaces.
inline constexpr std::uintmax_t kMaxTokenFileBytes = 4096;
inline constexpr std::size_t kMinTokenLength = 16;
Expected<std::string> read_token_file(const std::filesystem::path& file);

// Whether `given` is `token`, in a time that does not depend on where they differ.
bool same_token(std::string_view given, std::string_view token);

// What a request asks for. A name or id is the decoded text of one path segment: the server looks it up in
// what it listed, never joins it to a path.
struct Route {
  // Submit: /api/submissions (POST), Revisions: /api/submissions/AUTHOR (a season's, docs/SEASON.md).
  enum class Kind { Tournaments, Standings, Games, Game, Live, Page, GamePage, Submit, Revisions };
  Kind kind = Kind::Tournaments;
  // Standings, Games, Game, Live, GamePage: the tournament; Revisions: the author; Page: "index.html" (for "/"),
  // "app.js", "app.css", "viewer.js", "viewer-analysis.js" or "viewer.css"
  std::string name;
  std::string id;  // Game, GamePage
  // Games: the list from after the game of this id (?after=ID), at most `limit` games (?limit=N).
  std::optional<std::string> after = {};
  std::size_t limit = {};
};
struct NotFound {};
struct Malformed {
  std::string reason;
};
using Target = std::variant<Route, NotFound, Malformed>;

// GET /api/tournaments/NAME/games: the games a page of the list holds when ?limit= is not given, and at most.
inline constexpr std::size_t kDefaultGamesLimit = 100;
inline constexpr std::size_t kMaxGamesLimit = 500;

// A request target is at most this long (path and query).
inline constexpr std::size_t kMaxTargetLength = 2048;

// Reads an origin-form request target ("/api/tournaments/quick/games/r1-p2-g1?token=..."; a game in the viewer:
// "/tournaments/quick/games/r1-p2-g1"). Malformed: over
// kMaxTargetLength, not starting with '/', a bad percent-encoding, a segment that decodes to "." or "..", or
// to text holding '/', '\\' or a control character (NUL, ...); for the list of games, a `limit` that is not a
// number from 1 to kMaxGamesLimit or an empty `after`. `token` receives the query's `token` value.
Target parse_target(std::string_view target, std::optional<std::string>& token);

}  // namespace kalah::serve
