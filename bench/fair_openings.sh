#!/usr/bin/env bash
# Fair openings measured (docs/PERFORMANCE.md, "Fair openings"): the bundled alpha-beta bot against itself,
# colour-swapped game pairs on Kalah(6,4) with the standard capture, with each kind of opening in turn:
#   draw    configs/draw-book.txt, 10-ply openings each certified an exact draw by kalah-solver
#   ladder  configs/ladder-book.txt, 10-ply openings within 2 seeds (today's balanced book)
#   random  a random 10-ply opening per game pair ([openings] random_plies = 10)
#   random2 a random 2-ply opening per game pair (only when named)
# The two copies search to depth DEPTH and DEPTH+1: a bot at a fixed depth is deterministic, so two identical
# copies would play the same game with both colours and split every pair 1-1 by construction. For each kind:
# the first-mover advantage (South's share of the points; South moves first from the start), the share of game
# pairs split 1-1 (each copy scores one point: the same colour won both games, or both were drawn), and the
# distinct openings and games (a repeated opening repeats its games). A measurement, not a test; from the
# repository root:
#   bench/fair_openings.sh [GAMES] [DEPTH] [KIND...]      (default 2000 games a kind, depth 6 against 7, the
#                                                          first three kinds; BUILD_DIR: default build)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build="${BUILD_DIR:-build}"
[[ $build = /* ]] || build="$root/$build"
games="${1:-2000}"
depth="${2:-6}"
shift $(($# < 2 ? $# : 2))
books=("$@")
[ ${#books[@]} -gt 0 ] || books=(draw ladder random)
[ $((games % 2)) -eq 0 ] || {
  echo "GAMES must be even (colour-swapped pairs)" >&2
  exit 2
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

openings_of() {
  case "$1" in
    draw) echo "file = \"$root/configs/draw-book.txt\"" ;;
    ladder) echo "file = \"$root/configs/ladder-book.txt\"" ;;
    random) echo "random_plies = 10" ;;
    random2) echo "random_plies = 2" ;;
    *)
      echo "unknown book '$1' (draw, ladder, random, random2)" >&2
      exit 2
      ;;
  esac
}

# One tournament: two copies of the bot, games/2 colour-swapped pairs, each pair on a new opening line.
play() {
  local name=$1
  cat >"$work/$name.toml" <<EOF
[tournament]
name = "$name"
pairs = $((games / 2))
concurrency = 2
seed = 1

[variant]
pits = 6
seeds = 4
capture = "standard"

[time]
depth = 100            # each copy searches to its own depth below

[openings]
$(openings_of "$name")

[[engine]]
name = "alphabeta-$depth"
cmd = "$build/bots/kalah-alphabeta"
args = ["--depth", "$depth"]

[[engine]]
name = "alphabeta-$((depth + 1))"
cmd = "$build/bots/kalah-alphabeta"
args = ["--depth", "$((depth + 1))"]
EOF
  local t0=$SECONDS
  "$build/arena" run "$work/$name.toml" --out "$work/results" >"$work/$name.log" 2>&1 || {
    cat "$work/$name.log" >&2
    exit 1
  }
  summarise "$name" "$work/results/$name/games.jsonl" $((SECONDS - t0))
}

summarise() {
  python3 - "$@" <<'EOF'
import json, re, sys
from collections import defaultdict
name, path, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3])
games = [json.loads(line) for line in open(path) if line.strip()]
south = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
pairs = defaultdict(list)
for g in games:  # "r3-0v1-p2-g0" and "r3-1v0-p2-g1": one pair, colours swapped
    r, a, b, p = re.fullmatch(r"r(\d+)-(\d+)v(\d+)-p(\d+)-g\d+", g["id"]).groups()
    pairs[(r, min(a, b), max(a, b), p)].append(g)
split = same_colour = both_drawn = 0
for pair in pairs.values():
    assert len(pair) == 2, pair[0]["id"]
    first = pair[0]["south"]
    a = sum(south[g["result"]] if g["south"] == first else 1 - south[g["result"]] for g in pair)
    if a == 1.0:
        split += 1
        if all(g["result"] == "1/2-1/2" for g in pair):
            both_drawn += 1
        else:
            same_colour += 1
n = len(games)
wins = sum(g["result"] == "1-0" for g in games)
draws = sum(g["result"] == "1/2-1/2" for g in games)
share = sum(south[g["result"]] for g in games) / n
distinct = len({json.dumps(g["moves"]) for g in games})
openings = len({json.dumps(g["opening"]) for g in games})
forfeits = sum(g["forfeit"] is not None for g in games)
points = defaultdict(float)
for g in games:
    points[g["south"]] += south[g["result"]]
    points[g["north"]] += 1 - south[g["result"]]
scores = ", ".join(f"{e} {p / n:.3f}" for e, p in sorted(points.items()))
print(f"{name:7s} games {n}, pairs {len(pairs)}; South (first mover) {wins}-{draws}-{n - wins - draws} "
      f"(W-D-L), score share {share:.3f}; pairs split 1-1: {split} ({split / len(pairs):.1%}: "
      f"{same_colour} won by the same colour twice, {both_drawn} drawn twice); distinct openings {openings}, "
      f"distinct games {distinct}; score shares {scores}; forfeits {forfeits}; {seconds} s")
EOF
}

echo "fair openings: kalah-alphabeta at depth $depth against depth $((depth + 1)), $games games a kind, Kalah(6,4) standard capture"
echo "load before: $(uptime)"
for book in "${books[@]}"; do
  openings_of "$book" >/dev/null
  play "$book"
done
echo "load after: $(uptime)"
