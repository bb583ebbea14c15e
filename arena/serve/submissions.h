// A season's submission routes as the server carries them (docs/SERVE.md, "A season's submissions";
// docs/SEASON.md): POST /api/submissions and GET /api/submissions/AUTHOR, handed to the `Intake` that
// arena/season implements, on the intake's own thread. An upload is admitted by its token before its body is
// read, and the body is read under the intake's bound. Private to the server: included by server.cpp only, the
// one other file besides it and access.cpp that speaks Beast and Asio.
#pragma once

#include <cstddef>
#include <optional>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "arena/serve/access.h"
#include "arena/serve/catalog.h"
#include "arena/serve/server.h"

namespace kalah::serve {

// The server's side of the uploads: the intake (none: not a season's server), its thread (one request at a time,
// so that a stored upload's fsync never holds the connections or the catalog), the bodies held now.
struct Uploads {
  Intake* intake = nullptr;
  boost::asio::thread_pool& thread;
  std::size_t in_flight = 0;  // bodies of POST /api/submissions being read or stored
};

// The request's target as a route of a season's submissions, when the server has an intake and it is one.
std::optional<Route> season_route(const Uploads& uploads,
                                  const boost::beast::http::request<boost::beast::http::empty_body>& request);

// The answer to a request to a season's submission routes, whose header `header` has read. `keep_alive` turns
// false when the body was not read.
boost::asio::awaitable<Reply> season_request(boost::beast::tcp_stream& stream, boost::beast::flat_buffer& buffer,
                                             boost::beast::http::request_parser<boost::beast::http::empty_body>& header,
                                             Uploads& uploads, const Route& route, bool& keep_alive);

}  // namespace kalah::serve
