// ExitInfo and Status: plain values, no Boost.
#include <sys/wait.h>

#include <cstring>
#include <string>

#include <fmt/format.h>

#include "referee/process/engine_process.h"

namespace kalah::process {

const char* to_string(Status s) {
  switch (s) {
    case Status::Ok: return "ok";
    case Status::Timeout: return "timeout";
    case Status::Eof: return "eof";
    case Status::TooLong: return "too-long";
    case Status::Error: return "error";
    case Status::OutputLimit: return "output-limit";
  }
  return "?";
}

ExitInfo ExitInfo::from_wait_status(int wait_status) {
  ExitInfo info;
  if (WIFSIGNALED(wait_status)) {
    info.kind = Kind::Signaled;
    info.value = WTERMSIG(wait_status);
    info.core_dumped = WCOREDUMP(wait_status);
  } else {
    info.kind = Kind::Exited;
    info.value = WEXITSTATUS(wait_status);
  }
  return info;
}

std::string ExitInfo::describe() const {
  if (kind == Kind::Exited) return fmt::format("exited with code {}", value);
  // sigabbrev_np (glibc >= 2.32) gives "KILL" for 9; it returns null for unknown numbers.
  const char* abbrev = ::sigabbrev_np(value);
  std::string text =
      abbrev ? fmt::format("killed by signal {} (SIG{})", value, abbrev) : fmt::format("killed by signal {}", value);
  if (core_dumped) text += ", core dumped";
  return text;
}

}  // namespace kalah::process
