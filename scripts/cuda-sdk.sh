#!/usr/bin/env bash
# Unpacks CUDA headers, link stubs and the static runtime from Debian trixie's non-free
# nvidia-cuda-dev 12.4 into a cache folder, for building the cuda backend on a machine
# without a CUDA toolkit (CI). Also fetches the libnvrtc .debs the GPU bundle carries.
# Prints nothing on success when the folder is already complete.
#   scripts/cuda-sdk.sh [DIR]   (default: $VKFFTGO_CACHE/cuda-12.4, VKFFTGO_CACHE=~/.cache/vkfftgo)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${VKFFTGO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vkfftgo}
out=${1:-$cache/cuda-12.4}
debs=$cache/debs
ver=12.4.127~12.4.1-2
# name sha256, pinned: a changed file is rejected, never used
pins=(
  "nvidia-cuda-dev d846838f914a0176948d48a8bcade5d6dbcccb5c9374343f6475f5503f173ee0"
  "libnvrtc12 db76acbd9ad53eae57291114b615ed21551592dee0b1160990a33066d86c251c"
  "libnvrtc-builtins12.4 c4f9ea43c3e176a9f46b50718d546adb0dc7344432cd7d8b1483692e0416d24c"
)
stamp=$out/.complete
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$ver" ]; then exit 0; fi
want=()
for p in "${pins[@]}"; do want+=("${p%% *}=$ver"); done
"$here/apt-trixie.sh" "$debs" "${want[@]}"
for p in "${pins[@]}"; do
  name=${p%% *} sum=${p##* }
  f=$(ls "$debs/${name}"_12.4*_amd64.deb)
  got=$(sha256sum "$f" | cut -d' ' -f1)
  if [ "$got" != "$sum" ]; then
    echo "cuda-sdk: checksum mismatch for $f: got $got, want $sum" >&2
    rm -f "$f"; exit 1
  fi
done
rm -rf "$out.tmp"; mkdir -p "$out.tmp"
dpkg-deb --fsys-tarfile "$(ls "$debs"/nvidia-cuda-dev_12.4*_amd64.deb)" | tar -x -C "$out.tmp" \
  ./usr/include ./usr/lib/x86_64-linux-gnu/stubs ./usr/lib/x86_64-linux-gnu/libcudart_static.a
mkdir -p "$out.tmp/lib"
mv "$out.tmp/usr/include" "$out.tmp/include"
mv "$out.tmp/usr/lib/x86_64-linux-gnu/stubs" "$out.tmp/lib/stubs"
mv "$out.tmp/usr/lib/x86_64-linux-gnu/libcudart_static.a" "$out.tmp/lib/"
rm -rf "$out.tmp/usr"
echo "$ver" >"$out.tmp/.complete"
rm -rf "$out"; mv "$out.tmp" "$out"
echo "cuda-sdk: CUDA $ver headers and stubs in $out"
