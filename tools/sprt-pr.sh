#!/usr/bin/env bash
# Runs an SPRT between two commits of a repository and turns its decision into a check's result:
#
#   tools/sprt-pr.sh BASE_REF TEST_REF --build CMD --run CMD [more `arena sprt` options]
#
# The pull request's base is BASE_REF, its head TEST_REF. The Markdown summary goes to $SPRT_SUMMARY
# (default sprt-summary.md; also appended to $GITHUB_STEP_SUMMARY when GitHub Actions sets it).
# Exit code: 0 when H1 is accepted (the change is stronger); 1 when H0 is accepted (the check fails);
# undecided (max_pairs reached, arena's exit code 3) passes with a warning, or fails with
# SPRT_UNDECIDED=fail; 2 or anything else: the SPRT could not run (a failed build, a bad option).
#
# Environment: ARENA, the arena executable (default: build/arena of this checkout, else `arena` on
# PATH); SPRT_REPO, the repository (default: the current folder); SPRT_NAME, the results' name (default
# pr-sprt, under results/). docs/SPRT.md, "On a pull request", has the workflow that calls this script.
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
  if [ -x "$here/build/arena" ]; then arena="$here/build/arena"; else arena=arena; fi
fi
summary=${SPRT_SUMMARY:-sprt-summary.md}

"$arena" sprt --repo "${SPRT_REPO:-.}" --base-ref "$base_ref" --test-ref "$test_ref" \
  --name "${SPRT_NAME:-pr-sprt}" --fresh --summary "$summary" "$@"
code=$?

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
