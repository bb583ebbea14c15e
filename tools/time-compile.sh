#!/usr/bin/env bash
# Compiler and linker launcher that logs what each step cost, for docs/PERFORMANCE.md ("Build and CI
# time"). CMake runs it as `time-compile.sh LOG compiler args...` when configured with
# -DKALAH_TIME_BUILD=ON; LOG gets one tab-separated line per step:
#   wall-seconds  user-seconds  sys-seconds  output-file
# tools/build-times.py LOG sums the lines per target and lists the slowest files.
log=$1
shift
out=?
prev=
for arg in "$@"; do
  [ "$prev" = -o ] && out=$arg
  prev=$arg
done
TIMEFORMAT=$'%3R\t%3U\t%3S'
# The compiler's stdout and stderr pass through (fds 3 and 4); only `time`'s report is captured.
exec 3>&1 4>&2
cost=$({ time "$@" 1>&3 2>&4; } 2>&1)
status=$?
[[ "$out" = /* ]] || out="$PWD/$out"
printf '%s\t%s\n' "$cost" "$out" >>"$log"
exit $status
