#!/usr/bin/env bash
# Wall clock against CPU clock on an oversubscribed machine (docs/PERFORMANCE.md, "CPU clock"): the same
# round robin of two identical kalah-mcts engines that think for their whole movetime, played with more
# games at once than cores (CONCURRENCY, default 6) and BURNERS busy processes beside it (default 2), once
# with [time] clock = "wall" and once with "cpu". Prints per clock: games, time forfeits, the Elo of the
# first engine against its twin, and the mean charged and wall time per move. A measurement, not a test:
# no pass or fail. Run from the repository root after ./setup.sh:
#   bench/cpu_clock.sh [GAMES] [MOVETIME_MS] [MARGIN_MS]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD_DIR:-build}"
games=${1:-24}
movetime=${2:-50}
margin=${3:-10}
concurrency=${CONCURRENCY:-6}
burners=${BURNERS:-2}
scratch="${CPU_CLOCK_DIR:-/tmp/kalah-cpu-clock}"
mkdir -p "$scratch"
rm -rf "$scratch/results"

pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
for _ in $(seq "$burners"); do
  yes >/dev/null &
  pids+=($!)
done

echo "$(nproc) cores, concurrency $concurrency, $burners busy processes beside, movetime $movetime ms + margin $margin ms"
printf '%-5s %6s %13s %16s %15s %13s\n' clock games time_forfeits "elo(a-b)" mean_charged_ms mean_wall_ms
for clock in wall cpu; do
  {
    printf '[tournament]\nname = "%s"\npairs = %s\nconcurrency = %s\noutput = "%s"\nprogress_interval = 0\n' \
      "$clock" $((games / 2)) "$concurrency" "$scratch/results"
    printf '[time]\nmovetime_ms = %s\nmargin_ms = %s\nclock = "%s"\n[openings]\nrandom_plies = 2\n' \
      "$movetime" "$margin" "$clock"
    for name in a b; do printf '[[engine]]\nname = "%s"\ncmd = "%s"\n' "$name" "$PWD/$build/bots/kalah-mcts"; done
  } >"$scratch/$clock.toml"
  "$build/arena" run "$scratch/$clock.toml" >"$scratch/$clock.log" 2>&1
  python3 - "$scratch/results/$clock/games.jsonl" "$clock" <<'PY'
import json, math, sys
games = [json.loads(line) for line in open(sys.argv[1])]
forfeits = sum(1 for g in games if g["forfeit"] and g["forfeit"]["reason"] == "time")
score = 0.0
for g in games:
    first = {"1-0": 1.0, "0-1": 0.0}.get(g["result"], 0.5)
    score += first if g["south"] == "a" else 1 - first
p = min(max(score / len(games), 0.5 / len(games)), 1 - 0.5 / len(games))
elo = -400 * math.log10(1 / p - 1)
charged = [t for g in games for t in g["times_ms"]]
walls = [t for g in games for t in g.get("wall_ms", g["times_ms"])]
print("%-5s %6d %13d %16.0f %15.1f %13.1f" % (sys.argv[2], len(games), forfeits, elo,
      sum(charged) / len(charged), sum(walls) / len(walls)))
PY
done
