#!/usr/bin/env bash
# fftw-source.sh [DIR] — FFTW 3.3.10's source (for its libbench2 verifier), from Debian
# bookworm's fftw3 source package through a private apt setup (a deb-src list of its
# own; the machine's apt configuration is left untouched). The upstream tarball inside
# is checked against the SHA-256 pinned here, unpacked into DIR (default
# ~/.cache/vkfftgo/fftw-src), never into the repository. Prints the source directory.
set -euo pipefail
version=3.3.10
debversion=3.3.10-1
sha256=56c932549852cddcfafdab3820b0200c7742675be92179e59e6215b340e26467 # fftw3_3.3.10.orig.tar.gz
cache=${VKFFTGO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vkfftgo}
dir=${1:-$cache/fftw-src}
src="$dir/fftw-$version"
if [ -f "$src/.vkfftgo-verified" ]; then echo "$src"; exit 0; fi
mkdir -p "$dir"
tarball="$dir/fftw3_$version.orig.tar.gz"
if ! echo "$sha256  $tarball" | sha256sum -c --status 2>/dev/null; then
  apt="$cache/apt-src"
  mkdir -p "$apt/lists/partial" "$apt/archives/partial"
  uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null \
        | grep -oE 'https?://[^ ]*/debian/?( |$)' | head -n1 | tr -d ' ' || true)
  uri=${uri:-http://deb.debian.org/debian}
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri bookworm main" >"$apt/sources.list"
  o=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
     -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache::Archives=$apt/archives"
     -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
     -o APT::Sandbox::User=root)
  apt-get "${o[@]}" -qq update >&2
  (cd "$dir" && apt-get "${o[@]}" -qq source --download-only "fftw3=$debversion" >&2)
  echo "$sha256  $tarball" | sha256sum -c --status ||
    { echo "fftw-source: $tarball does not have the pinned SHA-256 $sha256" >&2; exit 1; }
fi
rm -rf "$src"
tar -xzf "$tarball" -C "$dir"
touch "$src/.vkfftgo-verified"
echo "$src"
