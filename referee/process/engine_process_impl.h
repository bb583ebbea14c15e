// EngineProcess's state and its event loop, shared by the files that implement it (private to
// referee/process; nothing else includes it): engine_process.cpp spawns the child and holds the public
// methods, stderr_relay.cpp copies the engine's stderr into its log, child_exit.cpp watches the leader's
// exit, kills the group and reaps it, line_io.cpp writes lines and reads them before a deadline. They share
// one event loop and one set of invariants about the child (pidfd, process group, pipes), stated here. The
// pitfalls of Boost.Process v2 1.81 that shape this code are listed in docs/PROCESSES.md; comments point at
// them as "pitfall N".
#pragma once

#include <sys/types.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/readable_pipe.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/writable_pipe.hpp>

#include "referee/process/engine_process.h"
#include "referee/process/spawn_support.h"
#include "referee/system/clean_text.h"

namespace kalah::process {

namespace asio = boost::asio;
using boost::system::error_code;

struct EngineProcess::Impl {
  explicit Impl(std::size_t max_line_bytes) : max_line(max_line_bytes) {}
  ~Impl() { kill(); }

  // Declared first so it is destroyed last, after the I/O objects that use it. One loop per engine,
  // run only by the thread that is calling into this engine; concurrency hint 1 says so to Asio.
  asio::io_context ioc{1};
  asio::writable_pipe to_engine{ioc};    // the engine's stdin
  asio::readable_pipe from_engine{ioc};  // the engine's stdout
  asio::posix::stream_descriptor pidfd{ioc};
  asio::steady_timer timer{ioc};
  asio::readable_pipe from_stderr{ioc};  // the engine's stderr, when relayed (SpawnSpec::relay_stderr)

  pid_t pid = -1;
  std::optional<unsigned> own_uid;  // SpawnSpec::run_as: a uid no other live engine has
  std::size_t max_line;
  std::string pending;    // the unwritten rest of a write that found the pipe full
  std::string buffer;     // bytes received and not yet returned; never holds more than max_line + 1
  bool skipping = false;  // discarding the rest of a TooLong line
  bool eof = false;
  std::optional<ExitInfo> exit;                    // set exactly when the leader has been reaped
  std::vector<detail::UniqueFd> outside_children;  // pidfds: record_children_outside_group()
  bool outside_recorded = false;

  // The stderr relay: a read stays armed on from_stderr and copies into the log, up to the cap.
  detail::UniqueFd stderr_log;
  system::TextCleaner stderr_cleaner{true};
  unsigned long long stderr_cap = 0;    // 0: no cap
  unsigned long long log_cap = 0;       // SpawnSpec::max_log_bytes; 0: no bound
  unsigned long long log_size = 0;      // the log file's size, as last seen
  bool log_full = false;                // log_cap reached: nothing more is written
  unsigned long long stderr_bytes = 0;  // since the start or the last reset_output_budget()
  bool stderr_over = false;             // stderr_bytes passed the cap; what follows is discarded
  bool stderr_reading = false;          // a read is armed (its handler has not run yet)
  bool stderr_closing = false;          // drain_stderr() runs: the handler does not re-arm
  std::size_t tail_cap = 0;             // SpawnSpec::stderr_tail_bytes
  std::string tail;                     // the latest stderr, at most 2 * tail_cap before take_stderr_tail()
  unsigned long long tail_total = 0;    // bytes relayed since the last take_stderr_tail()
  std::array<char, 4096> stderr_chunk{};

  // Completion state of the operations started by one call; written by their handlers.
  bool io_done = false;
  bool timer_done = false;
  error_code io_ec;

  // Runs one handler, blocking until one is ready. The loop is only "stopped" after running out of
  // work, which the callers never let happen while they wait; restart() covers it anyway.
  void step() {
    if (ioc.run_one() == 0) ioc.restart();
  }

  // Runs handlers until done() holds. Callers have started operations that make it true.
  template <typename Done>
  void run_until(Done done) {
    if (ioc.stopped()) ioc.restart();
    while (!done()) step();
  }

  void start_timer(Deadline deadline) {
    timer_done = false;
    timer.expires_at(deadline);
    timer.async_wait([this](const error_code&) { timer_done = true; });
  }

  // After run_until(io_done || timer_done): cancel whichever is still pending and run both handlers, so
  // no operation outlives the call. Cancelling is repeated because a composed operation (read_until,
  // write) whose step had already completed when cancel() was called starts its next step uncancelled.
  template <typename Stream>
  void settle(Stream& stream) {
    while (!io_done) {
      error_code ignored;
      stream.cancel(ignored);
      step();
    }
    settle_timer();
  }

  void settle_timer() {
    while (!timer_done) {
      error_code ignored;
      timer.cancel(ignored);
      step();
    }
  }

  // ---- the stderr relay (stderr_relay.cpp) ------------------------------------------------------

  void relay_stderr();
  void copy_stderr(const char* data, std::size_t n);
  void keep_tail(const char* data, std::size_t n);
  void write_log(const char* data, std::size_t n);
  void write_log_bytes(const char* data, std::size_t n);
  void drain_stderr();

  // ---- exit handling (child_exit.cpp) ---------------------------------------------------------

  void arm_exit_watch();

  enum class Leader { Running, Exited, Gone };

  Leader leader_state() const;
  void reap(bool killed_by_arena);
  static pid_t parent_of(pid_t process);
  void record_children_outside_group();
  void reap_children_outside_group();
  static void reap_children_of_uid(unsigned uid);
  static std::vector<pid_t> children_of(const std::string& tasks);
  static long real_uid_of(pid_t process);
  void kill();
  std::optional<ExitInfo> exit_status();
  std::optional<ExitInfo> wait_for_exit(Deadline deadline);
  void close_pipes();
  void shutdown(std::chrono::milliseconds grace);

  // ---- writing (line_io.cpp) ----------------------------------------------------------------------

  bool write_lines(std::span<const std::string_view> lines, Deadline deadline);

  static constexpr std::size_t kLinesPerWrite = 8;

  bool write_group(std::span<const std::string_view> lines, Deadline deadline);

  bool write_line(std::string_view line, Deadline deadline) { return write_lines({&line, 1}, deadline); }

  // ---- reading (line_io.cpp) ----------------------------------------------------------------------

  enum class Fill { Data, Full, Timeout, Eof, Error, OutputLimit };

  // Waits until the buffer holds a '\n', is full, the pipe ends, or the deadline passes. Bytes read
  // before a timeout stay in the buffer.
  //
  // The path of every ply: one ppoll on the engine's stdout, its pidfd and its relayed stderr, with the
  // deadline as its timeout, then non-blocking reads (fill_now) — no timer to arm and cancel, no turn of
  // the event loop, which cost four system calls more per ply. Anything else that becomes ready (the
  // leader exited, stderr to relay) is left to the event loop, whose handlers reap and relay
  // (fill_in_loop); the pending operations of the loop are not touched here, and ppoll sees what they
  // wait for because it is level-triggered.
  //
  // An engine that answers within microseconds (the last answer came within kQuickAnswer) is waited for by
  // spinning first: for up to kSpinWindow, give the CPU to anyone who wants it (sched_yield), then look
  // again. Sleeping in ppoll and being woken by the engine's write costs a task switch and a wake-up on each
  // side, which on a virtual machine are the dearest part of a ply (docs/PERFORMANCE.md: 41 -> 30 us a ply
  // between instant bots, 1.9x -> 1.3x the pipe round trip); the spin costs at most kSpinWindow of CPU a ply,
  // and nothing for an engine that thinks (it is not tried then).
  static constexpr std::chrono::microseconds kSpinWindow{20};
  static constexpr std::chrono::microseconds kQuickAnswer{4 * kSpinWindow};
  bool answers_at_once = true;  // the last fill's answer came within kQuickAnswer

  Fill fill(Deadline deadline);
  Fill wait_and_fill(Deadline deadline);
  Fill fill_in_loop(Deadline deadline);
  Fill fill_now();
  bool take_line(std::string& line);
  Status read_line(Deadline deadline, std::string& line);

  // ---- spawning (engine_process.cpp) -----------------------------------------------------------------

  std::optional<SpawnError> launch(const SpawnSpec& spec, const std::string& executable, int in, int out, int err);
  void keep_stderr_log(detail::UniqueFd log, const SpawnSpec& spec);
  std::optional<SpawnError> take_ends(detail::Pipe& in, detail::Pipe& out, std::optional<detail::Pipe>& relay,
                                      const std::string& executable);
};

}  // namespace kalah::process
