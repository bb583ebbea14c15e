// A tool run to its end (sbatch, git, tar): its whole stdout read before a deadline, the tail of its
// stderr, how it exited. For the arena's helpers that are not engines; every child still goes through
// EngineProcess, so there is one way to start, read, kill and reap a process.
#pragma once

#include <optional>
#include <string>

#include "referee/process/engine_process.h"

namespace kalah::process {

struct ToolRun {
  enum class Outcome {
    Exited,         // it ended by itself (exit says how): its stdout was read to the end
    CouldNotStart,  // detail: the spawn error
    Timeout,        // the deadline passed, reading or waiting for its exit; it was killed
    Unreadable,     // its stdout could not be read (detail: the status); it was killed
  };
  Outcome outcome = Outcome::CouldNotStart;
  std::string out;               // stdout, lines joined by '\n' (what was read, also on a failure)
  std::string err_tail;          // the last spec.stderr_tail_bytes of stderr (spec.relay_stderr), raw bytes
  std::optional<ExitInfo> exit;  // Exited
  std::string detail;            // CouldNotStart, Unreadable

  // Exited with code 0.
  bool succeeded() const { return outcome == Outcome::Exited && exit && exit->exited() && exit->value == 0; }
};

ToolRun run_tool(const SpawnSpec& spec, Deadline deadline);

}  // namespace kalah::process
