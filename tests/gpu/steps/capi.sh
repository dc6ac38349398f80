# The C API on the GPU (mk/capi-gpu.mk builds $B/capi/):
#  - capi-syntax: its C files against this machine's CUDA headers (CUDA 13 on the H200);
#  - capi-c_consumer, -threads, -handles, -hostreg, -fork, -c2r, -fuse, -oop: the C
#    consumers of tests/capi built for cuda (round trips; threads and bad arguments;
#    handles: the per-call path never enters Go, stale and concurrently destroyed handles;
#    registered host memory; fork without exec: VKFFTGO_ERROR_FORKED at once in the child,
#    which exits through CUDA's exit handlers; c2r inverses; convolutions and the
#    spectrometer; true out-of-place transforms on CUdeviceptrs and buffers);
#  - capibench: the per-call cost of the C API against raw VkFFT C on a 1-D 1024 transform
#    (goal: +0.5 us at most), of the synchronize calls and of the convolutions' and
#    spectrometer's per-call functions, and registered-memory host round trips against raw
#    pinned ones (goal: 1.05x at most), as Markdown tables.
if [ -d "$B/capi" ]; then
	inc=${CUDA_HOME:-/usr/local/cuda}/include
	mkdir -p "$W/capi-vk" && tar -xzf "$B/src/vkfft-headers.tgz" -C "$W/capi-vk"
	flags="-fsyntax-only -DVKFFT_BACKEND=1 -DVKFFTGO_BACKEND=1 -DVKFFTGO_BUILDING_LIBRARY -I$inc -I. -I$B/src -I$W/capi-vk"
	step capi-syntax 120 bash -c "cd $B/capi/src && grep -m1 'define CUDA_VERSION' $inc/cuda.h &&
		for f in handles.c core.c hotpath.c hotpath_async.c hotpath_fuse.c backend_cuda.c lasterror.c threadstate.c exports_gen.c; do
			gcc $flags -Wall -Wextra -Werror \$f && echo \"\$f: ok\" || exit 1; done &&
		gcc $flags -w capibench.c && echo 'capibench.c: ok'"
	for t in c_consumer threads handles hostreg fork c2r fuse full; do
		step "capi-$t" 600 "$B/capi/$t"
	done
	# true out-of-place transforms on the C per-call path (no copy on OpenCL is counted;
	# here: out of place equals in place, kernels built once, then no Go, no device allocation)
	step capi-oop 600 env VKFFTGO_CACHE_DIR="$W/capi-oop-kc" "$B/capi/oop"
	step capibench 600 "$B/capi/capibench"
else
	echo "capi: no capi/ in the bundle (make gpu-bundle builds it)"
fi
