// What the tests of `arena serve` share (serve_e2e_test, serve_live_e2e_test, serve_shards_e2e_test): a request on
// a connection of its own, its response, the real server started on a free loopback port and stopped as an
// operator stops it, and a client of a live stream (SSE) over a plain socket.
#pragma once

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/beast/http/verb.hpp>

#include "tests/e2e_util.h"
#include "tests/support/http_client.h"

namespace kalah::e2e::serve_util {

namespace http = boost::beast::http;

using Response = test::HttpResponse;

// One request on a connection of its own (tests/support/http_client.h).
inline Response request(unsigned short port, const std::string& target, http::verb verb = http::verb::get,
                        const test::HttpHeaders& headers = {}) {
  return test::http_request(port, target, verb, headers);
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
  pid_t pid() const { return child_->pid(); }
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

struct SseEvent {
  std::string id, kind, data;
};

// A client of an SSE stream over a plain socket: the request by hand, the response's header checked, then
// the events one by one, each read before a deadline.
class SseClient {
 public:
  SseClient(unsigned short port, const std::string& target, const std::string& last_event_id = "")
      : socket_(test::connect_loopback(port)) {
    if (socket_ < 0) throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port));
    std::string request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n";
    if (!last_event_id.empty()) request += "Last-Event-ID: " + last_event_id + "\r\n";
    request += "\r\n";
    for (std::size_t sent = 0; sent < request.size();) {
      const ssize_t n = ::send(socket_, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) throw std::runtime_error("cannot send the request to 127.0.0.1:" + std::to_string(port));
      sent += static_cast<std::size_t>(n);
    }
  }
  ~SseClient() { ::close(socket_); }
  SseClient(const SseClient&) = delete;
  SseClient& operator=(const SseClient&) = delete;

  // The response's header (status line included), or none before the deadline.
  std::optional<std::string> header(Clock::time_point deadline) {
    while (buffer_.find("\r\n\r\n") == std::string::npos)
      if (!fill(deadline)) return std::nullopt;
    const std::size_t end = buffer_.find("\r\n\r\n") + 4;
    std::string text = buffer_.substr(0, end);
    buffer_.erase(0, end);
    return text;
  }

  // The next event (comments and the retry field passed over), or none before the deadline or at the end.
  std::optional<SseEvent> next(Clock::time_point deadline) {
    for (;;) {
      const std::size_t end = buffer_.find("\n\n");
      if (end == std::string::npos) {
        if (!fill(deadline)) return std::nullopt;
        continue;
      }
      const std::string block = buffer_.substr(0, end);
      buffer_.erase(0, end + 2);
      SseEvent event;
      for (const std::string& line : lines_of(block)) {
        if (line.starts_with("id: ")) event.id = line.substr(4);
        if (line.starts_with("event: ")) event.kind = line.substr(7);
        if (line.starts_with("data: ")) event.data = line.substr(6);
      }
      if (!event.kind.empty()) return event;
    }
  }

 private:
  static std::vector<std::string> lines_of(const std::string& block) {
    std::vector<std::string> lines;
    for (std::size_t at = 0; at <= block.size();) {
      const std::size_t end = std::min(block.find('\n', at), block.size());
      lines.push_back(block.substr(at, end - at));
      at = end + 1;
    }
    return lines;
  }
  // Reads what arrived, waiting until the deadline; false at the deadline or the end of the stream.
  bool fill(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{socket_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000))) <= 0) return Clock::now() < deadline;
    char chunk[16384];
    const ssize_t n = ::recv(socket_, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }

  int socket_;
  std::string buffer_;
};

}  // namespace kalah::e2e::serve_util
