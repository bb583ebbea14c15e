// EngineProcess's lines (engine_process_impl.h): lines written with one gather write each group, and lines
// read before a deadline (non-blocking reads and ppoll on the path of every ply, the event loop for the
// rest), a too-long line cut to an excerpt and its rest skipped.
#include <poll.h>
#include <sched.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <span>
#include <string>
#include <string_view>

#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

#include "referee/process/engine_process_impl.h"

namespace kalah::process {

namespace {

constexpr std::size_t kTooLongExcerpt = 256;

}  // namespace

// Sends the lines in groups of up to kLinesPerWrite with one gather write each: a position and a go
// reach the engine in one write, so it wakes up once per ply.
bool EngineProcess::Impl::write_lines(std::span<const std::string_view> lines, Deadline deadline) {
  if (!to_engine.is_open()) return false;
  while (!lines.empty()) {
    const std::size_t count = std::min(lines.size(), kLinesPerWrite);
    if (!write_group(lines.first(count), deadline)) return false;
    lines = lines.subspan(count);
  }
  return true;
}

bool EngineProcess::Impl::write_group(std::span<const std::string_view> lines, Deadline deadline) {
  static constexpr char kNewline = '\n';
  std::array<iovec, 2 * kLinesPerWrite> iov;
  std::size_t total = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    iov[2 * i] = {const_cast<char*>(lines[i].data()), lines[i].size()};
    iov[2 * i + 1] = {const_cast<char*>(&kNewline), 1};
    total += lines[i].size() + 1;
  }
  // Fast path: our end of the pipe is non-blocking, so one gather write takes everything, a part, or
  // nothing (EAGAIN), without touching the event loop. (Asio's pipes have no user-level non-blocking
  // mode: their synchronous write_some would block in poll() on a full pipe.)
  ssize_t n;
  do {
    n = ::writev(to_engine.native_handle(), iov.data(), static_cast<int>(2 * lines.size()));
  } while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(total)) return true;
  if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return false;  // EPIPE: the engine is gone
  // Slow path: the pipe is full (the engine is not reading); wait for room until the deadline.
  std::size_t skip = n < 0 ? 0 : static_cast<std::size_t>(n);
  pending.clear();
  for (std::size_t i = 0; i < 2 * lines.size(); ++i) {
    const std::size_t len = iov[i].iov_len;
    const std::size_t from = std::min(skip, len);
    pending.append(static_cast<const char*>(iov[i].iov_base) + from, len - from);
    skip -= from;
  }
  io_done = false;
  asio::async_write(to_engine, asio::buffer(pending), [this](const error_code& e, std::size_t) {
    io_ec = e;
    io_done = true;
  });
  start_timer(deadline);
  run_until([this] { return io_done || timer_done; });
  settle(to_engine);
  return !io_ec;
}

EngineProcess::Impl::Fill EngineProcess::Impl::fill(Deadline deadline) {
  // The answer is often there already: the engine woke on this core when the request was written, and
  // ran before this thread came back from writev.
  if (const Fill filled = fill_now(); filled != Fill::Timeout) return filled;
  const auto started = Clock::now();
  if (answers_at_once) {
    const Deadline until = std::min(deadline, started + kSpinWindow);
    while (Clock::now() < until) {
      ::sched_yield();
      if (const Fill filled = fill_now(); filled != Fill::Timeout) return filled;
    }
  }
  const Fill filled = wait_and_fill(deadline);
  answers_at_once = Clock::now() - started < kQuickAnswer;
  return filled;
}

EngineProcess::Impl::Fill EngineProcess::Impl::wait_and_fill(Deadline deadline) {
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - Clock::now()).count();
    if (left <= 0) return Fill::Timeout;
    const timespec timeout{static_cast<time_t>(left / 1'000'000'000), static_cast<long>(left % 1'000'000'000)};
    std::array<pollfd, 3> fds{{{from_engine.native_handle(), POLLIN, 0},
                               {pidfd.is_open() ? pidfd.native_handle() : -1, POLLIN, 0},
                               {stderr_reading ? from_stderr.native_handle() : -1, POLLIN, 0}}};
    const int ready = ::ppoll(fds.data(), fds.size(), &timeout, nullptr);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0 || fds[1].revents != 0 || fds[2].revents != 0) return fill_in_loop(deadline);
    if (ready == 0) continue;  // the deadline, checked above (ppoll may wake a little early)
    if (const Fill filled = fill_now(); filled != Fill::Timeout) return filled;
  }
}

// The same through the event loop: an asio read_until raced against the timer (the read_until
// operation keeps the string's size exact when it is cancelled).
EngineProcess::Impl::Fill EngineProcess::Impl::fill_in_loop(Deadline deadline) {
  io_done = false;
  asio::async_read_until(from_engine, asio::dynamic_buffer(buffer, max_line + 1), '\n',
                         [this](const error_code& e, std::size_t) {
                           io_ec = e;
                           io_done = true;
                         });
  start_timer(deadline);
  run_until([this] { return io_done || timer_done || stderr_over; });
  settle(from_engine);
  if (stderr_over) return Fill::OutputLimit;
  if (!io_ec) return Fill::Data;
  if (io_ec == asio::error::not_found) return Fill::Full;
  if (io_ec == asio::error::eof) return Fill::Eof;
  if (io_ec == asio::error::operation_aborted) return Fill::Timeout;
  return Fill::Error;
}

// What the pipe holds now, without waiting: the fill for a deadline that has already passed. The
// referee asks that once per ply (EnginePlayer::drain_unasked: did the engine say anything unasked?),
// and the pipe is nearly always empty then. A timer armed at a passed deadline is the dearest system
// call of the ply on a virtual machine (the kernel fires it at once), so this is plain non-blocking
// reads: the read end is O_NONBLOCK (spawn), and no handler is started, so none can outlive the call.
EngineProcess::Impl::Fill EngineProcess::Impl::fill_now() {
  const std::size_t cap = max_line + 1;
  std::array<char, 4096> chunk;
  while (buffer.size() < cap) {
    const ssize_t n = ::read(from_engine.native_handle(), chunk.data(), std::min(chunk.size(), cap - buffer.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK ? Fill::Timeout : Fill::Error;
    if (n == 0) return Fill::Eof;
    buffer.append(chunk.data(), static_cast<std::size_t>(n));
    if (std::memchr(chunk.data(), '\n', static_cast<std::size_t>(n)) != nullptr) return Fill::Data;
  }
  return Fill::Full;
}

// Takes one complete line from the buffer, if there is one.
bool EngineProcess::Impl::take_line(std::string& line) {
  const auto* begin = buffer.data();
  const auto* nl = static_cast<const char*>(std::memchr(begin, '\n', buffer.size()));
  if (nl == nullptr) return false;
  std::size_t len = static_cast<std::size_t>(nl - begin);
  const std::size_t consumed = len + 1;
  if (len > 0 && begin[len - 1] == '\r') --len;
  line.assign(begin, len);
  buffer.erase(0, consumed);
  return true;
}

Status EngineProcess::Impl::read_line(Deadline deadline, std::string& line) {
  line.clear();
  for (bool first = true;; first = false) {
    if (stderr_over) return Status::OutputLimit;
    if (skipping) {
      const auto nl = buffer.find('\n');
      if (nl == std::string::npos) {
        buffer.clear();
      } else {
        buffer.erase(0, nl + 1);
        skipping = false;
      }
    }
    if (!skipping && take_line(line)) {
      if (!outside_recorded) record_children_outside_group();  // once: the engine is up by now
      return Status::Ok;
    }
    if (eof) {
      if (!skipping) line.swap(buffer);  // the unterminated last fragment, if any
      buffer.clear();
      skipping = false;
      return Status::Eof;
    }
    if (!from_engine.is_open()) return Status::Error;
    // Only skipping a TooLong line loops back here; an engine streaming an endless line faster than
    // it is read must not keep the call past its deadline. (The first fill runs even with a past
    // deadline: it still picks up what is already in the pipe, without waiting.)
    const bool passed = Clock::now() >= deadline;
    if (!first && passed) return Status::Timeout;
    switch (passed ? fill_now() : fill(deadline)) {
      case Fill::Data: break;
      case Fill::Full:
        if (!skipping) {
          line.assign(buffer, 0, std::min(buffer.size(), kTooLongExcerpt));
          buffer.clear();
          skipping = true;
          return Status::TooLong;
        }
        buffer.clear();
        break;
      case Fill::Timeout: return Status::Timeout;
      case Fill::Eof: eof = true; break;
      case Fill::Error: return Status::Error;
      case Fill::OutputLimit: return Status::OutputLimit;
    }
  }
}
}  // namespace kalah::process
