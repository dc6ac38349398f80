# direct: the spectrometer's direct kernels (FusionDirect: kernels of our own, no VkFFT
# plan; two split kernels beyond 4096 points) against VkFFT's fused atomic path and cuFFT
# in one call, device-resident complex int8, 512 MiB per call, at N = 4096, 2048, 1024,
# 256, 64, 16, 2^16, 2^18 and 2^20; host-fed from pinned memory at 4096; then the spectrometer's
# accuracy tests on CUDA, with -full (2^16 and 2^20 against float64). About 6 minutes.
# What to read:
#   direct-cufft-N.log   cuFFT plain and callbacks: GS/s
#   direct-bench.log     "spectro N B atomic(atomic) ... GS/s" (VkFFT, the reference of
#                        psd-diff) and "spectro N B direct(direct) ... GS/s psd-diff=..."
#   direct-summary.log   the lines above that carry GS/s, side by side
#   direct-host.log      Accumulate from a HostBuffer at 4096 x 65536 against the DMA rate
#   direct-tests.log     TestSpectrometer*, TestDirectShapes on CUDA, against float64
sizes="4096 65536|2048 131072|1024 262144|256 1048576|64 4194304|16 16777216|65536 4096|262144 1024|1048576 256"
if command -v nvcc >/dev/null && [ -f "$B/baselines/psd_cufft.cu" ]; then
	step direct-nvcc 300 nvcc -O3 -arch=sm_90 -rdc=true "$B/baselines/psd_cufft.cu" -o "$W/psd" -lcufft_static -lculibos
	IFS='|' read -ra list <<<"$sizes"
	for s in "${list[@]}"; do
		step "direct-cufft-${s% *}" 60 "$W/psd" $s
	done
else
	echo "direct: no nvcc or no baselines/psd_cufft.cu: no cuFFT baseline"
fi
VKFFTGO_FUSE_BENCH=1 VKFFTGO_FUSE_SIZES=4096x65536,2048x131072,1024x262144,256x1048576,64x4194304,16x16777216,65536x4096,262144x1024,1048576x256 \
	VKFFTGO_FUSE_FUSIONS=atomic,direct VKFFTGO_FUSE_CHUNKS=auto VKFFTGO_FUSE_GROUP=off VKFFTGO_FUSE_HOST=off \
	VKFFTGO_FUSE_CONV=off step direct-bench 300 "$B/vkfft.test" -test.count=1 -test.v -test.run 'TestFuseBench'
grep -h "GS/s" "$OUT"/direct-cufft-*.log "$OUT"/direct-bench.log >"$OUT/direct-summary.log" 2>/dev/null || true
step direct-host 120 "$B/vkfft" spectrometer -n 4096 -batch 65536 -window none -calls 10 -input pinned -fusion direct
step direct-tests 600 "$B/vkfft.test" -test.count=1 -test.v -full -test.run 'TestSpectrometer|TestDirectShapes'
