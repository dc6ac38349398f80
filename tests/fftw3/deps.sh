#!/usr/bin/env bash
# tests/fftw3/deps.sh INCLUDE_DIR — the C files of fftw3/ call each other without a
# circle: each file is compiled alone, every vfw_ symbol it uses but does not define
# names the file that defines it, and tsort must order those edges (it reports a loop
# otherwise). Prints the files from the bottom layer up.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
inc=${1:?usage: deps.sh INCLUDE_DIR (with vkfftgo.h and vkfftgo_config.h)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$root"/fftw3/*.c; do
  cc -std=gnu11 -fPIC -fvisibility=hidden -I"$inc" -c "$f" -o "$tmp/$(basename "${f%.c}").o"
done
: >"$tmp/defs"
for o in "$tmp"/*.o; do
  nm --defined-only "$o" | awk -v f="$(basename "${o%.o}")" '$3 ~ /^vfw_/ && $2 ~ /[TDBR]/ {print $3, f}' >>"$tmp/defs"
done
: >"$tmp/edges"
for o in "$tmp"/*.o; do
  f=$(basename "${o%.o}")
  echo "$f $f" >>"$tmp/edges" # every file appears, also one that calls no other
  nm --undefined-only "$o" | awk '$2 ~ /^vfw_/ {print $2}' | while read -r sym; do
    def=$(awk -v s="$sym" '$1 == s {print $2}' "$tmp/defs" | sort -u)
    [ -n "$def" ] || { echo "deps: $f uses $sym, which no file of fftw3/ defines" >&2; exit 1; }
    for d in $def; do [ "$d" = "$f" ] || echo "$d $f"; done
  done >>"$tmp/edges"
done
sort -u "$tmp/edges" -o "$tmp/edges"
if ! order=$(tsort "$tmp/edges" 2>"$tmp/loop"); then
  echo "deps: the C files of fftw3/ call each other in a circle:" >&2
  cat "$tmp/loop" >&2
  awk '$1 != $2 {print "   " $2 " -> " $1}' "$tmp/edges" >&2
  exit 1
fi
grep -q loop "$tmp/loop" && { cat "$tmp/loop" >&2; exit 1; }
echo "   $(awk '$1 != $2' "$tmp/edges" | wc -l) calls between $(ls "$root"/fftw3/*.c | wc -l) files, no circle; from the bottom: $(echo $order)"
