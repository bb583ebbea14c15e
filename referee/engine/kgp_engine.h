// `protocol = "kgp"` (docs/KGP.md): a KGP agent is run as a KEP engine through `referee kgp-host`, which
// starts the agent with KGP_HOST/KGP_PORT naming its own loopback port. In a sandbox the host and the agent
// share the sandbox, and with it its network namespace: the agent reaches the host and nothing else.
#pragma once

#include <chrono>
#include <filesystem>

#include "referee/engine/engine_spec.h"
#include "referee/rules/expected.h"

namespace kalah {

// The protocol word of a KGP agent in a config or an --engine option, beside to_string(Protocol).
inline constexpr const char* kKgpProtocol = "kgp";

// What a KGP agent's turn without a move becomes: a forfeit (the default) or a random legal move.
enum class KgpNoMove { Forfeit, Random };
// How a KGP agent reaches the server its host runs for it: TCP (the default) or a WebSocket.
enum class KgpTransport { Tcp, WebSocket };

// The `referee` program that runs KGP agents: the one beside this program (build/referee beside
// build/arena, bin/referee beside bin/arena), else the first on PATH. An error names where it looked.
Expected<std::filesystem::path> find_kgp_host();

// `agent` (its command already found) as the engine that runs it: `host kgp-host [--no-move random]
// [--websocket] -- <agent's command> <agent's args>`, started afresh for every game (RestartPolicy::Always),
// the rest of the spec as it is. The agent's command is the path found,
// or a bare name as written, which the host finds on its own PATH.
EngineSpec kgp_host_engine(EngineSpec agent, const std::filesystem::path& host, KgpNoMove no_move,
                           KgpTransport transport = KgpTransport::Tcp);

// The host of a KGP agent (kgp_host_engine) as it is started for a handshake of `startup`: `--startup-ms`
// after `kgp-host` gives the agent that deadline less what the host needs to answer the arena, so that a
// slow agent is given the engine's own start-up time and a late one is reported by the host, not by the
// arena's deadline alone. Any other spec comes back as it is.
EngineSpec with_kgp_startup(EngineSpec spec, std::chrono::milliseconds startup);

}  // namespace kalah
