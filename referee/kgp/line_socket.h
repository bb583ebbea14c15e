// KGP's transport: lines over a TCP connection, or over a WebSocket (each line one text message; a client's
// also over TLS), read and written before deadlines (Boost.Asio, Boost.Beast and OpenSSL behind a pimpl). One thread
// reads and writes; another thread may only queue lines with send_soon(), which go out while the owner waits in read()
// (so a client answers `ping` while its engine thinks on that other thread).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "referee/kgp/address.h"
#include "referee/rules/expected.h"

namespace kalah::kgp {

using Deadline = std::chrono::steady_clock::time_point;

// How a wss:// client trusts the server's certificate: the system's trust store (`ca_file` empty) or the
// CAs and certificates of `ca_file` (PEM); either way the certificate must name the host of the URL.
struct TlsTrust {
  std::string ca_file;
};

// How lines travel: in a TCP byte stream, each ending in CR LF; or one to a text message of a WebSocket
// (RFC 6455) over TCP, as the KGP course's clients send them (a client's may go over TLS: connect_websocket
// with wss://). A message holds at most kMaxLineChars bytes; its end ends a line, and a line break inside it
// starts another.
enum class Transport { Tcp, WebSocket };

class LineSocket {
 public:
  enum class Status {
    Line,     // a line was read (without its CR LF)
    Timeout,  // none before the deadline; the read goes on in the next read()
    Closed,   // the other side closed the connection, or it failed
    TooLong,  // a line (or a WebSocket message) longer than kMaxLineChars: the connection is of no further use
    Binary,   // a binary WebSocket message, which holds no KGP line: the connection is of no further use
    Woken,    // wake() was called before a line came; the read goes on in the next read()
  };
  struct Impl;

  explicit LineSocket(std::unique_ptr<Impl> impl);
  LineSocket(LineSocket&&) noexcept;
  LineSocket& operator=(LineSocket&&) noexcept;
  ~LineSocket();

  // Connects to HOST:PORT before `deadline`; an error names what failed.
  static Expected<LineSocket> connect(const std::string& host, std::uint16_t port, Deadline deadline);
  // Connects to `url` and upgrades the connection to a WebSocket before `deadline`; for wss:// first a TLS
  // handshake (SNI the URL's host) whose certificate must verify by `trust` and name that host. An error
  // names what failed: a certificate that does not verify by its host and OpenSSL's reason, a server that
  // answers without upgrading by its HTTP status.
  static Expected<LineSocket> connect_websocket(const WebSocketUrl& url, Deadline deadline, const TlsTrust& trust = {});

  // Reads one line into `line` (its CR LF removed).
  Status read(std::string& line, Deadline deadline);
  // Writes `text` (whole lines, each ending in CR LF) after any queued by send_soon(); false when the
  // connection failed or the deadline passed first.
  bool write(std::string_view text, Deadline deadline);
  // Queues `text` from any thread; it goes out while the owning thread waits in read() or write().
  void send_soon(std::string text);
  // From any thread: the owner's read() (the one waiting, or else the next) comes back Woken, so that it can
  // look at what another thread has for it (`referee kgp-host`: the arena's `stop` during a state).
  void wake();
  // Closes the connection (a WebSocket's with a close message first, if it goes out at once); reads then
  // come back Closed.
  void close();
  // "127.0.0.1:40123": the other side's address.
  std::string peer() const;

 private:
  friend class LineListener;  // upgrades an accepted connection to a WebSocket
  std::unique_ptr<Impl> impl_;
};

// A listening TCP socket on 127.0.0.1 (or the given address) whose connections become LineSockets; with
// Transport::WebSocket each connection must upgrade to a WebSocket (any path) to be accepted.
class LineListener {
 public:
  struct Impl;
  // Listens on `address`:`port` (0: a free port, see port()). An error when it cannot bind.
  static Expected<LineListener> listen(const std::string& address, std::uint16_t port,
                                       Transport transport = Transport::Tcp);
  explicit LineListener(std::unique_ptr<Impl> impl);
  LineListener(LineListener&&) noexcept;
  LineListener& operator=(LineListener&&) noexcept;
  ~LineListener();

  std::uint16_t port() const;
  // The next connection, or none when none came before `deadline`. A WebSocket listener drops a connection
  // whose upgrade fails or takes over 5 s (or goes past `upgrade_by`, which may be later than `deadline`:
  // a caller that waits in short slices still gives a connection its whole time), and waits for the next.
  std::optional<LineSocket> accept(Deadline deadline, std::optional<Deadline> upgrade_by = std::nullopt);
  // Why the last connection a WebSocket listener dropped was dropped ("it sent no upgrade request within
  // 5000 ms", "its upgrade request was refused: bad method"); empty when none was.
  const std::string& last_refusal() const;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace kalah::kgp
