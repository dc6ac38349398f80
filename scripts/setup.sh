#!/usr/bin/env bash
# Installs what the build and the tests need on Debian/Ubuntu, idempotently. The real
# FFTW's run-time libraries (libfftw3f.so.3, libfftw3.so.3 and their _threads) are what
# libvkfftgo_fftw3 falls back to for small problems and r2r kinds: without them those
# plans are NULL (scripts/setup-fftw3.sh adds fftw3.h and the test programs' needs).
set -euo pipefail
pkgs=(pocl-opencl-icd ocl-icd-opencl-dev opencl-headers clinfo pkg-config cmake gcc g++ make dpkg-dev
  libfftw3-single3 libfftw3-double3)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! command -v go >/dev/null 2>&1 && [ ! -x /usr/local/go/bin/go ]; then
  echo "setup: Go is required (https://go.dev/dl); it is not installed" >&2
  exit 1
fi
# ITK=1 (make setup ITK=1; make test-itk does it): ITK 5.2 and FFTW for tests/itk
if [ "${ITK:-0}" = 1 ]; then
  "$(dirname "$0")/setup-fftw3.sh" itk
fi
# MPI=1 (make setup MPI=1; make test-mpi does it): Open MPI for libvkfftgo_mpi and tests/mpi
if [ "${MPI:-0}" = 1 ]; then
  "$(dirname "$0")/setup-mpi.sh"
fi
