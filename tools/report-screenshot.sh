#!/usr/bin/env bash
# Regenerates docs/report.png, the README's picture of report.html: plays configs/quick.toml into a
# scratch folder with the built arena, then takes a 1280-pixel-wide screenshot with headless chromium
# (apt-get install chromium). Run from anywhere after ./setup.sh:  tools/report-screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
./build/arena run configs/quick.toml --out "$scratch" >/dev/null
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$scratch/profile" \
  --screenshot=docs/report.png --window-size=1280,1700 "file://$scratch/quick/report.html" 2>/dev/null
echo "wrote docs/report.png"
