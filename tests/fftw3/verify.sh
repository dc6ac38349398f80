#!/usr/bin/env bash
# tests/fftw3/verify.sh BUILD — FFTW's own verifier against libvkfftgo_fftw3.
#
# Builds FFTW 3.3.10's bench program (tests/bench.c, tests/fftw-bench.c, libbench2) from
# the pinned Debian source (scripts/fftw-source.sh; never committed) against
# libvkfftgo_fftw3 in BUILD — with FFTW's internal planner hooks stubbed
# (bench/hook.c) — once per precision, and runs `bench --verify` over
# verify-problems.txt: linearity, impulse response, and time and frequency shifts of
# every problem (libbench2's verify), FFTW's tolerances (1e-3 single, 1e-10 double).
# The GPU takes every problem it can (VKFFTGO_FFTW_MIN_SIZE=0) and the log must say so;
# the problems marked "# fftw" must go to the real FFTW.
#
# VFW_VERIFY_BUILD_ONLY=1 only builds bench-single and bench-double into VFW_VERIFY_DIR,
# linked with RPATH VFW_BENCH_RPATH (default BUILD/lib) and VFW_BENCH_LDFLAGS: the GPU
# bundle carries them.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
here="$root/tests/fftw3"
src=$("$root/scripts/fftw-source.sh")
work=${VFW_VERIFY_DIR:-$(mktemp -d /tmp/vkfftgo-verify.XXXXXX)}
mkdir -p "$work"
step() { printf '== [%3d s] %s\n' "$SECONDS" "$*"; }
die() { echo "FAIL: $*" >&2; exit 1; }

mapfile -t gpu_problems < <(sed -e '/^#/d' -e '/^ *$/d' -e '/# fftw/d' -e 's/ *#.*//' "$here/verify-problems.txt")
mapfile -t cpu_problems < <(grep '# fftw' "$here/verify-problems.txt" | sed -e '/^#/d' -e 's/ *#.*//')

step "build FFTW's bench (libbench2 + tests/bench.c from fftw-3.3.10, hooks stubbed) against libvkfftgo_fftw3"
benchsrc=("$src"/libbench2/*.c "$src/tests/bench.c" "$src/tests/fftw-bench.c" "$here/bench/hook.c")
for prec in single double; do
  def=; [ $prec = single ] && def=-DBENCHFFT_SINGLE
  rm -rf "$work/obj-$prec" && mkdir -p "$work/obj-$prec/lib"
  for f in "${benchsrc[@]}"; do
    o="$work/obj-$prec/$(basename "${f%.c}").o"
    case $f in */libbench2/*) o="$work/obj-$prec/lib/$(basename "${f%.c}").o" ;; esac
    gcc -O1 -std=gnu99 -w $def -I"$here/bench" -I"$src" -c "$f" -o "$o" &
  done
  wait
  # libbench2 is an archive, as in FFTW's build: its default useropt() etc. give way
  rm -f "$work/obj-$prec/libbench2.a"
  ar rcs "$work/obj-$prec/libbench2.a" "$work/obj-$prec/lib"/*.o
  gcc -o "$work/bench-$prec" "$work/obj-$prec"/*.o "$work/obj-$prec/libbench2.a" -L"$build/lib" \
    -Wl,-rpath,"${VFW_BENCH_RPATH:-$build/lib}" -lvkfftgo_fftw3 -lm ${VFW_BENCH_LDFLAGS:-} || die "linking bench ($prec)"
  readelf -d "$work/bench-$prec" | grep -q 'NEEDED.*libfftw3' && die "bench-$prec links the real FFTW"
done
echo "   $work/bench-{single,double}: ${#benchsrc[@]} files; linked only with libvkfftgo_fftw3 (the real FFTW is dlopen'ed)"
[ "${VFW_VERIFY_BUILD_ONLY:-0}" = 1 ] && exit 0

export VKFFTGO_FFTW_MIN_SIZE=0 VKFFTGO_FFTW_LOG=1
total=0
maxerr() { # the worst of libbench2's "problem l i s" error lines
  awk 'NF == 4 && $2 ~ /^[0-9.e+-]+$/ { for (i = 2; i <= 4; i++) if ($i + 0 > m) { m = $i + 0; p = $1 } } END { printf "%.2e (%s)", m, p }' "$1"
}
for prec in single double; do
  args=()
  for p in "${gpu_problems[@]}"; do args+=(--verify "$p"); done
  step "bench --verify, $prec precision: ${#gpu_problems[@]} problems on the GPU (c2c, r2c, c2r; rank 1-3; primes; howmany > 1; in-place and out-of-place)"
  if ! "$work/bench-$prec" -v1 "${args[@]}" >"$work/gpu-$prec.out" 2>"$work/gpu-$prec.log"; then
    tail -n 30 "$work/gpu-$prec.out" "$work/gpu-$prec.log"
    die "bench --verify ($prec) failed"
  fi
  n=$(awk 'NF == 4' "$work/gpu-$prec.out" | wc -l)
  [ "$n" = "${#gpu_problems[@]}" ] || die "$n of ${#gpu_problems[@]} problems reported"
  grep -E -- '-> (fftw|NULL)' "$work/gpu-$prec.log" && die "a problem the GPU takes went elsewhere"
  g=$(grep -c -- '-> gpu' "$work/gpu-$prec.log" || true)
  [ "$g" -ge "$n" ] || die "only $g GPU plans for $n problems"
  echo "   $n problems verified, $g plans on the GPU, worst error $(maxerr "$work/gpu-$prec.out")"
  total=$((total + n))

  args=()
  for p in "${cpu_problems[@]}"; do args+=(--verify "$p"); done
  step "bench --verify, $prec precision: ${#cpu_problems[@]} problems for the real FFTW (r2r kinds, split arrays)"
  if ! "$work/bench-$prec" -v1 "${args[@]}" >"$work/cpu-$prec.out" 2>"$work/cpu-$prec.log"; then
    tail -n 30 "$work/cpu-$prec.out" "$work/cpu-$prec.log"
    die "bench --verify ($prec, fallback) failed"
  fi
  n=$(awk 'NF == 4' "$work/cpu-$prec.out" | wc -l)
  [ "$n" = "${#cpu_problems[@]}" ] || die "$n of ${#cpu_problems[@]} fallback problems reported"
  grep -E -- '-> (gpu|NULL)' "$work/cpu-$prec.log" && die "an r2r/split problem did not go to FFTW"
  echo "   $n problems verified through the real FFTW, worst error $(maxerr "$work/cpu-$prec.out")"
  total=$((total + n))
done
echo "verify: $total problems passed FFTW's verifier"
[ -n "${VFW_VERIFY_DIR:-}" ] || rm -rf "$work"
