#!/usr/bin/env bash
# Installs the Debian 12 packages Kalah Arena needs (when missing) and builds it
# into ./build (or $BUILD_DIR). Extra arguments go to the CMake configure step,
# e.g. ./setup.sh -DKALAH_SANITIZE=ON. $TARGETS (space-separated) says what to build:
# by default `apps`, the arena, the referee and the bots, which is all a tournament
# needs; `cmake --build build` then builds the rest (tests, benchmarks), as the
# README's test command does, and TARGETS=all builds everything at once.
set -euo pipefail
cd "$(dirname "$0")"

packages=(cmake make ninja-build g++ python3 bubblewrap
  libboost1.81-dev libboost-filesystem1.81-dev libboost-json1.81-dev
  libfmt-dev libtomlplusplus-dev libcli11-dev libgtest-dev libbenchmark-dev libssl-dev libarchive-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

build_dir="${BUILD_DIR:-build}"
# A new tree is a Ninja tree: Ninja builds every target asked for as one graph, and compiles a target's own
# files while the libraries it links are still being built; CMake's Makefiles build several targets one
# after another, each ending on one core (docs/PERFORMANCE.md, "Build and CI time"). A tree configured
# before keeps its generator.
generator=()
[ -f "$build_dir/CMakeCache.txt" ] || generator=(-G Ninja)
cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
targets=()
for t in ${TARGETS:-apps}; do targets+=(--target "$t"); done
cmake --build "$build_dir" -j"$(nproc)" "${targets[@]}"
