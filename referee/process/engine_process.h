// One engine child process: spawn, write a line, read a line before a deadline, kill and reap.
//
// Every Boost.Process / Asio detail lives in engine_process.cpp and the files that share its private
// engine_process_impl.h; this header stays free of them because it is included widely. See
// docs/PROCESSES.md for how children are run, killed and reaped.
//
// Threading: one EngineProcess is used by one thread at a time (it owns its own event loop). Different
// EngineProcess objects may be used from different threads at once; spawning is serialised internally.
// The child is killed (SIGKILL) when the thread that spawned it exits (PR_SET_PDEATHSIG fires on the
// spawning *thread*, not the process): spawn from long-lived worker threads.
//
// The engine leads its own process group. As soon as it exits or is killed, the rest of its group
// (whatever it forked) is SIGKILLed, so a leftover grandchild cannot hold the pipes open. The arena must
// not reap children itself (no waitpid(-1), no SIGCHLD set to SIG_IGN): each EngineProcess reaps its own.
#pragma once

#include <chrono>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace kalah::process {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

// Kernel limits set in the child before exec (docs/SECURITY.md). 0 leaves a limit as the arena has it.
// How many control groups a child can be put in (memory, cpuset, pids: one hierarchy each in cgroup v1).
inline constexpr std::size_t kMaxControlGroups = 4;

struct ResourceLimits {
  unsigned long long data_bytes = 0;  // RLIMIT_DATA: heap and private mappings (not RLIMIT_AS)
  unsigned long long file_bytes = 0;  // RLIMIT_FSIZE: a bigger write raises SIGXFSZ
  unsigned long long processes = 0;   // RLIMIT_NPROC: every process of the child's real uid counts
};

// Who the child runs as: set (supplementary groups dropped) before exec. Needs the arena to be root.
struct RunAs {
  unsigned uid = 0;
  unsigned gid = 0;
};

struct SpawnSpec {
  std::string command;            // a path, or a bare name looked up in PATH; made absolute
  std::vector<std::string> args;  // argv[1..]
  std::string working_dir;        // empty: inherit the arena's working directory
  std::string stderr_log_path;    // empty: /dev/null; otherwise appended to (created if missing)
  // Relay: the child's stderr is a pipe that this module copies into the log, so the child's own file
  // limit (RLIMIT_FSIZE) does not count the log, and the copy can be capped (max_stderr_bytes, 0: none).
  // Without it the child writes the log itself. The relay is read whenever the arena waits on the
  // engine; while it does not, an engine that fills the pipe (64 KiB) waits in its write.
  bool relay_stderr = false;
  unsigned long long max_stderr_bytes = 0;
  // With the relay: the log file as a whole never grows past this many bytes (0: no bound), whichever game or
  // process wrote what is in it already; where it would, a last line says so and the rest is not kept.
  unsigned long long max_log_bytes = 0;
  std::size_t stderr_tail_bytes = 0;       // with the relay: the last this many bytes are kept for stderr_tail()
  std::size_t max_line_bytes = 64 * 1024;  // a longer line (without its '\n') reads as TooLong
  ResourceLimits limits;
  std::optional<RunAs> run_as;  // none: the arena's own user
  std::vector<int> cpus;        // sched_setaffinity of the child (inherited by all it starts); empty: the arena's
  // Control groups' cgroup.procs files that the child enters (writes "0" to) before exec, at most
  // kMaxControlGroups; none: it stays in the arena's groups.
  std::vector<std::string> cgroup_procs;
  // The child's whole environment ("NAME=value" each); none: the arena's own.
  std::optional<std::vector<std::string>> environment;
};

// An operator-facing reason why the engine could not be started (missing or non-executable file, bad
// working directory, unwritable stderr log, failed exec). errno_value is 0 when no errno applies.
struct SpawnError {
  std::string message;
  int errno_value = 0;
};

enum class Status {
  Ok,           // `line` holds one line, without its '\n' (and without a trailing '\r')
  Timeout,      // the deadline passed before a full line arrived; partial data is kept for the next read
  Eof,          // the engine closed its stdout; `line` holds an unterminated last fragment, if any
  TooLong,      // the line exceeded max_line_bytes; `line` holds its first 256 bytes, the rest is skipped
  Error,        // an I/O error, or the process was already shut down
  OutputLimit,  // the relayed stderr passed max_stderr_bytes (since the start or reset_output_budget())
};
const char* to_string(Status s);  // "ok", "timeout", "eof", "too-long", "error", "output-limit"

struct ReadResult {
  Status status = Status::Error;
  std::string line;
};

// How the engine ended, from its wait status.
struct ExitInfo {
  enum class Kind { Exited, Signaled };
  Kind kind = Kind::Exited;
  int value = 0;  // the exit code, or the signal number
  bool core_dumped = false;
  bool killed_by_arena = false;  // still running when this module sent SIGKILL (grace over, kill())

  bool exited() const { return kind == Kind::Exited; }
  bool signaled() const { return kind == Kind::Signaled; }
  // "exited with code 3", "killed by signal 9 (SIGKILL)", "killed by signal 6 (SIGABRT), core dumped"
  std::string describe() const;
  static ExitInfo from_wait_status(int wait_status);

  friend bool operator==(const ExitInfo&, const ExitInfo&) = default;
};

// Kills one engine from any thread. It holds a pidfd of its own for the engine's leader, and a pidfd
// names that one process: once the engine has been reaped and its pid reused, fire() signals nobody
// (the kernel answers ESRCH) instead of a stranger. The SIGKILL ends the leader; the thread that owns
// the EngineProcess then sees the exit and kills and reaps the rest of the group, as after a crash.
class KillSwitch {
 public:
  KillSwitch() = default;  // fires at nothing
  KillSwitch(KillSwitch&& other) noexcept;
  KillSwitch& operator=(KillSwitch&& other) noexcept;
  KillSwitch(const KillSwitch&) = delete;
  KillSwitch& operator=(const KillSwitch&) = delete;
  ~KillSwitch();

  void fire() const;

 private:
  friend class EngineProcess;
  explicit KillSwitch(int pidfd) : pidfd_(pidfd) {}
  int pidfd_ = -1;
};

class EngineProcess {
 public:
  // Starts the engine with stdin/stdout on pipes and stderr sent to the log (never left unread). The
  // child gets only fds 0, 1, 2, its own process group, and SIGKILL if the spawning thread dies.
  static std::variant<std::unique_ptr<EngineProcess>, SpawnError> spawn(const SpawnSpec& spec);

  ~EngineProcess();  // shutdown(kDestructorGrace) if not done yet
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  static constexpr std::chrono::milliseconds kDestructorGrace{250};

  int pid() const;

  // Writes `line` + '\n'. False if the engine is gone (EPIPE; SIGPIPE is ignored process-wide by this
  // module), the deadline passed with the pipe still full, or the process was shut down. After a false
  // return the stream may hold a partial line: treat the engine as broken.
  bool write_line(std::string_view line, Deadline deadline);
  // Several lines in one write (a position and its go): the engine then wakes up once, not twice.
  bool write_lines(std::span<const std::string_view> lines, Deadline deadline);
  bool write_lines(std::initializer_list<std::string_view> lines, Deadline deadline);

  // One line at a time; lines already buffered come back without a system call. Never sleeps or polls:
  // it waits on the pipe and a timer. The second form reuses `line`'s storage (no allocation per line).
  ReadResult read_line(Deadline deadline);
  Status read_line(Deadline deadline, std::string& line);

  // Starts a new stderr budget (a new game): the bytes relayed so far no longer count.
  void reset_output_budget();

  // What the engine wrote to its (relayed) stderr since the last call: its last stderr_tail_bytes,
  // and how many bytes it wrote in all. Runs what is ready to be relayed first, without waiting.
  struct StderrTail {
    std::string text;
    unsigned long long total = 0;
  };
  StderrTail take_stderr_tail();

  // True when nobody reads the engine's stdin any more (it closed it, or it is gone): a write would fail
  // with EPIPE. Non-blocking.
  bool input_closed() const;

  // Non-blocking: nullopt while the engine runs; once it has exited, how (and it is reaped by then).
  std::optional<ExitInfo> exit_status();
  bool running() { return !exit_status().has_value(); }

  // Waits (event-based, bounded) for the engine to exit on its own, e.g. after an Eof, so that the
  // crash reason can be recorded. Returns exit_status() at the end.
  std::optional<ExitInfo> wait_for_exit(Deadline deadline);

  // Writes "quit", closes the engine's stdin, waits up to `grace` for the exit, then SIGKILLs the whole
  // process group, and reaps. Idempotent; always leaves no zombie. Also run by the destructor.
  void shutdown(std::chrono::milliseconds grace);

  // SIGKILL the whole process group now and reap. Idempotent.
  void kill();

  // A switch that kills this engine from another thread (the signal thread interrupting a run)
  // while this object's owner is blocked in a read. Empty once the engine has been reaped.
  KillSwitch kill_switch() const;

 private:
  struct Impl;
  explicit EngineProcess(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Makes the calling process a child subreaper (PR_SET_CHILD_SUBREAPER): processes an engine leaves
// behind (grandchildren) are re-parented to this process instead of init when the engine dies, so the
// EngineProcess that owned their process group reaps them. Call once, early, from the arena's main.
// Returns false if the kernel refused.
bool become_subreaper();

}  // namespace kalah::process
