#include "arena/serve/access.h"

#include <charconv>
#include <vector>

#include <boost/asio/ip/address.hpp>

#include "referee/system/untrusted_files.h"

namespace kalah::serve {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The percent-decoded text of `raw`; none on a bad escape.
std::optional<std::string> percent_decode(std::string_view raw, bool plus_is_space) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '%') {
      if (i + 2 >= raw.size()) return std::nullopt;
      const int hi = hex_value(raw[i + 1]), lo = hex_value(raw[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += plus_is_space && raw[i] == '+' ? ' ' : raw[i];
    }
  }
  return out;
}

// A decoded path segment that could name a file elsewhere, or carries bytes no name of ours holds.
bool bad_segment(std::string_view segment) {
  if (segment == "." || segment == "..") return true;
  for (char c : segment)
    if (c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
  return false;
}

}  // namespace

Expected<ListenAddress> parse_listen(std::string_view text) {
  const auto refuse = [&](std::string_view why) {
    return Error{"--listen '" + std::string(text.substr(0, 80)) + "': " + std::string(why) +
                 " (expected ADDR:PORT, e.g. 127.0.0.1:8080 or [::1]:8080)"};
  };
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size()) return refuse("no port");
  std::string_view host = text.substr(0, colon);
  const std::string_view port_text = text.substr(colon + 1);
  if (host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') return refuse("an IPv6 address goes in brackets");
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    return refuse("an IPv6 address goes in brackets");
  }
  unsigned port = 0;
  const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc{} || end != port_text.data() + port_text.size() || port > 65535)
    return refuse("the port is not a number from 0 to 65535");
  boost::system::error_code error;
  const boost::asio::ip::address address = boost::asio::ip::make_address(std::string(host), error);
  if (error) return refuse("not an IP address (host names are not resolved)");
  return ListenAddress{address.to_string(), static_cast<std::uint16_t>(port), address.is_loopback()};
}

std::optional<std::string> exposure_refusal(const ListenAddress& listen, bool has_token, bool is_public) {
  if (listen.loopback || has_token || is_public) return std::nullopt;
  return "--listen " + listen.address +
         ": not a loopback address, so anyone who can reach it could read every "
         "tournament served; give --token-file FILE (requests then need the token) or --public (anyone may read)";
}

Expected<std::string> read_token_file(const std::filesystem::path& file) {
  Expected<std::string> text = system::read_regular_file(file, kMaxTokenFileBytes);
  if (!text) return Error{"--token-file: " + text.error()};
  // The first line, without a trailing '\r', read as a view: GCC 12 takes a string shortened in place by pop_back()
  // for one that overflows its inline buffer when it is moved (-Warray-bounds, a false positive).
  std::string_view token(*text);
  token = token.substr(0, token.find('\n'));
  if (!token.empty() && token.back() == '\r') token.remove_suffix(1);
  for (char c : token)
    if (c <= ' ' || c >= 0x7f)
      return Error{"--token-file " + file.string() +
                   ": the token (its first line) holds a space or a byte that is "
                   "not printable ASCII"};
  if (token.size() < kMinTokenLength)
    return Error{"--token-file " + file.string() + ": the token (its first line) is shorter than " +
                 std::to_string(kMinTokenLength) + " characters; e.g. `openssl rand -hex 24 > " + file.string() + "`"};
  return std::string(token);
}

bool same_token(std::string_view given, std::string_view token) {
  // Every byte of `token` is looked at whatever `given` holds; only the lengths' difference shows early.
  unsigned char diff = given.size() == token.size() ? 0 : 1;
  for (std::size_t i = 0; i < token.size(); ++i)
    diff |= static_cast<unsigned char>(token[i] ^ (i < given.size() ? given[i] : 0));
  return diff == 0;
}

namespace {

// The query's values this server reads: `token`, and the list of games' `after` and `limit`; false on a bad
// percent-encoding.
struct Query {
  std::optional<std::string> token, after, limit;
};
bool read_query(std::string_view query, Query& out) {
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    const std::size_t eq = pair.find('=');
    const std::optional<std::string> key = percent_decode(pair.substr(0, eq), true);
    std::optional<std::string> value =
        percent_decode(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1), true);
    if (!key || !value) return false;
    if (*key == "token") out.token = std::move(value);
    if (*key == "after") out.after = std::move(value);
    if (*key == "limit") out.limit = std::move(value);
  }
  return true;
}

// The route of decoded path segments, or a 404.
Target route_of(const std::vector<std::string>& segments) {
  // The page: "/", and its script and style sheet.
  if (segments.size() == 1 && segments[0].empty()) return Route{Route::Kind::Page, "index.html", {}};
  if (segments.size() == 1 && (segments[0] == "app.js" || segments[0] == "app.css" || segments[0] == "viewer.js" ||
                               segments[0] == "viewer-analysis.js" || segments[0] == "viewer.css" ||
                               segments[0] == "author.html" || segments[0] == "author.js"))
    return Route{Route::Kind::Page, segments[0], {}};
  for (const std::string& s : segments)
    if (s.empty()) return NotFound{};
  if (segments.size() == 2 && segments[0] == "api" && segments[1] == "submissions")
    return Route{Route::Kind::Submit, {}, {}};
  if (segments.size() == 3 && segments[0] == "api" && segments[1] == "submissions")
    return Route{Route::Kind::Revisions, segments[2], {}};
  if (segments.size() == 4 && segments[0] == "tournaments" && segments[2] == "games")
    return Route{Route::Kind::GamePage, segments[1], segments[3]};
  if (segments.size() < 2 || segments[0] != "api" || segments[1] != "tournaments") return NotFound{};
  if (segments.size() == 2) return Route{Route::Kind::Tournaments, {}, {}};
  if (segments.size() == 4 && segments[3] == "standings") return Route{Route::Kind::Standings, segments[2], {}};
  if (segments.size() == 4 && segments[3] == "games") return Route{Route::Kind::Games, segments[2], {}};
  if (segments.size() == 4 && segments[3] == "live") return Route{Route::Kind::Live, segments[2], {}};
  if (segments.size() == 5 && segments[3] == "games") return Route{Route::Kind::Game, segments[2], segments[4]};
  return NotFound{};
}

// The list of games' page: `limit` a number from 1 to kMaxGamesLimit (kDefaultGamesLimit when not given), `after`
// not empty; a reason otherwise.
std::optional<std::string> read_page(const Query& query, Route& route) {
  route.limit = kDefaultGamesLimit;
  if (query.limit) {
    const std::string& text = *query.limit;
    std::size_t n = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || text.size() > 3 || error != std::errc() || end != text.data() + text.size() || n < 1 ||
        n > kMaxGamesLimit)
      return "limit: a number of games from 1 to " + std::to_string(kMaxGamesLimit);
    route.limit = n;
  }
  if (query.after && query.after->empty()) return std::string("after: the id of a game of the list");
  route.after = query.after;
  return std::nullopt;
}

}  // namespace

Target parse_target(std::string_view target, std::optional<std::string>& token) {
  token.reset();
  if (target.size() > kMaxTargetLength) return Malformed{"the request target is too long"};
  if (target.empty() || target.front() != '/') return Malformed{"the request target does not start with '/'"};
  const std::size_t question = target.find('?');
  const std::string_view path = target.substr(0, question);
  Query query;
  if (question != std::string_view::npos && !read_query(target.substr(question + 1), query))
    return Malformed{"a bad percent-encoding in the query"};
  token = query.token;
  std::vector<std::string> segments;
  std::string_view rest = path.substr(1);
  for (;;) {
    const std::size_t slash = rest.find('/');
    std::optional<std::string> segment = percent_decode(rest.substr(0, slash), false);
    if (!segment) return Malformed{"a bad percent-encoding in the path"};
    if (bad_segment(*segment))
      return Malformed{"a path segment that is '.', '..', or holds '/', '\\' or a control byte"};
    segments.push_back(std::move(*segment));
    if (slash == std::string_view::npos) break;
    rest = rest.substr(slash + 1);
  }
  Target routed = route_of(segments);
  if (Route* route = std::get_if<Route>(&routed); route && route->kind == Route::Kind::Games)
    if (std::optional<std::string> bad = read_page(query, *route)) return Malformed{std::move(*bad)};
  return routed;
}

}  // namespace kalah::serve
