#!/usr/bin/env bash
# Checks that every tracked *.cpp and *.h file is laid out as .clang-format says, or fixes them.
#
#   tools/check-format.sh            list the files clang-format would change; exit 1 if there are any
#   tools/check-format.sh --fix      rewrite those files in place
#   tools/check-format.sh [--fix] FILE...   only these files
#
# Exit codes: 0 all formatted (or fixed), 1 some files are not formatted, 2 cannot check (no
# clang-format, not a git checkout, bad arguments). $CLANG_FORMAT picks another binary.
# The layout was tuned for clang-format 14 (Debian 12: apt-get install clang-format); other major
# versions break some lines differently, so CI and the people fixing files should use 14.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,11s/^# \{0,1\}//p' "$0"; }

fix=false
files=()
for arg in "$@"; do
  case "$arg" in
    --fix) fix=true ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "check-format: unknown option '$arg'" >&2; usage >&2; exit 2 ;;
    *) files+=("$arg") ;;
  esac
done

clang_format="${CLANG_FORMAT:-clang-format}"
if ! command -v "$clang_format" >/dev/null 2>&1; then
  echo "check-format: '$clang_format' not found; install it (Debian 12: sudo apt-get install clang-format)" \
       "or point \$CLANG_FORMAT at a clang-format 14 binary" >&2
  exit 2
fi
version="$("$clang_format" --version)"
major="$(sed -n 's/.*clang-format version \([0-9]*\).*/\1/p' <<<"$version")"
if [ "$major" != 14 ]; then
  echo "check-format: warning: $version; .clang-format was tuned for version 14, results may differ" >&2
fi

if [ ${#files[@]} -eq 0 ]; then
  if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "check-format: not a git checkout; name the files to check" >&2
    exit 2
  fi
  while IFS= read -r -d '' f; do files+=("$f"); done < <(git ls-files -z -- '*.cpp' '*.h')
fi

for f in "${files[@]}"; do
  if [ ! -f "$f" ]; then
    echo "check-format: no such file: $f" >&2
    exit 2
  fi
done
# --style=file reads the .clang-format nearest each file; --dry-run --Werror names every file whose layout
# differs ("FILE:LINE:COL: error: code should be clang-formatted"). Batches run on every CPU at once.
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
status=0
printf '%s\0' "${files[@]}" |
  xargs -0 -n 24 -P "$(nproc)" "$clang_format" --style=file --dry-run --Werror 2>"$report" || status=$?
# xargs says 123 when some clang-format found a difference; anything else is a failure to check.
if [ "$status" -ne 0 ] && [ "$status" -ne 123 ]; then
  cat "$report" >&2
  echo "check-format: $clang_format failed (xargs exit $status)" >&2
  exit 2
fi
unformatted=()
while IFS= read -r f; do unformatted+=("$f"); done < <(
  sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' "$report" | sort -u)
if [ "$status" -eq 123 ] && [ ${#unformatted[@]} -eq 0 ]; then
  cat "$report" >&2
  echo "check-format: $clang_format failed" >&2
  exit 2
fi
if $fix && [ ${#unformatted[@]} -gt 0 ]; then "$clang_format" --style=file -i "${unformatted[@]}"; fi

if [ ${#unformatted[@]} -eq 0 ]; then
  echo "check-format: all ${#files[@]} checked files are formatted"
  exit 0
fi
printf '%s\n' "${unformatted[@]}"
if $fix; then
  echo "check-format: reformatted ${#unformatted[@]} of ${#files[@]} files"
  exit 0
fi
echo "check-format: ${#unformatted[@]} of ${#files[@]} files are not formatted;" \
     "see the changes with 'clang-format FILE | diff FILE -', fix them with tools/check-format.sh --fix" >&2
exit 1
