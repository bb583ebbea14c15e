// For the tests that write to `arena serve` byte by byte or hold connections open (serve_e2e_test,
// season_e2e_test): a loopback connection as an Asio socket, and a response read from it (tests/support/http_client.h).
#pragma once

#include <string>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

#include "tests/serve_util.h"

namespace kalah::e2e::serve_util {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

inline tcp::socket connect_to(asio::io_context& io, unsigned short port) {
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  return socket;
}

inline Response read_response(tcp::socket& socket) { return test::read_http_response(socket.native_handle()); }

}  // namespace kalah::e2e::serve_util
