#include "arena/serve/server.h"

#include <csignal>
#include <exception>
#include <memory>
#include <utility>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fmt/core.h>

#include "arena/serve/catalog.h"
#include "referee/system/temp_folder.h"

namespace kalah::serve {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);

// What every connection shares. One thread runs the connections (`connections` is theirs); the catalog is used
// on a thread of its own only, `catalog_thread`, so neither needs a lock.
struct Shared {
  Catalog catalog;
  const ServeOptions& options;
  asio::thread_pool& catalog_thread;
  std::size_t connections = 0;
};

http::response<http::string_body> respond(const http::request<http::empty_body>& request, Reply reply) {
  http::response<http::string_body> response{static_cast<http::status>(reply.status), request.version()};
  response.set(http::field::content_type, "application/json");
  response.set("Content-Security-Policy", "default-src 'none'");
  response.set("X-Content-Type-Options", "nosniff");
  response.set(http::field::cache_control, "no-store");
  if (reply.status == 401) response.set(http::field::www_authenticate, "Bearer");
  if (reply.status == 405) response.set(http::field::allow, "GET, HEAD");
  response.body() = std::move(reply.body);
  response.prepare_payload();
  if (request.method() == http::verb::head) {
    const std::size_t length = response.body().size();
    response.body().clear();
    response.content_length(length);
  }
  return response;
}

// The answer to a complete GET or HEAD request.
Reply answer(Shared& shared, const http::request<http::empty_body>& request) {
  std::optional<std::string> query_token;
  const Target target = parse_target(std::string_view(request.target().data(), request.target().size()), query_token);
  if (const Malformed* malformed = std::get_if<Malformed>(&target)) return {400, error_json(malformed->reason)};
  if (shared.options.token) {
    bool allowed = query_token && same_token(*query_token, *shared.options.token);
    const auto authorization = request.find(http::field::authorization);
    if (!allowed && authorization != request.end()) {
      const std::string_view value(authorization->value().data(), authorization->value().size());
      constexpr std::string_view kBearer = "Bearer ";
      allowed = value.size() > kBearer.size() && value.substr(0, kBearer.size()) == kBearer &&
                same_token(value.substr(kBearer.size()), *shared.options.token);
    }
    if (!allowed) return {401, error_json("a token is required: `Authorization: Bearer TOKEN` or ?token=TOKEN")};
  }
  const Route* route = std::get_if<Route>(&target);
  if (!route) return {404, error_json("not found")};
  switch (route->kind) {
    case Route::Kind::Tournaments: return shared.catalog.tournaments();
    case Route::Kind::Standings: return shared.catalog.standings(route->name);
    case Route::Kind::Game: return shared.catalog.game(route->name, route->id);
  }
  return {404, error_json("not found")};
}

// The answer, computed on the catalog's thread: the connections' reads, writes, timeouts and refusals never wait
// while a tournament's standings are computed (only the requests that need the catalog do, one after another).
asio::awaitable<Reply> answer_on_catalog_thread(Shared& shared, const http::request<http::empty_body>& request) {
  const asio::any_io_executor connections = co_await asio::this_coro::executor;
  co_await asio::post(asio::bind_executor(shared.catalog_thread.get_executor(), asio::use_awaitable));
  Reply reply = answer(shared, request);
  co_await asio::post(asio::bind_executor(connections, asio::use_awaitable));
  co_return reply;
}

// One connection: requests one after the other (keep-alive), each under the bounds; any error closes it.
asio::awaitable<void> session(beast::tcp_stream stream, Shared& shared) {
  beast::flat_buffer buffer(2 * kMaxHeaderBytes);
  for (;;) {
    if (buffer.size() == 0) {
      // Idle until the next request's first byte.
      stream.expires_after(shared.options.idle_timeout);
      auto [error, n] = co_await stream.async_read_some(buffer.prepare(kMaxHeaderBytes), kTuple);
      if (error) break;
      buffer.commit(n);
    }
    stream.expires_after(shared.options.request_timeout);
    http::request_parser<http::empty_body> parser;
    parser.header_limit(static_cast<std::uint32_t>(kMaxHeaderBytes));
    parser.body_limit(0);
    auto [error, n] = co_await http::async_read_header(stream, buffer, parser, kTuple);
    std::optional<Reply> refusal;
    if (error == http::error::header_limit || error == http::error::buffer_overflow)
      refusal = Reply{431, error_json("the request line and headers are longer than 8 KiB")};
    else if (error == http::error::body_limit)
      refusal = Reply{413, error_json("a request to this server has no body")};
    else if (error && error != beast::error::timeout && error != http::error::end_of_stream &&
             error != asio::error::eof && error != asio::error::connection_reset &&
             error != asio::error::operation_aborted)
      refusal = Reply{400, error_json("not an HTTP/1.1 request")};
    else if (error)
      break;
    http::request<http::empty_body> request = error ? http::request<http::empty_body>{} : parser.release();
    if (!refusal && request.method() != http::verb::get && request.method() != http::verb::head)
      refusal = Reply{405, error_json("read-only: only GET and HEAD")};
    if (!refusal && !parser.is_done()) refusal = Reply{413, error_json("a request to this server has no body")};
    const bool keep_alive = !refusal && request.keep_alive();
    Reply reply;
    if (refusal)
      reply = std::move(*refusal);
    else
      reply = co_await answer_on_catalog_thread(shared, request);
    http::response<http::string_body> response = respond(request, std::move(reply));
    response.keep_alive(keep_alive);
    stream.expires_after(shared.options.request_timeout);
    auto [write_error, written] = co_await http::async_write(stream, response, kTuple);
    if (write_error || !keep_alive) break;
  }
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

asio::awaitable<void> accept_loop(tcp::acceptor& acceptor, Shared& shared) {
  for (;;) {
    auto [error, socket] = co_await acceptor.async_accept(kTuple);
    if (error == asio::error::operation_aborted) co_return;
    if (error) {
      // Out of descriptors, most likely: wait for connections to close rather than spin.
      asio::steady_timer pause(acceptor.get_executor(), std::chrono::milliseconds(100));
      co_await pause.async_wait(kTuple);
      continue;
    }
    if (shared.connections >= shared.options.max_connections) {
      beast::error_code ignored;
      socket.close(ignored);
      continue;
    }
    ++shared.connections;
    asio::co_spawn(acceptor.get_executor(), session(beast::tcp_stream(std::move(socket)), shared),
                   [&shared](const std::exception_ptr&) { --shared.connections; });
  }
}

}  // namespace

std::optional<std::string> serve(const ServeOptions& options,
                                 const std::function<void(const std::string& url)>& listening) {
  // The reports the standings are read from: the server's own, removed when it stops.
  system::TempFolder cache("arena-serve", std::nothrow);
  if (cache.path().empty()) return cache.error();
  Expected<Catalog> catalog = Catalog::open(options.dirs, cache.path());
  if (!catalog) return catalog.error();
  // Declared in this order so that the catalog's thread, and the work left in it, go before the connections'
  // io_context, whose sockets that work holds.
  asio::io_context io(1);
  tcp::acceptor acceptor(io);
  asio::thread_pool catalog_thread(1);
  Shared shared{std::move(catalog).value(), options, catalog_thread};
  beast::error_code error;
  const tcp::endpoint endpoint(asio::ip::make_address(options.listen.address, error), options.listen.port);
  if (!error) acceptor.open(endpoint.protocol(), error);
  if (!error) acceptor.set_option(asio::socket_base::reuse_address(true), error);
  if (!error) acceptor.bind(endpoint, error);
  if (!error) acceptor.listen(asio::socket_base::max_listen_connections, error);
  if (error)
    return fmt::format("cannot listen on {}:{}: {}", options.listen.address, options.listen.port, error.message());
  const tcp::endpoint bound = acceptor.local_endpoint(error);
  const std::string host =
      bound.address().is_v6() ? "[" + bound.address().to_string() + "]" : bound.address().to_string();

  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const beast::error_code&, int) { io.stop(); });
  asio::co_spawn(io, accept_loop(acceptor, shared), asio::detached);
  listening(fmt::format("http://{}:{}/", host, bound.port()));
  io.run();
  // The catalog's work finishes before the connections' handlers, which its last answer may be posted to, go.
  catalog_thread.stop();
  catalog_thread.join();
  return std::nullopt;
}

}  // namespace kalah::serve
