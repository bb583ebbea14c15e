#include "arena/serve/server.h"

#include <sys/inotify.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <deque>
#include <exception>
#include <list>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <utility>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fmt/core.h>

#include "arena/journal/journal.h"
#include "arena/runner/live_file.h"
#include "arena/serve/catalog.h"
#include "arena/serve/live_feed.h"
#include "arena/serve/page.h"
#include "arena/serve/submissions.h"
#include "referee/record/record_json.h"
#include "referee/system/temp_folder.h"

namespace kalah::serve {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);

// A client of a live stream: the events not yet written to it, in order. Shared by its session and its feed.
struct Client {
  explicit Client(const asio::any_io_executor& executor) : wake(executor) {}
  std::deque<EventPtr> queue;
  bool dropped = false;     // it fell too far behind: its session ends
  asio::steady_timer wake;  // cancelled when an event is queued
};

// One tournament's live feed and the clients of its stream.
struct Feed {
  LiveFeed feed;
  std::string name;
  std::set<std::shared_ptr<Client>> clients;
  bool standings_asked = false;  // the catalog's thread computes its standings now
  bool standings_again = false;  // and must again when that is done: more games came meanwhile
};

// What the live folders of a tournament are watched for.
enum class Watched { Tournament, LiveFolder, Shards, Shard };

// The live streams: one inotify descriptor for all the tournaments' folders, a feed per tournament streamed
// (made at its first client, kept while the server runs). On the connections' thread only.
struct Live {
  explicit Live(asio::io_context& io) : inotify(io) {}
  asio::posix::stream_descriptor inotify;
  std::map<std::filesystem::path, std::unique_ptr<Feed>> feeds;
  std::map<int, std::pair<Feed*, Watched>> watches;
  std::mt19937_64 epochs{std::random_device{}()};
};

class ConnectionGuard;

// The connections open, and those of them idle (waiting for a request's first byte), the longest idle first.
// At the limit a new connection takes the place of the longest idle one, so that idle connections never keep
// a client with a request out; only connections that are busy (a request arriving or answered, a live stream)
// do. Declared before the io_context in serve(), so that the guards of the sessions that the io_context
// destroys at its end find it still there.
struct Connections {
  std::size_t open = 0;
  std::list<ConnectionGuard*> idle;
};

// A session's place in Connections: counted while it lives (until it is evicted), listed while it is idle.
class ConnectionGuard {
 public:
  ConnectionGuard(Connections& connections, beast::tcp_stream& stream) : connections_(connections), stream_(stream) {}
  ~ConnectionGuard() {
    busy();
    if (!evicted_) --connections_.open;
  }
  ConnectionGuard(const ConnectionGuard&) = delete;
  ConnectionGuard& operator=(const ConnectionGuard&) = delete;

  void idle() {
    if (!at_) at_ = connections_.idle.insert(connections_.idle.end(), this);
  }
  void busy() {
    if (at_) connections_.idle.erase(*at_);
    at_.reset();
  }
  // Closes the longest idle connection to make room for a new one; false when none is idle.
  static bool evict_one(Connections& connections) {
    if (connections.idle.empty()) return false;
    ConnectionGuard& oldest = *connections.idle.front();
    oldest.busy();
    oldest.evicted_ = true;
    --connections.open;
    beast::error_code ignored;
    oldest.stream_.socket().close(ignored);  // its pending read ends with operation_aborted
    return true;
  }

 private:
  Connections& connections_;
  beast::tcp_stream& stream_;
  std::optional<std::list<ConnectionGuard*>::iterator> at_;
  bool evicted_ = false;
};

// What every connection shares. One thread runs the connections (`connections` and `live` are theirs); the
// catalog is used on a thread of its own only, `catalog_thread`, so neither needs a lock.
struct Shared {
  Catalog catalog;
  const ServeOptions& options;
  asio::thread_pool& catalog_thread;
  Live& live;
  Connections& connections;
  Uploads uploads;  // a season's submissions (ServeOptions::intake)
};

// A client whose stream holds more events than this, not written, is dropped (it cannot keep up).
constexpr std::size_t kMaxQueuedEvents = 1u << 17;
// One write to a client sends at most about this much.
constexpr std::size_t kMaxWriteBytes = 256u << 10;

void broadcast(Feed& feed, const std::vector<EventPtr>& events) {
  if (events.empty()) return;
  for (const std::shared_ptr<Client>& client : feed.clients) {
    if (client->dropped) continue;
    client->queue.insert(client->queue.end(), events.begin(), events.end());
    if (client->queue.size() > kMaxQueuedEvents) {
      client->dropped = true;
      client->queue.clear();
    }
    client->wake.cancel();
  }
}

// The feed's standings computed again on the catalog's thread, then sent to its clients if they changed; one
// computation at a time per feed.
void refresh_standings(Shared& shared, Feed& feed) {
  if (feed.standings_asked) {
    feed.standings_again = true;
    return;
  }
  feed.standings_asked = true;
  const asio::any_io_executor connections = shared.live.inotify.get_executor();
  asio::post(shared.catalog_thread, [&shared, &feed, connections] {
    Reply reply = shared.catalog.standings(feed.name);
    asio::post(connections, [&shared, &feed, reply = std::move(reply)] {
      feed.standings_asked = false;
      if (reply.status == 200) broadcast(feed, feed.feed.standings(reply.body));
      if (std::exchange(feed.standings_again, false)) refresh_standings(shared, feed);
    });
  });
}

void watch(Live& live, Feed& feed, const std::filesystem::path& folder, Watched what) {
  constexpr std::uint32_t kMask =
      IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR | IN_DONT_FOLLOW;
  const int wd = ::inotify_add_watch(live.inotify.native_handle(), folder.c_str(), kMask);
  if (wd >= 0) live.watches[wd] = {&feed, what};
}

void watch_shards(Live& live, Feed& feed) {
  watch(live, feed, feed.feed.dir() / "shards", Watched::Shards);
  for (const std::filesystem::path& folder : journal_folders(feed.feed.dir()))
    if (folder != feed.feed.dir()) watch(live, feed, folder, Watched::Shard);
}

// The feed of the tournament in `dir`, made (and its folders watched) at its first client.
Feed& feed_of(Shared& shared, const std::filesystem::path& dir, const std::string& name) {
  std::unique_ptr<Feed>& feed = shared.live.feeds[dir];
  if (feed) return *feed;
  Live& live = shared.live;
  feed = std::make_unique<Feed>(Feed{LiveFeed(dir, live.epochs()), name, {}, false, false});
  // Watched before the files are first read, so that nothing written in between is missed.
  watch(live, *feed, dir, Watched::Tournament);
  watch(live, *feed, dir / arena::live::kFolder, Watched::LiveFolder);
  watch_shards(live, *feed);
  feed->feed.start();
  refresh_standings(shared, *feed);
  return *feed;
}

// What one read of the inotify descriptor says: which files of which feeds to read again.
struct Changes {
  std::map<Feed*, std::set<std::string>> live_files;
  std::set<Feed*> all_live, journals;
};

void note_change(Live& live, const inotify_event& event, std::string_view name, Changes& changes) {
  const auto found = live.watches.find(event.wd);
  if (found == live.watches.end()) return;
  auto [feed, what] = found->second;
  if (event.mask & IN_IGNORED) {
    live.watches.erase(found);
    return;
  }
  switch (what) {
    case Watched::Tournament:
      if (name == arena::live::kFolder) {
        watch(live, *feed, feed->feed.dir() / arena::live::kFolder, Watched::LiveFolder);
        changes.all_live.insert(feed);
      } else if (name == "shards") {
        watch_shards(live, *feed);
        changes.journals.insert(feed);
      } else if (name == journal::kGamesFile) {
        changes.journals.insert(feed);
      }
      break;
    case Watched::LiveFolder: changes.live_files[feed].emplace(name); break;
    case Watched::Shards:
      watch(live, *feed, feed->feed.dir() / "shards" / std::string(name), Watched::Shard);
      changes.journals.insert(feed);
      break;
    case Watched::Shard:
      if (name == journal::kGamesFile) changes.journals.insert(feed);
      break;
  }
}

// What one read of the inotify descriptor said, handled: each feed's files read again, its new events sent.
void on_notified(Shared& shared, const char* bytes, std::size_t n) {
  Live& live = shared.live;
  Changes changes;
  bool overflow = false;
  for (std::size_t at = 0; at + sizeof(inotify_event) <= n;) {
    inotify_event event;
    std::memcpy(&event, bytes + at, sizeof event);
    const std::size_t size = sizeof(inotify_event) + event.len;
    if (at + size > n) break;
    const char* name_start = bytes + at + sizeof(inotify_event);
    const std::string_view name(name_start, ::strnlen(name_start, event.len));
    overflow = overflow || (event.mask & IN_Q_OVERFLOW);
    note_change(live, event, name, changes);
    at += size;
  }
  if (overflow)
    for (auto& [dir, feed] : live.feeds) {
      changes.all_live.insert(feed.get());
      changes.journals.insert(feed.get());
    }
  for (Feed* feed : changes.all_live) broadcast(*feed, feed->feed.look_live());
  for (auto& [feed, files] : changes.live_files)
    if (!changes.all_live.contains(feed))
      for (const std::string& file : files) broadcast(*feed, feed->feed.look_live(file));
  for (Feed* feed : changes.journals) {
    const std::vector<EventPtr> games = feed->feed.look_journals();
    broadcast(*feed, games);
    if (!games.empty()) refresh_standings(shared, *feed);
  }
}

// Reads the inotify descriptor for as long as the server runs, pausing kLiveReadPause after each read so that
// the plies of that time are read together.
asio::awaitable<void> watch_loop(Shared& shared) {
  std::vector<char> buffer(64 * 1024);
  asio::steady_timer pause(shared.live.inotify.get_executor());
  for (;;) {
    auto [error, n] = co_await shared.live.inotify.async_read_some(asio::buffer(buffer), kTuple);
    if (error) co_return;
    on_notified(shared, buffer.data(), n);
    pause.expires_after(kLiveReadPause);
    co_await pause.async_wait(kTuple);
  }
}

http::response<http::string_body> respond(const http::request<http::empty_body>& request, Reply reply) {
  http::response<http::string_body> response{static_cast<http::status>(reply.status), request.version()};
  response.set(http::field::content_type, reply.content_type);
  response.set("Content-Security-Policy", reply.policy);
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

// The answer to a complete GET or HEAD request; for a live stream, the tournament's folder to stream.
struct Answer {
  Reply reply;
  std::optional<std::filesystem::path> live;
  std::string name;
};

// A finished game in the viewer: its journal line (as GET .../games/ID answers it) read into a record, then the page,
// with the game's analysis when the tournament has one.
Reply viewer_page(Shared& shared, const Route& route, const std::optional<std::string>& token) {
  Reply line = shared.catalog.game(route.name, route.id);
  if (line.status != 200) return line;
  const Expected<GameRecord> game = record_from_json(line.body);
  if (!game) return {503, error_json("its journal line cannot be read now")};
  return {200, game_page(route.name, *game, shared.catalog.judgement(route.name, *game), token),
          "text/html; charset=utf-8", std::string(kPagePolicy)};
}

Reply answer(Shared& shared, const http::request<http::empty_body>& request, Answer& out) {
  std::optional<std::string> query_token;
  const Target target = parse_target(std::string_view(request.target().data(), request.target().size()), query_token);
  if (const Malformed* malformed = std::get_if<Malformed>(&target)) return {400, error_json(malformed->reason)};
  const Route* route = std::get_if<Route>(&target);
  // The page's own files hold nothing of the results: they are sent without the token, which their page (opened
  // as /?token=TOKEN) adds to every request for data.
  if (route && route->kind == Route::Kind::Page) {
    if (const std::optional<PageFile> file = page_file(route->name))
      return {200, std::string(file->body), std::string(file->content_type), std::string(kPagePolicy)};
    return {404, error_json("not found")};
  }
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
  if (!route) return {404, error_json("not found")};
  switch (route->kind) {
    case Route::Kind::Tournaments: return shared.catalog.tournaments();
    case Route::Kind::Standings: return shared.catalog.standings(route->name);
    case Route::Kind::Games: return shared.catalog.games(route->name, route->after, route->limit);
    case Route::Kind::Game: return shared.catalog.analysed_game(route->name, route->id);
    case Route::Kind::GamePage: return viewer_page(shared, *route, query_token);
    case Route::Kind::Page: break;  // answered above
    case Route::Kind::Live:
      shared.catalog.refresh();
      for (auto& [name, dir] : shared.catalog.names())
        if (name == route->name) {
          out.live = dir;
          out.name = name;
          return {200, ""};
        }
      return {404, error_json("no tournament of that name")};
    case Route::Kind::Submit:
    case Route::Kind::Revisions: return {404, error_json("not a season's server (arena serve --season)")};
  }
  return {404, error_json("not found")};
}

// The answer, computed on the catalog's thread: the connections' reads, writes, timeouts and refusals never wait
// while a tournament's standings are computed (only the requests that need the catalog do, one after another).
asio::awaitable<Answer> answer_on_catalog_thread(Shared& shared, const http::request<http::empty_body>& request) {
  const asio::any_io_executor connections = co_await asio::this_coro::executor;
  co_await asio::post(asio::bind_executor(shared.catalog_thread.get_executor(), asio::use_awaitable));
  Answer out;
  out.reply = answer(shared, request, out);
  co_await asio::post(asio::bind_executor(connections, asio::use_awaitable));
  co_return out;
}

// The live stream of the tournament in `dir` (docs/SERVE.md, "The live stream"): its header, then what the feed
// replays (from Last-Event-ID, if sent), then each event as it comes, a comment when none came for a while.
// Ends when the client is gone, too slow to write to within the time a request may take, or too far behind.
asio::awaitable<void> stream_live(beast::tcp_stream& stream, Shared& shared,
                                  const http::request<http::empty_body>& request, const std::filesystem::path& dir,
                                  const std::string& name) {
  http::response<http::empty_body> response{http::status::ok, request.version()};
  response.set(http::field::content_type, "text/event-stream");
  response.set("Content-Security-Policy", "default-src 'none'");
  response.set("X-Content-Type-Options", "nosniff");
  response.set(http::field::cache_control, "no-store");
  response.set("X-Accel-Buffering", "no");  // a proxy in front must not hold the events back
  response.keep_alive(false);
  http::response_serializer<http::empty_body> serializer{response};
  stream.expires_after(shared.options.request_timeout);
  if (auto [error, n] = co_await http::async_write_header(stream, serializer, kTuple);
      error || request.method() == http::verb::head)
    co_return;
  Feed& feed = feed_of(shared, dir, name);
  std::optional<std::uint64_t> after;
  if (const auto last = request.find("Last-Event-ID"); last != request.end())
    after = resumed_seq(std::string_view(last->value().data(), last->value().size()), feed.feed.epoch());
  auto client = std::make_shared<Client>(co_await asio::this_coro::executor);
  const std::vector<EventPtr> replayed = feed.feed.replay(after);
  client->queue.assign(replayed.begin(), replayed.end());
  feed.clients.insert(client);
  std::string out = "retry: 1000\n\n";
  while (!client->dropped) {
    if (client->queue.empty() && out.empty()) {
      client->wake.expires_after(shared.options.live_keepalive);
      auto [error] = co_await client->wake.async_wait(kTuple);
      if (!error && client->queue.empty()) out = ": keep-alive\n\n";
    }
    while (!client->queue.empty() && out.size() < kMaxWriteBytes) {
      out += client->queue.front()->frame;
      client->queue.pop_front();
    }
    if (out.empty()) continue;
    stream.expires_after(shared.options.request_timeout);
    auto [error, n] = co_await asio::async_write(stream, asio::buffer(out), kTuple);
    if (error) break;
    out.clear();
  }
  feed.clients.erase(client);
}

// One connection: requests one after the other (keep-alive), each under the bounds; any error closes it.
asio::awaitable<void> session(beast::tcp_stream stream, Shared& shared) {
  ConnectionGuard guard(shared.connections, stream);
  beast::flat_buffer buffer(2 * kMaxHeaderBytes);
  for (;;) {
    if (buffer.size() == 0) {
      // Idle until the next request's first byte; closed to make room for a new connection at the limit.
      stream.expires_after(shared.options.idle_timeout);
      guard.idle();
      auto [error, n] = co_await stream.async_read_some(buffer.prepare(kMaxHeaderBytes), kTuple);
      guard.busy();
      if (error) break;
      buffer.commit(n);
    }
    stream.expires_after(shared.options.request_timeout);
    http::request_parser<http::empty_body> parser;
    parser.header_limit(static_cast<std::uint32_t>(kMaxHeaderBytes));
    // Only a season's upload has a body; it is read in season_request.
    parser.body_limit(shared.options.intake ? shared.options.intake->max_body() : 0);
    auto [error, n] = co_await http::async_read_header(stream, buffer, parser, kTuple);
    std::optional<Reply> refusal;
    if (error == http::error::header_limit || error == http::error::buffer_overflow)
      refusal = Reply{431, error_json("the request line and headers are longer than 8 KiB")};
    else if (error == http::error::body_limit)
      refusal = Reply{413, error_json(shared.options.intake ? fmt::format("the body is larger than {} bytes",
                                                                          shared.options.intake->max_body())
                                                            : "a request to this server has no body")};
    else if (error && error != beast::error::timeout && error != http::error::end_of_stream &&
             error != asio::error::eof && error != asio::error::connection_reset &&
             error != asio::error::operation_aborted)
      refusal = Reply{400, error_json("not an HTTP/1.1 request")};
    else if (error)
      break;
    if (const std::optional<Route> route = refusal ? std::nullopt : season_route(shared.uploads, parser.get())) {
      const http::request<http::empty_body> head = parser.get();
      bool keep_alive = head.keep_alive();
      http::response<http::string_body> response =
          respond(head, co_await season_request(stream, buffer, parser, shared.uploads, *route, keep_alive));
      response.keep_alive(keep_alive);
      stream.expires_after(shared.options.request_timeout);
      auto [write_error, written] = co_await http::async_write(stream, response, kTuple);
      if (write_error || !keep_alive) break;
      continue;
    }
    http::request<http::empty_body> request = error ? http::request<http::empty_body>{} : parser.release();
    if (!refusal && request.method() != http::verb::get && request.method() != http::verb::head)
      refusal = Reply{405, error_json("read-only: only GET and HEAD")};
    if (!refusal && !parser.is_done()) refusal = Reply{413, error_json("a request to this server has no body")};
    const bool keep_alive = !refusal && request.keep_alive();
    Answer answered;
    if (refusal)
      answered.reply = std::move(*refusal);
    else
      answered = co_await answer_on_catalog_thread(shared, request);
    if (answered.live) {
      co_await stream_live(stream, shared, request, *answered.live, answered.name);
      break;
    }
    Reply reply = std::move(answered.reply);
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
    if (shared.connections.open >= shared.options.max_connections && !ConnectionGuard::evict_one(shared.connections)) {
      beast::error_code ignored;
      socket.close(ignored);
      continue;
    }
    ++shared.connections.open;
    asio::co_spawn(acceptor.get_executor(), session(beast::tcp_stream(std::move(socket)), shared), asio::detached);
  }
}

}  // namespace

std::optional<std::string> serve(const ServeOptions& options,
                                 const std::function<void(const std::string& url)>& listening) {
  // Lower first, so that every thread made below (the catalog's, the intake's) inherits it: on Linux a niceness
  // is a thread's. Raising one's own niceness needs no privilege; past 19 it stays at 19.
  if (options.nice > 0) {
    errno = 0;
    const int now = ::getpriority(PRIO_PROCESS, 0);
    if (errno == 0) ::setpriority(PRIO_PROCESS, 0, std::min(19, now + options.nice));
  }
  // The reports the standings are read from: the server's own, removed when it stops.
  system::TempFolder cache("arena-serve", std::nothrow);
  if (cache.path().empty()) return cache.error();
  Expected<Catalog> catalog = Catalog::open(options.dirs, cache.path());
  if (!catalog) return catalog.error();
  // Declared in this order so that the catalog's thread, and the work left in it, go before the connections'
  // io_context, whose sockets that work holds.
  Connections connections;
  asio::io_context io(1);
  tcp::acceptor acceptor(io);
  asio::thread_pool catalog_thread(1);
  asio::thread_pool intake_thread(1);
  Live live(io);
  const int inotify = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (inotify < 0) return fmt::format("cannot watch the results folders (inotify): {}", std::strerror(errno));
  live.inotify.assign(inotify);
  Shared shared{std::move(catalog).value(),     options, catalog_thread, live, connections,
                {options.intake, intake_thread}};
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
  asio::co_spawn(io, watch_loop(shared), asio::detached);
  listening(fmt::format("http://{}:{}/", host, bound.port()));
  io.run();
  // The catalog's work finishes before the connections' handlers, which its last answer may be posted to, go.
  catalog_thread.stop();
  catalog_thread.join();
  // An upload being stored is finished (an acknowledged one is never half-written; one not yet answered may be).
  intake_thread.join();
  return std::nullopt;
}

}  // namespace kalah::serve
