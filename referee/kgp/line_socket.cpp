#include "referee/kgp/line_socket.h"

#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <algorithm>
#include <deque>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/websocket/error.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include "referee/kgp/codec.h"

namespace kalah::kgp {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;
namespace ssl = boost::asio::ssl;
using asio::ip::tcp;
using boost::system::error_code;

namespace {

// A WebSocket close handshake gets this long before the TCP connection is closed anyway.
constexpr auto kCloseGrace = std::chrono::milliseconds(200);
// An accepted connection gets this long to ask for its upgrade to a WebSocket: one that dawdles is dropped,
// and the listener waits for the next rather than for it.
constexpr auto kUpgradeTime = std::chrono::seconds(5);

// Splits `text` (whole lines, each ending in LF) into its lines, each keeping its line break.
std::deque<std::string> lines_of(std::string_view text) {
  std::deque<std::string> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::size_t n = end == std::string_view::npos ? text.size() : end + 1;
    lines.emplace_back(text.substr(0, n));
    text.remove_prefix(n);
  }
  return lines;
}

// The same bounds for a WebSocket over TCP and over TLS: every byte from the other side is hostile.
template <class WebSocket>
void bound(WebSocket& ws) {
  ws.read_message_max(kMaxLineChars);
  ws.auto_fragment(false);
  ws.text(true);
}

}  // namespace

// The TLS layer of a wss:// WebSocket (named, not anonymous: LineSocket::Impl holds it). Its teardown, found
// by Beast through ADL (after the close frames, or when the client fails the connection: a message too big),
// closes the TCP connection at once, where Beast's own teardown for TLS waits for the server's close_notify:
// a server that never sends one cannot hold the client, and the reason the WebSocket was closed for
// (message_too_big) is not replaced by the teardown's "stream truncated".
namespace tls_layer {

struct TlsLayer : ssl::stream<tcp::socket&> {
  using ssl::stream<tcp::socket&>::stream;
};

void teardown(beast::role_type, TlsLayer& layer, error_code& ec) {
  error_code ignored;
  layer.next_layer().shutdown(tcp::socket::shutdown_both, ignored);
  layer.next_layer().close(ignored);
  ec = {};
}

template <class Handler>
void async_teardown(beast::role_type role, TlsLayer& layer, Handler&& handler) {
  error_code ec;
  teardown(role, layer, ec);
  asio::post(layer.get_executor(), beast::bind_front_handler(std::forward<Handler>(handler), ec));
}

}  // namespace tls_layer

using PlainWebSocket = websocket::stream<tcp::socket&>;
using TlsWebSocket = websocket::stream<tls_layer::TlsLayer>;

struct LineSocket::Impl {
  asio::io_context io;
  tcp::socket socket{io};
  // For wss://: what the TLS stream in `wss` verifies the server's certificate with (it outlives `wss`).
  std::unique_ptr<ssl::context> tls;
  // Set for a WebSocket, one of them: the frames go through it, over `socket` (declared after it, destroyed
  // before it); `wss` through TLS.
  std::unique_ptr<PlainWebSocket> ws;
  std::unique_ptr<TlsWebSocket> wss;
  beast::flat_buffer message;  // a WebSocket message being read
  std::string in;              // what came and is not yet handed out as lines
  bool reading = false;
  bool read_done = false;
  error_code read_ec;
  std::size_t read_n = 0;
  std::deque<std::string> out;  // lines to write; the front one is being written
  bool writing = false;
  bool write_failed = false;
  bool close_done = false;
  bool woken = false;  // set by a handler that wake() posted

  void make_websocket() {
    ws = std::make_unique<PlainWebSocket>(socket);
    bound(*ws);
  }

  void make_tls_websocket(std::unique_ptr<ssl::context> context) {
    tls = std::move(context);
    wss = std::make_unique<TlsWebSocket>(socket, *tls);
    bound(*wss);
  }

  bool is_websocket() const { return ws || wss; }

  // `f(the WebSocket)`, over TCP or over TLS.
  template <class F>
  decltype(auto) with_websocket(F&& f) {
    return wss ? f(*wss) : f(*ws);
  }

  void start_read() {
    reading = true;
    // Acknowledge at once what comes next: a client that writes `move` and `yield` in two small writes
    // without TCP_NODELAY (Nagle's rule) holds the second until the first is acknowledged, and a delayed
    // acknowledgement costs it ~40 ms of every move (docs/PERFORMANCE.md, "KGP"). Linux resets quick-ack
    // mode by itself, so it is asked for before every read.
    const int on = 1;
    ::setsockopt(socket.native_handle(), IPPROTO_TCP, TCP_QUICKACK, &on, sizeof on);
    auto done = [this](const error_code& e, std::size_t n) {
      reading = false;
      read_done = true;
      read_ec = e;
      read_n = n;
      io.stop();  // the owner waits in run_until: hand it the line now
    };
    if (is_websocket())
      with_websocket([&](auto& w) { w.async_read(message, done); });
    else
      asio::async_read_until(socket, asio::dynamic_buffer(in, kMaxLineChars), '\n', done);
  }

  void enqueue(std::string text) {
    if (write_failed) return;
    if (is_websocket()) {
      for (std::string& line : lines_of(text)) out.push_back(std::move(line));
    } else {
      out.push_back(std::move(text));
    }
    if (!writing) write_next();
  }

  void write_next() {
    if (out.empty()) {
      writing = false;
      io.stop();  // an owner waiting in write() is done; one waiting in read() runs the loop again
      return;
    }
    writing = true;
    auto done = [this](const error_code& e, std::size_t) {
      if (e) {
        write_failed = true;
        writing = false;
        out.clear();
        io.stop();
        return;
      }
      out.pop_front();
      write_next();
    };
    if (is_websocket())
      with_websocket([&](auto& w) { w.async_write(asio::buffer(out.front()), done); });
    else
      asio::async_write(socket, asio::buffer(out.front()), done);
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

  // Runs the handlers of operations that were cancelled by closing the socket, which may refer to a frame.
  void drain_cancelled() {
    error_code ignored;
    socket.close(ignored);
    io.restart();
    io.run();
  }

  Status read_tcp(std::string& line) {
    if (read_ec == asio::error::not_found) return Status::TooLong;
    if (read_ec) return Status::Closed;
    line.assign(in, 0, read_n);
    in.erase(0, read_n);
    return Status::Line;
  }

  // A WebSocket message read: its text joins `in`, and its end ends a line.
  Status take_message() {
    if (read_ec == websocket::error::message_too_big) return Status::TooLong;
    if (read_ec) return Status::Closed;
    if (!with_websocket([](auto& w) { return w.got_text(); })) return Status::Binary;
    in += beast::buffers_to_string(message.data());
    message.consume(message.size());
    if (in.empty() || in.back() != '\n') in += '\n';
    return Status::Line;
  }

  Status read(std::string& line, Deadline deadline) {
    if (!socket.is_open()) return Status::Closed;
    while (true) {
      if (is_websocket()) {
        if (const std::size_t end = in.find('\n'); end != std::string::npos) {
          line.assign(in, 0, end + 1);
          in.erase(0, end + 1);
          return Status::Line;
        }
      }
      if (!reading && !read_done) start_read();
      if (!run_until(deadline, [&] { return read_done || woken; })) return Status::Timeout;
      if (!read_done) {
        woken = false;
        return Status::Woken;
      }
      read_done = false;
      if (!is_websocket()) return read_tcp(line);
      if (const Status s = take_message(); s != Status::Line) return s;
    }
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

namespace {

// A TCP connection to HOST:PORT made before the deadline, in a new Impl.
Expected<std::unique_ptr<LineSocket::Impl>> open_tcp(const std::string& host, std::uint16_t port, Deadline deadline) {
  auto impl = std::make_unique<LineSocket::Impl>();
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
    impl->drain_cancelled();
    return Error{"no connection to " + host + ":" + std::to_string(port) + " before the deadline"};
  }
  if (ec) return Error{"cannot connect to " + host + ":" + std::to_string(port) + ": " + ec.message()};
  impl->socket.set_option(tcp::no_delay(true), ec);
  return impl;
}

}  // namespace

Expected<LineSocket> LineSocket::connect(const std::string& host, std::uint16_t port, Deadline deadline) {
  Expected<std::unique_ptr<Impl>> impl = open_tcp(host, port, deadline);
  if (!impl) return Error{impl.error()};
  return LineSocket(std::move(impl).value());
}

namespace {

// A TLS client context that trusts the system's store or `trust.ca_file`, and verifies the peer.
Expected<std::unique_ptr<ssl::context>> tls_context(const TlsTrust& trust) {
  auto context = std::make_unique<ssl::context>(ssl::context::tls_client);
  error_code ec;
  if (trust.ca_file.empty())
    context->set_default_verify_paths(ec);
  else
    context->load_verify_file(trust.ca_file, ec);
  if (ec)
    return Error{trust.ca_file.empty() ? "cannot read the system's trust store: " + ec.message()
                                       : "cannot read the CA file " + trust.ca_file + ": " + ec.message()};
  context->set_verify_mode(ssl::verify_peer);
  return context;
}

// The TLS handshake of `impl` (whose `wss` is set) as a client of `url`'s host before the deadline: SNI names
// the host, and OpenSSL checks that the certificate names it (a DNS name, or an IP address in the
// certificate's IP names), so that its reason for a refusal is at hand ("hostname mismatch",
// "self-signed certificate"). An error text when it fails.
std::optional<std::string> tls_handshake(LineSocket::Impl& impl, const WebSocketUrl& url, const TlsTrust& trust,
                                         Deadline deadline) {
  SSL* native = impl.wss->next_layer().native_handle();
  error_code ec;
  const bool address = (asio::ip::make_address(url.host, ec), !ec);
  // Without the host to check, any trusted certificate would do: a failure to set it ends the connection.
  bool named = false;
  if (address) {
    named = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(native), url.host.c_str()) == 1;
  } else {
    SSL_set_hostflags(native, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    named = SSL_set_tlsext_host_name(native, url.host.c_str()) == 1 && SSL_set1_host(native, url.host.c_str()) == 1;
  }
  if (!named) return "cannot ask OpenSSL to check the certificate for the host " + url.host;
  bool done = false;
  impl.wss->next_layer().async_handshake(ssl::stream_base::client, [&](const error_code& e) {
    ec = e;
    done = true;
  });
  impl.io.restart();
  impl.io.run_until(deadline);
  if (!done) {
    impl.drain_cancelled();
    return "no TLS handshake with " + to_string(url) + " before the deadline";
  }
  if (!ec) return std::nullopt;
  const long verified = SSL_get_verify_result(native);
  if (verified != X509_V_OK)
    return "the certificate of " + url.host + " does not verify: " + X509_verify_cert_error_string(verified) +
           " (trusting " + (trust.ca_file.empty() ? "the system's trust store" : trust.ca_file) + ")";
  return "the TLS handshake with " + to_string(url) + " failed: " + ec.message();
}

}  // namespace

Expected<LineSocket> LineSocket::connect_websocket(const WebSocketUrl& url, Deadline deadline, const TlsTrust& trust) {
  const std::string where = to_string(url);
  std::unique_ptr<ssl::context> context;
  if (url.secure) {
    Expected<std::unique_ptr<ssl::context>> made = tls_context(trust);
    if (!made) return Error{made.error()};
    context = std::move(made).value();
  }
  Expected<std::unique_ptr<Impl>> opened = open_tcp(url.host, url.port, deadline);
  if (!opened) return Error{opened.error()};
  std::unique_ptr<Impl> impl = std::move(opened).value();
  if (url.secure) {
    impl->make_tls_websocket(std::move(context));
    if (std::optional<std::string> failed = tls_handshake(*impl, url, trust, deadline)) return Error{*failed};
  } else {
    impl->make_websocket();
  }
  websocket::response_type response;
  error_code ec;
  bool done = false;
  const bool v6 = url.host.find(':') != std::string::npos;
  const std::string host_field = (v6 ? "[" + url.host + "]" : url.host) + ":" + std::to_string(url.port);
  impl->with_websocket([&](auto& w) {
    w.set_option(websocket::stream_base::decorator([](websocket::request_type& request) {
      request.set(beast::http::field::user_agent, "kalah-arena referee kgp-client");
    }));
    w.async_handshake(response, host_field, url.target, [&](const error_code& e) {
      ec = e;
      done = true;
    });
  });
  impl->io.restart();
  impl->io.run_until(deadline);
  if (!done) {
    impl->drain_cancelled();
    return Error{"no WebSocket upgrade from " + where + " before the deadline"};
  }
  if (ec == websocket::error::upgrade_declined)
    return Error{"the server at " + where + " did not upgrade to a WebSocket: it answered HTTP " +
                 std::to_string(response.result_int()) + " " + std::string(response.reason())};
  if (ec) return Error{"the WebSocket handshake with " + where + " failed: " + ec.message()};
  return LineSocket(std::move(impl));
}

LineSocket::Status LineSocket::read(std::string& line, Deadline deadline) {
  const Status s = impl_->read(line, deadline);
  if (s != Status::Line) return s;
  if (!line.empty() && line.back() == '\n') line.pop_back();
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return s;
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

void LineSocket::wake() {
  Impl* s = impl_.get();
  asio::post(s->io, [s] {
    s->woken = true;
    s->io.stop();
  });
}

void LineSocket::close() {
  Impl& s = *impl_;
  if (s.is_websocket() && s.with_websocket([](auto& w) { return w.is_open(); }) && s.socket.is_open() && !s.writing) {
    s.close_done = false;
    s.with_websocket([&s](auto& w) {
      w.async_close(websocket::close_code::normal, [&s](const error_code&) {
        s.close_done = true;
        s.io.stop();
      });
    });
    s.run_until(std::chrono::steady_clock::now() + kCloseGrace, [&] { return s.close_done; });
  }
  error_code ignored;
  s.socket.shutdown(tcp::socket::shutdown_both, ignored);
  s.drain_cancelled();
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
  Transport transport = Transport::Tcp;
  std::string last_refusal;

  // Upgrades an accepted connection to a WebSocket before the deadline; false when it does not, with the
  // reason in last_refusal. The request is read by Beast's parser, whose header limit bounds it.
  bool upgrade(LineSocket::Impl& peer, Deadline deadline) {
    const auto start = std::chrono::steady_clock::now();
    peer.make_websocket();
    bool done = false;
    error_code ec;
    peer.ws->async_accept([&](const error_code& e) {
      ec = e;
      done = true;
    });
    peer.io.run_until(deadline);
    if (!done) {
      peer.drain_cancelled();
      const auto waited =
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
      last_refusal = "it sent no WebSocket upgrade request within " + std::to_string(waited.count()) + " ms";
      return false;
    }
    if (ec) last_refusal = "its first bytes were no WebSocket upgrade request (" + ec.message() + ")";
    return !ec;
  }

  std::optional<LineSocket> accept_tcp(Deadline deadline) {
    auto peer = std::make_unique<LineSocket::Impl>();
    bool done = false;
    error_code ec;
    acceptor.async_accept(peer->socket, [&](const error_code& e) {
      ec = e;
      done = true;
    });
    io.restart();
    io.run_until(deadline);
    if (!done) {
      acceptor.cancel(ec);
      io.restart();
      io.run();  // the cancelled handler, which refers to this frame
      return std::nullopt;
    }
    if (ec) return std::nullopt;
    peer->socket.set_option(tcp::no_delay(true), ec);
    return LineSocket(std::move(peer));
  }
};

LineListener::LineListener(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LineListener::LineListener(LineListener&&) noexcept = default;
LineListener& LineListener::operator=(LineListener&&) noexcept = default;
LineListener::~LineListener() = default;

Expected<LineListener> LineListener::listen(const std::string& address, std::uint16_t port, Transport transport) {
  auto impl = std::make_unique<Impl>();
  impl->transport = transport;
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

std::optional<LineSocket> LineListener::accept(Deadline deadline, std::optional<Deadline> upgrade_by) {
  // Bounded by the deadline: each connection that fails its upgrade is dropped, and the wait goes on.
  while (true) {
    std::optional<LineSocket> socket = impl_->accept_tcp(deadline);
    if (!socket || impl_->transport == Transport::Tcp) return socket;
    const Deadline limit = std::min(upgrade_by.value_or(deadline), std::chrono::steady_clock::now() + kUpgradeTime);
    if (impl_->upgrade(*socket->impl_, limit)) return socket;
  }
}

const std::string& LineListener::last_refusal() const { return impl_->last_refusal; }

}  // namespace kalah::kgp
