#!/usr/bin/env bash
# build-mpi.sh OUT
# Builds libvkfftgo_mpi (distributed FFTs over MPI, mpi/) into the library prefix that
# build-lib.sh made in OUT, against its vkfftgo.h and libvkfftgo.so — only where MPI is
# found (pkg-config ompi-c, Debian's libopenmpi-dev: scripts/setup-mpi.sh); without it
# this says so and succeeds, building nothing. Makes:
#   OUT/lib/libvkfftgo_mpi.so.X.Y.Z (SONAME libvkfftgo_mpi.so.X) + .so.X and .so links,
#   OUT/include/vkfftgo_mpi.h, OUT/lib/pkgconfig/vkfftgo-mpi.pc,
#   OUT/lib/cmake/VkFFTGo/VkFFTGoMPI.cmake (VkFFTGoConfig.cmake includes it: VkFFTGo::mpi).
# CC and CFLAGS pass through.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(cd "${1:?usage: build-mpi.sh OUT}" && pwd)
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2 -g}
if ! mpi_cflags=$(pkg-config --cflags ompi-c 2>/dev/null) || ! mpi_libs=$(pkg-config --libs ompi-c 2>/dev/null); then
  echo "build-mpi: no MPI (pkg-config ompi-c): libvkfftgo_mpi not built (make setup MPI=1 installs Open MPI)"
  exit 0
fi
ver() { sed -n "s/^#define VKFFTGO_LIB_VERSION_$1 \([0-9]*\)$/\1/p" "$root/capi/version.h"; }
major=$(ver MAJOR) version="$(ver MAJOR).$(ver MINOR).$(ver PATCH)"
real="libvkfftgo_mpi.so.$version"
find "$out/lib" -maxdepth 1 -name 'libvkfftgo_mpi.so.*.*.*' ! -name "$real" -delete 2>/dev/null || true
[ -e "$out/lib/libvkfftgo.so" ] && [ -e "$out/include/vkfftgo_config.h" ] ||
  { echo "build-mpi: $out has no libvkfftgo (run build-lib.sh first)" >&2; exit 1; }
cp "$root/include/vkfftgo_mpi.h" "$out/include/vkfftgo_mpi.h"
obj=$(mktemp -d)
trap 'rm -rf "$obj"' EXIT
cd "$root"
# -fvisibility=hidden plus the version script: only vkfftgo_mpi_* leave the library.
# $ORIGIN: libvkfftgo.so.X is found beside it. -ffile-prefix-map: relocatable debug info.
# shellcheck disable=SC2086 # the flags are words
for f in mpi/*.c; do
  $CC $CFLAGS -std=gnu11 -fPIC -fvisibility=hidden -Wall -Wextra \
    -ffile-prefix-map="$root"=vkfftgo -ffile-prefix-map="$out"=vkfftgo-prefix \
    -I"$out/include" $mpi_cflags -c "$f" -o "$obj/$(basename "${f%.c}").o"
done
# shellcheck disable=SC2086
$CC $CFLAGS -shared -o "$out/lib/$real" "$obj"/*.o -L"$out/lib" -lvkfftgo $mpi_libs \
  -Wl,--version-script="$root/mpi/vkfftgo_mpi.map" -Wl,-soname,"libvkfftgo_mpi.so.$major" \
  -Wl,-rpath,'$ORIGIN' -Wl,-z,defs -Wl,-z,noexecstack
ln -sfn "$real" "$out/lib/libvkfftgo_mpi.so.$major"
ln -sfn "libvkfftgo_mpi.so.$major" "$out/lib/libvkfftgo_mpi.so"
subst() {
  mkdir -p "$(dirname "$2")"
  sed -e "s/@VERSION@/$version/g" -e "s/@MAJOR@/$major/g" "$1" >"$2.tmp"
  mv "$2.tmp" "$2"
}
subst "$root/pkgconfig/vkfftgo-mpi.pc.in" "$out/lib/pkgconfig/vkfftgo-mpi.pc"
subst "$root/cmake/VkFFTGoMPI.cmake.in" "$out/lib/cmake/VkFFTGo/VkFFTGoMPI.cmake"
echo "build-mpi: $out/lib/$real"
