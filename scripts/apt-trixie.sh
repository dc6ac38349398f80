#!/usr/bin/env bash
# Downloads .deb files from Debian trixie without touching the machine's own apt setup:
# a private source list, state and cache under $VKFFTGO_APT_DIR (default ~/.cache/vkfftgo/apt).
# Usage: scripts/apt-trixie.sh DEST_DIR PACKAGE...
set -euo pipefail
dest=$1; shift
root=${VKFFTGO_APT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vkfftgo/apt}
mkdir -p "$root/lists/partial" "$root/archives/partial" "$dest"
uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null \
      | grep -oE 'https?://[^ ]*/debian/?( |$)' | head -n1 | tr -d ' ' || true)
uri=${uri:-http://deb.debian.org/debian}
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri trixie main contrib non-free" >"$root/sources.list"
o=(-o "Dir::Etc::SourceList=$root/sources.list" -o Dir::Etc::SourceParts=/dev/null
   -o "Dir::State::Lists=$root/lists" -o "Dir::Cache::Archives=$root/archives"
   -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
   -o APT::Architecture=amd64 -o APT::Sandbox::User=root)
# Refresh the lists at most once a day.
if [ -z "$(find "$root/lists" -name '*trixie*Packages*' -mtime -1 2>/dev/null | head -n1)" ]; then
  apt-get "${o[@]}" -qq update
fi
cd "$dest"
for p in "$@"; do
  ls "${p%%=*}"_*.deb >/dev/null 2>&1 || apt-get "${o[@]}" -qq download "$p"
done
