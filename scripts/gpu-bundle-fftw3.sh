#!/usr/bin/env bash
# gpu-bundle-fftw3.sh BUILD CUDA_PREFIX BUNDLE — the GPU bundle's part for
# tests/gpu/steps/fftw.sh, packed into BUNDLE/fftw3/fftw3.tar.xz:
#   bin/itk_fft     the ITK program of tests/itk (ITK 5.2 + FFTW, built here, unmodified)
#   bin/fftbench    FFTW's timing of a 3-D r2c/c2r pair (tests/fftw3/fftbench.c, -lfftw3f)
#   bin/preload     tests/fftw3/preload.c (an FFTW program: as built vs preloaded)
#   bin/bench-{single,double}  FFTW's verifier linked with libvkfftgo_fftw3 (RPATH ../lib)
#   lib/            libvkfftgo.so.0 of the cuda build in CUDA_PREFIX and libvkfftgo_fftw3
#                   built on it; the ITK libraries itk_fft needs (ldd) and FFTW's
#                   libraries, stripped
#   compat/         bookworm's libstdc++ (used only if the host's is older)
#   verify-problems.txt, decisions.awk  the verifier's problems; the check that each
#                   logged engine choice is the cheaper of its logged costs
# Needs ITK and FFTW installed (make setup ITK=1) and CUDA_PREFIX from
# `make lib BACKEND=cuda BUILD=CUDA_PREFIX`; mk/fftw3.mk's gpu-bundle-fftw3 does both.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: gpu-bundle-fftw3.sh BUILD CUDA_PREFIX BUNDLE}" && pwd)
cuda=$(cd "${2:?}" && pwd)
bundle=${3:?}
nm -D --defined-only "$cuda/lib/libvkfftgo.so" | grep -q vkfftgo_library_backend_is_cuda ||
  { echo "gpu-bundle-fftw3: $cuda/lib/libvkfftgo.so is not a cuda build" >&2; exit 1; }
stage=$(mktemp -d /tmp/vkfftgo-fftw3-bundle.XXXXXX)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" "$stage/compat"

# the ITK program (tests/itk, the same CMake project make test-itk builds)
cmake -S "$root/tests/itk" -B "$build/itk" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build/itk" -j2 >/dev/null
cp "$build/itk/itk_fft" "$stage/bin/"
# plain FFTW programs, linked with FFTW's own libraries
gcc -O2 "$root/tests/fftw3/fftbench.c" -lfftw3f_threads -lfftw3f -lm -o "$stage/bin/fftbench"
gcc -O2 "$root/tests/fftw3/preload.c" -lfftw3f_threads -lfftw3f -lfftw3 -lm -o "$stage/bin/preload"
# FFTW's verifier against the cuda library (whose libcuda/libnvrtc exist only there)
VFW_VERIFY_DIR="$stage/verify" VFW_VERIFY_BUILD_ONLY=1 VFW_BENCH_RPATH='$ORIGIN/../lib' \
  VFW_BENCH_LDFLAGS=-Wl,--allow-shlib-undefined \
  "$root/tests/fftw3/verify.sh" "$cuda" >/dev/null
cp "$stage/verify/bench-single" "$stage/verify/bench-double" "$stage/bin/"
rm -rf "$stage/verify"
cp "$root/tests/fftw3/verify-problems.txt" "$root/tests/fftw3/decisions.awk" "$stage/"
strip "$stage"/bin/*

# libvkfftgo (cuda) and libvkfftgo_fftw3 built against it
cp -L "$cuda/lib/libvkfftgo.so.0" "$cuda/lib/libvkfftgo_fftw3.so.0" "$stage/lib/"
# what itk_fft loads besides the C/C++ runtime: ITK's libraries and FFTW's
ldd "$stage/bin/itk_fft" | awk '$3 ~ /^\// {print $3}' | grep -E '/lib(ITK|itk|fftw3)' | while read -r l; do
  cp -L "$l" "$stage/lib/"
done
for l in libfftw3f.so.3 libfftw3f_threads.so.3 libfftw3.so.3 libfftw3_threads.so.3; do
  [ -e "$stage/lib/$l" ] || cp -L "/usr/lib/x86_64-linux-gnu/$l" "$stage/lib/"
done
strip --strip-unneeded "$stage"/lib/*
cp -L "$(g++ -print-file-name=libstdc++.so.6)" "$stage/compat/"
strip --strip-unneeded "$stage/compat/"*

mkdir -p "$bundle/fftw3"
tar -cJf "$bundle/fftw3/fftw3.tar.xz" -C "$stage" .
echo "gpu-bundle-fftw3: $(du -sh "$stage" | cut -f1) unpacked, $(du -h "$bundle/fftw3/fftw3.tar.xz" | cut -f1) as $bundle/fftw3/fftw3.tar.xz"
