# fuse: the spectrometer's group sums against cuFFT in one call (plain and legacy
# callbacks, baselines/psd_cufft.cu; LTO callbacks, baselines/build_psd_lto.sh), on
# N x B = 4096 x 65536, 65536 x 4096, 2^20 x 256 of device-resident complex int8 (512 MiB);
# the 256³ R2C convolution against its baselines; then the fused paths' tests on CUDA and
# the CLI's spectrum. About 5 minutes. What to read:
#   fuse-cufft-N.log     cuFFT plain, legacy callbacks (store, atomic): GS/s
#   fuse-lto.log         cuFFT plain and LTO callbacks (load, power, atomic): GS/s table per size
#   fuse-bench.log       per size: "group N B sweep SUM xK ... GS/s err=E" (every candidate of
#                        the tuning), "group N B default|tuned|off ... GS/s err=E" (nothing
#                        stored, the stored choice, one atomic add per element as before);
#                        err is the PSD's relative L2 error against float64 (goal <= 1e-5);
#                        "spectro N B companion|power ..." the other paths; "conv ... ratios"
#   fuse-summary.log     the lines above that carry GS/s, side by side
#   fuse-tests.log       accuracy of every format, path and group sum, convolutions, on CUDA
#   fuse-spectrum.svg    the CLI's integrated spectrum: three tones well above the noise
sizes="4096 65536|65536 4096|1048576 256"
if command -v nvcc >/dev/null && [ -f "$B/baselines/psd_cufft.cu" ]; then
	step fuse-nvcc 300 nvcc -O3 -arch=sm_90 -rdc=true "$B/baselines/psd_cufft.cu" -o "$W/psd" -lcufft_static -lculibos
	IFS='|' read -ra list <<<"$sizes"
	for s in "${list[@]}"; do
		step "fuse-cufft-${s% *}" 60 "$W/psd" $s
	done
	if [ -f "$B/baselines/build_psd_lto.sh" ]; then
		# the three standard sizes (the same), then a cross-check of nvcc-built callbacks
		cuda_home=${CUDA_HOME:-/usr/local/cuda}
		[ -x "$cuda_home/bin/nvcc" ] || cuda_home=$(dirname "$(dirname "$(command -v nvcc)")")
		CUDA_HOME=$cuda_home BUILD_DIR="$W/psd_lto" step fuse-lto 300 bash "$B/baselines/build_psd_lto.sh" run
	fi
else
	echo "fuse: no nvcc or no baselines/psd_cufft.cu: no cuFFT baseline"
fi
VKFFTGO_FUSE_BENCH=1 VKFFTGO_FUSE_SIZES=4096x65536,65536x4096,1048576x256 VKFFTGO_FUSE_FUSIONS=companion,power \
	VKFFTGO_FUSE_CHUNKS=auto VKFFTGO_FUSE_HOST=off VKFFTGO_TUNE_BUDGET=60s \
	step fuse-bench 600 "$B/vkfft.test" -test.count=1 -test.v -test.run 'TestFuseBench'
grep -h "GS/s" "$OUT"/fuse-cufft-*.log "$OUT"/fuse-lto.log "$OUT"/fuse-bench.log >"$OUT/fuse-summary.log" 2>/dev/null || true
step fuse-tests 600 "$B/vkfft.test" -test.count=1 -test.v \
	-test.run 'TestSpectrometer|TestConvolution|TestCorrelate|TestFused|TestStageKernels'
step fuse-cli 120 "$B/vkfft" spectrometer -resident -svg "$OUT/fuse-spectrum.svg"
