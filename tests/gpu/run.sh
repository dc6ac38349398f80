#!/usr/bin/env bash
# Runs the GPU bundle (make gpu-bundle) on a machine with an NVIDIA GPU and driver; needs
# no Go and no network. From the bundle folder (or the repository, for .gpu/):
#   ./run.sh [STEP...]     steps: info syntax tests interop leak sanitizer bench cachebench,
#                          then one per steps/NAME.sh (default: all)
# Logs go to $OUT (default ./gpu-logs); the summary at the end says what passed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
B=$here
[ -x "$B/vkfft.test" ] || B=$here/../../.gpu
B=$(cd "$B" && pwd)
OUT=${OUT:-$PWD/gpu-logs}
mkdir -p "$OUT"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
extra=$(cd "$B/steps" 2>/dev/null && ls *.sh 2>/dev/null | sed 's/\.sh$//' | tr '\n' ' ')
steps=${*:-info syntax tests interop leak sanitizer bench cachebench $extra}
declare -A res

# The binaries open libcuda.so.1 and the newest NVRTC installed (libnvrtc.so.13, .12, .11.2;
# VKFFTGO_NVRTC names another) at run time. A bundle made with NVRTC_DEBS=1 also carries
# Debian's NVRTC 12.4, used when the machine has no NVRTC or VKFFTGO_BUNDLED_NVRTC=1.
LD_ORIG=${LD_LIBRARY_PATH:-}
system_nvrtc() {
	ldconfig -p 2>/dev/null | grep -qE 'libnvrtc\.so\.(13|12|11\.2) ' ||
		ls "${CUDA_HOME:-/usr/local/cuda}"/lib64/libnvrtc.so.1[123]* >/dev/null 2>&1
}
if ls "$B"/debs/*.deb >/dev/null 2>&1 && { [ "${VKFFTGO_BUNDLED_NVRTC:-}" = 1 ] || ! system_nvrtc; }; then
	for d in "$B"/debs/*.deb; do dpkg-deb -x "$d" "$W/nvrtc"; done
	export LD_LIBRARY_PATH=$W/nvrtc/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export VKFFTGO_NVRTC=$W/nvrtc/usr/lib/x86_64-linux-gnu/libnvrtc.so.12
	echo "NVRTC: the bundled 12.4 ($VKFFTGO_NVRTC)"
else
	echo "NVRTC: the system's (newest of libnvrtc.so.13, .12, .11.2)"
fi
export VKFFTGO_CACHE_DIR=$W/kcache  # no kernel cache from earlier runs: plans compile cold
cd "$W"

step() { # name timeout command...
	local name=$1 t=$2; shift 2
	echo "=== $name: $*"
	local t0=$SECONDS
	timeout "$t" "$@" >"$OUT/$name.log" 2>&1
	local rc=$?
	res[$name]="rc=$rc $((SECONDS - t0))s"
	tail -n 25 "$OUT/$name.log"
	return $rc
}

for s in $steps; do
	case $s in
	info)
		nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used --format=csv | tee "$OUT/info.log"
		res[info]=ok ;;
	syntax) # the C layer against this machine's CUDA headers (CUDA 13 on the H200)
		mkdir -p "$W/vk" && tar -xzf "$B/src/vkfft-headers.tgz" -C "$W/vk"
		inc=${CUDA_HOME:-/usr/local/cuda}/include
		step syntax 120 bash -c "grep -m1 'define CUDA_VERSION' $inc/cuda.h; for f in \$(cd $B/src && ls *.c); do gcc -fsyntax-only -w -DVKFFT_BACKEND=1 -I$inc -I$W/vk $B/src/\$f && echo \"\$f: ok\" || exit 1; done" ;;
	tests)
		step tests 900 "$B/vkfft.test" -test.count=1 -test.timeout=15m -test.v ;;
	interop)
		step interop 300 "$B/cuinterop.test" -test.count=1 -test.v ;;
	leak)
		for n in 200 10000; do
			VKFFTGO_LEAK_ROUNDS=$n step leak$n 600 "$B/vkfft.test" -test.count=1 -test.v \
				-test.run 'TestRepeatedTransformsDoNotLeak|TestCUDAPlanChurnDoesNotLeak'
		done ;;
	sanitizer)
		cs=$(command -v compute-sanitizer || echo "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer")
		step sanitizer 600 "$cs" --tool memcheck --error-exitcode 3 "$B/vkfft.test" -test.count=1 -test.v \
			-test.run 'TestCUDAPointersOnCallerStream|TestCUDACallerContextUntouched|TestCUDAPrimaryContext' ;;
	bench)
		step rawbench 300 "$B/rawbench"
		step bench 600 "$B/bench" -raw "$OUT/rawbench.log" ;;
	cachebench) # plan creation: cold, from disk in fresh processes, from memory (vkfft cache bench)
		step cachebench 600 "$B/vkfft" cache bench -runs 5
		step clibench 300 "$B/vkfft" bench -shapes 256x256x256,4096x4096,4096:16384,256x256x256@c128 ;;
	*) # a step of its own file (tests/gpu/steps/NAME.sh), sourced here: it may use step,
	   # $B (the bundle), $W (scratch), $OUT and the res table
		if [ -f "$B/steps/$s.sh" ]; then
			. "$B/steps/$s.sh"
		else
			echo "unknown step $s" >&2
		fi ;;
	esac
done

echo "=== summary"
for k in "${!res[@]}"; do echo "$k: ${res[$k]}"; done | sort | tee "$OUT/summary.log"
grep -hE '^(--- |ok|FAIL|PASS)' "$OUT"/tests.log "$OUT"/interop.log 2>/dev/null | grep -v '^--- PASS' | tail -n 40
grep -h 'round trips' "$OUT"/leak*.log 2>/dev/null
grep -h 'ERROR SUMMARY' "$OUT"/sanitizer.log 2>/dev/null
! grep -q 'rc=[1-9]' "$OUT/summary.log"
