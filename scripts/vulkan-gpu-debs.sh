#!/usr/bin/env bash
# vulkan-gpu-debs.sh DEST — downloads the Vulkan loader and the glvnd libraries (Debian
# bookworm .debs, amd64) that a GPU machine without them needs to run the vulkan
# binaries: there, `dpkg -x` them into / and run ldconfig (tests/gpu/steps/vulkan.sh does).
# Without glvnd, NVIDIA's Vulkan driver fails vkCreateInstance. Uses a private apt state
# (lists under $VKFFTGO_APT_DIR), so the machine's own apt setup is left untouched.
set -euo pipefail
dest=${1:?usage: vulkan-gpu-debs.sh DEST}
pkgs=(libvulkan1 libglvnd0 libglx0 libgl1 libegl1 libopengl0 libgles2)
root=${VKFFTGO_APT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vkfftgo/apt}-amd64
mkdir -p "$root/lists/partial" "$dest"
o=(-o APT::Architecture=amd64 -o APT::Architectures=amd64 -o "Dir::State::Lists=$root/lists" -o APT::Sandbox::User=root)
missing=()
for p in "${pkgs[@]}"; do ls "$dest/${p}"_*.deb >/dev/null 2>&1 || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ -z "$(find "$root/lists" -name '*Packages*' -mtime -1 2>/dev/null | head -n1)" ]; then
  apt-get "${o[@]}" -qq update
fi
cd "$dest" && apt-get "${o[@]}" -qq download "${missing[@]}"
