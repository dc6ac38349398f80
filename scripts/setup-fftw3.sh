#!/usr/bin/env bash
# setup-fftw3.sh [itk] [apps] — what the FFTW3-compatibility tests need, idempotently:
# libfftw3-dev (FFTW's fftw3.h for the test programs, and the real FFTW libraries the
# fallback loads), python3-pyfftw and python3-numpy (an FFTW-linked Python extension,
# for the multiprocessing fork test, tests/fftw3/fork_pool.py, run by the system
# /usr/bin/python3); with "itk" also libinsighttoolkit5-dev (ITK 5.2.1, for tests/itk);
# with "apps" GNU Octave, vips and ImageMagick, programs linked with FFTW (for
# tests/apps: octave-cli, vips phasecor/invfft, magick -fft/-ift; recommends left out).
# Debian bookworm's packages; nothing else on the machine changes.
set -euo pipefail
pkgs=(libfftw3-dev python3-pyfftw python3-numpy)
for a in "$@"; do
  case $a in
  itk) pkgs+=(libinsighttoolkit5-dev) ;;
  apps) pkgs+=(octave libvips-tools imagemagick) ;;
  *) echo "setup-fftw3: unknown part $a (itk, apps)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
echo "setup-fftw3: installing ${missing[*]}"
t0=$SECONDS
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup-fftw3: installed in $((SECONDS - t0)) s"
