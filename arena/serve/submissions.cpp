#include "arena/serve/submissions.h"

#include <functional>
#include <string>
#include <utility>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <fmt/core.h>

namespace kalah::serve {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);

std::string field_text(const http::request<http::empty_body>& request, http::field name) {
  const auto found = request.find(name);
  return found == request.end() ? std::string() : std::string(found->value());
}

// `work` run on the intake's thread, its reply brought back to the connections' thread.
asio::awaitable<Reply> on_intake_thread(Uploads& uploads, std::function<Reply()> work) {
  const asio::any_io_executor connections = co_await asio::this_coro::executor;
  co_await asio::post(asio::bind_executor(uploads.thread.get_executor(), asio::use_awaitable));
  Reply reply = work();
  co_await asio::post(asio::bind_executor(connections, asio::use_awaitable));
  co_return reply;
}

}  // namespace

// The request's target as a route of a season's submissions, when the server has an intake and it is one.
std::optional<Route> season_route(const Uploads& uploads, const http::request<http::empty_body>& request) {
  if (!uploads.intake) return std::nullopt;
  std::optional<std::string> ignored;
  const Target target = parse_target(std::string_view(request.target().data(), request.target().size()), ignored);
  const Route* route = std::get_if<Route>(&target);
  if (!route || (route->kind != Route::Kind::Submit && route->kind != Route::Kind::Revisions)) return std::nullopt;
  return *route;
}

// GCC 12 takes the coroutine's frame, which Asio's operator new gets from aligned_alloc and its operator delete
// gives back with free, for a mismatched pair when it inlines both (-Wmismatched-new-delete, a false positive
// that comes and goes with the frame's size).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

// A request to a season's submission routes (docs/SEASON.md). An upload is admitted by its token before its
// body is read (a `100 Continue` then, when the client waits for one), read up to the intake's bound and
// stored on the intake's thread. `keep_alive` turns false when the body was not read.
asio::awaitable<Reply> season_request(beast::tcp_stream& stream, beast::flat_buffer& buffer,
                                      http::request_parser<http::empty_body>& header, Uploads& uploads,
                                      const Route& route, bool& keep_alive) {
  Intake& intake = *uploads.intake;
  const http::request<http::empty_body>& request = header.get();
  const std::string authorization = field_text(request, http::field::authorization);
  beast::error_code ignored;
  const std::string client = stream.socket().remote_endpoint(ignored).address().to_string();
  if (route.kind == Route::Kind::Revisions) {
    if (request.method() != http::verb::get && request.method() != http::verb::head)
      co_return Reply{405, error_json("only GET and HEAD")};
    co_return co_await on_intake_thread(uploads, [&] { return intake.revisions(route.name, authorization, client); });
  }
  keep_alive = false;  // until the whole body is read
  if (request.method() != http::verb::post) co_return Reply{405, error_json("an upload is a POST")};
  const Reply admitted = co_await on_intake_thread(uploads, [&] {
    return intake.admit(authorization, client).value_or(Reply{0, ""});
  });
  if (admitted.status != 0) co_return admitted;
  const std::string limit = fmt::format("the upload is larger than {} bytes", intake.max_body());
  if (header.content_length() && *header.content_length() > intake.max_body()) co_return Reply{413, error_json(limit)};
  if (uploads.in_flight >= kMaxUploadsInFlight) co_return Reply{503, error_json("too many uploads at once; try again")};
  ++uploads.in_flight;
  struct Done {
    std::size_t& n;
    ~Done() { --n; }
  } done{uploads.in_flight};
  if (beast::iequals(field_text(request, http::field::expect), "100-continue")) {
    http::response<http::empty_body> proceed{http::status::continue_, request.version()};
    if (auto [error, n] = co_await http::async_write(stream, proceed, kTuple); error) co_return Reply{400, ""};
  }
  http::request_parser<http::string_body> parser(std::move(header));
  parser.body_limit(intake.max_body());
  auto [error, n] = co_await http::async_read(stream, buffer, parser, kTuple);
  if (error == http::error::body_limit) co_return Reply{413, error_json(limit)};
  if (error) co_return Reply{400, error_json("the request's body did not arrive whole")};
  keep_alive = parser.get().keep_alive();
  const std::string content_type(parser.get()[http::field::content_type]);
  const std::string body = parser.release().body();
  co_return co_await on_intake_thread(uploads,
                                      [&] { return intake.submit(authorization, content_type, body, client); });
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace kalah::serve
