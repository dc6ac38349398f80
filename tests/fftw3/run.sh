#!/usr/bin/env bash
# tests/fftw3/run.sh BUILD — libvkfftgo_fftw3's tests, run by `make test` (make
# test-fftw3) after `make lib` has built BUILD. Each step prints what it shows.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
here="$root/tests/fftw3"
MAKE=${MAKE:-make}
tmp=$(mktemp -d /tmp/vkfftgo-fftw3.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
CWARN=(-Wall -Wextra -Werror)
step() { printf '== [%3d s] %s\n' "$SECONDS" "$*"; }
uses() { # uses PROGRAM LIB: PROGRAM loads that very file
  [ "$(ldd "$1" | grep -o "/[^ ]*/$(basename "$2")" | xargs -r readlink -f)" = "$(readlink -f "$2")" ]
}
die() { echo "FAIL: $*" >&2; exit 1; }
# kernels compiled by these tests stay in the test's own cache (also the threshold file)
export VKFFTGO_CACHE_DIR=${VKFFTGO_CACHE_DIR:-$tmp/cache}
lib=$(readlink -f "$build/lib/libvkfftgo_fftw3.so")

step "exports: exactly FFTW 3.3.10's fftw_/fftwf_ API (nm -D against fftw3/fftw3.map and fftw3.h)"
nm -D --defined-only "$lib" | awk '{print $3}' | sort >"$tmp/exported"
grep -oE '^ *fftwf?_[a-z0-9_]+;' "$root/fftw3/fftw3.map" | tr -d ' ;' | sort >"$tmp/map"
gcc -E -P /usr/include/fftw3.h | grep -oE '\bfftwf?_[a-z0-9_]+ *[(\[]' | sed 's/ *[(\[]$//' |
  grep -vE '^fftwf?_complex$' | sort -u >"$tmp/header"
diff "$tmp/exported" "$tmp/map" >/dev/null || { diff "$tmp/exported" "$tmp/map"; die "exports differ from fftw3.map"; }
diff "$tmp/header" "$tmp/map" >/dev/null || { diff "$tmp/header" "$tmp/map"; die "fftw3.map differs from fftw3.h's API"; }
[ "$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')" = libvkfftgo_fftw3.so.0 ] || die "SONAME"
readelf -d "$lib" | grep 'NEEDED.*libvkfftgo.so.0' >/dev/null || die "does not link libvkfftgo.so.0"
readelf -d "$lib" | grep -q 'NEEDED.*libfftw3' && die "links a real FFTW (it must dlopen it)"
echo "   $(wc -l <"$tmp/exported") symbols ($(grep -c '^fftw_' "$tmp/exported") fftw_, $(grep -c '^fftwf_' "$tmp/exported") fftwf_), SONAME libvkfftgo_fftw3.so.0, needs libvkfftgo.so.0, no libfftw3"

step "the C files of fftw3/ call each other without a circle (tests/fftw3/deps.sh)"
"$here/deps.sh" "$build/include"

step "our prototypes are FFTW's: fftw3/abi.h compiled after fftw3.h (a differing prototype is an error)"
printf '#include <fftw3.h>\n#include "abi.h"\nint main(void){ return 0; }\n' >"$tmp/abi.c"
gcc -std=gnu11 "${CWARN[@]}" -I"$root/fftw3" -c "$tmp/abi.c" -o "$tmp/abi.o"
mkdir -p "$tmp/wrongabi" # control: one changed return type must not compile
sed 's/int X(alignment_of)(R \*p);/long X(alignment_of)(R *p);/' "$root/fftw3/abi.h" >"$tmp/wrongabi/abi.h"
cmp -s "$root/fftw3/abi.h" "$tmp/wrongabi/abi.h" && die "control edit of abi.h did not apply"
gcc -std=gnu11 -I"$tmp/wrongabi" -c "$tmp/abi.c" -o "$tmp/abi.o" 2>/dev/null && die "a wrong prototype compiled"
echo "   150 prototypes agree with fftw3.h (a changed one fails to compile)"

step "install into a DESTDIR and move it; C programs built with pkg-config vkfftgo-fftw3 and FFTW's fftw3.h"
stage="$tmp/stage" prefix=/opt/vkfftgo
"$MAKE" -s -C "$root" install BUILD="$build" PREFIX="$prefix" DESTDIR="$stage" >/dev/null
mkdir -p "$tmp/moved"
mv "$stage$prefix" "$tmp/moved/vkfftgo"
inst="$tmp/moved/vkfftgo"
export PKG_CONFIG_PATH="$inst/lib/pkgconfig"
echo "   cc semantics.c \$(pkg-config --libs vkfftgo-fftw3)  # $(pkg-config --libs vkfftgo-fftw3)"
for prec in SINGLE DOUBLE; do
  gcc -std=gnu11 "${CWARN[@]}" -D$prec "$here/semantics.c" $(pkg-config --libs vkfftgo-fftw3) -pthread \
    -o "$tmp/semantics-$prec"
done
ldd "$tmp/semantics-SINGLE" | grep -q 'libfftw3' && die "semantics links a real FFTW"
uses "$tmp/semantics-SINGLE" "$inst/lib/libvkfftgo_fftw3.so.0" || die "semantics does not use the moved install"

step "FFTW's semantics on the GPU (VKFFTGO_FFTW_MIN_SIZE=0): c2c/r2c/c2r rank 1-3, in/out of place, many, guru64, new-array, threads, flags, wisdom"
for prec in SINGLE DOUBLE; do
  VKFFTGO_FFTW_MIN_SIZE=0 VKFFTGO_FFTW_LOG=1 "$tmp/semantics-$prec" 2>"$tmp/sem-$prec.log" ||
    { cat "$tmp/sem-$prec.log"; die "semantics $prec"; }
  grep -q -- '-> gpu' "$tmp/sem-$prec.log" || die "no plan went to the GPU"
  grep -q -- 'r2r .* -> fftw (1 thread): r2r kinds are not on the GPU' "$tmp/sem-$prec.log" || die "r2r did not go to FFTW"
  grep -q -- 'split c2c .* -> fftw' "$tmp/sem-$prec.log" || die "split arrays did not go to FFTW"
  hits=$(grep -c 'r2c 16x8x12, out-of-place -> gpu.*(plan cache hit)' "$tmp/sem-$prec.log" || true)
  [ "$hits" = 4 ] || die "plan churn: $hits of 4 re-created plans came from the plan cache"
  if nm -D --defined-only "$build/lib/libvkfftgo.so" | grep ' vkfftgo_host_register$' >/dev/null; then
    blk=$((64 * 64 * 64 * 8)) # test_pinned's 64^3 complex array
    [ "$prec" = DOUBLE ] && blk=$((2 * blk))
    grep -q "page-locked an fftw_malloc block of $blk bytes" "$tmp/sem-$prec.log" ||
      die "fftw_malloc memory was not page-locked (vkfftgo_host_register)"
    pin="fftw_malloc blocks page-locked on first use"
  else
    grep -q 'this libvkfftgo has no vkfftgo_host_register' "$tmp/sem-$prec.log" || die "no word on page-locking"
    pin="fftw_malloc memory staged (this libvkfftgo has no vkfftgo_host_register)"
  fi
  echo "   $prec: $pin"
  echo "   $prec: $(grep -c -- '-> gpu' "$tmp/sem-$prec.log") plans on the GPU, $(grep -c -- '-> fftw' "$tmp/sem-$prec.log") on FFTW; a plan re-created 4 times came from the plan cache 4 times"
done

step "c2r of non-Hermitian half spectra (random, the 4x8 user cases, vips' phasecor) against the real FFTW, on the GPU"
for prec in SINGLE DOUBLE; do
  gcc -std=gnu11 "${CWARN[@]}" -D$prec "$here/c2r.c" $(pkg-config --libs vkfftgo-fftw3) -ldl -lm -o "$tmp/c2r-$prec"
  VKFFTGO_FFTW_MIN_SIZE=0 VKFFTGO_FFTW_LOG=1 "$tmp/c2r-$prec" 2>"$tmp/c2r-$prec.log" ||
    { cat "$tmp/c2r-$prec.log"; die "c2r against FFTW ($prec)"; }
  gpu=$(grep -c -- ' c2r .* -> gpu' "$tmp/c2r-$prec.log" || true)
  [ "$gpu" = 14 ] || { cat "$tmp/c2r-$prec.log"; die "$gpu of 14 c2r plans went to the GPU ($prec)"; }
  # and the fallback: every problem below the size threshold is the real FFTW's
  VKFFTGO_FFTW_MIN_SIZE=1000000000 VKFFTGO_FFTW_LOG=1 "$tmp/c2r-$prec" >"$tmp/c2r-fb-$prec.out" 2>"$tmp/c2r-fb-$prec.log" ||
    { cat "$tmp/c2r-fb-$prec.out" "$tmp/c2r-fb-$prec.log"; die "c2r through the fallback ($prec)"; }
  fb=$(grep -c -- ' c2r .* -> fftw' "$tmp/c2r-fb-$prec.log" || true)
  [ "$fb" = 14 ] || { cat "$tmp/c2r-fb-$prec.log"; die "$fb of 14 small c2r plans went to the real FFTW ($prec)"; }
  echo "   $prec: the same $fb problems through the fallback to the real FFTW: $(tail -n 1 "$tmp/c2r-fb-$prec.out")"
done

step "AddressSanitizer: the library and the semantics and fork tests built with -fsanitize=address, leaks checked"
mkdir -p "$tmp/asan"
cp -a "$build/lib" "$build/include" "$tmp/asan/"
CFLAGS="-O1 -g -fsanitize=address -fno-omit-frame-pointer" "$root/scripts/build-fftw3.sh" "$tmp/asan" >/dev/null
# intercept_tls_get_addr=0: without it LeakSanitizer's exit-time scan now and then faults
# walking other libraries' dynamic TLS (tests/asan/README.md)
asan_opts=detect_leaks=1:intercept_tls_get_addr=0:no_huge_pages_for_shadow=0
for prec in SINGLE DOUBLE; do
  gcc -std=gnu11 -O1 -g -fsanitize=address -fno-omit-frame-pointer -D$prec "$here/semantics.c" -L"$tmp/asan/lib" \
    -Wl,-rpath,"$tmp/asan/lib" -lvkfftgo_fftw3 -lm -pthread -o "$tmp/asan/semantics-$prec"
  VKFFTGO_FFTW_MIN_SIZE=0 ASAN_OPTIONS=$asan_opts LSAN_OPTIONS=suppressions="$here/lsan.supp" \
    "$tmp/asan/semantics-$prec" >"$tmp/asan/$prec.log" 2>&1 || { cat "$tmp/asan/$prec.log"; die "AddressSanitizer ($prec)"; }
  grep -q 'Sanitizer' "$tmp/asan/$prec.log" && { cat "$tmp/asan/$prec.log"; die "AddressSanitizer report ($prec)"; }
  echo "   $(grep "^semantics (" "$tmp/asan/$prec.log"): no AddressSanitizer or LeakSanitizer report"
done
gcc -std=gnu11 -O1 -g -fsanitize=address -fno-omit-frame-pointer "$here/fork.c" -L"$tmp/asan/lib" \
  -Wl,-rpath,"$tmp/asan/lib" -lvkfftgo_fftw3 -ldl -lm -pthread -o "$tmp/asan/fork"
VKFFTGO_FFTW_MIN_SIZE=0 ASAN_OPTIONS=$asan_opts LSAN_OPTIONS=suppressions="$here/lsan.supp" \
  timeout -k 5 300 "$tmp/asan/fork" >"$tmp/asan/fork.log" 2>&1 || { cat "$tmp/asan/fork.log"; die "AddressSanitizer (fork)"; }
grep -q 'Sanitizer' "$tmp/asan/fork.log" && { cat "$tmp/asan/fork.log"; die "AddressSanitizer report (fork)"; }
echo "   fork.c (a forked child running GPU plans on FFTW, an input copied): no AddressSanitizer or LeakSanitizer report"
gcc -std=gnu11 -O1 -g -fsanitize=address -fno-omit-frame-pointer "$here/choice.c" -L"$tmp/asan/lib" \
  -Wl,-rpath,"$tmp/asan/lib" -lvkfftgo_fftw3 -lm -pthread -o "$tmp/asan/choice"
for mode in churn flags measured; do # the engine choice: history, wisdom probes, the crossover's measurements
  VKFFTGO_CACHE_DIR="$tmp/asan/cache-$mode" ASAN_OPTIONS=$asan_opts LSAN_OPTIONS=suppressions="$here/lsan.supp" \
    "$tmp/asan/choice" "$mode" >"$tmp/asan/choice-$mode.log" 2>&1 || { cat "$tmp/asan/choice-$mode.log"; die "AddressSanitizer (choice $mode)"; }
  grep -q 'Sanitizer' "$tmp/asan/choice-$mode.log" && { cat "$tmp/asan/choice-$mode.log"; die "AddressSanitizer report (choice $mode)"; }
done
echo "   choice.c (the engine choice, the crossover's measurements): no AddressSanitizer or LeakSanitizer report"

step "without a real FFTW (VKFFTGO_FFTW_REAL=off): GPU problems still work, r2r is NULL as FFTW returns when it cannot plan"
VKFFTGO_FFTW_REAL=off VKFFTGO_FFTW_LOG=1 "$tmp/semantics-SINGLE" gpu-only 2>"$tmp/gpuonly.log" ||
  { cat "$tmp/gpuonly.log"; die "gpu-only semantics"; }
grep -- '-> NULL' "$tmp/gpuonly.log" | head -n 2 | sed 's/^/   /'

step "a CMake consumer: find_package(VkFFTGo) + target_link_libraries(... VkFFTGo::fftw3)"
cmake -S "$here/cmake" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$inst" >"$tmp/cmake.log" || { cat "$tmp/cmake.log"; die "cmake configure"; }
grep 'VkFFTGo' "$tmp/cmake.log" | sed 's/^/   /'
cmake --build "$tmp/cm" >"$tmp/cmbuild.log" 2>&1 || { cat "$tmp/cmbuild.log"; die "cmake build"; }
uses "$tmp/cm/semantics_cmake" "$inst/lib/libvkfftgo_fftw3.so.0" || die "CMake consumer does not use VkFFTGo::fftw3"
VKFFTGO_FFTW_MIN_SIZE=0 "$tmp/cm/semantics_cmake"

step "LD_PRELOAD: an unmodified program linked with FFTW's own -lfftw3f -lfftw3"
gcc -std=gnu11 "${CWARN[@]}" "$here/preload.c" -lfftw3f_threads -lfftw3f -lfftw3 -lm -o "$tmp/preload"
ldd "$tmp/preload" | grep 'libfftw3f.so.3' >/dev/null || die "preload is not linked with FFTW"
"$tmp/preload" "$tmp/fftw.out" 48
VKFFTGO_FFTW_MIN_SIZE=4096 VKFFTGO_FFTW_LOG=1 LD_PRELOAD="$inst/lib/libvkfftgo_fftw3.so" "$tmp/preload" "$tmp/gpu.out" 48 \
  2>"$tmp/preload.log" || { cat "$tmp/preload.log"; die "preloaded run"; }
sed 's/^/   /' "$tmp/preload.log"
[ "$(grep -c -- '-> gpu' "$tmp/preload.log")" = 3 ] || die "the three large plans did not all go to the GPU"
grep -q 'f32 c2c forward 8x8.* -> fftw.*< 4096 (VKFFTGO_FFTW_MIN_SIZE)' "$tmp/preload.log" || die "the small plan did not stay on FFTW"
"$tmp/preload" compare "$tmp/fftw.out" "$tmp/gpu.out" || die "preloaded results differ from FFTW's"

step "fork without exec (fork.c): the child runs the parent's GPU plans and new ones on FFTW (equal to the real FFTW's), also forked while another thread plans; the parent goes on"
gcc -std=gnu11 "${CWARN[@]}" "$here/fork.c" $(pkg-config --libs vkfftgo-fftw3) -ldl -lm -pthread -o "$tmp/fork"
VKFFTGO_FFTW_MIN_SIZE=0 VKFFTGO_FFTW_LOG=1 timeout -k 5 300 "$tmp/fork" >"$tmp/fork.out" 2>"$tmp/fork.log" ||
  { cat "$tmp/fork.out" "$tmp/fork.log"; die "fork (timeout: a hung child)"; }
sed 's/^/   /' "$tmp/fork.out"
grep -q 'this process was forked (without exec) from one that had loaded libvkfftgo' "$tmp/fork.log" ||
  die "the forked child did not say why its plans run on FFTW"
grep -q 'c2r 64x48, out-of-place, planned for the GPU before the fork -> fftw (1 thread), run on a copy of its input' \
  "$tmp/fork.log" || die "the child's FFTW_PRESERVE_INPUT c2r did not run on a copy of its input"
grep -m1 'planned for the GPU before the fork' "$tmp/fork.log" | sed 's/^/   /'

step "Python's multiprocessing, fork start method, over pyfftw with libvkfftgo_fftw3 preloaded (fork_pool.py)"
t0=$(date +%s.%N)
VKFFTGO_FFTW_MIN_SIZE=0 VKFFTGO_FFTW_LOG=1 LD_PRELOAD="$inst/lib/libvkfftgo_fftw3.so" \
  timeout -k 5 300 /usr/bin/python3 "$here/fork_pool.py" >"$tmp/pool.out" 2>"$tmp/pool.log" ||
  { cat "$tmp/pool.out" "$tmp/pool.log"; die "multiprocessing over pyfftw (timeout: a hung worker)"; }
sed 's/^/   /' "$tmp/pool.out"
[ "$(grep -c -- '-> gpu' "$tmp/pool.log")" = 2 ] || die "the parent's two pyfftw plans did not go to the GPU"
grep -q 'planned for the GPU before the fork -> fftw' "$tmp/pool.log" || die "the workers did not run the GPU plans on FFTW"
echo "   $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s in all, Python start-up and the parent's plans included"

step "engine choice (tests/fftw3/choice.c): each planner flag and calling pattern, costs injected (VKFFTGO_FFTW_COSTS)"
gcc -std=gnu11 "${CWARN[@]}" "$here/choice.c" $(pkg-config --libs vkfftgo-fftw3) -lm -o "$tmp/choice"
for mode in kept churn flags cold threads measured; do # each its own process (a pattern is a process's) and disk cache
  VKFFTGO_CACHE_DIR="$tmp/choice-$mode" VKFFTGO_FFTW_LOG=1 "$tmp/choice" "$mode" 2>"$tmp/choice-$mode.log" ||
    { cat "$tmp/choice-$mode.log"; die "engine choice: $mode"; }
  awk -f "$here/decisions.awk" "$tmp/choice-$mode.log" >"$tmp/choice-$mode.dec" ||
    { cat "$tmp/choice-$mode.dec"; die "engine choice ($mode): a decision contradicts its logged costs"; }
done
grep -q -- '-> gpu: pattern create/execute/destroy, as this process.*flags MEASURE;' "$tmp/choice-churn.log" ||
  die "a create/execute/destroy caller's MEASURE plan did not go to the GPU"
grep -q -- '-> fftw.*FFTW_MEASURE, wisdom has it' "$tmp/choice-churn.log" || die "wisdom did not count"
grep -q -- '-> gpu.*FFTW_WISDOM_ONLY and no wisdom for it' "$tmp/choice-flags.log" || die "WISDOM_ONLY without wisdom"
grep -q -- '-> gpu.*its wisdom was forgotten' "$tmp/choice-flags.log" || die "forgotten wisdom did not count"
grep -q -- '-> gpu.*kernels in the disk cache' "$tmp/choice-cold.log" || die "the disk kernel cache did not count"
grep -q -- '2 threads not measured' "$tmp/choice-threads.log" || die "2 threads were measured where they could not change the choice"
grep -q 'threads=2' "$tmp/choice-threads/fftw3-crossover.txt" && die "FFTW was measured with 2 threads"
grep -q 'threads=1' "$tmp/choice-threads/fftw3-crossover.txt" || die "FFTW was not measured with 1 thread"
grep -q 'crossover: the GPU (single precision) measured in' "$tmp/choice-measured.log" || die "the GPU was not measured"
echo "   $(cat "$tmp"/choice-*.dec | grep -c '^gpu ') plans on the GPU, $(cat "$tmp"/choice-*.dec | grep -c '^fftw ') on FFTW, each on the engine its logged costs favour; for example:"
grep -h -- '-> gpu: pattern create/execute/destroy, as this process' "$tmp/choice-churn.log" | head -n 1 | sed 's/^/   /'
grep -h -- 'FFTW_ESTIMATE: made already' "$tmp/choice-kept.log" | head -n 1 | sed 's/^/   /'

step "crossover: this machine's figures measured once (GPU round trip and transfers, FFTW per flop), cached, reused; decisions from measured costs"
rm -f "$VKFFTGO_CACHE_DIR/fftw3-crossover.txt"
VKFFTGO_FFTW_LOG=1 LD_PRELOAD="$inst/lib/libvkfftgo_fftw3.so" "$tmp/preload" "$tmp/t1.out" 48 2>"$tmp/t1.log" ||
  { cat "$tmp/t1.log"; die "crossover run 1"; }
grep 'crossover: ' "$tmp/t1.log" | sed 's/^/   /'
grep -q 'crossover: the GPU (single precision) measured in' "$tmp/t1.log" || die "the GPU was not measured"
grep -q 'crossover: FFTW .* measured in' "$tmp/t1.log" || die "FFTW was not measured"
[ -s "$VKFFTGO_CACHE_DIR/fftw3-crossover.txt" ] || die "the measurements were not cached"
awk -f "$here/decisions.awk" "$tmp/t1.log" | sed 's/^/   /' || die "a decision contradicts its logged costs"
VKFFTGO_FFTW_LOG=1 LD_PRELOAD="$inst/lib/libvkfftgo_fftw3.so" "$tmp/preload" "$tmp/t2.out" 48 2>"$tmp/t2.log"
grep -q 'crossover: ' "$tmp/t2.log" && die "measured again"
awk -f "$here/decisions.awk" "$tmp/t2.log" >/dev/null || die "a decision contradicts its logged costs (run 2)"
"$tmp/preload" compare "$tmp/fftw.out" "$tmp/t2.out" >/dev/null || die "results with the measured costs differ"
echo "   run 2: nothing measured, the cached figures used"
# the old rule stays reachable for comparison
VKFFTGO_FFTW_CROSSOVER=legacy VKFFTGO_FFTW_MEASURE_MAX=64 VKFFTGO_FFTW_LOG=1 LD_PRELOAD="$inst/lib/libvkfftgo_fftw3.so" \
  "$tmp/preload" "$tmp/t3.out" 48 2>"$tmp/t3.log" || { cat "$tmp/t3.log"; die "legacy rule"; }
grep -q 'threshold: 64^3 c2c' "$tmp/t3.log" || die "VKFFTGO_FFTW_CROSSOVER=legacy did not measure the old threshold"
grep -m1 -- 'VKFFTGO_FFTW_CROSSOVER=legacy' "$tmp/t3.log" | sed 's/^/   /'

step "crossover past the measured cubes (own_size.c): FFTW timed once at the problem's own size, not extrapolated"
gcc -std=gnu11 "${CWARN[@]}" "$here/own_size.c" -lfftw3f -lm -o "$tmp/own_size"
VKFFTGO_FFTW_LOG=1 LD_PRELOAD="$inst/lib/libvkfftgo_fftw3.so" "$tmp/own_size" 2>"$tmp/own.log" ||
  { cat "$tmp/own.log"; die "own_size"; }
grep 'FFTW at its own size' "$tmp/own.log" | sed 's/^/   /'
[ "$(grep -c 'FFTW at its own size' "$tmp/own.log")" = 1 ] || die "256^3 was not timed at its own size exactly once"
grep -q "at its own size's rate" "$tmp/own.log" || die "the decision did not use the rate at its own size"
awk -f "$here/decisions.awk" "$tmp/own.log" >/dev/null || die "a decision contradicts its logged costs (own size)"

step "FFTW's own verifier (tests/fftw3/verify.sh)"
"$here/verify.sh" "$build"

echo "fftw3 tests: all passed"
