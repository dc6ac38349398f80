#!/usr/bin/env bash
# tests/capi/run.sh BUILD — the C API's tests, run by `make test` (make test-capi) after
# `make lib` has built the library prefix in BUILD. Each step prints one line.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
here="$root/tests/capi"
MAKE=${MAKE:-make}
tmp=$(mktemp -d /tmp/vkfftgo-capi.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
CWARN=(-Wall -Wextra -Werror -pedantic)
step() { printf '== [%3d s] %s\n' "$SECONDS" "$*"; }
die() { echo "FAIL: $*" >&2; exit 1; }
# the backend the library was built for (make lib BACKEND=...), and another one for the
# guard tests
backend=$(sed -n 's/^backend=//p' "$build/lib/pkgconfig/vkfftgo.pc")
vkb=$(sed -n 's/^vkfft_backend=//p' "$build/lib/pkgconfig/vkfftgo.pc")
case $backend in
opencl) other=cuda otherb=1 ;;
cuda) other=opencl otherb=3 ;;
vulkan) other=opencl otherb=3 ;;
*) die "unknown backend '$backend' in $build/lib/pkgconfig/vkfftgo.pc" ;;
esac
echo "   library backend: $backend (VKFFT_BACKEND=$vkb); guard tests use $other ($otherb)"

step "header compiles alone as C99 and C++11 with ${CWARN[*]}"
printf '#include <vkfftgo.h>\nint main(void){ vkfftgo_plan_desc d = VKFFTGO_PLAN_DESC_INIT; vkfftgo_mem_stats s = VKFFTGO_MEM_STATS_INIT; (void)s; return (int)d.size == 0; }\n' >"$tmp/h.c"
cp "$tmp/h.c" "$tmp/h.cpp"
gcc -std=c99 "${CWARN[@]}" -I"$build/include" -c "$tmp/h.c" -o "$tmp/h.o"
g++ -std=c++11 "${CWARN[@]}" -I"$build/include" -c "$tmp/h.cpp" -o "$tmp/hpp.o"
if command -v clang >/dev/null; then clang -std=c99 "${CWARN[@]}" -I"$build/include" -c "$tmp/h.c" -o "$tmp/h.o"; fi

step "only vkfftgo_* symbols are exported (nm -D)"
lib=$(readlink -f "$build/lib/libvkfftgo.so")
others=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^vkfftgo_' || true)
[ -z "$others" ] || die "exported non-vkfftgo symbols: $others"
[ "$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')" = libvkfftgo.so.0 ] || die "SONAME is not libvkfftgo.so.0"
echo "   $(nm -D --defined-only "$lib" | grep -c ' vkfftgo_') symbols, SONAME libvkfftgo.so.0"

step "exported symbols are those api/vkfftgo.sym lists for $backend (a change is deliberate: make api)"
"$root/scripts/api-syms.sh" check "$lib" "$backend"

step "backend guard at compile time: another VKFFT_BACKEND is an #error naming both"
printf '#define VKFFT_BACKEND %s\n#include <vkfftgo.h>\nint main(void){ return vkfftgo_backend(); }\n' "$otherb" >"$tmp/wrong.c"
if gcc -std=c99 -I"$build/include" -c "$tmp/wrong.c" -o "$tmp/wrong.o" 2>"$tmp/err"; then die "VKFFT_BACKEND=$otherb compiled"; fi
grep -q "error: .*VKFFT_BACKEND is $otherb ($other) here, but the installed libvkfftgo was built for VKFFT_BACKEND=$vkb ($backend)" "$tmp/err" ||
  { cat "$tmp/err"; die "the #error does not name both backends"; }
sed -n 's/.*#error "\(.*\)"/   \1/p' "$tmp/err" | head -1
printf '#include <vkfftgo.h>\nint main(void){ return vkfftgo_backend(); }\n' >"$tmp/wrong2.c"
if g++ -DVKFFT_BACKEND=$otherb -I"$build/include" -x c++ -c "$tmp/wrong2.c" -o "$tmp/wrong2.o" 2>"$tmp/err"; then die "-DVKFFT_BACKEND=$otherb compiled (C++)"; fi
grep -q "VKFFT_BACKEND is $otherb ($other)" "$tmp/err" || die "C++ #error message"
gcc -DVKFFT_BACKEND=$otherb -DVKFFTGO_ALLOW_OTHER_VKFFT_BACKEND -I"$build/include" -c "$tmp/wrong2.c" -o "$tmp/ok.o" ||
  die "VKFFTGO_ALLOW_OTHER_VKFFT_BACKEND did not allow it"

step "backend guard at link time: an object built against the $other config does not link with this library"
mkdir -p "$tmp/othercfg/include"
"$root/scripts/vkfftgo-gen.sh" "$other" "$tmp/othercfg"
cp "$root/include/vkfftgo.h" "$tmp/othercfg/include/"
gcc -c -I"$tmp/othercfg/include" "$tmp/wrong2.c" -o "$tmp/other.o"
if gcc "$tmp/other.o" -L"$build/lib" -lvkfftgo -o "$tmp/other.out" 2>"$tmp/err"; then die "$other object linked with the $backend library"; fi
grep -q "undefined reference to .vkfftgo_library_backend_is_$other'" "$tmp/err" || { cat "$tmp/err"; die "link error does not name the backend"; }
sed -n 's/.*\(undefined reference to .*\)/   \1/p' "$tmp/err" | head -1
gcc -c -I"$build/include" "$tmp/wrong2.c" -o "$tmp/same.o"
gcc "$tmp/same.o" -L"$build/lib" -lvkfftgo -o "$tmp/same.out" || die "control: $backend object did not link"

step "make install into a DESTDIR, then move the whole tree elsewhere"
stage="$tmp/stage" prefix=/opt/vkfftgo
"$MAKE" -s -C "$root" install BACKEND="$backend" BUILD="$build" PREFIX="$prefix" DESTDIR="$stage" >/dev/null
mkdir -p "$tmp/moved/else/where"
mv "$stage$prefix" "$tmp/moved/else/where/vkfftgo"
rm -rf "$stage"
inst="$tmp/moved/else/where/vkfftgo"
(cd "$inst" && find . -printf '   %y %p %l\n' | sort)
leaks=$(grep -rlaF -e "$root" -e "$build" -e "$stage" -e "$tmp" "$inst" || true)
[ -z "$leaks" ] || die "build-tree or DESTDIR paths in installed files: $leaks"
echo "   no build-tree ($root, $build) or DESTDIR path in any installed file"

step "C consumer built only with pkg-config against the moved copy"
export PKG_CONFIG_PATH="$inst/lib/pkgconfig"
echo "   cc c_consumer.c \$(pkg-config --cflags --libs vkfftgo) -lm  # $(pkg-config --cflags --libs vkfftgo)"
gcc -std=c99 "${CWARN[@]}" "$here/c_consumer.c" $(pkg-config --cflags --libs vkfftgo) -lm -o "$tmp/c_consumer"
"$tmp/c_consumer" | tee "$tmp/c_consumer.log"
# vkfftgo_vkfft_version is VkFFTGetVersion() of the headers the library was built with
hdr=$root/cvendor/include/vkFFT.h
[ -f "$hdr" ] || hdr=/usr/include/vkFFT.h
want=$(sed -n '/VkFFTGetVersion/,/}/s/.*return \([0-9]*\);.*/\1/p' "$hdr")
grep -q "VkFFT $want\$" "$tmp/c_consumer.log" || die "vkfftgo_vkfft_version is not VkFFTGetVersion() ($want, $hdr)"
[ "$(pkg-config --variable=vkfft_backend vkfftgo)" = "$vkb" ] || die "vkfftgo.pc backend"
if [ "$backend" = vulkan ]; then
  step "Vulkan interop: the caller's own VkBuffer on the library's VkDevice"
  gcc -std=c99 "${CWARN[@]}" "$here/vk_interop.c" $(pkg-config --cflags --libs vkfftgo) -lvulkan -lm -o "$tmp/vk_interop"
  "$tmp/vk_interop"
fi

step "descriptor 0.2 from C: axes, rank 4, DCT, storage, in-place R2C, strides, old-size descriptor"
gcc -std=c99 "${CWARN[@]}" "$here/layout.c" $(pkg-config --cflags --libs vkfftgo) -lm -o "$tmp/layout"
"$tmp/layout"

step "whole-spectrum real plans from C (full.c): the half spectrum expanded and folded on the device"
gcc -std=c99 "${CWARN[@]}" "$here/full.c" $(pkg-config --cflags --libs vkfftgo) -lm -o "$tmp/full"
VKFFTGO_CACHE_DIR="$tmp/kc-full" "$tmp/full"

step "dlopen after start-up (Python's ctypes, ITK_AUTOLOAD_PATH): the static TLS fits, every call works"
tls=$(readelf -lW "$lib" | awk '$1 == "TLS" { print $6 }') # MemSiz, in hex
[ -n "$tls" ] && tls=$((tls))
[ -n "$tls" ] && [ "$tls" -le 512 ] || die "the library's TLS segment is ${tls:-?} bytes: dlopen after start-up needs it small (capi/threadstate.c)"
echo "   TLS segment: $tls bytes"
gcc -std=c99 "${CWARN[@]}" -D_GNU_SOURCE -pthread -I"$build/include" "$here/dlopen.c" -ldl -lm -o "$tmp/dlopen"
VKFFTGO_CACHE_DIR="$tmp/kc-dlopen" "$tmp/dlopen" "$build/lib/libvkfftgo.so.0"

step "complex-to-real inverse of non-Hermitian half spectra from C (c2r.c): FFTW's c2r, host, buffers, in place"
gcc -std=c99 "${CWARN[@]}" "$here/c2r.c" $(pkg-config --cflags --libs vkfftgo) -lm -o "$tmp/c2r"
"$tmp/c2r"

step "multi-threaded C consumer and bad arguments"
gcc -std=c99 "${CWARN[@]}" -pthread "$here/threads.c" $(pkg-config --cflags --libs vkfftgo) -lm -o "$tmp/threads"
"$tmp/threads"

step "autotuning through desc.tune (stored, found by a second process) and out-of-place transforms"
gcc -std=c99 "${CWARN[@]}" "$here/tune_oop.c" $(pkg-config --cflags --libs vkfftgo) -lm -o "$tmp/tune_oop"
VKFFTGO_CACHE_DIR="$tmp/kc" VKFFTGO_TUNE_BUDGET=1ms "$tmp/tune_oop"
VKFFTGO_CACHE_DIR="$tmp/kc" "$tmp/tune_oop" stored

step "true out-of-place transforms on the C per-call path (oop.c): no copy, built once through Go, then C only"
gcc -std=c99 "${CWARN[@]}" -pthread "$here/oop.c" $(pkg-config --cflags --libs vkfftgo) -ldl -lm -o "$tmp/oop"
VKFFTGO_CACHE_DIR="$tmp/kc-oop" timeout 600 "$tmp/oop"

step "convolutions and spectrometer from C (fuse.c)"
gcc -std=c99 "${CWARN[@]}" "$here/fuse.c" $(pkg-config --cflags --libs vkfftgo) -lm -o "$tmp/fuse"
"$tmp/fuse"

step "handles: the per-call path stays in C; stale, made-up and concurrently destroyed handles"
gcc -std=c99 "${CWARN[@]}" -pthread "$here/handles.c" $(pkg-config --cflags --libs vkfftgo) -lm -o "$tmp/handles"
timeout 600 "$tmp/handles"

step "registered host memory"
gcc -std=c99 "${CWARN[@]}" "$here/hostreg.c" $(pkg-config --cflags --libs vkfftgo) -lm -o "$tmp/hostreg"
timeout 600 "$tmp/hostreg"

step "fork without exec (fork.c): the child gets VKFFTGO_ERROR_FORKED at once from every call, also with threads inside the library; the parent goes on"
gcc -std=c99 "${CWARN[@]}" -pthread "$here/fork.c" $(pkg-config --cflags --libs vkfftgo) -lm -o "$tmp/fork"
VKFFTGO_CACHE_DIR="$tmp/kc-fork" timeout 300 "$tmp/fork"

step "C API parity (parity.c): version check, device on the test's own context, kernel cache, plan leases, streams, pipelines"
# parity.c makes its own OpenCL context (or CUDA context through dlopen'd libcuda)
parity_libs=(-ldl)
[ "$backend" = opencl ] && parity_libs+=(-lOpenCL)
gcc -std=c99 "${CWARN[@]}" -pthread "$here/parity.c" $(pkg-config --cflags --libs vkfftgo) "${parity_libs[@]}" -lm -o "$tmp/parity"
VKFFTGO_CACHE_DIR="$tmp/kc-parity" timeout 600 "$tmp/parity"

step "a pool of devices from C (pool.c): one device's bytes, bad arguments, close under calls"
gcc -std=c99 "${CWARN[@]}" -pthread "$here/pool.c" $(pkg-config --cflags --libs vkfftgo) -lm -o "$tmp/pool"
VKFFTGO_CACHE_DIR="$tmp/kc-pool" timeout 600 "$tmp/pool"

step "one transform across a pool from C (slab.c): one device's results, FFTW-MPI's split, bad arguments"
gcc -std=c99 "${CWARN[@]}" -pthread "$here/slab.c" $(pkg-config --cflags --libs vkfftgo) -lm -o "$tmp/slab"
VKFFTGO_CACHE_DIR="$tmp/kc-slab" timeout 600 "$tmp/slab"

if [ "${VKFFTGO_CAPI_ASAN:-1}" = 1 ]; then
step "AddressSanitizer: the C consumers and the library's own C code, instrumented (tests/asan/README.md)"
# its C at -O1, as ASan advises (half the engine's compile time at -O2)
cflags=${CGO_CFLAGS:--O2 -g}
CGO_CFLAGS=${cflags//-O2/-O1} VKFFTGO_ASAN=1 GO="$GO" "$root/scripts/build-lib.sh" "$backend" "$tmp/asanlib" >/dev/null
ASAN_CFLAGS=(-g -fsanitize=address -fno-omit-frame-pointer -I"$tmp/asanlib/include" -DVKFFT_BACKEND=$vkb)
ASAN_LIBS=(-L"$tmp/asanlib/lib" -Wl,-rpath,"$tmp/asanlib/lib" -lvkfftgo -lm)
# intercept_tls_get_addr=0: tests/asan/README.md (LeakSanitizer's exit-time scan and dynamic TLS)
export ASAN_OPTIONS=use_sigaltstack=0:detect_leaks=1:intercept_tls_get_addr=0:no_huge_pages_for_shadow=0
export LSAN_OPTIONS=suppressions=$root/tests/asan/lsan-capi.supp:print_suppressions=0
for t in c_consumer threads handles hostreg parity oop fork full c2r fuse pool slab; do
  extra=()
  [ "$t" = parity ] && extra=("${parity_libs[@]}")
  [ "$t" = oop ] && extra=(-ldl)
  gcc -std=c99 -pthread "${ASAN_CFLAGS[@]}" "$here/$t.c" "${ASAN_LIBS[@]}" "${extra[@]}" -o "$tmp/$t-asan"
  timeout 900 "$tmp/$t-asan" >"$tmp/$t-asan.log" 2>&1 || { cat "$tmp/$t-asan.log"; die "$t under AddressSanitizer"; }
  echo "   $t: clean"
done
unset ASAN_OPTIONS LSAN_OPTIONS
else
step "AddressSanitizer: skipped (VKFFTGO_CAPI_ASAN=0: the same C code runs under it against the opencl library)"
fi

step "C++ consumer: its own CMake project with find_package(VkFFTGo), against the moved copy"
cmake -S "$here/cxx" -B "$tmp/cxx" -DCMAKE_PREFIX_PATH="$inst" -DCMAKE_BUILD_TYPE=Release >"$tmp/cmake.log" ||
  { cat "$tmp/cmake.log"; die "cmake configure"; }
grep 'VkFFTGo' "$tmp/cmake.log" | sed 's/^/   /'
cmake --build "$tmp/cxx" -j2 >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; die "cmake build"; }
"$tmp/cxx/cxx_consumer"
"$tmp/cxx/signal_host"
"$tmp/cxx/itk_pattern"

if [ "${VKFFTGO_CAPI_TOPLEVEL_CMAKE:-1}" = 1 ]; then
step "top-level CMakeLists.txt: configure, build, install gives the same tree"
cmake -S "$root" -B "$tmp/cmb" -DVKFFTGO_BACKEND="$backend" >/dev/null
# CMake's build runs build-lib.sh, as make lib did; given make lib's prefix and stamp,
# older than every source so that CMake still runs it, build-lib.sh finds the library up
# to date instead of compiling the engine's C once more (half a minute to a minute here:
# go build -buildmode=c-shared caches no cgo package) and writes everything else anew.
mkdir -p "$tmp/cmb/vkfftgo-prefix"
cp -a "$build/lib" "$build/include" "$build/.libvkfftgo.stamp" "$tmp/cmb/vkfftgo-prefix/"
find "$tmp/cmb/vkfftgo-prefix" -exec touch -h -d @1 {} +
cmake --build "$tmp/cmb" >"$tmp/cmb.log" 2>&1 || { cat "$tmp/cmb.log"; die "cmake --build"; }
grep -o 'build-lib: .*' "$tmp/cmb.log" | sed "s|$tmp/cmb/||; s/^/   /"
cmake --install "$tmp/cmb" --prefix "$tmp/cmi" >/dev/null
diff <(cd "$tmp/cmi" && find . -printf '%y %p %l\n' | sort) <(cd "$inst" && find . -printf '%y %p %l\n' | sort) ||
  die "cmake --install and make install differ"
for f in include/vkfftgo_config.h lib/pkgconfig/vkfftgo.pc lib/cmake/VkFFTGo/VkFFTGoConfig.cmake; do
  cmp -s "$tmp/cmi/$f" "$inst/$f" || die "$f differs between cmake and make"
done
echo "   identical file tree and config files"
else
step "top-level CMakeLists.txt: skipped (VKFFTGO_CAPI_TOPLEVEL_CMAKE=0: it runs the same build-lib.sh as make lib)"
fi

echo "capi tests: all passed"
