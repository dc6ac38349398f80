#!/usr/bin/env bash
# tests/itk/run.sh BUILD — unmodified ITK 5.2 through libvkfftgo_fftw3 (make test-itk).
#
# Builds tests/itk (find_package(ITK); Debian's ITK uses FFTW for float and double),
# runs it as built — FFTW computes — and with LD_PRELOAD=BUILD/lib/libvkfftgo_fftw3.so,
# and compares: forward and inverse FFT of a 3-D float image
# (itk::ForwardFFTImageFilter, itk::InverseFFTImageFilter) and
# itk::FFTConvolutionImageFilter (which transforms in double precision). The log must
# show the GPU took every large plan. On PoCL (a CPU "GPU") the measured threshold
# would rightly keep everything on FFTW, so the test sets VKFFTGO_FFTW_MIN_SIZE=4096.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
n=${ITK_TEST_SIZE:-64} k=${ITK_TEST_KERNEL:-7}
tmp=$(mktemp -d /tmp/vkfftgo-itk.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
step() { printf '== [%3d s] %s\n' "$SECONDS" "$*"; }
die() { echo "FAIL: $*" >&2; exit 1; }
export VKFFTGO_CACHE_DIR=${VKFFTGO_CACHE_DIR:-$tmp/cache}
export ITK_FFTW_READ_WISDOM_CACHE=n ITK_FFTW_WRITE_WISDOM_CACHE=n # no ~/.itkwisdomfftw
itkbuild=$build/itk

step "build tests/itk with find_package(ITK) (ITK's FFTW filters; links FFTW, not vkfftgo)"
t0=$SECONDS
cmake -S "$root/tests/itk" -B "$itkbuild" -DCMAKE_BUILD_TYPE=Release >"$tmp/cmake.log" 2>&1 ||
  { cat "$tmp/cmake.log"; die "cmake configure (is libinsighttoolkit5-dev installed? make setup ITK=1)"; }
grep -- '-- ITK ' "$tmp/cmake.log" | sed 's/^/   /'
cmake --build "$itkbuild" -j2 >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; die "cmake build"; }
prog=$itkbuild/itk_fft
ldd "$prog" | grep 'libfftw3f.so.3' >/dev/null || die "itk_fft does not use FFTW"
ldd "$prog" | grep -q 'vkfftgo' && die "itk_fft links vkfftgo (it must be unmodified)"
echo "   built in $((SECONDS - t0)) s; $(ldd "$prog" | grep -c 'libITK\|libitk') ITK libraries, FFTW: $(ldd "$prog" | grep -o 'libfftw3[a-z_]*.so.3' | sort -u | tr '\n' ' ')"

step "as built: FFTW computes ${n}^3 forward/inverse FFT and FFT convolution with a ${k}^3 kernel"
"$prog" run "$tmp" "$n" "$k" >"$tmp/fftw.out" 2>&1 || { cat "$tmp/fftw.out"; die "itk_fft (FFTW)"; }
sed 's/^/   /' "$tmp/fftw.out"
mkdir -p "$tmp/fftw" "$tmp/gpu"
mv "$tmp"/*.raw "$tmp/fftw/"

step "preloaded: LD_PRELOAD=libvkfftgo_fftw3.so, the same binary"
VKFFTGO_FFTW_MIN_SIZE=4096 VKFFTGO_FFTW_LOG=1 VKFFTGO_FFTW_STATS=1 LD_PRELOAD="$build/lib/libvkfftgo_fftw3.so" \
  "$prog" run "$tmp/gpu" "$n" "$k" >"$tmp/gpu.out" 2>"$tmp/gpu.log" || { cat "$tmp/gpu.out" "$tmp/gpu.log"; die "itk_fft (preloaded)"; }
sed 's/^/   /' "$tmp/gpu.out" "$tmp/gpu.log"
plans=$(grep -c -- ' -> ' "$tmp/gpu.log" || true)
gpu=$(grep -c -- ' -> gpu' "$tmp/gpu.log" || true)
[ "$plans" -ge 4 ] || die "only $plans plans logged: the preload did not take ITK's FFTW calls"
grep -E -- ' -> (fftw|NULL)' "$tmp/gpu.log" && die "a large ITK plan did not go to the GPU"
grep -q 'f32 r2c '"$n"'x'"$n"'x'"$n"'.* -> gpu' "$tmp/gpu.log" || die "the forward FFT did not go to the GPU"
grep -q 'f32 c2r '"$n"'x'"$n"'x'"$n"'.* -> gpu' "$tmp/gpu.log" || die "the inverse FFT did not go to the GPU"
grep -q 'f64 r2c .* -> gpu.*(plan cache hit)' "$tmp/gpu.log" || die "FFTConvolutionImageFilter's repeated plans did not come from the plan cache"
echo "   $gpu of $plans plans on the GPU"

step "agreement: ITK's outputs with FFTW and with the GPU"
"$prog" compare "$tmp/fftw" "$tmp/gpu" || die "outputs differ beyond single-precision tolerance"

step "preloaded with no VKFFTGO_ variable: each plan where its costs say (ITK plans with FFTW_ESTIMATE, creates and destroys a plan per Update())"
mkdir -p "$tmp/cost"
VKFFTGO_FFTW_LOG=1 LD_PRELOAD="$build/lib/libvkfftgo_fftw3.so" "$prog" run "$tmp/cost" "$n" "$k" >"$tmp/cost.out" 2>"$tmp/cost.log" ||
  { cat "$tmp/cost.out" "$tmp/cost.log"; die "itk_fft (preloaded, the cost rule)"; }
sed 's/^/   /' "$tmp/cost.out"
awk -f "$root/tests/fftw3/decisions.awk" "$tmp/cost.log" | sed 's/^/   /' || die "a decision contradicts its logged costs"
grep -q 'flags ESTIMATE' "$tmp/cost.log" || die "ITK did not plan with FFTW_ESTIMATE"
grep -q -- '-> [a-z]*[ :(].*pattern create/execute/destroy' "$tmp/cost.log" || die "ITK's create/execute/destroy pattern was not seen"
"$prog" compare "$tmp/fftw" "$tmp/cost" || die "outputs differ beyond single-precision tolerance (the cost rule)"
echo "itk tests: all passed"
