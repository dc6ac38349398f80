#!/usr/bin/env bash
# tests/mpi/run.sh BUILD — libvkfftgo_mpi's tests, run by `make test` (make test-mpi)
# after `make lib` has built BUILD with MPI found. Every mpirun is wrapped in timeout: a
# rank left waiting fails the test instead of hanging it. Each step prints what it shows.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
here="$root/tests/mpi"
tmp=$(mktemp -d /tmp/vkfftgo-mpi.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
CWARN=(-Wall -Wextra -Werror)
step() { printf '== [%3d s] %s\n' "$SECONDS" "$*"; }
die() { echo "FAIL: $*" >&2; exit 1; }
lib="$build/lib/libvkfftgo_mpi.so"
[ -e "$lib" ] || die "$lib was not built (no MPI found? scripts/setup-mpi.sh installs it)"
# Ranks share one kernel cache (kernels compile once); PoCL and OpenMP one thread a rank,
# so 4 ranks on 2 cores do not fight over them.
export VKFFTGO_CACHE_DIR=${VKFFTGO_CACHE_DIR:-$tmp/cache}
export POCL_MAX_PTHREAD_COUNT=1 OMP_NUM_THREADS=1
MPIRUN=(mpirun --oversubscribe --allow-run-as-root)
mpi_cflags=$(pkg-config --cflags ompi-c) mpi_libs=$(pkg-config --libs ompi-c)

step "exports: exactly vkfftgo_mpi.h's functions (nm -D against the header), SONAME, needs libvkfftgo and libmpi"
nm -D --defined-only "$lib" | awk '{print $3}' | sort >"$tmp/exported"
grep -oE '\bvkfftgo_mpi_[a-z_0-9]+\(' "$root/include/vkfftgo_mpi.h" | tr -d '(' | sort -u >"$tmp/header"
diff "$tmp/exported" "$tmp/header" || die "exports differ from vkfftgo_mpi.h"
[ "$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')" = libvkfftgo_mpi.so.0 ] || die "SONAME"
readelf -d "$lib" | grep -q 'NEEDED.*libvkfftgo.so.0' || die "does not link libvkfftgo.so.0"
readelf -d "$lib" | grep -q 'NEEDED.*libmpi.so' || die "does not link libmpi"
echo "   $(wc -l <"$tmp/exported") symbols, SONAME libvkfftgo_mpi.so.0"

step "header compiles alone as C99 and C++11 with ${CWARN[*]}"
printf '#include <vkfftgo_mpi.h>\nint main(void){ vkfftgo_mpi_desc d = VKFFTGO_MPI_DESC_INIT; return (int)d.size == 0; }\n' >"$tmp/h.c"
cp "$tmp/h.c" "$tmp/h.cpp"
# shellcheck disable=SC2086 # flag lists
gcc -std=c99 "${CWARN[@]}" -I"$build/include" $mpi_cflags -c "$tmp/h.c" -o "$tmp/h.o"
# shellcheck disable=SC2086
# OMPI_SKIP_MPICXX: Open MPI's deprecated C++ bindings do not compile warning-free
g++ -std=c++11 "${CWARN[@]}" -DOMPI_SKIP_MPICXX -I"$build/include" $mpi_cflags -c "$tmp/h.cpp" -o "$tmp/hpp.o"

step "consumers: the accuracy test through pkg-config (vkfftgo-mpi.pc), the failure test through CMake (VkFFTGo::mpi)"
export PKG_CONFIG_PATH="$build/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046
mpicc -std=gnu11 -O1 -g "${CWARN[@]}" "$here/accuracy.c" $(pkg-config --cflags --libs vkfftgo-mpi) -lm -o "$tmp/accuracy"
mkdir -p "$tmp/cm"
cat >"$tmp/cm/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.16)
project(mpiconsumer C)
find_package(VkFFTGo REQUIRED)
if(NOT TARGET VkFFTGo::mpi)
  message(FATAL_ERROR "VkFFTGo::mpi missing")
endif()
add_executable(failure "$here/failure.c")
target_compile_options(failure PRIVATE -Wall -Wextra -Werror)
target_link_libraries(failure VkFFTGo::mpi)
CM
cmake -S "$tmp/cm" -B "$tmp/cm/b" -DCMAKE_PREFIX_PATH="$build" -DCMAKE_BUILD_TYPE=Debug >"$tmp/cm.log" 2>&1 ||
  { cat "$tmp/cm.log"; die "cmake configure"; }
cmake --build "$tmp/cm/b" >>"$tmp/cm.log" 2>&1 || { cat "$tmp/cm.log"; die "cmake build"; }
cp "$tmp/cm/b/failure" "$tmp/failure"

for np in 2 4; do
  step "accuracy on $np ranks: each rank's slab against rank 0's single-process vkfftgo transform"
  timeout 240 "${MPIRUN[@]}" -np $np "$tmp/accuracy" || die "accuracy on $np ranks (rc $?)"
done
# The shapes above are too small for the automatic choice to pipeline; 3 chunks cut the
# transposed slabs of 3 and 6 columns, and leave those of 5 whole.
for np in 2 4; do
  step "accuracy on $np ranks, pipelined: the first axis in up to 3 chunks (VKFFTGO_MPI_CHUNKS=3)"
  VKFFTGO_MPI_CHUNKS=3 timeout 240 "${MPIRUN[@]}" -x VKFFTGO_MPI_CHUNKS -np $np "$tmp/accuracy" ||
    die "pipelined accuracy on $np ranks (rc $?)"
done
for np in 2 4; do
  step "failures on $np ranks: every rank gets the error naming the failing rank, within 60 s"
  timeout 60 "${MPIRUN[@]}" -np $np "$tmp/failure" || die "failure on $np ranks (rc $?)"
done
step "failures on 2 ranks, pipelined (VKFFTGO_MPI_CHUNKS=3)"
VKFFTGO_MPI_CHUNKS=3 timeout 60 "${MPIRUN[@]}" -x VKFFTGO_MPI_CHUNKS -np 2 "$tmp/failure" ||
  die "pipelined failure on 2 ranks (rc $?)"
# (every rank learns rank 0's count by a broadcast and fails alike; the first to fail
# aborts the run, so the log may hold one rank's line or more)
step "a bad VKFFTGO_MPI_CHUNKS on rank 0: plan creation fails, naming it"
if VKFFTGO_MPI_CHUNKS=three timeout 60 "${MPIRUN[@]}" -x VKFFTGO_MPI_CHUNKS -np 2 "$tmp/accuracy" >"$tmp/badchunks.log" 2>&1; then
  die "VKFFTGO_MPI_CHUNKS=three was accepted"
fi
grep -q 'VKFFTGO_MPI_CHUNKS on rank 0 is not a count' "$tmp/badchunks.log" ||
  { cat "$tmp/badchunks.log" >&2; die "the error did not name VKFFTGO_MPI_CHUNKS"; }
echo "   $(grep -m1 -o 'VKFFTGO_ERROR.*' "$tmp/badchunks.log")"

step "AddressSanitizer: libvkfftgo_mpi and the failure test instrumented, on 2 ranks"
mkdir -p "$tmp/asan/lib" "$tmp/asan/include"
cp -P "$build"/lib/libvkfftgo.so* "$tmp/asan/lib/"
cp "$build"/include/vkfftgo.h "$build"/include/vkfftgo_config.h "$tmp/asan/include/"
mkdir -p "$tmp/asan/lib/pkgconfig" "$tmp/asan/lib/cmake/VkFFTGo"
CFLAGS="-O1 -g -fsanitize=address -fno-omit-frame-pointer" "$root/scripts/build-mpi.sh" "$tmp/asan" >/dev/null
# shellcheck disable=SC2086
gcc -std=gnu11 -O1 -g -fsanitize=address -fno-omit-frame-pointer "${CWARN[@]}" -I"$tmp/asan/include" $mpi_cflags \
  "$here/failure.c" -L"$tmp/asan/lib" -Wl,-rpath,"$tmp/asan/lib" -lvkfftgo_mpi -lvkfftgo $mpi_libs -o "$tmp/failure-asan"
# Leaks are reported (exitcode 0) and judged here: Open MPI and PoCL unload modules that
# keep allocations (frames of "<unknown module>", no suppression can name them), so a
# leak fails the test when its stack has a frame of ours (vkfftgo_mpi_*, vfm_*, the test).
# intercept_tls_get_addr=0: tests/asan/README.md (LeakSanitizer's exit-time scan and dynamic TLS).
ASAN_OPTIONS=use_sigaltstack=0:detect_leaks=1:intercept_tls_get_addr=0:no_huge_pages_for_shadow=0 LSAN_OPTIONS=exitcode=0:print_suppressions=0 \
  timeout 120 "${MPIRUN[@]}" -x ASAN_OPTIONS -x LSAN_OPTIONS -np 2 "$tmp/failure-asan" >"$tmp/asan.log" 2>&1 ||
  { cat "$tmp/asan.log" >&2; die "failure test under AddressSanitizer"; }
grep -q 'ERROR: AddressSanitizer' "$tmp/asan.log" && { cat "$tmp/asan.log" >&2; die "AddressSanitizer report"; }
ours=$(awk '/(Direct|Indirect) leak of/ { if (b ~ / in (vkfftgo_mpi_|vfm_)|failure\.c/) print b; b = "" }
  { b = b "\n" $0 } END { if (b ~ / in (vkfftgo_mpi_|vfm_)|failure\.c/) print b }' "$tmp/asan.log")
[ -z "$ours" ] || { echo "$ours" >&2; die "leaks in libvkfftgo_mpi or the test"; }
echo "   $(grep -c 'leak of' "$tmp/asan.log" || true) leak reports, none with a frame of ours; $(grep 'failure: every' "$tmp/asan.log")"
echo "mpi: all passed"
