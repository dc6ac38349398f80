#!/usr/bin/env bash
# tests/itk-module/run.sh BUILD — the VkFFTBackend ITK module (itk/) against the library
# prefix make lib built in BUILD and Debian's ITK 5.2 (make test-itk-module):
#  1. configure and build itk/ with find_package(ITK) and find_package(VkFFTGo) (the
#     tests unoptimised: they are small, and -O0 compiles ITK's templates 3x faster);
#  2. its ctest suite (itk/test/CMakeLists.txt), two at a time;
#  3. make install into a DESTDIR, moved elsewhere, and a program written for
#     ITKVkFFTBackend's API (tests/itk-module/consumer) built unchanged against it with
#     find_package(VkFFTBackend), run through ITK_AUTOLOAD_PATH of the moved copy.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
tmp=$(mktemp -d /tmp/vkfftgo-itkmod.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
step() { printf '== [%3d s] %s\n' "$SECONDS" "$*"; }
die() { echo "FAIL: $*" >&2; exit 1; }
mod=$build/itk-module
jobs=${ITK_MODULE_JOBS:-2}
# The builds below run their own -j: a make jobserver inherited from make test would have
# gmake warn in the build log, which the no-warnings check reads.
unset MAKEFLAGS MFLAGS

step "configure itk/ (find_package(ITK), find_package(VkFFTGo) from $build)"
t0=$SECONDS
cmake -S "$root/itk" -B "$mod" -DVkFFTGo_DIR="$build/lib/cmake/VkFFTGo" -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_CXX_FLAGS="${ITK_MODULE_CXXFLAGS:--O0}" -DBUILD_TESTING=ON >"$tmp/cmake.log" 2>&1 ||
  { cat "$tmp/cmake.log"; die "cmake configure (is libinsighttoolkit5-dev installed? make setup ITK=1)"; }
grep -- '-- VkFFTBackend:' "$tmp/cmake.log" | sed 's/^/   /'
cmake --build "$mod" -j"$jobs" >"$tmp/build.log" 2>&1 || { grep -E 'error|Error' "$tmp/build.log" | head -40; die "build"; }
! grep -E 'warning:' "$tmp/build.log" | grep -v '/usr/include/ITK' | grep . || die "warnings in the module's own code"
echo "   built in $((SECONDS - t0)) s"

step "ctest: the module's tests on the default device"
t0=$SECONDS
(cd "$mod" && ctest -j"$jobs" --output-on-failure --timeout 600) >"$tmp/ctest.log" 2>&1 ||
  { cat "$tmp/ctest.log"; die "ctest"; }
grep -E 'tests passed|Total Test' "$tmp/ctest.log" | sed 's/^/   /'
echo "   in $((SECONDS - t0)) s"
grep -h -E '^  [0-9]+ forward\+inverse|^  one filter pair|^  a new filter pair' "$mod"/Testing/Temporary/LastTest.log | sed 's/^/   /' || true

step "install into a DESTDIR, moved elsewhere; an ITKVkFFTBackend program built unchanged against it"
DESTDIR="$tmp/stage" cmake --install "$mod" --prefix /opt/vkfftbackend >/dev/null
mkdir -p "$tmp/moved"
mv "$tmp/stage/opt/vkfftbackend" "$tmp/moved/vkfftbackend"
inst=$tmp/moved/vkfftbackend
leaks=$(grep -rlaF -e "$mod" -e "$tmp/stage" "$inst" || true)
[ -z "$leaks" ] || die "build-tree or DESTDIR paths in installed files: $leaks"
cmake -S "$root/tests/itk-module/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$inst;$build" \
  -DCMAKE_CXX_FLAGS=-O0 >"$tmp/consumer-cmake.log" 2>&1 || { cat "$tmp/consumer-cmake.log"; die "consumer configure"; }
cmake --build "$tmp/consumer" -j"$jobs" >"$tmp/consumer-build.log" 2>&1 ||
  { grep -E 'error' "$tmp/consumer-build.log" | head -30; die "consumer build"; }
VKFFTGO_CACHE_DIR="$mod/kernel-cache" ITK_AUTOLOAD_PATH="$inst/lib/VkFFTBackend/factories" "$tmp/consumer/consumer" |
  sed 's/^/   /'
echo "itk module tests: all passed"
