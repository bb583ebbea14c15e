// `arena serve`'s HTTP server (docs/SERVE.md): read-only, GET and HEAD on the JSON API of catalog.h, over
// Boost.Beast: the connections on one Asio thread, the catalog on another. Every Beast and Asio header stays
// in server.cpp (and submissions.h, a season's uploads, which server.cpp only includes). Bounds: the request
// line and headers (kMaxHeaderBytes), no body, the connections at once, the time a request may take to arrive
// (slowloris) and an idle keep-alive connection may stay.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "arena/serve/access.h"
#include "arena/serve/catalog.h"

namespace kalah::serve {

inline constexpr std::size_t kMaxHeaderBytes = 8 * 1024;
inline constexpr std::size_t kDefaultMaxConnections = 512;
inline constexpr int kDefaultNice = 10;

// A season's submission endpoints (docs/SEASON.md), which arena/season implements: the server only carries
// requests to it. Every call runs on the intake's own thread, one at a time, never on the connections' thread
// (a stored upload waits for fsync).
class Intake {
 public:
  virtual ~Intake() = default;
  // The largest body POST /api/submissions may have; a larger one is refused (413) before it is read.
  virtual std::size_t max_body() const = 0;
  // Before an upload's body is read: its refusal (401 without a known token, 429 for a client over its failed
  // attempts, 403 after the deadline), or none.
  virtual std::optional<Reply> admit(std::string_view authorization, const std::string& client) = 0;
  // POST /api/submissions with its whole body.
  virtual Reply submit(std::string_view authorization, std::string_view content_type, std::string_view body,
                       const std::string& client) = 0;
  // GET /api/submissions/AUTHOR.
  virtual Reply revisions(const std::string& author, std::string_view authorization, const std::string& client) = 0;
};

// Upload bodies held in memory at once; a further upload is answered 503 until one is done.
inline constexpr std::size_t kMaxUploadsInFlight = 8;

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
  // How many steps of niceness the server's threads take below the thread that calls serve() (0 to 19): a
  // server on the machine of a run yields the cores to its games (docs/SERVE.md, --nice).
  int nice = kDefaultNice;
  // A season's submissions (arena serve --season); none: GET and HEAD only. Its routes are authorized by the
  // authors' tokens, not by `token`.
  Intake* intake = nullptr;
};

// Finds the tournaments, binds `listen`, tells `listening` the address it serves at
// ("http://127.0.0.1:8080/") and serves until SIGINT or SIGTERM. An error text when it cannot start
// (a DIR that is not a folder, an address that cannot be bound).
std::optional<std::string> serve(const ServeOptions& options,
                                 const std::function<void(const std::string& url)>& listening);

}  // namespace kalah::serve
