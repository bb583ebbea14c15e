#!/usr/bin/env bash
# The sandbox soak (docs/SECURITY.md, "No leftovers"): KALAH_SOAK_STARTS sandboxed engine starts in a row
# (default 10 000; CI runs the same test with 1000), as root, every engine restarted for every game with
# max_processes set. Prints games, starts, seconds, ms a start, forfeits, and the sandbox-uid zombies and
# live processes before and after; exits non-zero if any of them is off.
#
#   bench/sandbox_soak.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
KALAH_SOAK_STARTS="${KALAH_SOAK_STARTS:-10000}" "$build/tests/sandbox_soak_test" --gtest_brief=1
