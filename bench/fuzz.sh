#!/usr/bin/env bash
# Fuzzing (docs/SECURITY.md, "Fuzzing"): builds the libFuzzer targets of tests/fuzz with clang-14
# (ASan + UBSan + coverage) into build-fuzz/, then runs each for SECONDS (default 1800) or 10 million
# executions, whichever comes first, starting from tests/fuzz/corpus/<target>/ (new inputs go to
# build-fuzz/corpus/, the repository's corpus is not changed). Prints executions, executions/s and
# the verdict per target; exits 1 on any crash, leak or UBSan report (the reproducer is in
# build-fuzz/artifacts/). CI runs it with 10 seconds per target. Runs of at most 5 minutes per target (CI's)
# all start at once and share the cores: each runs SECONDS x targets / $(nproc) of wall time, so it still gets
# about SECONDS of one core, and no core waits for the last fuzzer alone (5 targets on 2 cores: 50 s, not
# 3 x 20 s). Longer runs, which measure, go one at a time, so that each has the machine to itself and its
# executions/s compare between runs.
#
#   bench/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-1800}
dir=build-fuzz
if ! command -v clang++-14 >/dev/null 2>&1 || ! command -v ninja >/dev/null 2>&1 || [ ! -f /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends clang-14 libfuzzer-14-dev ninja-build >/dev/null
fi
# A new tree without the tests; a tree configured with them (.ci/run's sanitizer build) keeps them.
tests=()
[ -f "$dir/CMakeCache.txt" ] || tests=(-G Ninja -DKALAH_BUILD_TESTS=OFF)
CC=clang-14 CXX=clang++-14 cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKALAH_FUZZ=ON \
  "${tests[@]}" -DKALAH_BUILD_BENCH=OFF >/dev/null
cmake --build "$dir" -j"$(nproc)" --target fuzz_kep fuzz_kgp fuzz_config fuzz_journal fuzz_parsers fuzz_verify fuzz_upload >/dev/null
mkdir -p "$dir/artifacts"
targets=(kep kgp config journal parsers verify upload)
jobs=1
wall=$seconds
if [ "$seconds" -le 300 ]; then
  jobs=${#targets[@]}
  wall=$(((seconds * ${#targets[@]} + $(nproc) - 1) / $(nproc)))
fi

# One target: its log, and its line of the table in $dir/fuzz_<target>.line.
fuzz_one() {
  local target=$1 log="$dir/fuzz_$1.log" verdict runs rate
  mkdir -p "$dir/corpus/$target"
  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$dir/fuzz/fuzz_$target" -max_total_time="$wall" -runs=10000000 -print_final_stats=1 -rss_limit_mb=4096 \
    -artifact_prefix="$dir/artifacts/$target-" "$dir/corpus/$target" "tests/fuzz/corpus/$target" >"$log" 2>&1; then
    verdict="ok: 0 crashes, 0 leaks, 0 UBSan reports"
  else
    verdict="FAILED (see $log and $dir/artifacts/)"
  fi
  runs=$(awk '/stat::number_of_executed_units:/ {print $2}' "$log" | tail -1)
  rate=$(awk '/stat::average_exec_per_sec:/ {print $2}' "$log" | tail -1)
  printf '%-14s %12s %10s %s\n' "fuzz_$target" "${runs:-?}" "${rate:-?}" "$verdict" >"$dir/fuzz_$target.line"
}

running=0
for target in "${targets[@]}"; do
  rm -f "$dir/fuzz_$target.line"
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  fuzz_one "$target" &
  running=$((running + 1))
done
wait || true

# The table in the targets' order; a target without its line (its run itself broke) fails too.
status=0
printf '%-14s %12s %10s %s\n' target executions exec/s verdict
for target in "${targets[@]}"; do
  line="$dir/fuzz_$target.line"
  if [ -f "$line" ]; then
    cat "$line"
  else
    printf '%-14s %12s %10s %s\n' "fuzz_$target" "?" "?" "FAILED (no result; see $dir/fuzz_$target.log)"
  fi
  if [ ! -f "$line" ] || grep -q FAILED "$line"; then
    status=1
  fi
done
exit $status
