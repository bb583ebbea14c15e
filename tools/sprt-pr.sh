#!/usr/bin/env bash
# Runs an SPRT between two commits of a repository and turns its decision into a check's result:
#
#   tools/sprt-pr.sh BASE_REF TEST_REF --build CMD --run CMD [more `arena sprt` options]
#
# The pull request's base is BASE_REF, its head TEST_REF. The Markdown summary goes to $SPRT_SUMMARY
# (default sprt-summary.md; also appended to $GITHUB_STEP_SUMMARY when GitHub Actions sets it): arena's, or,
# when the SPRT could not run (a failed build), one that says so with the refs, the time control and the
# end of arena's output, without this machine's folders.
# Exit code: 0 when H1 is accepted (the change is stronger); 1 when H0 is accepted (the check fails);
# undecided (max_pairs reached, arena's exit code 3) passes with a warning, or fails with
# SPRT_UNDECIDED=fail; 2 or anything else: the SPRT could not run (a failed build, a bad option).
#
# Environment: ARENA, the arena executable (default: build/arena of the arena's checkout this script is in,
# or the arena installed beside it, else `arena` on PATH); SPRT_REPO, the repository (default: the current folder, an engine's checkout: the
# script runs from the arena's own checkout, docs/ci/sprt-pr.yml); SPRT_NAME, the results' name (default
# pr-sprt, under results/). docs/SPRT.md, "On a pull request", has the workflow that calls this script.
# The options are arena sprt's, passed on as given: for a pull request from a stranger add --build-sandbox
# bwrap (the builds and both engines sandboxed: the test engine is the pull request's code) and a --worktrees
# folder other users can read, as docs/ci/sprt-pr.yml does.
set -uo pipefail

if [ $# -lt 2 ] || [ "${1#-}" != "$1" ] || [ "${2#-}" != "$2" ]; then
  echo "usage: $0 BASE_REF TEST_REF --build CMD --run CMD [arena sprt options...]" >&2
  exit 2
fi
base_ref=$1
test_ref=$2
shift 2

here=$(cd "$(dirname "$0")/.." && pwd)
arena=${ARENA:-}
if [ -z "$arena" ]; then
  if [ -x "$here/build/arena" ]; then
    arena="$here/build/arena"
  elif [ -x "$here/../../bin/arena" ]; then  # installed: PREFIX/share/kalah-arena/ci/sprt-pr.sh
    arena="$here/../../bin/arena"
  else
    arena=arena
  fi
fi
summary=${SPRT_SUMMARY:-sprt-summary.md}

# The time control as given, for a summary of a run that never started.
time_control="10+0.1 (arena sprt's default)"
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --tc | --movetime | --depth | --nodes) time_control="${args[i]#--} ${args[i + 1]:-}" ;;
    --tc=* | --movetime=* | --depth=* | --nodes=*) time_control="${args[i]#--}"; time_control=${time_control/=/ } ;;
    *) continue ;;
  esac
  case "$time_control" in
    "tc "*) time_control=${time_control#tc } ;;  # as the arena writes a Fischer clock: 10+0.1
  esac
done

# What arena says goes to the terminal and, for a run that fails, into the summary.
rm -f "$summary"
output=$(mktemp)
trap 'rm -f "$output"' EXIT
"$arena" sprt --repo "${SPRT_REPO:-.}" --base-ref "$base_ref" --test-ref "$test_ref" \
  --name "${SPRT_NAME:-pr-sprt}" --fresh --summary "$summary" "$@" 2>&1 | tee "$output"
code=${PIPESTATUS[0]}

# A run that stopped before its end (a failed build, a ref that names nothing, no arena) writes no summary:
# the pull request still gets one, with the refs, the time control and the end of what arena said, this
# machine's folders left out (the summary is published).
if [ ! -f "$summary" ]; then
  said=$(tail -n 15 "$output")
  for local_dir in "$PWD" "${SPRT_REPO:-}" "${HOME:-}"; do
    [ -n "$local_dir" ] && [ "$local_dir" != / ] && said=${said//"$local_dir"/…}
  done
  fence='```'
  quotes="'''"
  said=${said//"$fence"/$quotes}  # the output cannot end the block it is shown in
  {
    echo "**The SPRT could not run** (arena's exit code $code): \`$test_ref\` (test) against \`$base_ref\` (base)"
    echo
    echo "- Time control: $time_control"
    echo
    echo "The end of what arena said:"
    echo
    echo "${fence}text"
    echo "$said"
    echo "$fence"
  } > "$summary"
fi

if [ -f "$summary" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$summary" >> "$GITHUB_STEP_SUMMARY"; fi
case $code in
  0) echo "sprt-pr: H1 accepted: $test_ref is stronger than $base_ref; the check passes" ;;
  1) echo "sprt-pr: H0 accepted: $test_ref is not shown to be stronger than $base_ref; the check fails"
     exit 1 ;;
  3) if [ "${SPRT_UNDECIDED:-pass}" = fail ]; then
       echo "sprt-pr: undecided within the pairs allowed; the check fails (SPRT_UNDECIDED=fail)"
       exit 1
     fi
     echo "sprt-pr: undecided within the pairs allowed; the check passes with this warning (SPRT_UNDECIDED=fail to fail it)"
     if [ -n "${GITHUB_ACTIONS:-}" ]; then echo "::warning::SPRT undecided: $test_ref against $base_ref"; fi ;;
  *) echo "sprt-pr: the SPRT could not run (exit code $code); see the message above" >&2
     exit "$code" ;;
esac
exit 0
