# Where a cold plan's compile time goes (tests/gpu/nvrtcprobe.c), sourced by run.sh: each
# shape is built once into an empty kernel cache with VKFFTGO_KERNEL_SOURCES set, which
# leaves its kernels' sources and options in a folder; the probe then compiles them with
# the machine's NVRTC alone (CUBIN, PTX only, ptxas -O1, fast-compile options), all at
# once on threads of one process (again under each allocator of the bundle's alloc/ and
# under glibc malloc keeping its memory), in warm child processes and in children forked
# from a warm NVRTC, the CUBINs compared byte for byte; then every kernel in a program of
# its own, all at once ("apart-each"), and the longest kernel by six programs at once
# ("apart"): threads of one NVRTC that take longer than processes wait on each other
# inside NVRTC. Read the "probe", "apart-each" and "apart" lines of nvrtc.log
# (NVRTC_SHAPES narrows the shapes).
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
		-Wl,-rpath,"$libdir" -lpthread -ldl || return 1
	# NVRTC opens its builtins library by name, from the library path
	export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" CUDA_CACHE_DISABLE=1
	for s in ${NVRTC_SHAPES:-256x256x256 512x512x512 4096x4096 256x256x256@c128}; do
		echo "== $s"
		VKFFTGO_KERNEL_SOURCES="$W/nvrtc-src/$s" VKFFTGO_CACHE_DIR="$W/nvrtc-cache/$s" \
			"$B/vkfft" bench -shapes "$s" -time 50ms -ref-limit 0 -copy-bytes 0 >"$W/nvrtc-bench.log" 2>&1 ||
			{ tail -n 5 "$W/nvrtc-bench.log"; return 1; }
		NVRTCPROBE_CUDA=1 "$W/nvrtcprobe" "$W/nvrtc-src/$s"/*.cu || return 1
		# threads of one NVRTC under other allocators (the bundle's alloc/, when carried)
		for a in "$B"/alloc/*.so*; do
			[ -e "$a" ] || continue
			LD_PRELOAD=$a NVRTCPROBE_AT_ONCE_ONLY=1 "$W/nvrtcprobe" "$W/nvrtc-src/$s"/*.cu |
				grep 'at once' | sed "s|^probe|probe under ${a##*/}:|"
		done
		GLIBC_TUNABLES=glibc.malloc.mmap_threshold=268435456:glibc.malloc.trim_threshold=1073741824:glibc.malloc.top_pad=268435456 \
			NVRTCPROBE_AT_ONCE_ONLY=1 "$W/nvrtcprobe" "$W/nvrtc-src/$s"/*.cu |
			grep 'at once' | sed "s|^probe|probe, glibc malloc keeping its memory:|"
		# every kernel in a process of its own, all at once: a cold plan without NVRTC's waits
		i=0
		for k in "$W/nvrtc-src/$s"/*.cu; do
			i=$((i + 1))
			NVRTCPROBE_AT_ONCE_ONLY=1 "$W/nvrtcprobe" "$k" | grep -E 'alone|first' | tr '\n' ' ' |
				sed "s/^/apart-each: process $i, /; s/$/\n/" &
		done
		wait
		longest=$(ls -S "$W/nvrtc-src/$s"/*.cu | head -n 1)
		for i in 1 2 3 4 5 6; do
			"$W/nvrtcprobe" "$longest" | grep -o 'alone .*' | sed "s/^/apart: process $i compiled the longest kernel, /" &
		done
		wait
	done
}
step nvrtc 600 bash -c "$(declare -f nvrtc_probe); B='$B' W='$W' nvrtc_probe"
