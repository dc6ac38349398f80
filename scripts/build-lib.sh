#!/usr/bin/env bash
# build-lib.sh BACKEND OUT
# Builds the C shared library of the given backend into OUT as a usable, relocatable
# prefix: OUT/lib/libvkfftgo.so.X.Y.Z (SONAME libvkfftgo.so.X) with the .so.X and .so
# links, OUT/include/vkfftgo.h, and the generated config header, vkfftgo.pc and CMake
# package files; then libvkfftgo_fftw3 beside it (scripts/build-fftw3.sh) and, where MPI is found,
# libvkfftgo_mpi (scripts/build-mpi.sh). CGO_CFLAGS / CGO_LDFLAGS from the environment pass through (the cuda
# backend's come from mk/cuda.mk). GO names the go command.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
backend=${1:?usage: build-lib.sh BACKEND OUT}
out=${2:?usage: build-lib.sh BACKEND OUT}
GO=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
ver() { sed -n "s/^#define VKFFTGO_LIB_VERSION_$1 \([0-9]*\)$/\1/p" "$root/capi/version.h"; }
major=$(ver MAJOR) version="$(ver MAJOR).$(ver MINOR).$(ver PATCH)"
real="libvkfftgo.so.$version"
mkdir -p "$out/lib" "$out/include"
# another version's library left by an earlier build would be installed beside this one
find "$out/lib" -maxdepth 1 -name 'libvkfftgo.so.*.*.*' ! -name "$real" -delete
out=$(cd "$out" && pwd)
cd "$root"
# -trimpath keeps build-tree paths out of the library (and, since go1.19, -ldflags and
# CGO_* out of its build info); the version script exports only vkfftgo_* symbols.
# VKFFTGO_ASAN=1 builds a copy for AddressSanitizer runs (tests/capi/run.sh): its C code
# instrumented (go build -asan), symbols and debug information kept for the reports.
strip="-s -w" asan=""
[ "${VKFFTGO_ASAN:-0}" = 1 ] && strip="" asan="-asan"
ldflags="$strip -extldflags '-Wl,--version-script=$root/capi/vkfftgo.map -Wl,-soname,libvkfftgo.so.$major -Wl,-z,defs -Wl,-z,noexecstack'"
# go build -buildmode=c-shared compiles every cgo package again on each call, cached or
# not (golang/go#64832): half a minute for the engine's C, which make test would pay at
# every part that needs the library. So the library is built again only when what goes
# into it changed: the sources of every package it links (with the VkFFT headers), the
# toolchains and the flags, hashed into a stamp beside it.
inputs() {
  printf '%s\n' "$backend" "$asan" "$ldflags"
  "$GO" env GOVERSION CC CGO_CFLAGS CGO_CPPFLAGS CGO_LDFLAGS GOFLAGS GOEXPERIMENT
  "${CC:-gcc}" --version | head -1
  { "$GO" list -deps -tags "$backend" -f '{{if not .Standard}}{{.Dir}}{{end}}' ./capi |
      while read -r d; do find "$d" -maxdepth 1 -type f ! -name '*_test.go'; done
    find cvendor/include -type f; echo capi/vkfftgo.map; } | sort | xargs sha256sum
}
stamp="$out/.libvkfftgo.stamp" hash=$(inputs | sha256sum | cut -d' ' -f1)
if [ -e "$out/lib/$real" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$hash" ]; then
  built="up to date"
else
  rm -f "$stamp"
  CGO_ENABLED=1 "$GO" build $asan -trimpath -buildmode=c-shared -tags "$backend" -ldflags "$ldflags" \
    -o "$out/lib/$real" ./capi
  echo "$hash" >"$stamp"
  built=built
fi
rm -f "$out/lib/${real%.so*}"*.h "$out/lib/$real.h" "$out/lib/libvkfftgo.h"
ln -sfn "$real" "$out/lib/libvkfftgo.so.$major"
ln -sfn "libvkfftgo.so.$major" "$out/lib/libvkfftgo.so"
cp include/vkfftgo.h "$out/include/vkfftgo.h"
scripts/vkfftgo-gen.sh "$backend" "$out" "$out/lib/$real"
echo "build-lib: $out/lib/$real ($backend, $built)"
# The FFTW3-compatible library over it (fftw3/, plain C), and where MPI is found the
# distributed one (mpi/, scripts/build-mpi.sh).
scripts/build-fftw3.sh "$out"
scripts/build-mpi.sh "$out"
