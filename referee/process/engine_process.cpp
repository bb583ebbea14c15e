// The only file of the project that touches Boost.Process and Asio. The pitfalls of Boost.Process v2
// 1.81 that shape this code are listed in docs/PROCESSES.md; comments below point at them as "pitfall N".
// Over 400 lines on purpose: spawning, reading with deadlines, killing and reaping share one event
// loop and one set of invariants about the child (pidfd, process group, pipes), kept in one place.
#include "referee/process/engine_process.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/close_range.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <span>
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/readable_pipe.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/writable_pipe.hpp>
#include <boost/asio/write.hpp>
#include <boost/process/v2/posix/default_launcher.hpp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/stdio.hpp>
#include <fmt/format.h>

#include "referee/process/spawn_support.h"
#include "referee/system/clean_text.h"

namespace kalah::process {

namespace asio = boost::asio;
namespace bp = boost::process::v2;
using boost::system::error_code;

namespace {

constexpr std::size_t kTooLongExcerpt = 256;

error_code last_errno() { return error_code(errno, boost::system::system_category()); }

// Pitfall 6: a write to a dead engine must come back as EPIPE, not kill the arena. Process-wide, once.
// The child undoes it (ChildSetup), because an ignored signal stays ignored across exec.
void ignore_sigpipe_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGPIPE, &ignore, nullptr);
  });
}

// Pitfall 4: spawns one at a time. The launcher's pipes and the forked child's use of the io_context
// (notify_fork) are not safe against a concurrent spawn from another game thread.
std::mutex& spawn_mutex() {
  static std::mutex m;
  return m;
}

// A Boost.Process v2 initializer. The launcher calls each hook only if the initializer has the member
// with the exact signature it probes for; for on_error and on_exec_error the probe uses a five-argument
// form that is never called (pitfalls 2 and 3), so those are declared below for detection only.
struct ChildSetup {
  pid_t arena_pid;
  const char* working_dir;  // nullptr: inherit
  ResourceLimits limits;
  std::optional<RunAs> run_as;
  cpu_set_t cpus;                                           // CPU_COUNT 0: leave the affinity as it is
  std::array<const char*, kMaxControlGroups> cgroup_procs;  // nullptr: none (more)

  // In the forked child, before exec: async-signal-safe calls only (the arena has other threads).
  template <typename Launcher>
  error_code on_exec_setup(Launcher&, const bp::filesystem::path&, const char* const*) {
    // A clean signal state for the engine: nothing blocked (worker threads may block signals), and
    // SIGPIPE back to its default (the arena ignores it, and SIG_IGN survives exec).
    sigset_t none;
    sigemptyset(&none);
    if (::sigprocmask(SIG_SETMASK, &none, nullptr) != 0) return last_errno();
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    if (::sigaction(SIGPIPE, &dfl, nullptr) != 0) return last_errno();
    // Own process group: the arena kills the engine and everything it forked with one killpg.
    if (::setpgid(0, 0) != 0) return last_errno();
    for (const auto& [resource, value] :
         {std::pair{RLIMIT_DATA, limits.data_bytes}, std::pair{RLIMIT_FSIZE, limits.file_bytes},
          std::pair{RLIMIT_NPROC, limits.processes}}) {
      if (value == 0) continue;
      const struct rlimit limit { static_cast<rlim_t>(value), static_cast<rlim_t>(value) };
      if (::setrlimit(resource, &limit) != 0) return last_errno();
    }
    if (CPU_COUNT(&cpus) > 0 && ::sched_setaffinity(0, sizeof cpus, &cpus) != 0) return last_errno();
    // Into the engine's control groups while still root (the groups' files are root's).
    for (const char* procs : cgroup_procs) {
      if (procs == nullptr) break;
      const int fd = ::open(procs, O_WRONLY | O_CLOEXEC);
      if (fd < 0) return last_errno();
      const bool entered = ::write(fd, "0", 1) == 1;
      ::close(fd);
      if (!entered) return last_errno();
    }
    // Another user before the death signal: a change of credentials clears PR_SET_PDEATHSIG.
    if (run_as) {
      if (::setgroups(0, nullptr) != 0) return last_errno();
      if (::setresgid(run_as->gid, run_as->gid, run_as->gid) != 0) return last_errno();
      if (::setresuid(run_as->uid, run_as->uid, run_as->uid) != 0) return last_errno();
    }
    // Die with the arena. Fires when the spawning *thread* exits. The spawning thread is blocked in
    // the launcher until exec, so it cannot exit before this line; the process can, hence the check.
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return last_errno();
    if (::getppid() != arena_pid) return error_code(ESRCH, boost::system::system_category());
    if (working_dir != nullptr && ::chdir(working_dir) != 0) return last_errno();
    // Pitfall 1: the launcher's own fd closing misses descriptors; mark every fd >= 3 close-on-exec
    // (the launcher's exec-error pipe is close-on-exec already, so exec success is still detected).
    if (::syscall(SYS_close_range, 3u, ~0u, CLOSE_RANGE_CLOEXEC) != 0) return last_errno();
    return {};
  }

  // In the child after a failed exec: leave with _exit. The launcher would call exit(), which runs the
  // arena's atexit handlers and flushes the arena's stdio buffers a second time (pitfall 3).
  template <typename Launcher>
  void on_exec_error(Launcher&, const bp::filesystem::path&, const char* const*, const error_code&) {
    ::_exit(127);
  }
  template <typename Launcher>
  void on_exec_error(Launcher&, const error_code&, const bp::filesystem::path&, const char* const*,
                     const error_code&);  // detection only, never defined

  // In the parent after any failure. After a failed exec the child exists and is exiting: reap it,
  // or it stays a zombie (pitfall 2). Before the fork (or if fork failed) pid is -1.
  template <typename Launcher>
  void on_error(Launcher& launcher, const bp::filesystem::path&, const char* const*, const error_code&) {
    if (launcher.pid <= 0) return;
    while (::waitpid(launcher.pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  template <typename Launcher>
  void on_error(Launcher&, const error_code&, const bp::filesystem::path&, const char* const*,
                const error_code&);  // detection only, never defined
};

}  // namespace

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

  // ---- the stderr relay ------------------------------------------------------------------------------

  void relay_stderr() {
    stderr_reading = true;
    from_stderr.async_read_some(asio::buffer(stderr_chunk), [this](const error_code& ec, std::size_t n) {
      stderr_reading = false;
      copy_stderr(stderr_chunk.data(), n);
      if (!ec && !stderr_closing) relay_stderr();
    });
  }

  void copy_stderr(const char* data, std::size_t n) {
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

  void keep_tail(const char* data, std::size_t n) {
    if (tail_cap == 0) return;
    tail_total += n;
    tail.append(data, n);
    // Trimmed in steps, so that a chatty engine does not move the kept bytes at every chunk.
    if (tail.size() > 2 * tail_cap) tail.erase(0, tail.size() - tail_cap);
  }

  // A log that cannot be written (a full disk) loses the engine's diagnostics, never the game. A bounded
  // log keeps what fits below its bound, less the room for the line that says the rest is not kept.
  void write_log(const char* data, std::size_t n) {
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

  void write_log_bytes(const char* data, std::size_t n) {
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
  void drain_stderr() {
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

  // ---- exit handling -------------------------------------------------------------------------------

  // The pidfd becomes readable when the leader exits. The wait stays armed between calls and its
  // handler runs inside whichever call is running the loop (read_line, wait_for_exit, ...). When the
  // leader dies, the rest of its group is killed at once, so a grandchild holding the stdout pipe open
  // cannot turn a crash into a hang: the read sees Eof.
  void arm_exit_watch() {
    pidfd.async_wait(asio::posix::descriptor_base::wait_read, [this](const error_code& ec) {
      if (ec == asio::error::operation_aborted || exit) return;
      if (leader_state() != Leader::Running) {
        reap(false);
      } else if (!ec) {
        arm_exit_watch();
      }
    });
  }

  enum class Leader { Running, Exited, Gone };

  // Non-blocking and non-reaping (WNOWAIT): an exited leader stays a zombie, so its pid, which is also
  // the process group id, cannot be reused until reap() has killed the group.
  Leader leader_state() const {
    siginfo_t info;
    std::memset(&info, 0, sizeof info);
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
      // ECHILD: somebody else reaped it (the arena must not: no waitpid(-1), no SIGCHLD = SIG_IGN).
      return Leader::Gone;
    }
    return info.si_pid != 0 ? Leader::Exited : Leader::Running;
  }

  // Kill the whole group, then reap the leader, then the group's orphans. The order matters: while the
  // leader is unreaped its pid cannot be reused, so killpg cannot hit a stranger's group (pitfall 5).
  void reap(bool killed_by_arena) {
    if (exit || pid <= 0) return;
    int status = 0;
    bool reaped = false;
    if (leader_state() != Leader::Gone) {  // if it is gone, its pid may belong to a stranger by now
      if (!outside_recorded && leader_state() == Leader::Running) record_children_outside_group();
      ::killpg(pid, SIGKILL);
      while (true) {
        if (::waitpid(pid, &status, 0) == pid) {
          reaped = true;
          break;
        }
        if (errno != EINTR) break;
      }
      // With PR_SET_CHILD_SUBREAPER (become_subreaper) the group's surviving members were re-parented
      // to the arena when the leader died; they have just been SIGKILLed, so this ends promptly.
      // Without it they went to init and waitpid reports ECHILD at once.
      while (true) {
        if (::waitpid(-pid, nullptr, 0) > 0) continue;
        if (errno == EINTR) continue;
        break;
      }
    }
    reap_children_outside_group();
    exit = reaped ? ExitInfo::from_wait_status(status) : ExitInfo{ExitInfo::Kind::Exited, -1};
    exit->killed_by_arena = killed_by_arena;
    error_code ignored;
    pidfd.close(ignored);
  }

  static pid_t parent_of(pid_t process) {
    const int fd = ::open(("/proc/" + std::to_string(process) + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buffer[1024];
    const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
    ::close(fd);
    if (n <= 0) return -1;
    buffer[n] = '\0';
    const char* after_name = std::strrchr(buffer, ')');  // "pid (comm) state ppid ...": comm may hold spaces
    if (!after_name) return -1;
    char state = 0;
    int parent = -1;
    if (std::sscanf(after_name + 1, " %c %d", &state, &parent) != 2) return -1;
    return parent;
  }

  // The leader's children outside its process group: a sandbox's init (bubblewrap's pid 1, which starts
  // a session of its own), or anything an engine started with setsid. Each is held by a pidfd taken
  // while it is still the leader's child, so that the pidfd names that process only. Read once, when
  // the engine first answers (or when it is killed before that): /proc is not read per ply.
  void record_children_outside_group() {
    outside_recorded = true;
    for (pid_t child : children_of("/proc/" + std::to_string(pid) + "/task")) {
      if (::getpgid(child) == pid) continue;
      detail::UniqueFd child_fd(static_cast<int>(::syscall(SYS_pidfd_open, child, 0)));
      if (child_fd.get() >= 0 && parent_of(child) == pid) outside_children.push_back(std::move(child_fd));
    }
  }

  // After the leader is reaped: whatever of them still runs is killed, and each is reaped if it came to
  // us (the arena is a subreaper; otherwise it went to init). By pidfd (P_PIDFD): never a stranger that
  // got its pid, never another engine's process. Without this, a sandbox's init ends a zombie, counting
  // against its uid's process limit when the uid comes round again.
  void reap_children_outside_group() {
    constexpr idtype_t kByPidfd = static_cast<idtype_t>(3);  // P_PIDFD (Linux 5.4)
    for (const detail::UniqueFd& child : outside_children) {
      ::syscall(SYS_pidfd_send_signal, child.get(), SIGKILL, nullptr, 0);
      siginfo_t info;
      while (::waitid(kByPidfd, static_cast<id_t>(child.get()), &info, WEXITED) != 0 && errno == EINTR) {
      }
    }
    outside_children.clear();
    if (own_uid) reap_children_of_uid(*own_uid);
  }

  // The arena's children that run as this engine's own uid: the orphans of an engine that ended before
  // record_children_outside_group() saw them (a sandbox that failed to start its engine). The uid is
  // this engine's alone until it is given back, after this.
  static void reap_children_of_uid(unsigned uid) {
    constexpr idtype_t kByPidfd = static_cast<idtype_t>(3);  // P_PIDFD
    for (pid_t child : children_of("/proc/self/task")) {
      detail::UniqueFd fd(static_cast<int>(::syscall(SYS_pidfd_open, child, 0)));
      if (fd.get() < 0 || parent_of(child) != ::getpid() || real_uid_of(child) != static_cast<long>(uid)) continue;
      ::syscall(SYS_pidfd_send_signal, fd.get(), SIGKILL, nullptr, 0);
      siginfo_t info;
      while (::waitid(kByPidfd, static_cast<id_t>(fd.get()), &info, WEXITED) != 0 && errno == EINTR) {
      }
    }
  }

  // The children of a process, from the `children` file of each of its threads under `tasks`
  // (/proc/<pid>/task, /proc/self/task).
  static std::vector<pid_t> children_of(const std::string& tasks) {
    std::vector<pid_t> out;
    DIR* dir = ::opendir(tasks.c_str());
    if (!dir) return out;
    while (const dirent* task = ::readdir(dir)) {
      if (task->d_name[0] == '.') continue;
      const int fd = ::open((tasks + "/" + task->d_name + "/children").c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      char buffer[8192];
      const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
      ::close(fd);
      if (n <= 0) continue;
      buffer[n] = '\0';
      for (char* p = buffer; *p;) {
        char* end = nullptr;
        const long child = std::strtol(p, &end, 10);
        if (end == p) break;
        p = end;
        if (child > 0) out.push_back(static_cast<pid_t>(child));
      }
    }
    ::closedir(dir);
    return out;
  }

  static long real_uid_of(pid_t process) {
    const int fd = ::open(("/proc/" + std::to_string(process) + "/status").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buffer[4096];
    const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
    ::close(fd);
    if (n <= 0) return -1;
    buffer[n] = '\0';
    const char* line = std::strstr(buffer, "\nUid:");
    return line ? std::strtol(line + 5, nullptr, 10) : -1;
  }

  void kill() {
    if (exit || pid <= 0) return;
    reap(leader_state() == Leader::Running);  // reap() sends the SIGKILL to the group first
  }

  std::optional<ExitInfo> exit_status() {
    if (!exit && pid > 0 && leader_state() != Leader::Running) reap(false);
    return exit;
  }

  std::optional<ExitInfo> wait_for_exit(Deadline deadline) {
    if (exit_status()) return exit;
    start_timer(deadline);
    run_until([this] { return exit.has_value() || timer_done; });
    settle_timer();
    return exit_status();
  }

  void close_pipes() {
    error_code ignored;
    to_engine.close(ignored);
    from_engine.close(ignored);
    drain_stderr();
  }

  void shutdown(std::chrono::milliseconds grace) {
    if (!exit) {
      const Deadline deadline = Clock::now() + grace;
      if (to_engine.is_open()) write_line("quit", deadline);  // may fail: the engine may be gone
      // EOF on its stdin: an engine that ignores "quit" but stops at end of input exits too.
      error_code ignored;
      to_engine.close(ignored);
      wait_for_exit(deadline);
      kill();
    }
    close_pipes();
  }

  // ---- writing -------------------------------------------------------------------------------------

  // Sends the lines in groups of up to kLinesPerWrite with one gather write each: a position and a go
  // reach the engine in one write, so it wakes up once per ply.
  bool write_lines(std::span<const std::string_view> lines, Deadline deadline) {
    if (!to_engine.is_open()) return false;
    while (!lines.empty()) {
      const std::size_t count = std::min(lines.size(), kLinesPerWrite);
      if (!write_group(lines.first(count), deadline)) return false;
      lines = lines.subspan(count);
    }
    return true;
  }

  static constexpr std::size_t kLinesPerWrite = 8;

  bool write_group(std::span<const std::string_view> lines, Deadline deadline) {
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

  bool write_line(std::string_view line, Deadline deadline) { return write_lines({&line, 1}, deadline); }

  // ---- reading -------------------------------------------------------------------------------------

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

  Fill fill(Deadline deadline) {
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

  Fill wait_and_fill(Deadline deadline) {
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
  Fill fill_in_loop(Deadline deadline) {
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
  Fill fill_now() {
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
  bool take_line(std::string& line) {
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

  Status read_line(Deadline deadline, std::string& line) {
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
};

EngineProcess::EngineProcess(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

EngineProcess::~EngineProcess() {
  if (impl_) impl_->shutdown(kDestructorGrace);
}

// GCC 12 reports false -Warray-bounds / -Wstringop-overflow / -Wrestrict warnings inside the launcher's
// inlined `fd_whitelist = {0, 1, 2}` (std::vector assignment from an initializer list).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Wrestrict"
std::variant<std::unique_ptr<EngineProcess>, SpawnError> EngineProcess::spawn(const SpawnSpec& spec) {
  ignore_sigpipe_once();

  auto resolved = detail::resolve_executable(spec.command);
  if (auto* err = std::get_if<SpawnError>(&resolved)) return std::move(*err);
  const std::string& executable = std::get<std::string>(resolved);
  if (auto err = detail::check_working_dir(spec.working_dir)) return std::move(*err);

  // Every descriptor is close-on-exec from birth; the child gets its ends through dup2 onto 0, 1, 2.
  auto err_target = detail::open_stderr_target(spec.stderr_log_path);
  if (auto* err = std::get_if<SpawnError>(&err_target)) return std::move(*err);
  std::optional<detail::Pipe> relay;  // the child writes its stderr into it, the log is ours
  if (spec.relay_stderr) {
    auto stderr_pipe = detail::make_pipe();
    if (auto* err = std::get_if<SpawnError>(&stderr_pipe)) return std::move(*err);
    relay = std::move(std::get<detail::Pipe>(stderr_pipe));
  }
  auto stdin_pipe = detail::make_pipe();
  if (auto* err = std::get_if<SpawnError>(&stdin_pipe)) return std::move(*err);
  auto stdout_pipe = detail::make_pipe();
  if (auto* err = std::get_if<SpawnError>(&stdout_pipe)) return std::move(*err);
  detail::UniqueFd& child_stderr = std::get<detail::UniqueFd>(err_target);
  detail::Pipe& in = std::get<detail::Pipe>(stdin_pipe);
  detail::Pipe& out = std::get<detail::Pipe>(stdout_pipe);

  auto failure = [&](std::string_view what, const std::string& why, int err) {
    return SpawnError{fmt::format("cannot start engine '{}': {}{}", executable, what, why), err};
  };

  // Asio may throw here and below only when the system is out of resources (descriptors, memory).
  std::unique_ptr<Impl> impl;
  try {
    // The read buffer's cap is max_line_bytes + 1 (room for the '\n'): keep that from overflowing.
    const std::size_t max_line = std::clamp<std::size_t>(spec.max_line_bytes, 1, std::size_t{1} << 40);
    impl = std::make_unique<Impl>(max_line);
  } catch (const boost::system::system_error& e) {
    return failure("", e.what(), e.code().value());
  }

  error_code ec;
  {
    std::lock_guard lock(spawn_mutex());
    bp::posix::default_launcher launcher;
    std::vector<const char*> environment;
    if (spec.environment) {
      for (const std::string& variable : *spec.environment) environment.push_back(variable.c_str());
      environment.push_back(nullptr);
      launcher.env = environment.data();
    }
    ChildSetup setup{
        ::getpid(), spec.working_dir.empty() ? nullptr : spec.working_dir.c_str(), spec.limits, spec.run_as, {}, {}};
    for (std::size_t i = 0; i < spec.cgroup_procs.size() && i < kMaxControlGroups; ++i)
      setup.cgroup_procs[i] = spec.cgroup_procs[i].c_str();
    CPU_ZERO(&setup.cpus);
    for (int cpu : spec.cpus)
      if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &setup.cpus);
    bp::process_stdio stdio{in.read_end.get(), out.write_end.get(),
                            relay ? relay->write_end.get() : child_stderr.get()};
    try {
      // Pitfall 3: the error_code overload only works when given an executor, not the io_context.
      auto proc = launcher(impl->ioc.get_executor(), ec, bp::filesystem::path(executable), spec.args, stdio, setup);
      if (!ec) {
        impl->pid = proc.id();
        if (spec.run_as) impl->own_uid = spec.run_as->uid;
        // From here on this module owns the child: basic_process would SIGKILL and reap only the
        // leader (no group kill) on destruction, and its async_wait reaps before the group is killed.
        proc.detach();
      }
    } catch (const boost::system::system_error& e) {
      // Thrown after a successful exec (the handle's own pidfd could not be opened): the child runs.
      impl->pid = launcher.pid;
      impl->kill();
      return failure("", e.what(), e.code().value());
    }
  }
  if (ec) return failure("", ec.message(), ec.value());

  // The child's ends now live in the child only.
  in.read_end.reset();
  out.write_end.reset();
  if (relay) {
    relay->write_end.reset();
    impl->stderr_log = std::move(child_stderr);
    impl->stderr_cap = spec.max_stderr_bytes;
    impl->log_cap = spec.max_log_bytes;
    struct stat log_stat {};
    if (impl->log_cap > 0 && ::fstat(impl->stderr_log.get(), &log_stat) == 0 && S_ISREG(log_stat.st_mode)) {
      impl->log_size = static_cast<unsigned long long>(log_stat.st_size);
    } else {
      impl->log_cap = 0;  // /dev/null: nothing to bound
    }
    impl->tail_cap = spec.stderr_tail_bytes;
  }
  child_stderr.reset();

  // Our own pidfd for the exit watch. Safe: the child is not reaped, so its pid cannot have been reused.
  detail::UniqueFd pidfd(static_cast<int>(::syscall(SYS_pidfd_open, impl->pid, 0)));
  if (pidfd.get() < 0) {
    const int err = errno;
    impl->kill();  // works on the pid alone
    return failure("pidfd_open: ", std::strerror(err), err);
  }
  // Only our end of the stdin pipe (its own open file description): the engine's stdin stays blocking.
  ::fcntl(in.write_end.get(), F_SETFL, ::fcntl(in.write_end.get(), F_GETFL) | O_NONBLOCK);
  impl->to_engine.assign(in.write_end.get(), ec);
  if (!ec) in.write_end.release();
  ::fcntl(out.read_end.get(), F_SETFL, ::fcntl(out.read_end.get(), F_GETFL) | O_NONBLOCK);  // for fill_now()
  if (!ec) impl->from_engine.assign(out.read_end.get(), ec);
  if (!ec) out.read_end.release();
  if (!ec) impl->pidfd.assign(pidfd.get(), ec);
  if (!ec) pidfd.release();
  if (!ec && relay) {
    // Non-blocking, so that drain_stderr() never waits.
    ::fcntl(relay->read_end.get(), F_SETFL, ::fcntl(relay->read_end.get(), F_GETFL) | O_NONBLOCK);
    impl->from_stderr.assign(relay->read_end.get(), ec);
    if (!ec) relay->read_end.release();
  }
  if (ec) {
    impl->kill();
    return failure("", ec.message(), ec.value());
  }
  impl->arm_exit_watch();
  if (impl->from_stderr.is_open()) impl->relay_stderr();
  return std::unique_ptr<EngineProcess>(new EngineProcess(std::move(impl)));
}
#pragma GCC diagnostic pop

int EngineProcess::pid() const { return impl_->pid; }

bool EngineProcess::write_line(std::string_view line, Deadline deadline) { return impl_->write_line(line, deadline); }

bool EngineProcess::write_lines(std::span<const std::string_view> lines, Deadline deadline) {
  return impl_->write_lines(lines, deadline);
}

bool EngineProcess::write_lines(std::initializer_list<std::string_view> lines, Deadline deadline) {
  return impl_->write_lines(std::span(lines.begin(), lines.size()), deadline);
}

ReadResult EngineProcess::read_line(Deadline deadline) {
  ReadResult result;
  result.status = impl_->read_line(deadline, result.line);
  return result;
}

Status EngineProcess::read_line(Deadline deadline, std::string& line) { return impl_->read_line(deadline, line); }

void EngineProcess::reset_output_budget() {
  impl_->stderr_bytes = 0;
  impl_->stderr_over = false;
}

EngineProcess::StderrTail EngineProcess::take_stderr_tail() {
  if (impl_->from_stderr.is_open()) {
    // A bounded number of rounds: an engine that writes without pause must not keep the caller here.
    if (impl_->ioc.stopped()) impl_->ioc.restart();
    for (int i = 0; i < 64 && impl_->ioc.poll() > 0; ++i) {
    }
  }
  StderrTail out;
  if (impl_->tail.size() > impl_->tail_cap) impl_->tail.erase(0, impl_->tail.size() - impl_->tail_cap);
  out.text = std::move(impl_->tail);
  out.total = impl_->tail_total;
  impl_->tail.clear();
  impl_->tail_total = 0;
  return out;
}

bool EngineProcess::input_closed() const {
  if (!impl_->to_engine.is_open()) return true;
  pollfd p{impl_->to_engine.native_handle(), POLLOUT, 0};
  // The writing end of a pipe whose reading end is closed everywhere polls as POLLERR.
  return ::poll(&p, 1, 0) == 1 && (p.revents & POLLERR) != 0;
}

std::optional<ExitInfo> EngineProcess::exit_status() { return impl_->exit_status(); }

std::optional<ExitInfo> EngineProcess::wait_for_exit(Deadline deadline) { return impl_->wait_for_exit(deadline); }

void EngineProcess::shutdown(std::chrono::milliseconds grace) { impl_->shutdown(grace); }

void EngineProcess::kill() {
  impl_->kill();
  impl_->close_pipes();
}

KillSwitch EngineProcess::kill_switch() const {
  // Safe: while the leader is unreaped (no exit recorded yet) its pid cannot have been reused.
  if (impl_->exit || impl_->pid <= 0) return KillSwitch();
  return KillSwitch(static_cast<int>(::syscall(SYS_pidfd_open, impl_->pid, 0)));
}

KillSwitch::KillSwitch(KillSwitch&& other) noexcept : pidfd_(std::exchange(other.pidfd_, -1)) {}

KillSwitch& KillSwitch::operator=(KillSwitch&& other) noexcept {
  if (this != &other) {
    if (pidfd_ >= 0) ::close(pidfd_);
    pidfd_ = std::exchange(other.pidfd_, -1);
  }
  return *this;
}

KillSwitch::~KillSwitch() {
  if (pidfd_ >= 0) ::close(pidfd_);
}

void KillSwitch::fire() const {
  if (pidfd_ >= 0) ::syscall(SYS_pidfd_send_signal, pidfd_, SIGKILL, nullptr, 0);
}

bool become_subreaper() { return ::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0; }

}  // namespace kalah::process
