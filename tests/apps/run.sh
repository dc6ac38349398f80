#!/usr/bin/env bash
# tests/apps/run.sh BUILD — real programs linked with FFTW, run as installed and with
# BUILD/lib/libvkfftgo_fftw3.so preloaded (make test-fftw3-apps, part of make test;
# scripts/setup-fftw3.sh apps installs them): GNU Octave (octave_cases.m: fft, ifft,
# fft2, fftn, real input, fft(x, n), along a dimension, both precisions, the planner
# methods, wisdom, threads), vips (phasecor, fwfft, invfft --real) and ImageMagick
# (-fft/-ift and +fft/+ift). Each preloaded twice: as a user runs it (the cost rule; on
# PoCL it keeps these sizes on FFTW) and with VKFFTGO_FFTW_MIN_SIZE=4096 (every problem
# of 4096 elements and more on the GPU, smaller ones on FFTW). Prints the agreement.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
here=$root/tests/apps
tmp=$(mktemp -d /tmp/vkfftgo-apps.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
step() { printf '== [%3d s] %s\n' "$SECONDS" "$*"; }
die() { echo "FAIL: $*" >&2; exit 1; }
export VKFFTGO_CACHE_DIR=${VKFFTGO_CACHE_DIR:-$tmp/cache}
pre=$build/lib/libvkfftgo_fftw3.so
[ -e "$pre" ] || die "no $pre (make lib)"
IM=/usr/bin/convert-im6.q16 IMCMP=/usr/bin/compare-im6.q16 # Debian's, whatever else is on PATH
for p in octave-cli vips "$IM" "$IMCMP"; do
  command -v "$p" >/dev/null || die "$p is not installed (scripts/setup-fftw3.sh apps)"
done
# as installed | preloaded, the cost rule | preloaded, the GPU from 4096 elements
runs=(ref cost gpu)
with() { # with RUN LOG COMMAND...: the command as that run makes it
  local run=$1 log=$2
  shift 2
  case $run in
  ref) "$@" 2>"$log" ;;
  cost) VKFFTGO_FFTW_LOG=1 LD_PRELOAD="$pre" "$@" 2>"$log" ;;
  gpu) VKFFTGO_FFTW_LOG=1 VKFFTGO_FFTW_MIN_SIZE=4096 LD_PRELOAD="$pre" "$@" 2>"$log" ;;
  esac
}
engines() { echo "$(grep -c -- ' -> gpu' "$1" || true) plans on the GPU, $(grep -c -- ' -> fftw' "$1" || true) on FFTW"; }
# grep without -q reads all of ldd's output: with pipefail an early exit can fail ldd (SIGPIPE)
ldd "$(command -v octave-cli)" | grep 'libfftw3.so.3' >/dev/null || ldd /usr/lib/x86_64-linux-gnu/liboctave.so.* 2>/dev/null | grep 'libfftw3.so.3' >/dev/null ||
  die "octave does not link FFTW"

step "GNU Octave $(octave-cli --version | sed -n '1s/.*version //p'): octave_cases.m as installed, preloaded (cost rule), preloaded (the GPU from 4096 elements)"
oct=(octave-cli -q --norc --no-history) # no history file: Octave 7 reports an error at exit without one
for run in "${runs[@]}"; do
  t0=$SECONDS
  with "$run" "$tmp/octave-$run.log" "${oct[@]}" "$here/octave_cases.m" "$tmp/octave-$run.bin" >"$tmp/octave-$run.out" ||
    { cat "$tmp/octave-$run.out" "$tmp/octave-$run.log"; die "octave ($run)"; }
  echo "   $run: $(tail -n 1 "$tmp/octave-$run.out") in $((SECONDS - t0)) s; $([ "$run" = ref ] && echo "FFTW" || engines "$tmp/octave-$run.log")"
done
grep -h 'wisdom' "$tmp/octave-gpu.out" | sed 's/^/   gpu: /'
for run in cost gpu; do
  "${oct[@]}" "$here/octave_compare.m" "$tmp/octave-ref.bin" "$tmp/octave-$run.bin" >"$tmp/octave-cmp-$run.out" 2>&1 ||
    { cat "$tmp/octave-cmp-$run.out"; die "octave: the $run run's results differ from FFTW's"; }
  echo "   $run against FFTW: $(tail -n 1 "$tmp/octave-cmp-$run.out" | sed 's/^octave_compare: //')"
done
g=$tmp/octave-gpu.log
grep -q 'f64 c2c forward 8192.* -> gpu' "$g" || die "octave: a large double fft did not go to the GPU"
grep -q 'f32 c2c forward 8192.* -> gpu' "$g" || die "octave: a large single fft did not go to the GPU"
grep -q 'f64 r2c .* -> gpu' "$g" || die "octave: a real-input fft did not go to the GPU"
grep -q 'c2c forward 100, .* -> fftw' "$g" || die "octave: a small fft did not stay on FFTW"
for f in MEASURE PATIENT EXHAUSTIVE; do
  grep -q "flags $f" "$g" || die "octave: fftw('planner') did not reach the planner ($f)"
done
awk -f "$root/tests/fftw3/decisions.awk" "$tmp/octave-cost.log" >"$tmp/octave-cost.dec" ||
  { cat "$tmp/octave-cost.dec"; die "octave: a decision contradicts its logged costs"; }
sed 's/^/   cost rule: /' "$tmp/octave-cost.dec" | tail -n 1
sed -n 's/^   \(fft_pad_single\|fft_dim2_double\|fftn_real_single\|planner_measure\) /   gpu run: \1 /p' "$tmp/octave-cmp-gpu.out"

# vips_diff A B: the largest |A - B| against A's largest magnitude, and the relative L2
# difference, from vips stats (min max sum sum^2 ...)
vips_diff() {
  vips subtract "$1" "$2" "$tmp/d.v"
  vips abs "$tmp/d.v" "$tmp/ad.v"
  vips abs "$1" "$tmp/aa.v"
  vips stats "$tmp/ad.v" "$tmp/sd.v" && vips matrixsave "$tmp/sd.v" "$tmp/sd.mat"
  vips stats "$tmp/aa.v" "$tmp/sa.v" && vips matrixsave "$tmp/sa.v" "$tmp/sa.mat"
  paste <(sed -n 2p "$tmp/sd.mat") <(sed -n 2p "$tmp/sa.mat") | awk '{
    n = NF / 2; max = $2; ss = $4; peak = $(n + 2); ref = $(n + 4)
    printf "max |difference| %.3g of the peak %.6g (%.2e), relative L2 %.2e\n", max, peak, max / peak, sqrt(ss / ref) }'
}
vips_rel() { sed 's/.*relative L2 //' <<<"$1"; }

step "vips $(vips --version | sed 's/^vips-//'): phasecor, fwfft, invfft --real on a 256x256 noise image and a shifted copy, as installed and preloaded"
cd "$tmp"
vips gaussnoise g.v 256 256 --seed 7
vips wrap g.v gw.v --x 17 --y 9
for run in "${runs[@]}"; do
  mkdir -p "vips-$run"
  { with "$run" "vips-$run.log" vips phasecor g.v gw.v "vips-$run/p.v" &&
    with "$run" "vips-$run.log2" vips fwfft g.v "vips-$run/f.v" &&
    with "$run" "vips-$run.log3" vips invfft "vips-$run/f.v" "vips-$run/r.v" --real; } ||
    { cat vips-"$run".log*; die "vips ($run)"; }
  cat "vips-$run.log2" "vips-$run.log3" >>"vips-$run.log"
done
# vips max --x --y prints x, y, then the maximum
peak=$(vips max vips-ref/p.v --x --y | tr '\n' ' ')
echo "   phasecor's peak as installed: x y max = $peak(the shift: x $((256 - 17)), y $((256 - 9)))"
for run in cost gpu; do
  got=$(vips max "vips-$run/p.v" --x --y | tr '\n' ' ')
  [ "${got% * }" = "${peak% * }" ] || die "vips phasecor ($run): the peak moved ($got, FFTW's $peak)"
  for o in p f r; do
    d=$(vips_diff "vips-ref/$o.v" "vips-$run/$o.v")
    name=$(case $o in p) echo "phasecor     " ;; f) echo "fwfft        " ;; r) echo "invfft --real" ;; esac)
    echo "   $run $name $d"
    awk -v r="$(vips_rel "$d")" 'BEGIN { exit !(r <= 1e-12) }' || die "vips $name ($run) differs from FFTW's beyond 1e-12"
  done
  echo "   $run: $(engines "vips-$run.log")"
done
grep -q 'r2c 256x256.* -> gpu' vips-gpu.log && grep -q 'c2r 256x256.* -> gpu' vips-gpu.log ||
  die "vips: the GPU run did not put its r2c and c2r on the GPU"
awk -f "$root/tests/fftw3/decisions.awk" vips-cost.log >/dev/null || die "vips: a decision contradicts its logged costs"

step "ImageMagick $("$IM" -version | sed -n '1s/^Version: ImageMagick \([^ ]*\).*/\1/p'): -fft/-ift (magnitude, phase) and +fft/+ift (real, imaginary) of a 256x256 image, as installed and preloaded"
"$IM" -size 256x256 -seed 7 plasma:fractal -colorspace gray im.png
for run in "${runs[@]}"; do
  mkdir -p "im-$run"
  { with "$run" "im-$run.log" "$IM" im.png -fft "im-$run/fft-%d.png" &&
    with "$run" "im-$run.log2" "$IM" im-ref/fft-0.png im-ref/fft-1.png -ift "im-$run/ift.png" &&
    with "$run" "im-$run.log3" "$IM" im.png +fft "im-$run/rfft-%d.png" &&
    with "$run" "im-$run.log4" "$IM" im-ref/rfft-0.png im-ref/rfft-1.png +ift "im-$run/rift.png"; } ||
    { cat im-"$run".log*; die "ImageMagick ($run)"; }
  cat "im-$run.log2" "im-$run.log3" "im-$run.log4" >>"im-$run.log"
done
for run in cost gpu; do
  line=""
  for o in fft-0 fft-1 ift rfft-0 rfft-1 rift; do
    ae=$("$IMCMP" -metric AE "im-ref/$o.png" "im-$run/$o.png" null: 2>&1 || true)
    pae=$("$IMCMP" -metric PAE "im-ref/$o.png" "im-$run/$o.png" null: 2>&1 || true)
    line="$line $o: $ae px, peak $pae;"
    # 16-bit outputs: a value that rounds the other way is one unit of 65535
    awk -v p="${pae%% *}" 'BEGIN { exit !(p + 0 <= 1) }' || die "ImageMagick $o ($run) differs from FFTW's by $pae"
  done
  echo "   $run (differing pixels, largest difference in 16-bit units):$line"
  echo "   $run: $(engines "im-$run.log")"
done
grep -q 'f64 r2c 256x256.* -> gpu' im-gpu.log && grep -q 'f64 c2r 256x256.* -> gpu' im-gpu.log ||
  die "ImageMagick: the GPU run did not put its r2c and c2r on the GPU"
awk -f "$root/tests/fftw3/decisions.awk" im-cost.log >/dev/null || die "ImageMagick: a decision contradicts its logged costs"
echo "apps tests: all passed"
