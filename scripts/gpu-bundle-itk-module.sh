#!/usr/bin/env bash
# gpu-bundle-itk-module.sh CUDA_PREFIX BUNDLE — the GPU bundle's part for
# tests/gpu/steps/itk-module.sh, packed into BUNDLE/itk-module/itk-module.tar.xz:
#   bin/itk_vk_bench   tests/itk-module/bench against the module (itk/, Release), built
#                      against the cuda library in CUDA_PREFIX
#   lib/               libvkfftgo.so.0 (cuda), libVkFFTBackend.so.0, and the ITK and FFTW
#                      libraries the benchmark loads (ldd), stripped
#   compat/            bookworm's libstdc++ (used only if the host's is older)
# Needs ITK (make setup ITK=1) and CUDA_PREFIX from `make lib BACKEND=cuda
# BUILD=CUDA_PREFIX`; mk/itk-module.mk's gpu-bundle-itk-module does both. The cuda
# library's libcuda and libnvrtc exist only on the GPU machine: links allow them missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cuda=$(cd "${1:?usage: gpu-bundle-itk-module.sh CUDA_PREFIX BUNDLE}" && pwd)
bundle=${2:?}
nm -D --defined-only "$cuda/lib/libvkfftgo.so" | grep -q vkfftgo_library_backend_is_cuda ||
  { echo "gpu-bundle-itk-module: $cuda/lib/libvkfftgo.so is not a cuda build" >&2; exit 1; }
work=$(mktemp -d /tmp/vkfftgo-itkmod-bundle.XXXXXX)
trap 'rm -rf "$work"' EXIT
stage=$work/stage
mkdir -p "$stage/bin" "$stage/lib" "$stage/compat"
links=-Wl,--allow-shlib-undefined

cmake -S "$root/itk" -B "$work/mod" -DVkFFTGo_DIR="$cuda/lib/cmake/VkFFTGo" -DCMAKE_BUILD_TYPE=Release \
  -DBUILD_TESTING=OFF -DCMAKE_SHARED_LINKER_FLAGS="$links" >"$work/mod.log" 2>&1 || { cat "$work/mod.log"; exit 1; }
cmake --build "$work/mod" -j2 >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
cmake --install "$work/mod" --prefix "$work/inst" >/dev/null
cmake -S "$root/tests/itk-module/bench" -B "$work/bench" -DCMAKE_PREFIX_PATH="$work/inst;$cuda" \
  -DCMAKE_EXE_LINKER_FLAGS="$links" >"$work/bench.log" 2>&1 || { cat "$work/bench.log"; exit 1; }
cmake --build "$work/bench" -j2 >"$work/bench-build.log" 2>&1 || { tail -40 "$work/bench-build.log"; exit 1; }
cp "$work/bench/itk_vk_bench" "$stage/bin/"
strip "$stage/bin/itk_vk_bench"

cp -L "$cuda/lib/libvkfftgo.so.0" "$work/inst/lib/libVkFFTBackend.so.0" "$stage/lib/"
# what the benchmark loads besides the C/C++ runtime and the GPU driver
LD_LIBRARY_PATH="$work/inst/lib:$cuda/lib" ldd "$stage/bin/itk_vk_bench" | awk '$3 ~ /^\// {print $3}' |
  grep -E '/lib(ITK|itk|fftw3|hdf5|gdcm|dcmtk|jpeg|png|tiff|z\.|minc|nifti|double-conversion)' | while read -r l; do
  [ -e "$stage/lib/$(basename "$l")" ] || cp -L "$l" "$stage/lib/"
done
strip --strip-unneeded "$stage"/lib/*
cp -L "$(g++ -print-file-name=libstdc++.so.6)" "$stage/compat/"
strip --strip-unneeded "$stage/compat/"*

mkdir -p "$bundle/itk-module"
tar -cJf "$bundle/itk-module/itk-module.tar.xz" -C "$stage" .
echo "gpu-bundle-itk-module: $(du -sh "$stage" | cut -f1) unpacked, $(du -h "$bundle/itk-module/itk-module.tar.xz" | cut -f1) as $bundle/itk-module/itk-module.tar.xz"
