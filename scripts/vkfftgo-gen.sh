#!/usr/bin/env bash
# vkfftgo-gen.sh BACKEND PREFIX [LIBRARY]
# Maps a backend name to VkFFT's VKFFT_BACKEND number — read from the backend's own table
# (internal/backend/NAME/backend.c, ".id = N"), so a new backend needs no edit here — and
# writes it into every consumer-facing file: PREFIX/include/vkfftgo_config.h,
# PREFIX/lib/pkgconfig/vkfftgo.pc and PREFIX/lib/cmake/VkFFTGo/VkFFTGo{Config,ConfigVersion}.cmake.
# With LIBRARY, it first checks that the built library really is of that backend (it
# exports vkfftgo_library_backend_is_BACKEND). Used by mk/capi.mk and CMakeLists.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
backend=${1:?usage: vkfftgo-gen.sh BACKEND PREFIX [LIBRARY]}
prefix=${2:?usage: vkfftgo-gen.sh BACKEND PREFIX [LIBRARY]}
lib=${3:-}
table="$root/internal/backend/$backend/backend.c"
num=$(sed -n 's/^[[:space:]]*\.id = \([0-9]*\),$/\1/p' "$table" 2>/dev/null || true)
if [ -z "$num" ]; then
  known=$(cd "$root/internal/backend" && ls -d */ | tr -d / | tr '\n' ' ')
  echo "vkfftgo-gen: unknown backend '$backend' (${known% })" >&2
  exit 2
fi
ver() { sed -n "s/^#define VKFFTGO_LIB_VERSION_$1 \([0-9]*\)$/\1/p" "$root/capi/version.h"; }
major=$(ver MAJOR) minor=$(ver MINOR) patch=$(ver PATCH)
version="$major.$minor.$patch"
if [ -n "$lib" ]; then
  syms=$(nm -D --defined-only "$lib")
  if ! grep -q " vkfftgo_library_backend_is_$backend\$" <<<"$syms"; then
    echo "vkfftgo-gen: $lib is not a $backend build: it defines $(grep -o 'vkfftgo_library_backend_is_[a-z]*' <<<"$syms" || echo 'no backend symbol')" >&2
    exit 1
  fi
fi
subst() {
  mkdir -p "$(dirname "$2")"
  sed -e "s/@BACKEND@/$backend/g" -e "s/@BACKEND_UPPER@/${backend^^}/g" \
      -e "s/@VKFFT_BACKEND@/$num/g" -e "s/@VERSION@/$version/g" \
      -e "s/@MAJOR@/$major/g" -e "s/@MINOR@/$minor/g" -e "s/@PATCH@/$patch/g" "$1" >"$2.tmp"
  mv "$2.tmp" "$2"
}
subst "$root/include/vkfftgo_config.h.in" "$prefix/include/vkfftgo_config.h"
subst "$root/pkgconfig/vkfftgo.pc.in" "$prefix/lib/pkgconfig/vkfftgo.pc"
subst "$root/cmake/VkFFTGoConfig.cmake.in" "$prefix/lib/cmake/VkFFTGo/VkFFTGoConfig.cmake"
subst "$root/cmake/VkFFTGoConfigVersion.cmake.in" "$prefix/lib/cmake/VkFFTGo/VkFFTGoConfigVersion.cmake"
