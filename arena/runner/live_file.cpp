#include "arena/runner/live_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <random>
#include <utility>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "referee/record/json_text.h"
#include "referee/system/untrusted_files.h"

namespace kalah::arena::live {

namespace fs = std::filesystem;
namespace json = boost::json;

std::string file_prefix(const std::optional<Shard>& shard) { return (shard ? shard->text() : "all") + "-worker-"; }

std::string file_name(const std::optional<Shard>& shard, int worker) {
  return file_prefix(shard) + std::to_string(worker) + ".jsonl";
}

namespace {

void append_key(std::string& out, const std::string& key) {
  out += "{\"key\":";
  append_json_string(out, key);
}

void append_optional(std::string& out, const std::optional<double>& x) {
  out += x ? json_number(*x) : std::string("null");
}

// The field `key` of `o` as a string, or none.
std::optional<std::string> string_field(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (!v || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}
// An integer field within [low, high], or none.
std::optional<int> int_field(const json::object& o, std::string_view key, int low, int high) {
  const json::value* v = o.if_contains(key);
  if (!v || !(v->is_int64() || v->is_uint64())) return std::nullopt;
  if (v->is_uint64() && v->get_uint64() > static_cast<std::uint64_t>(high)) return std::nullopt;
  const std::int64_t x = v->to_number<std::int64_t>();
  if (x < low || x > high) return std::nullopt;
  return static_cast<int>(x);
}
// A number or null; false when it is neither (or not finite, or negative).
bool time_field(const json::value* v, std::optional<double>& out) {
  if (!v || v->is_null()) return true;
  if (!v->is_number()) return false;
  const double x = v->to_number<double>();
  if (!(x >= 0 && x < 1e15)) return false;
  out = x;
  return true;
}

Line parse_ply(const json::object& o, std::string key) {
  Ply p;
  p.key = std::move(key);
  const std::optional<int> ply = int_field(o, "ply", 0, 100000);
  const std::optional<int> move = int_field(o, "move", 0, Variant::kMaxPits);
  const std::optional<int> mover = int_field(o, "mover", 0, 1);
  if (!ply || !move || !mover) return Invalid{};
  p.ply = *ply;
  p.move = *move;
  p.mover = *mover;
  const json::value* clocks = o.if_contains("clocks_ms");
  if (!clocks || !clocks->is_array() || clocks->get_array().size() != 2) return Invalid{};
  for (std::size_t i = 0; i < 2; ++i)
    if (!time_field(&clocks->get_array()[i], p.clocks_ms[i])) return Invalid{};
  if (!time_field(o.if_contains("elapsed_ms"), p.elapsed_ms)) return Invalid{};
  return p;
}

}  // namespace

std::string to_line(const Header& h) {
  std::string out = "{\"live\":1,\"key\":";
  append_json_string(out, h.key);
  for (const auto& [name, value] : {std::pair{"game", &h.game}, {"south", &h.south}, {"north", &h.north}}) {
    out += fmt::format(",\"{}\":", name);
    append_json_string(out, *value);
  }
  return out + "}\n";
}

void append_line(std::string& out, const Ply& p) {
  append_key(out, p.key);
  // By hand around fmt::format_int: fmt::format_to into a string needs a function of libfmt that clang's sanitizer
  // builds fail to link.
  for (const auto& [name, value] : {std::pair{",\"ply\":", p.ply}, {",\"move\":", p.move}, {",\"mover\":", p.mover}}) {
    out += name;
    const fmt::format_int digits(value);
    out.append(digits.data(), digits.size());
  }
  out += ",\"clocks_ms\":[";
  append_optional(out, p.clocks_ms[0]);
  out += ',';
  append_optional(out, p.clocks_ms[1]);
  out += "],\"elapsed_ms\":";
  append_optional(out, p.elapsed_ms);
  out += "}\n";
}

std::string to_line(const Ply& p) {
  std::string out;
  out.reserve(128);
  append_line(out, p);
  return out;
}

std::string to_line(const End& e) {
  std::string out;
  append_key(out, e.key);
  return out + (e.played ? ",\"end\":\"played\"}\n" : ",\"end\":\"abandoned\"}\n");
}

Line parse_line(std::string_view text) {
  if (text.size() > kMaxLineBytes) return Invalid{};
  // A server parses a line per ply it reads: the parser's stack and the line's values are kept in buffers on
  // this stack, not allocated (the values of a long line overflow into the heap).
  std::array<unsigned char, 4096> values;
  json::monotonic_resource memory(values.data(), values.size());
  std::array<unsigned char, 512> stack;
  json::parse_options options;
  options.max_depth = 4;
  json::parser parser(json::storage_ptr(), options, stack.data(), stack.size());
  parser.reset(&memory);
  json::error_code ec;
  parser.write(text, ec);
  if (ec) return Invalid{};
  const json::value v = parser.release();
  if (!v.is_object()) return Invalid{};
  const json::object& o = v.get_object();
  std::optional<std::string> key = string_field(o, "key");
  if (!key || key->empty()) return Invalid{};
  if (o.contains("live")) {
    Header h{std::move(*key), {}, {}, {}};
    for (auto [name, field] : {std::pair{"game", &h.game}, {"south", &h.south}, {"north", &h.north}}) {
      std::optional<std::string> value = string_field(o, name);
      if (!value || value->empty()) return Invalid{};
      *field = std::move(*value);
    }
    return h;
  }
  if (const std::optional<std::string> end = string_field(o, "end")) {
    if (*end != "played" && *end != "abandoned") return Invalid{};
    return End{std::move(*key), *end == "played"};
  }
  return parse_ply(o, std::move(*key));
}

Publisher::Publisher(const fs::path& results_dir, const std::optional<Shard>& shard, int worker,
                     std::chrono::milliseconds batch)
    : path_(results_dir / kFolder / file_name(shard, worker)), batch_(batch) {
  nonce_ = (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  if (std::optional<std::string> error = system::make_own_folder(path_.parent_path())) {
    fmt::print(stderr, "arena: the plies of games in flight are not published: {}\n", *error);
    return;
  }
  // Never through a link, never into a FIFO or device (O_NONBLOCK: opening a FIFO must not wait); no fsync.
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  struct stat st {};
  if (fd_ >= 0 && (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode))) {
    ::close(fd_);
    fd_ = -1;
    errno = EINVAL;
  }
  if (fd_ < 0) {
    fmt::print(stderr, "arena: the plies of games in flight are not published: {}: {}\n", path_.string(),
               std::strerror(errno));
    return;
  }
  failed_ = false;
  if (batch_.count() > 0) writer_ = std::thread([this] { write_batches(); });
}

Publisher::~Publisher() {
  if (writer_.joinable()) {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_one();
    writer_.join();  // it writes what the buffer holds before it ends
  }
  if (fd_ >= 0) ::close(fd_);
}

void Publisher::fail(const char* error) {
  fmt::print(stderr, "arena: the plies of games in flight are no longer published: {}: {}\n", path_.string(), error);
  ::close(fd_);
  fd_ = -1;
  failed_ = true;
}

bool Publisher::write_out(const std::string& text, bool rewrite) {
  if (fd_ < 0) return false;
  const char* error = nullptr;
  if (rewrite && ::ftruncate(fd_, 0) != 0) error = std::strerror(errno);
  if (!error && !text.empty()) {
    const ssize_t n = ::write(fd_, text.data(), text.size());
    if (n != static_cast<ssize_t>(text.size())) error = n < 0 ? std::strerror(errno) : "a short write";
  }
  if (!error) return true;
  fail(error);
  return false;
}

void Publisher::rotate() {
  flush();  // the lines still in the buffer belong to the full file: written into it first
  std::lock_guard writing(write_mutex_);
  if (fd_ < 0) return;
  // NAME.jsonl.1 replaced by a second name of the full file, then a new empty file renamed over NAME.jsonl: at every
  // moment NAME.jsonl exists, and the full file is there or at NAME.jsonl.1 (docs/SERVE.md, "The live files").
  // Where the file system has no hard links (link(2) refused as not supported: FAT, some FUSE and network file
  // systems), the full file is renamed to NAME.jsonl.1 instead, the new one right after it: for that moment
  // NAME.jsonl is missing, and a reader that finds it so reads the rest of the file it knew at NAME.jsonl.1.
  const std::string rotated = path_.string() + kRotatedSuffix, fresh = path_.string() + kFreshSuffix;
  const auto second_name = [&] {
    if (!links_ || ::link(path_.c_str(), rotated.c_str()) == 0) return true;
    if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS && errno != EMLINK) return false;
    links_ = false;  // not supported here: renamed below, and from now on
    return true;
  };
  const char* error = nullptr;
  int fd = -1;
  if (::unlink(rotated.c_str()) != 0 && errno != ENOENT)
    error = std::strerror(errno);
  else if (!second_name())
    error = std::strerror(errno);
  else if (::unlink(fresh.c_str()) != 0 && errno != ENOENT)
    error = std::strerror(errno);
  else if ((fd = ::open(fresh.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644)) < 0)
    error = std::strerror(errno);
  else if (!links_ && ::rename(path_.c_str(), rotated.c_str()) != 0)
    error = std::strerror(errno);
  else if (::rename(fresh.c_str(), path_.c_str()) != 0)
    error = std::strerror(errno);
  if (error) {
    if (fd >= 0) ::close(fd);
    return fail(error);
  }
  ::close(fd_);
  fd_ = fd;
  size_ = 0;
}

void Publisher::write_batches() {
  for (;;) {
    bool stop = false;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return armed_ || stopping_; });
      // The lines of the next kBatch gather behind the first (a stop writes them at once).
      wake_.wait_for(lock, batch_, [this] { return stopping_; });
      stop = stopping_;
    }
    flush();
    if (stop) return;
  }
}

void Publisher::flush() {
  if (batch_.count() == 0) return;
  // One writer at a time, in the order the lines were taken (the writing thread, or a caller of flush()).
  std::lock_guard writing(write_mutex_);
  std::string text;
  bool rewrite = false;
  {
    std::lock_guard lock(mutex_);
    text.swap(pending_);
    rewrite = std::exchange(rewrite_, false);
    armed_ = false;
  }
  if (!text.empty() || rewrite) write_out(text, rewrite);
}

void Publisher::put(const std::string& line, bool rewrite) {
  if (failed_ || (!rewrite && size_ + line.size() > kMaxFileBytes)) return;
  size_ = (rewrite ? 0 : size_) + line.size();
  if (batch_.count() == 0) {
    write_out(line, rewrite);
    return;
  }
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    if (rewrite) {
      pending_.clear();  // what it held would be cut off by the rewrite anyway
      rewrite_ = true;
    }
    pending_ += line;
    wake = !std::exchange(armed_, true);
  }
  if (wake) wake_.notify_one();
}

void Publisher::start(const std::string& game, const std::string& south, const std::string& north) {
  if (failed_) return;
  key_ = fmt::format("{:016x}-{}", nonce_, ++games_);
  ply_.key = key_;
  // Appended after the last game, so that a reader that has not read its last plies yet still finds them; once the
  // file holds kRewriteBytes it moves to NAME.jsonl.1 and a new one starts, where a reader still finds the plies it
  // has not read; a previous run's file is written anew at the first game.
  if (games_ > 1 && size_ >= kRewriteBytes) rotate();
  put(to_line(Header{key_, game, south, north}), games_ == 1);
}

void Publisher::ply(const GameRecord& so_far, int mover, const std::array<std::optional<double>, 2>& clock_ms) {
  if (failed_ || so_far.moves.empty()) return;
  // On the path of every ply: the game's key is set once (start()), the line formatted into a buffer kept.
  Ply& p = ply_;
  p.ply = static_cast<int>(so_far.moves.size()) - 1;
  p.move = so_far.moves.back().pit;
  p.mover = mover;
  p.clocks_ms = clock_ms;
  // The opening's moves have no time; the engines' have their move_info, one per engine move.
  const std::size_t engine_moves = so_far.moves.size() - so_far.opening.size();
  if (so_far.moves.size() > so_far.opening.size() && so_far.move_info.size() == engine_moves)
    p.elapsed_ms = so_far.move_info.back().time_ms;
  else
    p.elapsed_ms.reset();
  line_.clear();
  append_line(line_, p);
  put(line_);
}

void Publisher::end(bool played) {
  if (!failed_ && !key_.empty()) put(to_line(End{key_, played}));
}

void remove_stale(const fs::path& results_dir, const std::optional<Shard>& shard) {
  const std::string prefix = file_prefix(shard);
  std::error_code ec;
  for (fs::directory_iterator it(results_dir / kFolder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with(prefix) &&
        (name.ends_with(".jsonl") || name.ends_with(std::string(".jsonl") + kRotatedSuffix) ||
         name.ends_with(std::string(".jsonl") + kFreshSuffix)))
      fs::remove(it->path(), ec);
  }
}

}  // namespace kalah::arena::live
