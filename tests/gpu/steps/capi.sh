# The C API on the GPU (mk/capi-gpu.mk builds $B/capi/): the C consumers of tests/capi
# built for cuda (round trips, threads and bad arguments, handles — the per-call path
# never enters Go, stale and concurrently destroyed handles —, registered host memory),
# then capibench: the per-call cost of the C API against raw VkFFT C on a 1-D 1024
# transform, and registered-memory host round trips against raw pinned ones.
if [ -d "$B/capi" ]; then
	for t in c_consumer threads handles hostreg; do
		step "capi-$t" 600 "$B/capi/$t"
	done
	step capibench 600 "$B/capi/capibench"
else
	echo "capi: no capi/ in the bundle (make gpu-bundle builds it)"
fi
