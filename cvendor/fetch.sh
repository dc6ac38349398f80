#!/usr/bin/env bash
# Unpacks the pinned VkFFT headers into cvendor/include (ignored by git).
# The .deb comes from Debian trixie through a private apt setup and is checked against
# the SHA-256 pinned in cvendor/VERSION (and internal/engine/vkfft_pin.go) before use.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/VERSION"
out="$here/include"
stamp="$out/.sha256"
# the stamp names the .deb and every patch, so a new patch re-unpacks
want="$VKFFT_DEB_SHA256 ${VKFFT_PATCHES:-}"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f "$out/vkFFT.h" ]; then
  exit 0
fi
cache=${VKFFTGO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vkfftgo}/debs
"$here/../scripts/apt-trixie.sh" "$cache" "$VKFFT_DEB=$VKFFT_DEB_VERSION"
deb="$cache/$VKFFT_DEB_FILE"
got=$(sha256sum "$deb" | cut -d' ' -f1)
if [ "$got" != "$VKFFT_DEB_SHA256" ]; then
  echo "cvendor: checksum mismatch for $VKFFT_DEB_FILE: got $got, want $VKFFT_DEB_SHA256" >&2
  rm -f "$deb"
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp"
# small fixes to VkFFT's code generator, verified before use (cvendor/patches/README.md)
for p in ${VKFFT_PATCHES:-}; do
  f="$here/patches/${p%%:*}"
  got=$(sha256sum "$f" | cut -d' ' -f1)
  if [ "$got" != "${p#*:}" ]; then
    echo "cvendor: checksum mismatch for $f: got $got, want ${p#*:}" >&2
    exit 1
  fi
  if command -v patch >/dev/null 2>&1; then
    patch -s -p1 -d "$tmp/usr/include" <"$f"
  else
    git apply -p1 --directory="$tmp/usr/include" --unsafe-paths "$f"
  fi
done
rm -rf "$out"
mkdir -p "$out"
cp -r "$tmp/usr/include/." "$out/"
echo "$want" >"$stamp"
echo "cvendor: VkFFT $VKFFT_DEB_VERSION headers in $out${VKFFT_PATCHES:+ (patched)}"
