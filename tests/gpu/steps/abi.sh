# The C ABI / API issue (15) on the GPU: a device opened on a CUDA context and stream
# that the test itself created through the driver API.
#  - abi-go: vkfft.test -test.run TestOpenCUDAContext — OpenCUDAContext(ctx, stream) on a
#    cuCtxCreate'd context and a cuStreamCreate'd stream: work runs on that stream, the
#    results match a naive DFT, Close destroys neither (the test then syncs the stream and
#    makes the context current), the thread's current context is left as it was; with
#    stream 0 the device has its own. Look for "--- PASS: TestOpenCUDAContext" and the
#    "OpenCUDAContext(0x..., 0x...): ... intact after Close" lines.
#  - abi-c: capi/parity (tests/capi/parity.c built for cuda): vkfftgo_device_open_cu on a
#    context and stream made through dlopen'd libcuda, vkfftgo_device_cu_stream is that
#    stream, forward transforms checked, context and stream usable after close, bad
#    arguments; then the kernel cache and plan leases on the GPU. Look for
#    "open_cu: ..." and "parity: all passed".
step abi-go 600 "$B/vkfft.test" -test.count=1 -test.v -test.run 'TestOpenCUDAContext|TestLease|TestKernelCacheControl|TestContextVariants'
if [ -x "$B/capi/parity" ]; then
	VKFFTGO_CACHE_DIR=$W/kc-parity step abi-c 600 "$B/capi/parity"
else
	echo "abi: no capi/parity in the bundle (make gpu-bundle builds it)"
fi
