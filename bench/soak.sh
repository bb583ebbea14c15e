#!/usr/bin/env bash
# Soak test (docs/PERFORMANCE.md, "Soak"): `arena run` of instant engines for GAMES games (100000) at
# full concurrency (one game per core), sampling the arena's RSS and open file descriptors every 1000
# games, then the least-squares slope of each per 10 000 games. Run from the repository root after
# ./setup.sh:   bench/soak.sh [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD_DIR:-build}"
games=${1:-100000}
scratch="${SCALE_DIR:-/tmp/kalah-soak}"
mkdir -p "$scratch"
rm -rf "$scratch/results"
{
  printf '[tournament]\nname = "soak"\npairs = %s\nconcurrency = %s\noutput = "%s"\nprogress_interval = 0\n' \
    $((games / 2)) "$(nproc)" "$scratch/results"
  printf '\n[time]\nbase_ms = 10000\ninc_ms = 100\n'
  for name in a b; do printf '\n[[engine]]\nname = "%s"\ncmd = "%s"\n' "$name" "$PWD/$build/tests/engines/instant_engine"; done
} >"$scratch/soak.toml"

"$build/arena" run "$scratch/soak.toml" >"$scratch/soak.log" 2>&1 &
pid=$!
journal="$scratch/results/soak/games.jsonl"
next=1000
: >"$scratch/samples.txt"
printf '%8s %8s %6s\n' games rss_kb fds
while kill -0 "$pid" 2>/dev/null; do
  n=$(if [ -f "$journal" ]; then wc -l <"$journal"; else echo 0; fi)
  if [ "$n" -ge "$next" ]; then
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
    printf '%8d %8d %6d\n' "$n" "$rss" "$fds" | tee -a "$scratch/samples.txt"
    next=$(((n / 1000 + 1) * 1000))
  fi
  sleep 0.2
done
wait "$pid"
# Least-squares slopes over the samples after the first 10 000 games (start-up allocations settled).
awk '$1 >= 10000 { n++; x += $1; y += $2; f += $3; xx += $1 * $1; xy += $1 * $2; xf += $1 * $3 }
     END { d = n * xx - x * x; if (n < 2 || d == 0) { print "too few samples"; exit }
           printf "slope per 10000 games: RSS %+.1f KB, fds %+.2f (%d samples)\n",
                  1e4 * (n * xy - x * y) / d, 1e4 * (n * xf - x * f) / d, n }' "$scratch/samples.txt"
