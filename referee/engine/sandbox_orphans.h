// Sandboxed processes that a killed arena left behind (docs/SECURITY.md, "No leftovers").
#pragma once

#include <vector>

#include <sys/types.h>

namespace kalah {

// Kills (SIGKILL) every process of the sandbox uid range whose parent is init, and returns their pids; does
// nothing unless this process is root and is not itself pid 1. A running arena is a subreaper, so what its
// sandboxes leave is handed to it, never to init: such a process is a leftover of an arena that was killed.
// bubblewrap makes one when it is killed in a window of its start (between making the sandbox's namespaces and
// mapping its user): its child waits for that mapping for ever, before its --die-with-parent is armed.
std::vector<pid_t> kill_orphaned_sandboxes();

}  // namespace kalah
