// For the tests that write to `arena serve` byte by byte or hold connections open (serve_e2e_test,
// season_e2e_test): a loopback connection as an Asio socket and a response read from it with Boost.Beast.
#pragma once

#include <string>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "tests/serve_util.h"

namespace kalah::e2e::serve_util {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

inline tcp::socket connect_to(asio::io_context& io, unsigned short port) {
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  return socket;
}

inline Response read_response(tcp::socket& socket) {
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64u << 20);
  http::read(socket, buffer, parser);
  Response r;
  r.status = static_cast<int>(parser.get().result_int());
  r.body = parser.get().body();
  for (const auto& field : parser.get()) r.headers[std::string(field.name_string())] = std::string(field.value());
  return r;
}

}  // namespace kalah::e2e::serve_util
