// Where a KGP server is (docs/KGP.md): a WebSocket URL `ws://HOST[:PORT][/PATH]` taken apart, and the
// placeholders `{kgp_host}` and `{kgp_port}` that name the arena's own server in an agent's arguments, for
// client libraries that take the server on their command line rather than from KGP_HOST and KGP_PORT.
// Pure: no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "referee/rules/expected.h"

namespace kalah::kgp {

struct WebSocketUrl {
  bool secure = false;  // wss://: TLS (a client only: LineSocket::connect_websocket)
  std::string host;     // a name or an address, an IPv6 one without its brackets
  std::uint16_t port = 80;
  std::string target = "/";  // the path and query, "/" when none is given
};

// True when `text` starts with ws:// or wss:// (any letter case).
bool is_websocket_url(std::string_view text);
// `ws://HOST[:PORT][/PATH]` or `wss://...` (port 80 or 443 by default). An error names what is wrong.
Expected<WebSocketUrl> parse_websocket_url(std::string_view text);
// "ws://127.0.0.1:2671/": the URL a client would use.
std::string to_string(const WebSocketUrl& url);

inline constexpr std::string_view kHostPlaceholder = "{kgp_host}";
inline constexpr std::string_view kPortPlaceholder = "{kgp_port}";
// The server's WebSocket URL, for an agent served over a WebSocket (kgp_transport = "websocket").
inline constexpr std::string_view kUrlPlaceholder = "{kgp_url}";

// The server the arena runs for an agent: on `host`:`port`, over TCP or a WebSocket.
struct AgentServer {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;
  bool websocket = false;
  // "ws://127.0.0.1:PORT/" for a WebSocket; empty for TCP.
  std::string url() const;
};

// `args` with every `{kgp_host}`, `{kgp_port}` and `{kgp_url}` replaced by the server's host, port and URL.
std::vector<std::string> with_server_address(std::vector<std::string> args, const AgentServer& server);
// True when `arg` holds `{kgp_host}`, `{kgp_port}` or `{kgp_url}`.
bool names_server_address(std::string_view arg);
// True when `arg` holds `{kgp_url}`, which only a server over a WebSocket has.
bool names_server_url(std::string_view arg);
// True when `args[i]` goes to an agent through `referee kgp-host` written out: an earlier argument is
// `kgp-host` and a later one of those, but before `i`, is `--` (`cmd = "referee", args = ["kgp-host", "--",
// "kgpc", ":{kgp_port}", ...]`, the explicit form of protocol = "kgp").
bool after_kgp_host(const std::vector<std::string>& args, std::size_t i);
// What is wrong with a `{kgp_...}` in `arg` that is no placeholder (a misspelt one would reach the
// agent as it is); empty when nothing is.
std::optional<std::string> address_placeholder_problem(std::string_view arg);

}  // namespace kalah::kgp
