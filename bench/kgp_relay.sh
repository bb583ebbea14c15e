#!/usr/bin/env bash
# The time a KGP agent's move costs through `referee kgp-host` (docs/PERFORMANCE.md, "KGP"): the test agent
# tests/engines/kgp_agent.py (it answers at once) plays GAMES games of `referee match` against kalah-greedy,
# once as it is (TCP_NODELAY) and once as a copy that leaves Nagle's rule on, as a client library may; the
# arena's time of each of the agent's moves (from `go` to `bestmove`: the relay, the agent's answer and its
# way back) is read from the records. A measurement, not a test. Run from the repository root after a build:
#   bench/kgp_relay.sh [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD_DIR:-build}"
games=${1:-20}
scratch=$(mktemp -d /tmp/kalah-kgp-relay.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
sed 's/^    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)$/    pass/' tests/engines/kgp_agent.py \
  >"$scratch/nagle_agent.py"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
for agent in tests/engines/kgp_agent.py "$scratch/nagle_agent.py"; do
  "$build/referee" match --engine cmd=python3 "arg=$agent" protocol=kgp name=kgp --engine cmd=kalah-greedy \
    --games "$games" --movetime 200 2>/dev/null >"$scratch/games.jsonl"
  PYTHONPATH=bots/python python3 - "$scratch/games.jsonl" "$(basename "$agent")" <<'PY'
import json, statistics, sys
from kalah_engine import Position, Variant, SOUTH
times = []
for line in open(sys.argv[1]):
    if not line.startswith("{"):
        continue
    g = json.loads(line)
    v = g["variant"]
    p = Position.start(Variant(pits=v["pits"], seeds=v["seeds"], capture=v["capture"]))
    agent_side = SOUTH if g["south"] == "kgp" else 1 - SOUTH
    for move, ms in zip(g["moves"], g["times_ms"]):
        if p.to_move == agent_side:
            times.append(ms)
        p = p.play(move)
times.sort()
print(f"{sys.argv[2]}: {len(times)} moves, mean {statistics.mean(times):.2f} ms, "
      f"median {statistics.median(times):.2f} ms, max {times[-1]:.2f} ms")
PY
done
