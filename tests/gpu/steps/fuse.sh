# fuse: the spectrometer against cuFFT (shared/bench/psd_cufft.cu) and the 256³
# R2C convolution against its baselines, in one call; then the fused paths' tests on CUDA
# and the CLI's spectrum. What to read:
#   fuse-cufft-*.log   cuFFT plain and callbacks, GS/s
#   fuse-bench.log     "spectro N B FUSION(asked) chunk=...": GS/s and working set per
#                      path; the (auto) rows are the defaults; "conv ... ratios" lines
#   fuse-tests.log     accuracy of every format and path, convolutions, on CUDA
#   fuse-spectrum.svg  the CLI's integrated spectrum: three tones well above the noise
if command -v nvcc >/dev/null && [ -f "$B/baselines/psd_cufft.cu" ]; then
	step fuse-nvcc 300 nvcc -O3 -arch=sm_90 -rdc=true "$B/baselines/psd_cufft.cu" -o "$W/psd" -lcufft_static -lculibos
	for s in "65536 4096" "1048576 256" "4096 65536"; do
		step "fuse-cufft-${s% *}" 60 "$W/psd" $s
	done
else
	echo "fuse: no nvcc or no baselines/psd_cufft.cu: no cuFFT baseline"
fi
VKFFTGO_FUSE_BENCH=1 VKFFTGO_FUSE_FUSIONS=auto,companion,load,power,atomic VKFFTGO_FUSE_CHUNKS=auto \
	step fuse-bench 600 "$B/vkfft.test" -test.count=1 -test.v -test.run 'TestFuseBench'
step fuse-tests 600 "$B/vkfft.test" -test.count=1 -test.v \
	-test.run 'TestSpectrometer|TestConvolution|TestCorrelate|TestFused|TestStageKernels'
step fuse-cli 120 "$B/vkfft" spectrometer -resident -svg "$OUT/fuse-spectrum.svg"
