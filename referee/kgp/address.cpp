#include "referee/kgp/address.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace kalah::kgp {

namespace {

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
         });
}

void replace_all(std::string& text, std::string_view what, const std::string& by) {
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + by.size()))
    text.replace(at, what.size(), by);
}

// "HOST", "HOST:PORT", "[V6]" or "[V6]:PORT" into `url`; an error text when it is none of them.
std::optional<std::string> read_authority(std::string_view authority, WebSocketUrl& url) {
  std::string_view host = authority;
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return "an IPv6 address without its closing ]";
    host = authority.substr(1, close - 1);
    const std::string_view rest = authority.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') return "something after the IPv6 address's ]";
    if (!rest.empty()) port = rest.substr(1);
    if (rest == ":") return "an empty port";
  } else if (const std::size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
    if (port.empty()) return "an empty port";
  }
  if (host.empty()) return "no host";
  if (host.find_first_of("@ \t") != std::string_view::npos) return "a host with a space or an @ in it";
  if (!port.empty()) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535)
      return "a port '" + std::string(port) + "' that is not a number from 1 to 65535";
    url.port = static_cast<std::uint16_t>(value);
  }
  url.host = std::string(host);
  return std::nullopt;
}

}  // namespace

bool is_websocket_url(std::string_view text) {
  return starts_with_nocase(text, "ws://") || starts_with_nocase(text, "wss://");
}

Expected<WebSocketUrl> parse_websocket_url(std::string_view text) {
  WebSocketUrl url;
  std::string_view rest;
  if (starts_with_nocase(text, "wss://")) {
    url.secure = true;
    url.port = 443;
    rest = text.substr(6);
  } else if (starts_with_nocase(text, "ws://")) {
    rest = text.substr(5);
  } else {
    return Error{"'" + std::string(text) + "' is not a ws:// or wss:// URL"};
  }
  for (const char c : text)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
      return Error{"the URL '" + std::string(text) + "' holds a space or a control character"};
  const std::size_t slash = rest.find_first_of("/?");
  const std::string_view authority = rest.substr(0, slash);
  if (slash != std::string_view::npos) url.target = std::string(rest.substr(slash));
  if (!url.target.empty() && url.target.front() == '?') url.target.insert(0, "/");
  if (const std::size_t hash = url.target.find('#'); hash != std::string::npos) url.target.erase(hash);
  if (std::optional<std::string> problem = read_authority(authority, url))
    return Error{"the URL '" + std::string(text) + "' has " + *problem};
  return url;
}

std::string to_string(const WebSocketUrl& url) {
  const bool v6 = url.host.find(':') != std::string::npos;
  return std::string(url.secure ? "wss://" : "ws://") + (v6 ? "[" + url.host + "]" : url.host) + ":" +
         std::to_string(url.port) + url.target;
}

std::string AgentServer::url() const {
  return websocket ? to_string(WebSocketUrl{false, host, port, "/"}) : std::string();
}

std::vector<std::string> with_server_address(std::vector<std::string> args, const AgentServer& server) {
  const std::string port_text = std::to_string(server.port);
  const std::string url = server.url();
  for (std::string& arg : args) {
    replace_all(arg, kHostPlaceholder, server.host);
    replace_all(arg, kPortPlaceholder, port_text);
    replace_all(arg, kUrlPlaceholder, url);
  }
  return args;
}

bool names_server_address(std::string_view arg) {
  return arg.find(kHostPlaceholder) != std::string_view::npos || arg.find(kPortPlaceholder) != std::string_view::npos ||
         names_server_url(arg);
}

bool names_server_url(std::string_view arg) { return arg.find(kUrlPlaceholder) != std::string_view::npos; }

bool after_kgp_host(const std::vector<std::string>& args, std::size_t i) {
  bool host = false;
  for (std::size_t j = 0; j < i && j < args.size(); ++j) {
    if (args[j] == "kgp-host") host = true;
    if (host && args[j] == "--") return true;
  }
  return false;
}

std::optional<std::string> address_placeholder_problem(std::string_view arg) {
  for (std::size_t at = arg.find("{kgp_"); at != std::string_view::npos; at = arg.find("{kgp_", at + 1)) {
    const std::string_view from = arg.substr(at);
    if (from.rfind(kHostPlaceholder, 0) == 0 || from.rfind(kPortPlaceholder, 0) == 0 ||
        from.rfind(kUrlPlaceholder, 0) == 0)
      continue;
    const std::size_t close = from.find('}');
    const std::string_view written = close == std::string_view::npos ? from : from.substr(0, close + 1);
    return "'" + std::string(written) + "' is no placeholder: the server's address is " +
           std::string(kHostPlaceholder) + " and " + std::string(kPortPlaceholder) + ", or " +
           std::string(kUrlPlaceholder) + " over a WebSocket";
  }
  return std::nullopt;
}

}  // namespace kalah::kgp
