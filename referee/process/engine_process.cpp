// EngineProcess: the spawn of an engine (its descriptors, ChildSetup in the forked child, the adoption
// of its ends into the event loop) and the public methods, which hand over to the Impl
// (engine_process_impl.h: the state and event loop that stderr_relay.cpp, child_exit.cpp and line_io.cpp
// share). The pitfalls of Boost.Process v2 1.81 that shape this code are listed in docs/PROCESSES.md;
// comments below point at them as "pitfall N".
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

#include <boost/process/v2/posix/default_launcher.hpp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/stdio.hpp>
#include <fmt/format.h>

#include "referee/process/engine_process_impl.h"
#include "referee/process/spawn_support.h"

namespace kalah::process {

namespace bp = boost::process::v2;

namespace {

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

// The error of a spawn that failed at `what` (a prefix of the reason, or empty) for the reason `why`.
SpawnError spawn_failure(const std::string& executable, std::string_view what, const std::string& why, int err) {
  return SpawnError{fmt::format("cannot start engine '{}': {}{}", executable, what, why), err};
}

}  // namespace

// GCC 12 reports false -Warray-bounds / -Wstringop-overflow / -Wrestrict warnings inside the launcher's
// inlined `fd_whitelist = {0, 1, 2}` (std::vector assignment from an initializer list).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Wrestrict"
// The fork and exec, one spawn at a time (pitfall 4): the engine with ChildSetup and the descriptors `in`,
// `out` and `err` as its 0, 1 and 2; pid is the child's on success. A launcher that throws after a
// successful exec (the handle's own pidfd could not be opened) leaves a running child: it is killed.
std::optional<SpawnError> EngineProcess::Impl::launch(const SpawnSpec& spec, const std::string& executable, int in,
                                                      int out, int err) {
  error_code ec;
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
  bp::process_stdio stdio{in, out, err};
  try {
    // Pitfall 3: the error_code overload only works when given an executor, not the io_context.
    auto proc = launcher(ioc.get_executor(), ec, bp::filesystem::path(executable), spec.args, stdio, setup);
    if (!ec) {
      pid = proc.id();
      if (spec.run_as) own_uid = spec.run_as->uid;
      // From here on this module owns the child: basic_process would SIGKILL and reap only the
      // leader (no group kill) on destruction, and its async_wait reaps before the group is killed.
      proc.detach();
    }
  } catch (const boost::system::system_error& e) {
    pid = launcher.pid;
    kill();
    return spawn_failure(executable, "", e.what(), e.code().value());
  }
  if (ec) return spawn_failure(executable, "", ec.message(), ec.value());
  return std::nullopt;
}
#pragma GCC diagnostic pop

// The relayed stderr's log and its bounds (SpawnSpec): the cap a game, the log's bound (none for a log that
// is not a regular file, such as /dev/null) and the tail kept for the transcript.
void EngineProcess::Impl::keep_stderr_log(detail::UniqueFd log, const SpawnSpec& spec) {
  stderr_log = std::move(log);
  stderr_cap = spec.max_stderr_bytes;
  log_cap = spec.max_log_bytes;
  struct stat log_stat {};
  if (log_cap > 0 && ::fstat(stderr_log.get(), &log_stat) == 0 && S_ISREG(log_stat.st_mode)) {
    log_size = static_cast<unsigned long long>(log_stat.st_size);
  } else {
    log_cap = 0;  // /dev/null: nothing to bound
  }
  tail_cap = spec.stderr_tail_bytes;
}

// Our ends of the pipes and our own pidfd for the exit watch, handed to the event loop; the child is
// killed if that fails. Taking the pidfd here is safe: the child is not reaped, so its pid cannot have been
// reused.
std::optional<SpawnError> EngineProcess::Impl::take_ends(detail::Pipe& in, detail::Pipe& out,
                                                         std::optional<detail::Pipe>& relay,
                                                         const std::string& executable) {
  detail::UniqueFd own_pidfd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
  if (own_pidfd.get() < 0) {
    const int err = errno;
    kill();  // works on the pid alone
    return spawn_failure(executable, "pidfd_open: ", std::strerror(err), err);
  }
  error_code ec;
  // Only our end of the stdin pipe (its own open file description): the engine's stdin stays blocking.
  ::fcntl(in.write_end.get(), F_SETFL, ::fcntl(in.write_end.get(), F_GETFL) | O_NONBLOCK);
  to_engine.assign(in.write_end.get(), ec);
  if (!ec) in.write_end.release();
  ::fcntl(out.read_end.get(), F_SETFL, ::fcntl(out.read_end.get(), F_GETFL) | O_NONBLOCK);  // for fill_now()
  if (!ec) from_engine.assign(out.read_end.get(), ec);
  if (!ec) out.read_end.release();
  if (!ec) pidfd.assign(own_pidfd.get(), ec);
  if (!ec) own_pidfd.release();
  if (!ec && relay) {
    // Non-blocking, so that drain_stderr() never waits.
    ::fcntl(relay->read_end.get(), F_SETFL, ::fcntl(relay->read_end.get(), F_GETFL) | O_NONBLOCK);
    from_stderr.assign(relay->read_end.get(), ec);
    if (!ec) relay->read_end.release();
  }
  if (ec) {
    kill();
    return spawn_failure(executable, "", ec.message(), ec.value());
  }
  return std::nullopt;
}

EngineProcess::EngineProcess(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

EngineProcess::~EngineProcess() {
  if (impl_) impl_->shutdown(kDestructorGrace);
}

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

  // Asio may throw here and in the launch only when the system is out of resources (descriptors, memory).
  std::unique_ptr<Impl> impl;
  try {
    // The read buffer's cap is max_line_bytes + 1 (room for the '\n'): keep that from overflowing.
    const std::size_t max_line = std::clamp<std::size_t>(spec.max_line_bytes, 1, std::size_t{1} << 40);
    impl = std::make_unique<Impl>(max_line);
  } catch (const boost::system::system_error& e) {
    return spawn_failure(executable, "", e.what(), e.code().value());
  }
  if (auto err = impl->launch(spec, executable, in.read_end.get(), out.write_end.get(),
                              relay ? relay->write_end.get() : child_stderr.get()))
    return std::move(*err);

  // The child's ends now live in the child only.
  in.read_end.reset();
  out.write_end.reset();
  if (relay) {
    relay->write_end.reset();
    impl->keep_stderr_log(std::move(child_stderr), spec);
  }
  child_stderr.reset();
  if (auto err = impl->take_ends(in, out, relay, executable)) return std::move(*err);
  impl->arm_exit_watch();
  if (impl->from_stderr.is_open()) impl->relay_stderr();
  return std::unique_ptr<EngineProcess>(new EngineProcess(std::move(impl)));
}

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
