#!/usr/bin/env bash
# Rewrites the golden files in tests/golden/ from the code as it is now, then lists what changed.
# Run it after a deliberate change to a --help text or a report, and review the diff with the change:
#
#   tools/update-golden.sh
#
# It builds golden_test (and the arena and referee executables it runs) in ./build, or $BUILD_DIR,
# which must have been configured already (./setup.sh does that), and runs it with
# KALAH_UPDATE_GOLDEN=1: each test then writes its file instead of comparing with it.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir="${BUILD_DIR:-build}"
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  echo "update-golden: $build_dir is not a configured build directory; run ./setup.sh first" >&2
  exit 2
fi
cmake --build "$build_dir" -j"$(nproc)" --target golden_test
KALAH_UPDATE_GOLDEN=1 "$build_dir/tests/golden_test" --gtest_brief=1

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  changes="$(git status --short --untracked-files=all -- tests/golden)"
  if [ -z "$changes" ]; then
    echo "update-golden: no golden file changed"
  else
    echo "update-golden: changed golden files (review them with git diff tests/golden):"
    echo "$changes"
  fi
fi
