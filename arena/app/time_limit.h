// An overall time bound for the commands that read untrusted input (docs/SECURITY.md): `arena verify`
// and `arena report` on a crafted archive or journal end within it, whatever the input makes them do
// (inflate a bomb, hash gigabytes, fit a rating list of thousands of engines, block in a read).
//
// The work runs in a child process of its own (process::run_forked; nothing else is running yet), with its temporary
// files in a folder of its own ($TMPDIR). The arena waits on the child's pidfd at most `limit`; when it
// passes, the child is killed, its folder removed, and the command says so and exits 2.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace kalah::arena_app {

inline constexpr std::chrono::seconds kDefaultTimeLimit{1800};

// Runs `body` under `limit` (0: none, `body` runs in this process) and returns its exit code; an
// exception from it is printed as the command line's own errors are (exit 2). `command` names the
// command in the message ("verify").
int within_time_limit(std::chrono::seconds limit, const std::string& command, const std::function<int()>& body);

}  // namespace kalah::arena_app
