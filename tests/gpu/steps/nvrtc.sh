# Where a cold plan's compile time goes (tests/gpu/nvrtcprobe.c), sourced by run.sh: each
# shape is built once into an empty kernel cache with VKFFTGO_KERNEL_SOURCES set, which
# leaves its kernels' sources and options in a folder; the probe then compiles them with
# the machine's NVRTC alone (CUBIN, PTX only, ptxas -O1) and all at once on threads of one
# process, the CUBINs compared byte for byte; then the shape's longest kernel is compiled
# by six processes at once ("apart" lines: each one's time): threads of one NVRTC that
# take longer than processes wait on each other inside NVRTC. Read the "probe" and
# "apart" lines of nvrtc.log (NVRTC_SHAPES narrows the shapes).
nvrtc_probe() {
	local cu=${CUDA_HOME:-/usr/local/cuda} lib="" libdir v s longest i
	for v in 13 12; do
		[ -z "$lib" ] && [ -e "$cu/lib64/libnvrtc.so.$v" ] && lib=$(readlink -f "$cu/lib64/libnvrtc.so.$v")
	done
	[ -n "${VKFFTGO_NVRTC:-}" ] && lib=$VKFFTGO_NVRTC
	[ -n "$lib" ] || { echo "NVRTC: none in $cu/lib64 (set CUDA_HOME or VKFFTGO_NVRTC)"; return 1; }
	libdir=$(dirname "$lib")
	echo "NVRTC: $lib; $(nproc) CPUs"
	gcc -O2 -o "$W/nvrtcprobe" "$B/src/nvrtcprobe.c" -I"$cu/include" -L"$libdir" -l:"$(basename "$lib")" \
		-Wl,-rpath,"$libdir" -lpthread || return 1
	# NVRTC opens its builtins library by name, from the library path
	export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" CUDA_CACHE_DISABLE=1
	for s in ${NVRTC_SHAPES:-256x256x256 512x512x512 4096x4096 256x256x256@c128}; do
		echo "== $s"
		VKFFTGO_KERNEL_SOURCES="$W/nvrtc-src/$s" VKFFTGO_CACHE_DIR="$W/nvrtc-cache/$s" \
			"$B/vkfft" bench -shapes "$s" -time 50ms -ref-limit 0 -copy-bytes 0 >"$W/nvrtc-bench.log" 2>&1 ||
			{ tail -n 5 "$W/nvrtc-bench.log"; return 1; }
		"$W/nvrtcprobe" "$W/nvrtc-src/$s"/*.cu || return 1
		longest=$(ls -S "$W/nvrtc-src/$s"/*.cu | head -n 1)
		for i in 1 2 3 4 5 6; do
			"$W/nvrtcprobe" "$longest" | grep -o 'alone .*' | sed "s/^/apart: process $i compiled the longest kernel, /" &
		done
		wait
	done
}
step nvrtc 600 bash -c "$(declare -f nvrtc_probe); B='$B' W='$W' nvrtc_probe"
