#include "referee/kgp/line_socket.h"

#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <deque>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

#include "referee/kgp/codec.h"

namespace kalah::kgp {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

struct LineSocket::Impl {
  asio::io_context io;
  tcp::socket socket{io};
  std::string in;  // what came and is not yet handed out as lines
  bool reading = false;
  bool read_done = false;
  error_code read_ec;
  std::size_t read_n = 0;
  std::deque<std::string> out;  // lines to write; the front one is being written
  bool writing = false;
  bool write_failed = false;

  void start_read() {
    reading = true;
    // Acknowledge at once what comes next: a client that writes `move` and `yield` in two small writes
    // without TCP_NODELAY (Nagle's rule) holds the second until the first is acknowledged, and a delayed
    // acknowledgement costs it ~40 ms of every move (docs/PERFORMANCE.md, "KGP"). Linux resets quick-ack
    // mode by itself, so it is asked for before every read.
    const int on = 1;
    ::setsockopt(socket.native_handle(), IPPROTO_TCP, TCP_QUICKACK, &on, sizeof on);
    asio::async_read_until(socket, asio::dynamic_buffer(in, kMaxLineChars), '\n',
                           [this](const error_code& e, std::size_t n) {
                             reading = false;
                             read_done = true;
                             read_ec = e;
                             read_n = n;
                             io.stop();  // the owner waits in run_until: hand it the line now
                           });
  }

  void enqueue(std::string text) {
    if (write_failed) return;
    out.push_back(std::move(text));
    if (!writing) write_next();
  }

  void write_next() {
    if (out.empty()) {
      writing = false;
      io.stop();  // an owner waiting in write() is done; one waiting in read() runs the loop again
      return;
    }
    writing = true;
    asio::async_write(socket, asio::buffer(out.front()), [this](const error_code& e, std::size_t) {
      if (e) {
        write_failed = true;
        writing = false;
        out.clear();
        io.stop();
        return;
      }
      out.pop_front();
      write_next();
    });
  }

  // Runs the event loop until `done()` or the deadline.
  template <class Done>
  bool run_until(Deadline deadline, Done done) {
    while (!done()) {
      if (std::chrono::steady_clock::now() >= deadline) return false;
      io.restart();
      io.run_until(deadline);
    }
    return true;
  }
};

LineSocket::LineSocket(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LineSocket::LineSocket(LineSocket&&) noexcept = default;
LineSocket& LineSocket::operator=(LineSocket&&) noexcept = default;
LineSocket::~LineSocket() {
  if (!impl_) return;
  error_code ignored;
  impl_->socket.close(ignored);
}

Expected<LineSocket> LineSocket::connect(const std::string& host, std::uint16_t port, Deadline deadline) {
  auto impl = std::make_unique<Impl>();
  tcp::resolver resolver(impl->io);
  error_code ec;
  bool done = false;
  resolver.async_resolve(host, std::to_string(port), [&](const error_code& e, const tcp::resolver::results_type& r) {
    if (e) {
      ec = e;
      done = true;
      return;
    }
    asio::async_connect(impl->socket, r, [&](const error_code& e2, const tcp::endpoint&) {
      ec = e2;
      done = true;
    });
  });
  impl->io.run_until(deadline);
  if (!done) {
    resolver.cancel();
    impl->socket.close(ec);
    impl->io.restart();
    impl->io.run();  // the cancelled handlers, which refer to this frame
    return Error{"no connection to " + host + ":" + std::to_string(port) + " before the deadline"};
  }
  if (ec) return Error{"cannot connect to " + host + ":" + std::to_string(port) + ": " + ec.message()};
  impl->socket.set_option(tcp::no_delay(true), ec);
  return LineSocket(std::move(impl));
}

LineSocket::Status LineSocket::read(std::string& line, Deadline deadline) {
  Impl& s = *impl_;
  if (!s.socket.is_open()) return Status::Closed;
  if (!s.reading && !s.read_done) s.start_read();
  if (!s.run_until(deadline, [&] { return s.read_done; })) return Status::Timeout;
  s.read_done = false;
  if (s.read_ec == asio::error::not_found) return Status::TooLong;
  if (s.read_ec) return Status::Closed;
  line.assign(s.in, 0, s.read_n);
  s.in.erase(0, s.read_n);
  if (!line.empty() && line.back() == '\n') line.pop_back();
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return Status::Line;
}

bool LineSocket::write(std::string_view text, Deadline deadline) {
  Impl& s = *impl_;
  if (!s.socket.is_open()) return false;
  s.enqueue(std::string(text));
  return s.run_until(deadline, [&] { return !s.writing; }) && !s.write_failed;
}

void LineSocket::send_soon(std::string text) {
  Impl* s = impl_.get();
  asio::post(s->io, [s, text = std::move(text)]() mutable { s->enqueue(std::move(text)); });
}

void LineSocket::close() {
  error_code ignored;
  impl_->socket.shutdown(tcp::socket::shutdown_both, ignored);
  impl_->socket.close(ignored);
}

std::string LineSocket::peer() const {
  error_code ec;
  const tcp::endpoint e = impl_->socket.remote_endpoint(ec);
  if (ec) return "(not connected)";
  return e.address().to_string() + ":" + std::to_string(e.port());
}

struct LineListener::Impl {
  asio::io_context io;
  tcp::acceptor acceptor{io};
};

LineListener::LineListener(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LineListener::LineListener(LineListener&&) noexcept = default;
LineListener& LineListener::operator=(LineListener&&) noexcept = default;
LineListener::~LineListener() = default;

Expected<LineListener> LineListener::listen(const std::string& address, std::uint16_t port) {
  auto impl = std::make_unique<Impl>();
  error_code ec;
  const asio::ip::address a = asio::ip::make_address(address, ec);
  if (ec) return Error{"not an IP address: " + address};
  const tcp::endpoint endpoint(a, port);
  impl->acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl->acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) impl->acceptor.bind(endpoint, ec);
  if (!ec) impl->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return Error{"cannot listen on " + address + ":" + std::to_string(port) + ": " + ec.message()};
  return LineListener(std::move(impl));
}

std::uint16_t LineListener::port() const {
  error_code ec;
  return impl_->acceptor.local_endpoint(ec).port();
}

std::optional<LineSocket> LineListener::accept(Deadline deadline) {
  auto peer = std::make_unique<LineSocket::Impl>();
  bool done = false;
  error_code ec;
  impl_->acceptor.async_accept(peer->socket, [&](const error_code& e) {
    ec = e;
    done = true;
  });
  impl_->io.restart();
  impl_->io.run_until(deadline);
  if (!done) {
    impl_->acceptor.cancel(ec);
    impl_->io.restart();
    impl_->io.run();  // the cancelled handler, which refers to this frame
    return std::nullopt;
  }
  if (ec) return std::nullopt;
  peer->socket.set_option(tcp::no_delay(true), ec);
  return LineSocket(std::move(peer));
}

}  // namespace kalah::kgp
