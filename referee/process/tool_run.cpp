#include "referee/process/tool_run.h"

#include <memory>
#include <variant>

namespace kalah::process {

ToolRun run_tool(const SpawnSpec& spec, Deadline deadline) {
  ToolRun run;
  auto spawned = EngineProcess::spawn(spec);
  if (auto* error = std::get_if<SpawnError>(&spawned)) {
    run.detail = error->message;
    return run;
  }
  EngineProcess& child = *std::get<std::unique_ptr<EngineProcess>>(spawned);
  auto stop = [&](ToolRun::Outcome outcome, std::string detail) {
    child.kill();
    run.outcome = outcome;
    run.detail = std::move(detail);
    run.err_tail = child.take_stderr_tail().text;
    return run;
  };
  for (bool done = false; !done;) {
    ReadResult read = child.read_line(deadline);
    switch (read.status) {
      case Status::Ok: run.out += read.line + "\n"; break;
      case Status::Eof: run.out += read.line, done = true; break;
      case Status::Timeout: return stop(ToolRun::Outcome::Timeout, {});
      default: return stop(ToolRun::Outcome::Unreadable, to_string(read.status));
    }
  }
  run.exit = child.wait_for_exit(deadline);
  if (!run.exit) return stop(ToolRun::Outcome::Timeout, {});
  run.outcome = ToolRun::Outcome::Exited;
  run.err_tail = child.take_stderr_tail().text;
  return run;
}

}  // namespace kalah::process
