#!/bin/sh
# Makes a small git repository to try `arena sprt --repo` on (README, "Testing a change from git"):
#   sh configs/git-demo/make-repo.sh DIR
# Tag v1 is an engine that moves at random, v2 one that searches: the bundled bots. Its build,
# `sh make.sh BOTS_DIR` (build/bots, absolute), writes ./engine, the program that `--run ./engine` starts.
# The dates are fixed, so the commits have the same hashes on every machine.
set -eu
repo=$1
mkdir -p "$repo"
cd "$repo"
export GIT_AUTHOR_NAME=demo GIT_AUTHOR_EMAIL=demo@example.org GIT_COMMITTER_NAME=demo GIT_COMMITTER_EMAIL=demo@example.org
export GIT_AUTHOR_DATE="2025-01-01T12:00:00Z" GIT_COMMITTER_DATE="2025-01-01T12:00:00Z"
git init -q -b main
cat > make.sh <<'MAKE'
echo "making the $(cat bot.txt) engine"
printf '#!/bin/sh\nexec %s/kalah-%s "$@"\n' "$1" "$(cat bot.txt)" > engine
chmod +x engine
MAKE
echo random > bot.txt
git add make.sh bot.txt
git commit -q -m "a random mover"
git tag v1
echo alphabeta > bot.txt
git commit -q -am "a search"
git tag v2
