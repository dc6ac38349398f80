#!/usr/bin/env bash
# install-lib.sh FROM DEST
# Copies the library prefix that build-lib.sh made in FROM into DEST (DESTDIR+PREFIX):
# lib/libvkfftgo.so* (links kept), include/vkfftgo{,_config}.h, lib/pkgconfig/vkfftgo.pc,
# lib/cmake/VkFFTGo/, and libvkfftgo_fftw3.so* with vkfftgo-fftw3.pc (and libvkfftgo_mpi's
# files where it was built). Nothing installed
# contains a path: the config files find their prefix from their own location.
set -euo pipefail
from=${1:?usage: install-lib.sh FROM DEST}
dest=${2:?usage: install-lib.sh FROM DEST}
install -d "$dest/lib/pkgconfig" "$dest/lib/cmake/VkFFTGo" "$dest/include"
for f in "$from"/lib/libvkfftgo.so.*.*.*; do install -m 0755 "$f" "$dest/lib/"; done
cp -P "$from/lib/libvkfftgo.so" "$from"/lib/libvkfftgo.so.[0-9] "$dest/lib/"
install -m 0644 "$from/include/vkfftgo.h" "$from/include/vkfftgo_config.h" "$dest/include/"
install -m 0644 "$from/lib/pkgconfig/vkfftgo.pc" "$dest/lib/pkgconfig/"
install -m 0644 "$from"/lib/cmake/VkFFTGo/VkFFTGo*.cmake "$dest/lib/cmake/VkFFTGo/"
# libvkfftgo_fftw3 (FFTW's API), its vkfftgo-fftw3.pc (VkFFTGoFFTW3.cmake came above)
for f in "$from"/lib/libvkfftgo_fftw3.so.*.*.*; do install -m 0755 "$f" "$dest/lib/"; done
cp -P "$from/lib/libvkfftgo_fftw3.so" "$from"/lib/libvkfftgo_fftw3.so.[0-9] "$dest/lib/"
install -m 0644 "$from/lib/pkgconfig/vkfftgo-fftw3.pc" "$dest/lib/pkgconfig/"
# libvkfftgo_mpi, where build-mpi.sh built it (MPI found): vkfftgo_mpi.h, vkfftgo-mpi.pc
if [ -e "$from/lib/libvkfftgo_mpi.so" ]; then
  for f in "$from"/lib/libvkfftgo_mpi.so.*.*.*; do install -m 0755 "$f" "$dest/lib/"; done
  cp -P "$from/lib/libvkfftgo_mpi.so" "$from"/lib/libvkfftgo_mpi.so.[0-9] "$dest/lib/"
  install -m 0644 "$from/include/vkfftgo_mpi.h" "$dest/include/"
  install -m 0644 "$from/lib/pkgconfig/vkfftgo-mpi.pc" "$dest/lib/pkgconfig/"
fi
echo "install-lib: installed into $dest"
