// What the tests of `arena serve` share (serve_e2e_test, serve_live_e2e_test): a request on a connection of its
// own, its response, and the real server started on a free loopback port and stopped as an operator stops it.
#pragma once

#include <signal.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "tests/e2e_util.h"

namespace kalah::e2e::serve_util {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

struct Response {
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;
  std::string header(const std::string& name) const {
    const auto found = headers.find(name);
    return found == headers.end() ? "" : found->second;
  }
};

inline tcp::socket connect_to(asio::io_context& io, unsigned short port) {
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  return socket;
}

inline Response read_response(tcp::socket& socket, bool head = false) {
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64u << 20);
  parser.skip(head);
  http::read(socket, buffer, parser);
  Response r;
  r.status = static_cast<int>(parser.get().result_int());
  r.body = parser.get().body();
  for (const auto& field : parser.get()) r.headers[std::string(field.name_string())] = std::string(field.value());
  return r;
}

// One request on a connection of its own.
inline Response request(unsigned short port, const std::string& target, http::verb verb = http::verb::get,
                        const std::vector<std::pair<std::string, std::string>>& headers = {}) {
  asio::io_context io;
  tcp::socket socket = connect_to(io, port);
  http::request<http::empty_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1");
  for (const auto& [name, value] : headers) req.set(name, value);
  http::write(socket, req);
  return read_response(socket, verb == http::verb::head);
}

inline Response get(unsigned short port, const std::string& target) { return request(port, target); }

// `arena serve ARGS...` started, its port read from the line it prints.
class Server {
 public:
  Server(const fs::path& scratch, const std::vector<std::string>& args) {
    static int counter = 0;
    out_ = scratch / ("serve" + std::to_string(++counter) + ".out");
    err_ = scratch / ("serve" + std::to_string(counter) + ".err");
    std::vector<std::string> argv{kArena.string(), "serve"};
    argv.insert(argv.end(), args.begin(), args.end());
    child_ = std::make_unique<Child>(argv, out_, err_);
    const std::string prefix = "arena serve: listening on http://127.0.0.1:";
    for (int i = 0; i < 600 && port_ == 0; ++i) {
      const std::string out = fs::exists(out_) ? read_file(out_) : "";
      if (const std::size_t at = out.find(prefix); at != std::string::npos && out.find('\n', at) != std::string::npos)
        port_ = static_cast<unsigned short>(std::stoi(out.substr(at + prefix.size())));
      else if ((exited_ = child_->poll()))
        break;
      else
        std::this_thread::sleep_for(50ms);
    }
  }
  // Stopped as an operator stops it, so that it removes its private folder.
  ~Server() {
    if (!child_->running()) return;
    child_->signal(SIGTERM);
    child_->wait(std::chrono::milliseconds(10000));
  }
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  unsigned short port() const { return port_; }
  std::string err() const { return read_file(err_); }
  std::string out() const { return read_file(out_); }
  // kill -9, as a crash or an impatient operator stops it; reaped.
  void kill_now() {
    child_->signal(SIGKILL);
    child_->wait(std::chrono::milliseconds(10000));
  }
  // Its end when it has stopped by itself (a refusal at start), waited for up to `limit`.
  std::optional<ExitStatus> ended(std::chrono::milliseconds limit) {
    for (auto waited = 0ms; waited < limit && !exited_; waited += 50ms) {
      if ((exited_ = child_->poll())) break;
      std::this_thread::sleep_for(50ms);
    }
    return exited_;
  }

 private:
  fs::path out_, err_;
  std::unique_ptr<Child> child_;
  unsigned short port_ = 0;
  std::optional<ExitStatus> exited_;
};

}  // namespace kalah::e2e::serve_util
