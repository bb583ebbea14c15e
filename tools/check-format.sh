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

formatted="$(mktemp)"
trap 'rm -f "$formatted"' EXIT
unformatted=()
for f in "${files[@]}"; do
  if [ ! -f "$f" ]; then
    echo "check-format: no such file: $f" >&2
    exit 2
  fi
  # --style=file reads the .clang-format nearest the file; the comparison is byte for byte.
  if ! "$clang_format" --style=file "$f" >"$formatted"; then
    echo "check-format: $clang_format failed on $f" >&2
    exit 2
  fi
  if ! cmp -s -- "$f" "$formatted"; then
    unformatted+=("$f")
    if $fix; then cat "$formatted" >"$f"; fi
  fi
done

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
