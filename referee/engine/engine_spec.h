// How to run one engine and talk to it: the one description of an engine, filled in by the
// arena's config loader or by `referee match --engine ...`, and read by the engine players.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "referee/game/time_control.h"

namespace kalah {

// The line protocol an engine speaks (docs/PROTOCOL.md).
enum class Protocol { Kep, Mankalah };
const char* to_string(Protocol p);  // "kep", "mankalah"
std::optional<Protocol> parse_protocol(std::string_view text);

// When the engine process is started afresh.
enum class RestartPolicy {
  OnCrash,  // kept across games; restarted after a crash or a forfeit
  Always,   // a new process for every game
};
const char* to_string(RestartPolicy r);  // "on-crash", "always"

struct EngineOption {
  std::string name;
  std::string value;  // as sent with setoption: 12, 1.5, true/false, or the string itself
  friend bool operator==(const EngineOption&, const EngineOption&) = default;
};

// Where an engine runs (docs/SECURITY.md).
enum class SandboxMode {
  None,   // as the arena's user, seeing what the arena sees: for engines you trust
  Bwrap,  // in a bubblewrap sandbox: no network, read-only system, private working dir and /tmp
};
const char* to_string(SandboxMode m);  // "none", "bwrap"

// Kernel limits on one engine process; 0 = no limit.
// How memory_mb is enforced: the kernel's memory controller (all the engine's memory, a `memory`
// forfeit), or RLIMIT_DATA per process (heap and private mappings only), chosen explicitly.
enum class MemoryEnforcement { Cgroup, Rlimit };

struct EngineLimits {
  long long memory_mb = 0;  // a memory group's limit, or RLIMIT_DATA (memory_enforcement)
  MemoryEnforcement memory_enforcement = MemoryEnforcement::Cgroup;
  long long max_file_mb = 0;    // RLIMIT_FSIZE
  int max_processes = 0;        // pids controller, or RLIMIT_NPROC under a sandboxed engine's own uid (root)
  long long max_output_kb = 0;  // stderr kept per game (the arena relays it); more is an `output` forfeit
  friend bool operator==(const EngineLimits&, const EngineLimits&) = default;
};

// The rule for an engine's name, the same in configs and on the command line: 1 to 64 characters,
// no control characters (nor a bidi or zero-width one: system::is_hidden_control), quotes or
// backslashes, no space at either end.
bool valid_engine_name(std::string_view name);
inline constexpr const char* kEngineNameRule =
    "1 to 64 characters without control characters (bidi and zero-width ones too), quotes, backslashes or "
    "spaces at either end";

// A KGP agent (protocol = "kgp", docs/KGP.md): what `referee kgp-host` runs for it. The EngineSpec of such an
// engine is the host (cmd, args); this is kept beside it for the commands that speak KGP to the agent
// themselves, as its server (`referee check`, `referee suite`).
struct KgpAgent {
  std::string cmd;  // a path, or a bare name found on PATH
  std::vector<std::string> args;
  bool random_no_move = false;  // kgp_no_move = "random": a turn without a move gets a random one
  bool websocket = false;       // kgp_transport = "websocket": its server speaks KGP over a WebSocket, not TCP
};

struct EngineSpec {
  std::string name;            // unique among the engines of a tournament or match
  std::string cmd_as_written;  // the command as the operator wrote it
  std::filesystem::path cmd;   // the executable to start (absolute once resolved)
  std::vector<std::string> args;
  std::filesystem::path dir;          // working directory; empty = the arena's
  std::vector<EngineOption> options;  // sent with setoption, in this order
  Protocol protocol = Protocol::Kep;
  RestartPolicy restart = RestartPolicy::OnCrash;
  std::filesystem::path stderr_file;  // the engine's stderr is appended here; empty = discarded
  std::filesystem::path comm_log;     // every line exchanged is appended here; empty = none
  // The last bytes of its stderr kept (the arena then relays its stderr, docs/SECURITY.md): per game for
  // the game's transcript, and the last lines of it in the detail of a start-up forfeit (a bot that dies
  // before kepok says why there); 0: none kept. The default is Transcript::kStderrTailBytes.
  std::size_t stderr_tail_bytes = std::size_t{16} << 10;
  std::chrono::milliseconds quit_grace{200};  // after quit, before SIGKILL
  SandboxMode sandbox = SandboxMode::None;
  bool keep_sandbox = false;  // keep the sandbox's private working directory after the engine exits
  // The sandbox's working directory is a folder on disk even with max_file_mb (a contest build, whose
  // files are copied out when it ends); otherwise max_file_mb makes it memory of that size.
  bool private_dir_on_disk = false;
  EngineLimits limits;
  std::vector<int> cpus;  // the CPUs its processes may run on; empty: the arena's (set per game slot by pinning)
  std::optional<TimeControl> time;  // its own time control (time odds); none: the tournament's or match's
  std::optional<KgpAgent> kgp;      // set for a KGP agent, whose host cmd and args start
};

}  // namespace kalah
