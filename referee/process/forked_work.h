// Work of this process run in a forked copy of it under a time bound: for the arena's commands that read
// untrusted input (arena verify, arena report), so that whatever the input makes them do, the command ends
// (arena/app/time_limit.h). A fork without exec, but a child all the same: it is started, waited on by
// pidfd, killed and reaped here, beside the engines and tools (referee/process), and nowhere else.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace kalah::process {

struct ForkedWork {
  enum class Outcome {
    Exited,         // code: its exit code
    Signalled,      // code: the signal that ended it
    TimedOut,       // the limit passed; it was killed and reaped
    CouldNotStart,  // detail: why (fork or pidfd_open failed); nothing runs
  };
  Outcome outcome = Outcome::CouldNotStart;
  int code = 0;
  std::string detail;
};

// Runs `child` in a forked copy of this process (call it before any thread is started: only the calling
// thread is copied) and waits at most `limit` for it. The child never outlives this process (it is killed
// with it), and `child`'s return value is its exit code (its stdio is flushed first). Flushes this
// process's stdout and stderr before the fork, so that nothing buffered is written twice.
ForkedWork run_forked(std::chrono::milliseconds limit, const std::function<int()>& child);

}  // namespace kalah::process
