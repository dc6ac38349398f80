#!/usr/bin/env bash
# build-fftw3.sh OUT
# Builds libvkfftgo_fftw3 (the FFTW3-compatible library, fftw3/) into the library prefix
# that build-lib.sh made in OUT, against its vkfftgo.h and libvkfftgo.so:
#   OUT/lib/libvkfftgo_fftw3.so.X.Y.Z (SONAME libvkfftgo_fftw3.so.X) + .so.X and .so links,
#   OUT/lib/pkgconfig/vkfftgo-fftw3.pc, OUT/lib/cmake/VkFFTGo/VkFFTGoFFTW3.cmake
#   (VkFFTGoConfig.cmake includes it: target VkFFTGo::fftw3).
# Plain C, no FFTW headers needed: programs compile against FFTW's own fftw3.h and link
# -lvkfftgo_fftw3 instead of -lfftw3/-lfftw3f, or preload it. CC and CFLAGS pass through.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(cd "${1:?usage: build-fftw3.sh OUT}" && pwd)
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2 -g}
ver() { sed -n "s/^#define VKFFTGO_LIB_VERSION_$1 \([0-9]*\)$/\1/p" "$root/capi/version.h"; }
major=$(ver MAJOR) version="$(ver MAJOR).$(ver MINOR).$(ver PATCH)"
real="libvkfftgo_fftw3.so.$version"
[ -e "$out/lib/libvkfftgo.so" ] && [ -e "$out/include/vkfftgo_config.h" ] ||
  { echo "build-fftw3: $out has no libvkfftgo (run build-lib.sh first)" >&2; exit 1; }
obj=$(mktemp -d)
trap 'rm -rf "$obj"' EXIT
# -fvisibility=hidden plus the version script: only FFTW's names leave the library.
# $ORIGIN: libvkfftgo.so.X is found beside it, installed or preloaded from a build tree.
# -ffile-prefix-map: no build-tree path in the debug info (installs are relocatable)
cd "$root"
for f in fftw3/*.c; do
  $CC $CFLAGS -std=gnu11 -fPIC -fvisibility=hidden -Wall -Wextra -Wno-format-truncation \
    -ffile-prefix-map="$root"=vkfftgo -ffile-prefix-map="$out"=vkfftgo-prefix \
    -I"$out/include" -c "$f" -o "$obj/$(basename "${f%.c}").o" &
done
wait
for f in "$root"/fftw3/*.c; do [ -s "$obj/$(basename "${f%.c}").o" ] || { echo "build-fftw3: $f did not compile" >&2; exit 1; }; done
$CC $CFLAGS -shared -o "$out/lib/$real" "$obj"/*.o -L"$out/lib" -lvkfftgo -ldl -lpthread -lm \
  -Wl,--version-script="$root/fftw3/fftw3.map" -Wl,-soname,"libvkfftgo_fftw3.so.$major" \
  -Wl,-rpath,'$ORIGIN' -Wl,-z,defs -Wl,-z,noexecstack
ln -sfn "$real" "$out/lib/libvkfftgo_fftw3.so.$major"
ln -sfn "libvkfftgo_fftw3.so.$major" "$out/lib/libvkfftgo_fftw3.so"
subst() {
  mkdir -p "$(dirname "$2")"
  sed -e "s/@VERSION@/$version/g" -e "s/@MAJOR@/$major/g" "$1" >"$2.tmp"
  mv "$2.tmp" "$2"
}
subst "$root/pkgconfig/vkfftgo-fftw3.pc.in" "$out/lib/pkgconfig/vkfftgo-fftw3.pc"
subst "$root/cmake/VkFFTGoFFTW3.cmake.in" "$out/lib/cmake/VkFFTGo/VkFFTGoFFTW3.cmake"
echo "build-fftw3: $out/lib/$real"
