#include "tests/support/http_client.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace kalah::test {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

HttpResponse http_request(unsigned short port, const std::string& target, http::verb verb, const HttpHeaders& headers,
                          const std::string& body) {
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1");
  for (const auto& [name, value] : headers) req.set(name, value);
  if (!body.empty()) {
    req.body() = body;
    req.prepare_payload();
  }
  http::write(socket, req);
  return read_http_response(socket.native_handle(), verb == http::verb::head);
}

HttpResponse read_http_response(int fd, bool head) {
  asio::io_context io;
  tcp::socket socket(io);
  const int own = ::dup(fd);  // the caller's descriptor stays open: this socket closes its copy
  if (own < 0) throw boost::system::system_error(errno, boost::system::system_category(), "dup");
  socket.assign(tcp::v4(), own);
  boost::beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64u << 20);
  parser.skip(head);
  http::read(socket, buffer, parser);
  HttpResponse r;
  r.status = static_cast<int>(parser.get().result_int());
  r.body = parser.get().body();
  for (const auto& field : parser.get()) r.headers[std::string(field.name_string())] = std::string(field.value());
  return r;
}

int connect_loopback(unsigned short port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace kalah::test
