// EngineProcess's stderr relay (engine_process_impl.h): a read stays armed on the engine's stderr pipe and
// copies what arrives into the engine's log, cleaned, up to the per-game cap and the log's bound, keeping
// the latest bytes as the tail a game's transcript shows.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "referee/process/engine_process_impl.h"

namespace kalah::process {

void EngineProcess::Impl::relay_stderr() {
  stderr_reading = true;
  from_stderr.async_read_some(asio::buffer(stderr_chunk), [this](const error_code& ec, std::size_t n) {
    stderr_reading = false;
    copy_stderr(stderr_chunk.data(), n);
    if (!ec && !stderr_closing) relay_stderr();
  });
}

void EngineProcess::Impl::copy_stderr(const char* data, std::size_t n) {
  if (n == 0 || stderr_over) return;
  std::size_t keep = n;
  if (stderr_cap > 0 && stderr_bytes + n > stderr_cap) {
    keep = static_cast<std::size_t>(stderr_cap - stderr_bytes);
    stderr_over = true;
  }
  stderr_bytes += n;
  keep_tail(data, keep);
  // The log is the arena's file: valid UTF-8, no terminal controls (a cat of it is safe).
  const std::string clean = stderr_cleaner.feed(std::string_view(data, keep));
  write_log(clean.data(), clean.size());
  if (stderr_over) {
    const std::string mark = fmt::format(
        "\n[kalah-arena: this engine wrote more than {} bytes to stderr in one game; the rest is not kept]\n",
        stderr_cap);
    write_log(mark.data(), mark.size());
  }
}

void EngineProcess::Impl::keep_tail(const char* data, std::size_t n) {
  if (tail_cap == 0) return;
  tail_total += n;
  tail.append(data, n);
  // Trimmed in steps, so that a chatty engine does not move the kept bytes at every chunk.
  if (tail.size() > 2 * tail_cap) tail.erase(0, tail.size() - tail_cap);
}

// A log that cannot be written (a full disk) loses the engine's diagnostics, never the game. A bounded
// log keeps what fits below its bound, less the room for the line that says the rest is not kept.
void EngineProcess::Impl::write_log(const char* data, std::size_t n) {
  if (log_cap > 0) {
    if (log_full) return;
    // Other processes of the same engine (games at the same time) append to the same file.
    struct stat now {};
    if (::fstat(stderr_log.get(), &now) == 0) log_size = static_cast<unsigned long long>(now.st_size);
    const std::string mark = fmt::format(
        "\n[kalah-arena: this engine's stderr log reached its bound of {} bytes (max_file_mb); the rest is not "
        "kept]\n",
        log_cap);
    const unsigned long long room = log_cap > log_size + mark.size() ? log_cap - log_size - mark.size() : 0;
    if (n > room) {
      log_full = true;
      write_log_bytes(data, static_cast<std::size_t>(room));
      if (log_size + mark.size() <= log_cap) write_log_bytes(mark.data(), mark.size());
      return;
    }
  }
  write_log_bytes(data, n);
}

void EngineProcess::Impl::write_log_bytes(const char* data, std::size_t n) {
  while (n > 0 && stderr_log.get() >= 0) {
    const ssize_t w = ::write(stderr_log.get(), data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    data += w;
    n -= static_cast<std::size_t>(w);
    log_size += static_cast<unsigned long long>(w);
  }
}

// What is left in the pipe once the engine is gone (its last words), without waiting, then close it.
// The armed read may already hold a chunk (the reactor reads before it queues the handler): cancel it
// and run its handler first, so that chunk is kept and comes before the rest.
void EngineProcess::Impl::drain_stderr() {
  if (!from_stderr.is_open()) return;
  stderr_closing = true;
  while (stderr_reading) {
    error_code ignored;
    from_stderr.cancel(ignored);
    step();
  }
  for (int i = 0; i < 64; ++i) {
    const ssize_t n = ::read(from_stderr.native_handle(), stderr_chunk.data(), stderr_chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    copy_stderr(stderr_chunk.data(), static_cast<std::size_t>(n));
  }
  const std::string rest = stderr_cleaner.finish();
  write_log(rest.data(), rest.size());
  error_code ignored;
  from_stderr.close(ignored);
}
}  // namespace kalah::process
