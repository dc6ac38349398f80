#!/usr/bin/env bash
# setup-mpi.sh — what libvkfftgo_mpi and its tests need, idempotently: Open MPI from
# Debian (openmpi-bin: mpirun; libopenmpi-dev: mpi.h, mpicc and ompi-c.pc). make setup
# MPI=1 runs it, and so does make test-mpi; make lib builds libvkfftgo_mpi only where
# MPI is found, so nothing else installs it. Recommends are left out (they pull in a
# Fortran compiler and documentation).
set -euo pipefail
pkgs=(openmpi-bin libopenmpi-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
echo "setup-mpi: installing ${missing[*]}"
t0=$SECONDS
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup-mpi: installed in $((SECONDS - t0)) s"
