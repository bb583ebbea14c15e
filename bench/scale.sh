#!/usr/bin/env bash
# Scale-out benchmarks (docs/PERFORMANCE.md, "Scale-out"). Run from the repository root after
# ./setup.sh; each prints a table and leaves its files under $SCALE_DIR (default /tmp/kalah-scale).
#
#   bench/scale.sh report [GAMES...]   peak RSS and time of `arena report` on synthetic journals
#                                      (default 24000 and 1000000 games; a 1M journal is ~2.5 GB)
#   bench/scale.sh run [GAMES]         `arena run` of two instant engines for GAMES games (100000):
#                                      RSS and games/s sampled every 5 s
#   bench/scale.sh rate [ENGINES [CMD]] a round robin of ENGINES copies of CMD (200 instant engines:
#                                      39800 games): games/s every 30 s, to see whether it decays
#   bench/scale.sh shards [K...]       1, 2 and 4 shards of one tournament run side by side on this
#                                      machine with engines on a fixed 5 ms per move: wall time
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD_DIR:-build}"
arena="${ARENA:-$PWD/$build/arena}"  # ARENA=... times another build of the arena
instant="$PWD/$build/tests/engines/instant_engine"
scratch="${SCALE_DIR:-/tmp/kalah-scale}"
mkdir -p "$scratch"

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
lines() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }

# config NAME ENGINES ROUNDS CMD: a round robin of ENGINES copies of CMD
config() {
  local name=$1 engines=$2 rounds=$3 cmd=$4 i
  {
    printf '[tournament]\nname = "%s"\npairs = %s\nconcurrency = 2\noutput = "%s"\nprogress_interval = 0\n' \
      "$name" "$rounds" "$scratch/results"
    printf '\n[time]\nbase_ms = 10000\ninc_ms = 100\n'
    for ((i = 0; i < engines; i++)); do printf '\n[[engine]]\nname = "e%03d"\ncmd = "%s"\n' "$i" "$cmd"; done
  } >"$scratch/$name.toml"
  echo "$scratch/$name.toml"
}

report() {
  local n
  printf '%-10s %-8s %-10s %-12s %s\n' games engines "MB journal" "peak RSS MB" "seconds (all five reports)"
  for n in "${@:-24000 1000000}"; do
    for n in $n; do
      local dir="$scratch/journal-$n"
      [ -f "$dir/games.jsonl" ] || "$build/bench/make-journal" "$dir" --games "$n" --engines 100 >/dev/null
      /usr/bin/time -f "%M %e" -o "$scratch/time.txt" "$arena" report "$dir" >/dev/null
      read -r kb secs <"$scratch/time.txt"
      printf '%-10s %-8s %-10s %-12s %s\n' "$n" 100 "$(($(stat -c %s "$dir/games.jsonl") / 1000000))" \
        "$((kb / 1024))" "$secs"
    done
  done
}

# sample PID JOURNAL EVERY: "seconds games rss_mb games/s" lines until PID exits
sample() {
  local pid=$1 journal=$2 every=$3 start last_games=0 last_t now games
  start=$(date +%s.%N)
  last_t=$start
  while kill -0 "$pid" 2>/dev/null; do
    sleep "$every"
    now=$(date +%s.%N)
    games=$(lines "$journal")
    printf '%8.0f %8d %8d %8.1f\n' "$(echo "$now - $start" | bc)" "$games" "$(($(rss_kb "$pid") / 1024))" \
      "$(echo "($games - $last_games) / ($now - $last_t)" | bc -l)"
    last_games=$games
    last_t=$now
  done
}

# sampled NAME CONFIG EVERY: a fresh run of CONFIG (tournament NAME), sampled every EVERY seconds
sampled() {
  rm -rf "$scratch/results/$1"
  "$arena" run "$2" >"$scratch/$1.log" 2>&1 &
  local pid=$!
  printf '%8s %8s %8s %8s\n' seconds games rss_mb games/s
  sample "$pid" "$scratch/results/$1/games.jsonl" "$3"
  wait "$pid"
}

run() {
  local games=${1:-100000}
  sampled run2 "$(config run2 2 $((games / 2)) "$instant")" 5
}

rate() {
  local engines=${1:-200} cmd=${2:-$instant}
  sampled rate "$(config rate "$engines" 1 "$cmd")" 30
}

shards() {
  local k cfg i start end
  # Engines that take a fixed 5 ms per move (kalah-mcts thinks for its whole movetime), 8 engines,
  # 2 rounds: 112 games.
  {
    printf '[tournament]\nname = "sh"\npairs = 2\nconcurrency = 1\noutput = "%s"\nprogress_interval = 0\n' "$scratch/shards"
    printf '\n[time]\nmovetime_ms = 5\n'
    for ((i = 0; i < 8; i++)); do
      printf '\n[[engine]]\nname = "e%d"\ncmd = "%s"\n' "$i" "$PWD/$build/bots/kalah-mcts"
    done
  } >"$scratch/sh.toml"
  printf '%-7s %-10s %s\n' shards seconds games/s
  for k in "${@:-1 2 4}"; do
    for k in $k; do
      rm -rf "$scratch/shards"
      start=$(date +%s.%N)
      for ((i = 1; i <= k; i++)); do "$arena" run "$scratch/sh.toml" --shard "$i/$k" >/dev/null & done
      wait
      end=$(date +%s.%N)
      "$arena" report "$scratch/shards/sh" >/dev/null
      printf '%-7s %-10.1f %.1f\n' "$k" "$(echo "$end - $start" | bc)" "$(echo "112 / ($end - $start)" | bc -l)"
    done
  done
}

case "${1:-}" in
  report | run | rate | shards) cmd=$1; shift; "$cmd" "$@" ;;
  *) sed -n '2,14p' "$0" >&2; exit 2 ;;
esac
