#!/usr/bin/env bash
# The whole `kalah-solver solve` command, default flags, side by side with a baseline binary in one
# farm-bench call (A B A B ...; docs/PERFORMANCE.md, "Solver"): wall, CPU and peak memory of each, and
# the ratio pair by pair, so that a machine busy with other work slows both alike. The endgame databases
# must be in the cache already (the first build is not what is measured): the script runs each command
# once with --db-only first. Prints the machine's load before and after each call, checks that both
# binaries print the same value, and prints each one's node count and database. A measurement, not a
# test. From the repository root:
#   [NEW=binary] bench/solver_compare.sh OLD_BINARY [RUNS] [VARIANT]...   (NEW: default build/bots/kalah-solver)
# e.g. bench/solver_compare.sh /tmp/kalah-solver-main 5 "pits=6 seeds=4 capture=empty" "pits=6 seeds=4"
set -euo pipefail
cd "$(dirname "$0")/.."
new="${NEW:-${BUILD_DIR:-build}/bots/kalah-solver}"
old="${1:?usage: bench/solver_compare.sh OLD_BINARY [RUNS] [VARIANT]...}"
runs="${2:-5}"
shift $(($# < 2 ? $# : 2))
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=("pits=6 seeds=4 capture=empty" "pits=6 seeds=4 capture=standard")
command -v farm-bench >/dev/null || {
  echo "farm-bench not found" >&2
  exit 2
}

for variant in "${variants[@]}"; do
  "$new" solve --variant "$variant" --db-only >/dev/null
  new_out=$("$new" solve --variant "$variant")
  old_out=$("$old" solve --variant "$variant")
  new_value=$(sed -n 1p <<<"$new_out")
  old_value=$(sed -n 1p <<<"$old_out")
  echo "== $variant: value new $new_value, old $old_value"
  # The node counts (exact at one thread) and the database each used: a change of nodes is a change of
  # the search, whatever the load does to the times.
  echo "new $(grep '^search:' <<<"$new_out")"
  echo "new $(grep '^database:' <<<"$new_out")"
  echo "old $(grep '^search:' <<<"$old_out")"
  echo "old $(grep '^database:' <<<"$old_out")"
  if [ "$new_value" != "$old_value" ]; then
    echo "the values differ" >&2
    exit 1
  fi
  echo "load before: $(uptime)"
  farm-bench -n "$runs" --warmup 1 --timeout 3000 --vs "$old solve --variant '$variant'" -- \
    "$new" solve --variant "$variant"
  echo "load after: $(uptime)"
done
