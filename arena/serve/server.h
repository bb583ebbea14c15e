// `arena serve`'s HTTP server (docs/SERVE.md): read-only, GET and HEAD on the JSON API of catalog.h, over
// Boost.Beast: the connections on one Asio thread, the catalog on another. Every Beast and Asio header stays
// in server.cpp. Bounds: the request line and headers (kMaxHeaderBytes), no body, the connections at once,
// the time a request may take to arrive (slowloris) and an idle keep-alive connection may stay.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "arena/serve/access.h"

namespace kalah::serve {

inline constexpr std::size_t kMaxHeaderBytes = 8 * 1024;
inline constexpr std::size_t kDefaultMaxConnections = 512;

struct ServeOptions {
  std::vector<std::filesystem::path> dirs;
  ListenAddress listen;
  std::optional<std::string> token;  // none: no token asked for (loopback, or --public)
  std::size_t max_connections = kDefaultMaxConnections;
  // A request must arrive whole within this time of its first byte; an open connection without one is
  // closed after the idle time.
  std::chrono::milliseconds request_timeout{10'000};
  std::chrono::milliseconds idle_timeout{30'000};
  // A live stream without an event for this long is sent a comment, so that proxies keep it open.
  std::chrono::milliseconds live_keepalive{15'000};
};

// Finds the tournaments, binds `listen`, tells `listening` the address it serves at
// ("http://127.0.0.1:8080/") and serves until SIGINT or SIGTERM. An error text when it cannot start
// (a DIR that is not a folder, an address that cannot be bound).
std::optional<std::string> serve(const ServeOptions& options,
                                 const std::function<void(const std::string& url)>& listening);

}  // namespace kalah::serve
