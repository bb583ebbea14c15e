#!/usr/bin/env bash
# The screenshots of `arena serve` in docs/SERVE.md, taken of real runs: configs/quick.toml played into a scratch
# folder and an SPRT (greedy against alphabeta) beside it, `arena serve` over both, and headless Chromium opened
# at the pages by tests/browser/serve_page.js (the driver of the browser test), which saves a PNG once the page
# shows what it waits for. Needs the bundled bots built, Debian's chromium, Node 20 and playwright-core
# (npm ci --prefix tests/browser).
#   tools/serve-screenshots.sh [BUILD_DIR (build)] [OUT_DIR (docs)]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
out="$(cd "${2:-$root/docs}" && pwd)"
scratch="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$scratch"
}
trap cleanup EXIT
mkdir -p "$scratch/results"

# configs/quick.toml, its results in the scratch folder, with 8 pairs instead of 4 so that games are still in
# flight for every screenshot.
sed -e "s|^pairs = 4 |pairs = 8 |" -e "s|^seed = 1|seed = 1\noutput = \"$scratch/results\"\nprogress_interval = 0|" \
    -e "s|^file = \"draw-book.txt\" *|file = \"$root/configs/draw-book.txt\"|" \
    "$root/configs/quick.toml" > "$scratch/quick.toml"
cat > "$scratch/sprt.toml" <<EOF
[tournament]
name = "greedy-vs-alphabeta"
concurrency = 1
output = "$scratch/results"
progress_interval = 0
[time]
tc = "1+0.01"
[openings]
file = "$root/configs/ladder-book.txt"
[sprt]
elo0 = 0
elo1 = 50
[[engine]]
name = "greedy"
cmd = "kalah-greedy"
[[engine]]
name = "alphabeta"
cmd = "kalah-alphabeta"
EOF

cd "$scratch"
"$build/arena" serve results --listen 127.0.0.1:0 > serve.out 2> serve.err &
pids+=($!)
for _ in $(seq 100); do grep -q listening serve.out && break; sleep 0.1; done
url="$(sed -n 's/.*listening on \(http:[^ ]*\)/\1/p' serve.out)"
[ -n "$url" ] || { echo "arena serve did not start: $(cat serve.err)" >&2; exit 1; }
"$build/arena" run quick.toml > quick.out 2>&1 &
pids+=($!)
"$build/arena" run sprt.toml > sprt.out 2>&1 &
pids+=($!)
sleep 15  # some games played and some in flight; the SPRT some pairs in

shot() {  # URL CHECK WIDTH FILE
  if node "$root/tests/browser/serve_page.js" /usr/bin/chromium "$scratch/profile-$4" "$1" "$2" \
    "$3" "$out/$4" > "$scratch/page.out"; then
    echo "wrote $out/$4"
  else
    echo "$4: the page did not show what it waits for: $(cat "$scratch/page.out")" >&2
    exit 1
  fi
}
shot "${url}#quick" flight 1280 serve-tournament.png
shot "${url}#quick" flight 360 serve-phone.png
shot "${url}#greedy-vs-alphabeta" sprt 1280 serve-sprt.png
id="$(head -n 1 results/quick/games.jsonl | sed 's/.*"id":"\([^"]*\)".*/\1/')"
shot "${url}tournaments/quick/games/${id}#game-${id}" viewer 1280 serve-viewer.png
